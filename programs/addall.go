// This file implements addall, the running example of the con2colic paper
// (Farzan et al. 2013, Fig. 2 and §2).

package programs

import "github.com/weft-go/weft"

func init() {
	register(&Program{
		Name:   "addall",
		Doc:    "two threads append input vector u to shared vector v (cnt 10, size 20), reading v.cnt outside the lock: the size assertion fails only with u.cnt >= 6 and the other thread's append in between",
		Source: "Farzan et al. 2013, Fig. 2 (addAll)",
		Body:   addAll,
	})
}

// addAll: the body reads u.cnt (in [0, 100]) and starts two threads that
// each run Fig. 2's addAll(v, u). v's fields are shared variables
// (cnt = 10, size = 20), u's is the input.
func addAll(Params) func(w *weft.T) {
	two := weft.Const[int64](2)
	return func(w *weft.T) {
		cnt, size := weft.NewVar[weft.SInt]("v.cnt"), weft.NewVar[weft.SInt]("v.size")
		lk := weft.NewMutex("lk")
		cnt.Store(weft.Const[int64](10))
		size.Store(weft.Const[int64](20))
		u := w.InputRange("u.cnt", 0, 100)
		add := func() {
			numElem := cnt.Load().Add(u) // line 2: outside the lock
			lk.Lock()
			if w.If(numElem.Gt(size.Load())) { // line 4
				size.Store(numElem.Mul(two)) // lines 5-6
			}
			w.AssertSym(size.Load().Ge(u.Add(cnt.Load())), "v.size >= u.cnt + v.cnt (line 8)")
			cnt.Store(cnt.Load().Add(u)) // line 10
			lk.Unlock()
		}
		t1, t2 := w.Go(add), w.Go(add)
		t1.Join()
		t2.Join()
	}
}
