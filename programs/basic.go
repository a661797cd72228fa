// This file implements the small programs with exact counts: xy,
// dporproblem, pairs and fib, whose interleavings and traces are known exactly.

package programs

import (
	"fmt"

	"github.com/weft-go/weft"
)

func init() {
	register(&Program{
		Name:   "xy",
		Doc:    "two threads write x and y in opposite orders: 6 interleavings, 3 traces",
		Source: "the CS294-32 DPOR slides, slide 15",
		Body:   xy,
	})
	register(&Program{
		Name:   "dporproblem",
		Doc:    "T1 writes x twice, T2 writes y then x: 6 interleavings, 3 traces",
		Source: "the CS294-32 DPOR slides, slide 36",
		Body:   dporProblem,
	})
	register(&Program{
		Name:   "pairs",
		Doc:    "n independent pairs of threads, one reads x_i and one writes it: (2n)! interleavings, 2^n traces",
		Source: "Kähkönen et al. 2014, Fig. 3 and Table 2 (Pairs)",
		Params: []Param{{Name: "n", Default: 3, Min: 1, Max: 64, Doc: "pairs of threads"}},
		Body:   pairs,
	})
	register(&Program{
		Name:   "fib",
		Doc:    "two threads add i and j into each other n times; main asserts both stay at most fib(2+2n) (never fails)",
		Source: "SV-COMP fib_bench; Kähkönen et al. 2014, Table 2 (Fib)",
		Params: []Param{{Name: "n", Default: 2, Min: 1, Max: 40, Doc: "additions per thread"}},
		Body:   fibBench,
	})
}

// xy: T1 does x=1; y=2 and T2 does y=3; x=4. The body does not join them.
func xy(Params) func(w *weft.T) {
	return func(w *weft.T) {
		x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
		w.Go(func() { x.Store(1); y.Store(2) })
		w.Go(func() { y.Store(3); x.Store(4) })
	}
}

// dporProblem: T1 does x=1; x=2 and T2 does y=1; x=3. The body does not join
// them.
func dporProblem(Params) func(w *weft.T) {
	return func(w *weft.T) {
		x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
		w.Go(func() { x.Store(1); x.Store(2) })
		w.Go(func() { y.Store(1); x.Store(3) })
	}
}

// pairs starts, for each of n variables x_i, a thread that reads x_i and a
// thread that writes 1 to it, in the order reader_1, writer_1, reader_2, ...
// The body does not join them.
func pairs(p Params) func(w *weft.T) {
	n := p["n"]
	return func(w *weft.T) {
		xs := make([]*weft.Var[int], n)
		for i := range xs {
			xs[i] = weft.NewVar[int](fmt.Sprintf("x%d", i+1))
		}
		for _, x := range xs {
			w.Go(func() { _ = x.Load() })
			w.Go(func() { x.Store(1) })
		}
	}
}

// fib returns the Fibonacci number fib(k), with fib(0)=0, fib(1)=1.
func fib(k int) int {
	a, b := 0, 1
	for range k {
		a, b = b, a+b
	}
	return a
}

// fibBench: i = j = 1; T1 repeats n times i = i + j (load i, load j, store
// i), T2 repeats n times j = j + i (load j, load i, store j); the body, without
// joining them, loads i then j and asserts both are at most fib(2+2n).
func fibBench(p Params) func(w *weft.T) {
	n := p["n"]
	bound := fib(2 + 2*n)
	return func(w *weft.T) {
		i, j := weft.NewVar[int]("i"), weft.NewVar[int]("j")
		i.Store(1)
		j.Store(1)
		w.Go(func() {
			for range n {
				a := i.Load()
				b := j.Load()
				i.Store(a + b)
			}
		})
		w.Go(func() {
			for range n {
				b := j.Load()
				a := i.Load()
				j.Store(b + a)
			}
		})
		a := i.Load()
		b := j.Load()
		w.Assert(a <= bound && b <= bound, "i = %d, j = %d: more than fib(%d) = %d", a, b, 2+2*n, bound)
	}
}
