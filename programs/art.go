// This file implements art, Farzan et al. 2013's scalability benchmark (§8, Table 1:
// art2..art5), reconstructed from its description.

package programs

import "github.com/weft-go/weft"

func init() {
	register(&Program{
		Name: "art",
		Doc: "n threads pass a flag down a chain of variables: thread i sets x_i when it reads x_(i-1) set and its input a_i > 0; " +
			"the last asserts it never reads the flag: 4n branch sides, 3n+1 coverable alone, one more at each k up to the bug at k = n-1",
		Source: "Farzan et al. 2013, §8 and Table 1 (art2-art5: the paper describes art, it does not print it; this is our reconstruction)",
		Params: []Param{{Name: "n", Default: 2, Min: 2, Max: 5, Doc: "threads besides the body (the paper's artN has N+1 threads)"}},
		Body:   art,
	})
}

// art: the body stores 0 in x_1..x_n, reads the inputs a_1..a_n (in [0,
// 3]) and starts T1..Tn. T1 sets x_1 when a_1 > 1 (under a_1 > 0); Ti
// (i > 1) reads x_(i-1) and, when a_i > 0, sets x_i if it read 1; Tn
// asserts instead that it did not. Farzan et al. 2013 says art has n+1 threads and n
// inputs, "a new assertion every time the number of threads grows by one",
// and gives its branch counts (4n in all, 3n+1 at k = 0, one more at each
// k = 1..n-1) and the bug at k = n-1 (Table 1; the notes derive the
// pattern): this program has exactly those, counting a branch side per
// thread, so each thread's code is its own function (static branches are
// call sites).
func art(p Params) func(w *weft.T) {
	n := p["n"]
	return func(w *weft.T) {
		xs := make([]*weft.Var[weft.SInt], n)
		for i := range xs {
			xs[i] = weft.NewVar[weft.SInt]("x" + string(rune('1'+i)))
		}
		as := make([]weft.SInt, n)
		for i := range as {
			xs[i].Store(weft.Const[int64](0))
		}
		for i := range as {
			as[i] = w.InputRange("a"+string(rune('1'+i)), 0, 3)
		}
		var ts []*weft.Thread
		for i := range n {
			a, last := as[i], i == n-1
			switch i {
			case 0:
				ts = append(ts, w.Go(func() { art1(w, a, xs[0]) }))
			case 1:
				ts = append(ts, w.Go(func() { art2(w, a, xs[0], xs[1], last) }))
			case 2:
				ts = append(ts, w.Go(func() { art3(w, a, xs[1], xs[2], last) }))
			case 3:
				ts = append(ts, w.Go(func() { art4(w, a, xs[2], xs[3], last) }))
			case 4:
				ts = append(ts, w.Go(func() { art5(w, a, xs[3]) }))
			}
		}
		for _, t := range ts {
			t.Join()
		}
	}
}

var (
	artZero = weft.Const[int64](0)
	artOne  = weft.Const[int64](1)
)

// art1 is T1: it sets x1 when a > 1.
func art1(w *weft.T, a weft.SInt, x *weft.Var[weft.SInt]) {
	if w.If(a.Gt(artZero)) {
		if w.If(a.Gt(artOne)) {
			x.Store(artOne)
		}
	}
}

// art2..art4 are T2..T4, one function each so that each thread's
// branches are branches of their own: Ti reads in, and when a > 0 sets out
// if it read 1, or, the last thread, asserts it did not.
func art2(w *weft.T, a weft.SInt, in, out *weft.Var[weft.SInt], last bool) {
	r := in.Load()
	if w.If(a.Gt(artZero)) {
		if last {
			w.AssertSym(r.Ne(artOne), "T2 read the flag")
		} else if w.If(r.Eq(artOne)) {
			out.Store(artOne)
		}
	}
}

func art3(w *weft.T, a weft.SInt, in, out *weft.Var[weft.SInt], last bool) {
	r := in.Load()
	if w.If(a.Gt(artZero)) {
		if last {
			w.AssertSym(r.Ne(artOne), "T3 read the flag")
		} else if w.If(r.Eq(artOne)) {
			out.Store(artOne)
		}
	}
}

func art4(w *weft.T, a weft.SInt, in, out *weft.Var[weft.SInt], last bool) {
	r := in.Load()
	if w.If(a.Gt(artZero)) {
		if last {
			w.AssertSym(r.Ne(artOne), "T4 read the flag")
		} else if w.If(r.Eq(artOne)) {
			out.Store(artOne)
		}
	}
}

// art5 is T5, always the last thread.
func art5(w *weft.T, a weft.SInt, in *weft.Var[weft.SInt]) {
	r := in.Load()
	if w.If(a.Gt(artZero)) {
		w.AssertSym(r.Ne(artOne), "T5 read the flag")
	}
}
