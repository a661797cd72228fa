// This file implements busy-wait loops as awaits: the condition of a loop
// `for cond { runtime.Gosched() }` (or with an empty body) that only loads
// atomic words, which weft test rewrites to `for weftrt.Spin(func() bool
// { return cond }) { ... }`.

package rt

import (
	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Spin is the condition of a busy-wait loop whose condition cond only
// loads atomic words. Inside an execution the whole loop is one await
// (weft.Await of !cond): the thread is blocked while cond holds, its
// evaluations are no steps, and the evaluation that finds cond false is
// the loop's one event, after which Spin returns false and the loop ends.
// A turn that only read leaves nothing in the trace, so it makes no races
// with the writes the thread waits for, and a loop that would spin for
// ever is a thread blocked for good (a deadlock or a leak), not a livelock
// that runs to the step bound. Outside an execution Spin returns cond().
func Spin(cond func() bool) bool {
	if !shim.Active() {
		return cond()
	}
	weft.Await(func() bool { return !cond() })
	return false
}
