// Package p calls weft's printf-like methods with bad arguments: go vet's
// printf check reports them, as it does t.Errorf's.
package p

import "github.com/weft-go/weft"

func body(w *weft.T) {
	x := weft.NewVar[int]("x")
	w.Assert(x.Load() == 0, "x is %d")           // want `Assert format %d reads arg #1, but call has 0 args`
	w.Assert(x.Load() == 0, "x is %d", "one")    // want `Assert format %d has arg "one" of wrong type string`
	w.Assert(x.Load() == 0, "x is %d", x.Load()) // a good call
	w.Fail("x is %s", x.Load())                  // want `Fail format %s has arg x.Load\(\) of wrong type int`
	w.AssertSym(weft.SBool{}, "%v %v", 1)        // want `AssertSym format %v reads arg #2, but call has 1 arg`
	w.Fail("no verbs")                           // a good call
}
