// Package trace is weft's trace model: the plain data that describes one
// execution of a concurrent test, shared by the runtime that records it and the
// strategies that read it.
//
// An execution is a sequence of steps. Each step is one visible operation of one
// thread (Saarikivi et al. 2012, §II-A): a load or store of a
// shared variable, a mutex operation, a channel operation, and so on. The code a
// thread runs between two visible operations is local and runs without
// interruption; it belongs to the step before it. Starting a thread is recorded
// in the step that started it (Event.Spawned) and is not a scheduling point: a
// spawn commutes with every operation except the new thread's own, so making it a
// point of choice would only multiply interleavings that are equivalent.
//
// Identities are dense small integers, stable across executions that share a
// prefix: threads are numbered in the order they are started (the test body is
// thread 0) and objects in the order they are first used. Two executions that
// agree on their first i choices agree on every identity that appears in those
// i steps, which is all that the exploration algorithms need (Saarikivi et al. 2012, Fig. 1
// refers only to threads and objects of pre(E, i)).
//
// For every step the trace keeps, besides the event, which threads were enabled
// in the state before it (Trace.Enabled), and for every thread its pending
// operation at the end (Trace.Final). Together with the events this gives
// next(pre(E,i), p) and enabled(pre(E,i)) for every i and p without re-running:
// the pending operation of p before step i is the operation of p's first event at
// or after i, or p's final pending operation if p takes no further step.
//
// # Dependency and happens-before
//
// Two operations of different threads are dependent when executing them in
// the other order may change the state reached or whether one of them can
// run (Saarikivi et al. 2012, §II-A). Relation.Dependent states it per primitive, in
// dependency.go (opMode and AppendOpAccesses); each operation touches objects
// as a reader, a writer or a shared updater. Two reads commute, two shared
// updates commute, every other pair of accesses to one object conflicts: a
// shared update changes the state in a way other shared updates do not
// observe (a reader entering or leaving an RWMutex, an add to a variable
// whose result the program does not use: AddOnly), but a read does. Under
// Plain (Saarikivi et al. 2012, Figs. 1, 2) every access is a write; the modes under CR
// (Fig. 3, the default) are tabled in package model's doc, with the rest
// of each primitive's semantics (its state, enabledness, alternatives,
// results and synchronisation pairs), against which this relation is
// checked.
//
// A step is an event and the local code after it. When that code reaches a
// send on an unbuffered channel (plain or a select case), the step offers a
// partner to the channel's receivers, which changes what a receive meets and
// whether a select takes its default: Steps counts this announcement as a
// write of the channel (AppendAnnounced), and HB and Foata order steps by it.
//
// Besides conflicts, two events are dependent when they share a thread (a
// rendezvous event belongs to the receiver and to its partner, the sender),
// when one joins a thread the other belongs to, and (DependentIn, HB, Foata)
// when one started, in its local code, the thread of the other. An acquire
// and a successful release of one lock are never enabled together
// (MayBeCoEnabled). Virtual time that moves only when every thread is
// blocked is approximated: a Sleep's enabledness depends on every thread
// being blocked, which no pairwise relation states; Sleeps are ordered
// among themselves only. Time that moves at any step is exact: its moves
// are events of the clock's thread, which write TimeObject, and every
// other operation on time (ClassClock) reads it (see TimeObject).
//
// HB computes vector clocks (VC) for a trace, event by event, from program
// order, spawns, joins and per-object write and access clocks (Saarikivi et al. 2012
// Fig. 3); Foata gives the canonical form of a trace, to count Mazurkiewicz
// traces.
//
// Walkthrough: a strategy receives a State at each scheduling point and returns
// a Choice; at the end of the execution it receives the Trace:
//
//	for i, ev := range tr.Events {
//		fmt.Println(i, ev.Thread, ev.Op.Kind, ev.Op.Obj)
//		if tr.EnabledAt(i, 2) { ... }
//	}
package trace
