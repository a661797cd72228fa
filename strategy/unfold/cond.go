// This file models a Cond in the net: its operations' keys (their thread
// and the mutex a Wait releases and a Relock takes again), the queue of
// waiters (sync.go's qstate) after each operation, and the mutex's place,
// which a Wait and a Relock take besides the Cond's.

package unfold

import "github.com/weft-go/weft/trace"

// condArg returns the opKey.arg of a Cond operation of stable thread th
// with stable mutex m (-1: none).
func condArg(th, m int32) int64 { return int64(m+1)<<32 | int64(uint32(th)) }

// condMutex returns the stable mutex of a Cond's Wait or Relock, -1 if
// none.
func condMutex(k opKey) int32 { return int32(k.arg>>32) - 1 }

// condWithMutex reports whether k is a Cond's Wait or Relock with a
// Mutex, whose event takes the Cond's place and the mutex's (condAccess).
func condWithMutex(k opKey) bool {
	return k.class == trace.ClassCond && (k.kind == trace.KindWait || k.kind == trace.KindRelock) && condMutex(k) >= 0
}

// condReleases reports whether k, a Cond's Wait or Relock, releases the
// mutex (a Wait, which fails if the mutex is free) rather than taking it
// again (a Relock, which waits until it is free).
func condReleases(k opKey) bool { return k.kind == trace.KindWait }

// condStateKey returns an operation on the place of the state of k's Cond
// (copies.go makes the places an operation needs from such keys).
func condStateKey(k opKey) opKey {
	return opKey{kind: trace.KindSignal, class: trace.ClassCond, obj: k.obj}
}

// condRelockReady reports whether a Cond's Relock k can run in state s
// of the Cond: once its thread was woken (the mutex, its other place, is
// accepts').
func condRelockReady(s qstate, k opKey) bool {
	i := s.entry(keyThread(k))
	return i >= 0 && s.q[i].woken
}

// condAfter returns Cond state s after operation k of thread th
// (model.Object's Cond, with the engine's Signal, which wakes the first
// waiter not woken yet): a Wait joins the queue, a Relock leaves it, a
// Signal wakes the first waiter not woken, a Broadcast every waiter.
func condAfter(s qstate, k opKey, th int32) qstate {
	switch k.kind {
	case trace.KindWait:
		s.q = append(append([]qentry(nil), s.q...), qentry{th: th})
	case trace.KindRelock:
		if i := s.entry(th); i >= 0 {
			s.remove(i)
		}
	case trace.KindSignal:
		if i := s.waiting(0); i >= 0 {
			s.q = append([]qentry(nil), s.q...)
			s.q[i].woken = true
		}
	case trace.KindBroadcast:
		s.q = append([]qentry(nil), s.q...)
		for i := range s.q {
			s.q[i].woken = true
		}
	}
	return s
}
