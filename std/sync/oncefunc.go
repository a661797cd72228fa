// This file implements OnceFunc, OnceValue and OnceValues on the stand-in
// Once, so that their first call is a step weft schedules.

package sync

// OnceFunc returns a function that calls f only the first time it is
// called. A panic of f is raised again by every call. Made outside an
// execution and called in several, it calls f once per execution, as the
// Once it holds starts each execution afresh.
func OnceFunc(f func()) func() {
	var (
		once  Once
		valid bool
		p     any
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		f()
		valid = true
	}
	return func() {
		once.Do(g)
		if !valid {
			panic(p)
		}
	}
}

// OnceValue returns a function that calls f only the first time it is
// called and returns f's result every time.
//
//go:norace
func OnceValue[T any](f func() T) func() T {
	var result T
	g := OnceFunc(func() { result = f() })
	return func() T {
		g()
		return result
	}
}

// OnceValues returns a function that calls f only the first time it is
// called and returns f's results every time.
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) {
	var (
		r1 T1
		r2 T2
	)
	g := OnceFunc(func() { r1, r2 = f() })
	return func() (T1, T2) {
		g()
		return r1, r2
	}
}
