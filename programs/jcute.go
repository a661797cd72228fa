// This file implements jcute, the example of jCUTE's combination of
// concolic testing and race detection (the CS294-32 DPOR slides, slides 54-74).

package programs

import "github.com/weft-go/weft"

func init() {
	register(&Program{
		Name:   "jcute",
		Doc:    "input z; T1: x=3; T2: x=2, then fails if 2*z+1 == x: needs z=1 and T1's write between T2's write and read",
		Source: "the CS294-32 DPOR slides, slides 54-74 (jCUTE)",
		Body:   jcute,
	})
}

// jcute: the body reads the input z (in [-1000, 1000], so that the only
// solution of 2*z+1 == 3 is z = 1, not also z = 1+2^63 by wrap-around),
// then starts T1 (x = 3) and T2 (x = 2; if 2*z+1 == x { fail }).
func jcute(Params) func(w *weft.T) {
	one, two := weft.Const[int64](1), weft.Const[int64](2)
	return func(w *weft.T) {
		x := weft.NewVar[weft.SInt]("x")
		z := w.InputRange("z", -1000, 1000)
		w.Go(func() { x.Store(weft.Const[int64](3)) })
		w.Go(func() {
			x.Store(two)
			if w.If(z.Mul(two).Add(one).Eq(x.Load())) {
				w.Fail("2*z+1 == x with z = %d", z.Value())
			}
		})
	}
}
