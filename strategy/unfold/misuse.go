// This file tells the events whose steps are misuses the runtime reports
// as failures from their presets, before they run: the free part of a test
// leaves them for last, so that a test that could complete does.

package unfold

import "github.com/weft-go/weft/trace"

// misuse reports whether the step of event e fails by the states of its
// preset alone: a send on a closed channel (a plain send or a select's
// send case), a close of a closed channel, an Unlock of a free Mutex, a
// Cond's Wait with its mutex free, a monitor's Exit, Wait, Signal or
// SignalAll by a thread that is not inside (and SignalAll under SU), a
// Close of a nil channel.
func (n *net) misuse(e int32) bool {
	ev := &n.events[e]
	k := n.caseOp(ev)
	switch {
	case k.class == trace.ClassChan && (k.kind == trace.KindSend || k.kind == trace.KindClose):
		for _, c := range ev.pre[1:] {
			if n.places[n.conds[c].place].kind != threadPlace && n.conds[c].value&chanClosed != 0 {
				return true
			}
		}
	case k.class == trace.ClassMutex && k.kind == trace.KindUnlock:
		return len(ev.pre) > 1 && n.conds[ev.pre[1]].state == free
	case accessOf(k) == condAccess && condReleases(k):
		return n.conds[ev.pre[2]].state == free
	case k.class == trace.ClassMonitor:
		return n.qMisuse(k, n.conds[ev.pre[1]].value)
	case accessOf(k) == nilAccess:
		return k.kind == trace.KindClose
	}
	return false
}
