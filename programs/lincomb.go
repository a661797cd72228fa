// This file implements lincomb, a failure that needs four inputs whose
// linear combination equals a constant: out of reach of random inputs.

package programs

import "github.com/weft-go/weft"

func init() {
	register(&Program{
		Name:   "lincomb",
		Doc:    "T1 adds 3a+5b, T2 adds 7c-11d into a shared sum; fails if the sum is 1234567 (random 64-bit inputs do not find it)",
		Source: "weft (concolic testing: a sum that random inputs do not hit)",
		Body:   linComb,
	})
}

// LinCombTarget is the value of 3a+5b+7c-11d that makes lincomb fail.
const LinCombTarget = 1234567

// linComb: the body reads a, b, c, d; T1 and T2 each add their part into
// sum (load, add, store, under a mutex); the body joins them and branches
// on sum == LinCombTarget.
func linComb(Params) func(w *weft.T) {
	k := func(v int64) weft.SInt { return weft.Const(v) }
	return func(w *weft.T) {
		sum := weft.NewVar[weft.SInt]("sum")
		mu := weft.NewMutex("mu")
		a, b, c, d := w.Input("a"), w.Input("b"), w.Input("c"), w.Input("d")
		sum.Store(k(0))
		addIn := func(v weft.SInt) {
			mu.Lock()
			sum.Store(sum.Load().Add(v))
			mu.Unlock()
		}
		t1 := w.Go(func() { addIn(k(3).Mul(a).Add(k(5).Mul(b))) })
		t2 := w.Go(func() { addIn(k(7).Mul(c).Sub(k(11).Mul(d))) })
		t1.Join()
		t2.Join()
		if w.If(sum.Load().Eq(k(LinCombTarget))) {
			w.Fail("3a+5b+7c-11d == %d", LinCombTarget)
		}
	}
}
