// This file implements unfold-fig9, Example 2 of the unfolding paper
// (Kähkönen et al. 2014, Fig. 9).

package programs

import "github.com/weft-go/weft"

func init() {
	register(&Program{
		Name:   "unfold-fig9",
		Doc:    "x = 0; T1: a = x, fails if a > 0; T2: b = x; x = input(): needs T2's write before T1's read and a positive input",
		Source: "Kähkönen et al. 2014, Fig. 9 (Example 2)",
		Body:   unfoldFig9,
	})
}

// unfoldFig9: T2 reads its input in its own local code, after reading x.
func unfoldFig9(Params) func(w *weft.T) {
	zero := weft.Const[int64](0)
	return func(w *weft.T) {
		x := weft.NewVar[weft.SInt]("x")
		x.Store(zero)
		w.Go(func() {
			if a := x.Load(); w.If(a.Gt(zero)) {
				w.Fail("T1 read a = %d > 0", a.Value())
			}
		})
		w.Go(func() {
			_ = x.Load()
			x.Store(w.Input("input"))
		})
	}
}
