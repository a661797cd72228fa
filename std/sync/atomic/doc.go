// Package atomic is weft's stand-in for the standard library's package
// sync/atomic, with the same API. weft test rewrites the imports of
// "sync/atomic" in the packages under test to this package, so that every
// atomic load, store, add, swap and compare-and-swap is a step weft
// schedules, and the strategies see which accesses conflict.
//
// Inside a weft execution each word accessed atomically is modelled by a
// weft.Int (weft.Var for pointers and Value), found by the word's address in
// a table the execution starts empty. The value lives in the word itself,
// as with the standard library: weft's copy is kept equal to it (on its
// first atomic access in an execution, a word that is not zero gives
// weft's copy its initial value, weft.Value.SetInitial, no step), so plain
// reads of the word, and code outside executions, see what the atomics
// did. Outside an execution every function is the standard library's.
//
// A busy-wait loop whose condition only loads atomic words (for
// !ready.Load() { runtime.Gosched() }, or with an empty body) is one
// await: weft test rewrites its condition to std/rt's Spin.
//
// An add whose result the program discards (a statement x.Add(1) or
// atomic.AddInt64(&n, 1)) is rewritten by weft test to AddOnly (a method
// and functions this package adds to sync/atomic's API): a weft.Int's
// AddOnly, which commutes with the other AddOnlys of the word, so that n
// goroutines that each count once take one trace, not n!.
//
// The And and Or functions are compare-and-swap loops inside an execution:
// a load and a compare-and-swap, again while another thread changed the
// word between them.
package atomic
