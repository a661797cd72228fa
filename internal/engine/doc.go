// Package engine is weft's runtime: it runs one execution of a test body with
// full control of scheduling.
//
// Every thread of the program is a goroutine, but only one runs at a time. A
// thread runs its local code until its next visible operation, announces that
// operation as pending (Thread.begin) and reaches a scheduling point; there the
// running goroutine itself asks the strategy which enabled thread goes next
// and, if it is another, hands control directly to that thread's goroutine
// (a send on its wake channel) and parks. No scheduler goroutine sits in
// between, so a step without a switch costs a function call, and a switching
// step costs one channel hand-off.
//
// Shared objects carry an Obj header, usable as a zero value: the first use in
// an execution registers it (a dense ObjectID in first-use order) and resets
// its state, so an object declared outside the test body starts every
// execution afresh. The enabledness of each pending operation is computed from
// these headers (enabled.go), in one place per primitive.
//
// A rendezvous on an unbuffered channel is always executed by the receiving
// thread, which picks one of the ready senders as its alternative; the sender
// then runs its local code to its next operation and hands control back. Spawns
// work the same way: the new thread runs to its first operation and returns
// control to its parent, so a spawn is never a scheduling point.
//
// An execution ends when every thread has finished, a thread fails, no thread
// is enabled (deadlock, or a leak if the test body has returned), the step
// bound is hit (possible livelock), or the strategy cuts it. Every goroutine
// still parked is then unwound with a private panic that its deferred calls
// see, so that millions of executions leak nothing. A watchdog reports a
// thread that does not reach its next scheduling point in time, with its
// stack.
package engine
