// Package races finds data races in a finished execution: two accesses to
// one weft variable, at least one a write and at least one not atomic,
// that no synchronisation of the program orders (Go's memory model,
// https://go.dev/ref/mem).
//
// # Usage
//
//	var d races.Detector
//	if r, ok := d.Find(tr); ok {
//		end = r.End(tr) // a trace.DataRace failure naming both accesses
//	}
//
// A Detector keeps its memory from one execution to the next.
//
// # Happens-before
//
// Find walks the events in order with a vector clock per thread (the
// classic construction of Lamport 1978 and of FastTrack, Flanagan and
// Freund 2009). An event is a new epoch of its thread; it is ordered after
// what its thread did before, and after what it synchronises with, as
// package trace's synchronisation table says (trace.SyncOf: the addresses
// each operation releases to and acquires from, and the finer orders of
// variables and channels, which the detector keeps in their place):
//
//   - a thread's first event, after the step whose local code started it
//     (w.Go); a Join, after every event of the joined thread;
//   - Mutex: Lock (and a TryLock that took it) after every earlier Unlock;
//     RWMutex: Lock after every earlier Unlock and RUnlock, RLock after
//     every earlier Unlock; Cond: Relock after the Signals and Broadcasts
//     before it and, as a Lock, after the Unlocks of its mutex (Wait
//     unlocks it);
//   - channels: the k-th receive of a buffered channel after the k-th
//     send, the (k+C)-th send after the k-th receive (C the capacity), a
//     receive that found the channel closed after the close; a rendezvous
//     on an unbuffered channel orders both threads after both of their
//     pasts; a select acts as the case it took;
//   - WaitGroup: Wait after every earlier Add and Done; Once: every Do
//     after the end of the function Do ran; semaphores: P after every
//     earlier V; a monitor's operations after every earlier one;
//   - atomic accesses: an atomic read after the atomic write it read (a
//     read of a plain write synchronises with nothing). Adds whose result
//     is unused (Int.AddOnly) commute, and the strategies explore one
//     order of them; so that what is ordered does not depend on that
//     order, an AddOnly reads from none of them and a later atomic read
//     is ordered after every AddOnly since the last other write.
//
// Joining every earlier release (a WaitGroup's Adds, a semaphore's Vs)
// may order more than Go's memory model promises, never less: a race
// can be missed there, none is reported that is not one.
//
// # Accesses
//
// A Var's Load and Store are plain accesses, as Go's reads and writes of
// a variable; Swap, CompareAndSwap, every operation of an Int and every
// operation of a variable marked atomic (Var.SetAtomic, and the
// variables behind weft's sync/atomic) are atomic. Load and a failed
// CompareAndSwap read; the others write. Two atomic accesses never race.
// For each variable and thread the detector keeps the latest access of
// each of the four sorts (plain or atomic, read or write): if an older
// one is unordered with a new access, so is the latest, which is enough
// to find that there is a race and to name one pair. The reads of an
// await (w.Await, w.Yield) are not checked.
package races
