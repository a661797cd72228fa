// This file describes the threads a deadlock or a leak leaves blocked, for
// reports: where each waits, for what, the thread that holds the lock it
// wants, and the cycle of waits.

package explore

import (
	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/trace"
)

// describeBlocked describes the threads of tr that did not finish, but
// weft's own, with the call sites e captured.
func describeBlocked(e *engine.Exec, tr *trace.Trace, label func(trace.ThreadID) string) []Blocked {
	var out []Blocked
	for i, op := range tr.Final {
		p := trace.ThreadID(i)
		pc, ok := e.PendingSite(p)
		if !ok || op.Kind == trace.KindNone {
			continue
		}
		b := Blocked{Thread: p, Op: describeOp(tr, trace.Event{Op: op, Case: -1, Partner: trace.NoThread}, label), Holder: trace.NoThread}
		if op.Kind == trace.KindSelect {
			b.Op = "select"
		}
		if call := e.PendingCall(i); call != "" {
			b.Op = call // blocked inside a stand-in's call
		}
		f := engine.UserFrame(pc)
		b.File, b.Line = f.File, f.Line
		switch {
		case op.Kind == trace.KindLock && op.Class == trace.ClassMutex:
			b.Holder = mutexHolder(tr, op.Obj)
		case (op.Kind == trace.KindLock || op.Kind == trace.KindRLock) && op.Class == trace.ClassRWMutex:
			b.Holder, b.HolderWaits = rwHolder(tr, op.Obj, p, op.Kind == trace.KindRLock)
		}
		out = append(out, b)
	}
	return out
}

// mutexHolder returns the thread that holds mutex o at the end of tr, or
// trace.NoThread.
func mutexHolder(tr *trace.Trace, o trace.ObjectID) trace.ThreadID {
	holder := trace.NoThread
	for i := range tr.Events {
		ev := &tr.Events[i]
		if ev.Op.Obj != o || ev.Op.Class != trace.ClassMutex {
			continue
		}
		switch ev.Op.Kind {
		case trace.KindLock:
			holder = ev.Thread
		case trace.KindTryLock:
			if ev.OK {
				holder = ev.Thread
			}
		case trace.KindUnlock:
			holder = trace.NoThread
		}
	}
	return holder
}

// rwHolder returns a thread that keeps thread p from taking RWMutex o at the
// end of tr, or trace.NoThread: for a read lock, the writer that holds it
// or announced itself (a waiting writer blocks new readers: waits is set);
// for a write lock, the writer that holds it, or else the lowest reader
// other than p that holds a read lock.
func rwHolder(tr *trace.Trace, o trace.ObjectID, p trace.ThreadID, read bool) (holder trace.ThreadID, waits bool) {
	writer, announced := trace.NoThread, trace.NoThread
	readers := map[trace.ThreadID]int{}
	for i := range tr.Events {
		ev := &tr.Events[i]
		if ev.Op.Obj != o || ev.Op.Class != trace.ClassRWMutex {
			continue
		}
		switch ev.Op.Kind {
		case trace.KindLock:
			if ev.OK {
				writer, announced = ev.Thread, trace.NoThread
			} else {
				announced = ev.Thread
			}
		case trace.KindTryLock:
			switch {
			case !ev.OK:
			case ev.Op.Arg == trace.TryRLockArg:
				readers[ev.Thread]++
			default:
				writer = ev.Thread
			}
		case trace.KindUnlock:
			writer = trace.NoThread
		case trace.KindRLock:
			readers[ev.Thread]++
		case trace.KindRUnlock:
			// Go lets one thread RUnlock another's read lock: take the
			// thread's own if it holds one.
			q := ev.Thread
			if readers[q] == 0 {
				q = lowestReader(readers, trace.NoThread)
			}
			if q != trace.NoThread {
				readers[q]--
			}
		}
	}
	if writer != trace.NoThread {
		return writer, false
	}
	if read {
		return announced, announced != trace.NoThread
	}
	return lowestReader(readers, p), false
}

// lowestReader returns the lowest thread but except that holds a read lock
// by readers' count, or trace.NoThread.
func lowestReader(readers map[trace.ThreadID]int, except trace.ThreadID) trace.ThreadID {
	low := trace.NoThread
	for r, n := range readers {
		if n > 0 && r != except && (low == trace.NoThread || r < low) {
			low = r
		}
	}
	return low
}

// waitCycle returns a cycle of threads each waiting for a mutex the next
// holds, starting at its lowest thread, or nil.
func waitCycle(blocked []Blocked) []trace.ThreadID {
	next := map[trace.ThreadID]trace.ThreadID{}
	for _, b := range blocked {
		if b.Holder != trace.NoThread {
			next[b.Thread] = b.Holder
		}
	}
	for _, b := range blocked {
		// Follow the waits from b; a cycle is found when a thread
		// repeats.
		seen := map[trace.ThreadID]int{}
		var path []trace.ThreadID
		for p, ok := b.Thread, true; ok; p, ok = next[p] {
			if at, dup := seen[p]; dup {
				cycle := path[at:]
				low := 0
				for i, q := range cycle {
					if q < cycle[low] {
						low = i
					}
				}
				return append(append([]trace.ThreadID(nil), cycle[low:]...), cycle[:low]...)
			}
			seen[p] = len(path)
			path = append(path, p)
		}
	}
	return nil
}
