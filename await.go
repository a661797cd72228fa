// This file implements awaits, busy-wait loops and assumptions: Await,
// Yield and Assume (the package doc, "Awaits and assumptions").

package weft

// Await blocks the calling thread until cond returns true: the loop
// `for !cond() {}`, explored as one event, the evaluation of cond that
// holds. cond may only load weft variables (Var, Int); anything else fails
// the execution with a panic. weft evaluates it silently (its loads are no
// steps) when the thread reaches Await and whenever another thread writes a
// variable the last evaluation loaded; while it is false the thread is
// blocked and leaves no step. If no thread ever makes it true, the
// execution ends as a deadlock (or a leak) that names the thread.
func (w *T) Await(cond func() bool) { Await(cond) }

// Await is w.Await for code without a *T: it blocks the running thread of
// an execution until cond returns true.
func Await(cond func() bool) { cur().Await(cond) }

// Yield ends a turn of a busy-wait loop, as runtime.Gosched does in one:
//
//	for !flag.Load() {
//		w.Yield()
//	}
//
// If the thread loaded variables (or failed a CompareAndSwap, which only
// reads) since its last step of another kind (a store, a lock, ...), its
// previous Yield or the return of its last w.Await, and its next operation
// does one of those again (the loop went round), the loads from that one
// on are a turn that failed, as a false evaluation of w.Await's
// condition: the thread stays blocked there, and no complete execution
// holds the failed turn. An execution that ends with the thread still
// there, no thread able to move, is assumed away if another thread wrote
// one of those variables after the turn read it (the next turn is
// explored in other executions, where the turn's loads come after that
// write), and is a deadlock or a leak otherwise. If the thread made no
// step at all since its previous Yield, the Yield continues that one's
// pause (a back-off that yields several times in a row) and does nothing,
// unless the loop does nothing but yield (thousands of Yields in a row):
// then the thread blocks for good. Otherwise (the turn ended with a step
// that is not a load, or the next operation repeats none of the loads)
// Yield only yields. A loop whose turn writes first and loads after
// (x.Store(1); if y.Load() == 1 {break}; w.Yield()) yields and goes on:
// its turns are all steps (w.Await, whose condition weft evaluates itself,
// explores fewer where it fits).
func (w *T) Yield() { Yield() }

// Yield is w.Yield for code without a *T.
func Yield() { cur().Yield() }

// Assume ends the execution, as assumed away, unless cond is true: the
// program declares the executions where it is false out of scope. An
// assumed-away execution is no failure; Result.Assumed counts them. It
// does not return if cond is false.
func (w *T) Assume(cond bool) { Assume(cond) }

// Assume is w.Assume for code without a *T.
func Assume(cond bool) { cur().Assume(cond) }
