// This file implements reach's handling of failures, which seed 004 does
// not have: its runs end normally, and a failure is an observation of the
// sequence. A weft run ends at its first failure (an assertion, a panic),
// so the steps the other threads could still take, and their races, are
// never seen: a later failure that needs one of them first would be
// missed. A run that fails while another thread could still move is
// therefore run again, from the same variant, with the failing call
// postponed: the run takes it only when nothing else can move, so that
// the failure comes at the end of a sequence that is otherwise as long as
// it can be, which is the one analysed. (Optimal-DPOR makes the failing
// step dependent with every event instead, strategy/optimal's doc.) The
// variants derived from it do not keep the postponement: what made the
// call fail (the value it received) may have changed there; one of them
// that fails early again is run again in the same way.

package reach

import "github.com/weft-go/weft/trace"

// postpone reports whether the run that ended so, a failure while other
// threads could move, is to be run again with the failing call postponed
// (then it is not analysed).
func (s *Strategy) postpone(tr *trace.Trace, end trace.End) bool {
	if !stops(end) || !s.early || int(end.Thread) >= len(tr.Threads) {
		return false
	}
	k := int32(-1)
	for i := range tr.Events {
		if e := &tr.Events[i]; e.Thread == end.Thread || e.Partner == end.Thread {
			k++
		}
	}
	if k < 0 {
		return false // it failed before its first step
	}
	t := int32(s.names.Stable(end.Thread))
	if s.v.postponed(t, k) {
		return false
	}
	v := *s.v
	v.Postponed = append(append([]vside(nil), s.v.Postponed...), vside{T: t, K: k})
	s.retry = &v
	s.stats.Retries++
	return true
}

// stops reports whether a run ended so by a failure in the local code of
// its last step, while other threads may have been able to move (not a
// deadlock or a leak, where none could, nor the step bound).
func stops(end trace.End) bool {
	if end.Status != trace.Failed || end.Thread < 0 {
		return false
	}
	switch end.Kind {
	case trace.Deadlock, trace.Leak, trace.Livelock, trace.Nondeterminism, trace.Internal, trace.Blocked, trace.Misuse:
		return false
	}
	return true
}
