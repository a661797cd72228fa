// This file implements Once, with sync.Once's semantics.
//
// The model. A Once's Obj holds whether its function is running (locked,
// owner) and whether it is done. Do is a KindOnceDo step, enabled iff the
// function is not running (Go's Do blocks on the Once's mutex meanwhile): the
// first one runs the function (Event.OK true), later ones return at once (OK
// false). The end of the function is a KindOnceDone step, which the API runs
// in a deferred call, so that a function that panics still counts as done, as
// in Go. A Do inside the function of the same Once deadlocks, as in Go.
//
// Dependence: every pair of operations on one Once is dependent, except two
// Do steps after it is done (they only read).

package engine

import "github.com/weft-go/weft/trace"

func init() {
	// Do waits while another thread runs the function.
	enabledWhen(trace.ClassOnce, trace.KindOnceDo, func(_ *Exec, t *Thread) int32 { return b2i(!t.obj.onceRunning()) })
}

// onceRunning reports whether a thread runs Once o's function (o.owner);
// onceDone, whether it has run.
func (o *Obj) onceRunning() bool { return o.locked }
func (o *Obj) onceDone() bool    { return o.done }

// OnceDo is the step of Once o's Do; it reports whether the caller must run
// the function, and then call OnceDone.
func (t *Thread) OnceDo(o *Obj) (run bool) {
	t.e.touch(o, trace.ClassOnce)
	t.begin(trace.Op{Kind: trace.KindOnceDo, Class: trace.ClassOnce, Obj: o.id}, o)
	if o.onceDone() {
		t.end(0, false).Src = o.rel
		return false
	}
	o.locked, o.owner = true, t.id
	t.end(0, true)
	return true
}

// OnceDone ends the run of Once o's function.
func (t *Thread) OnceDone(o *Obj) {
	t.e.touch(o, trace.ClassOnce)
	t.begin(trace.Op{Kind: trace.KindOnceDone, Class: trace.ClassOnce, Obj: o.id}, o)
	o.locked, o.owner, o.done = false, trace.NoThread, true
	t.end(0, true)
	o.rel = int32(len(t.e.tr.Events))
}
