// This file computes the rendezvous of unbuffered channels: a receive (or
// a select's receive case) that meets a send (or a select's send case) is
// one event of the receiver's, which takes the receiver's condition, its
// copy of the channel (open: an unbuffered channel is a variable whose
// value is whether it is closed, which Close writes) and the sender's.

package unfold

import "github.com/weft-go/weft/trace"

// meets adds the rendezvous with thread condition c, if it offers a send
// or a receive on an unbuffered channel (chanWants): with every thread
// condition that offers the other on it and every open condition of the
// receiver's copy of the channel. Each set of concurrent conditions is an
// extension. A new condition of a copy enables no rendezvous that a new
// thread condition does not: the receiver's own steps make them, or a
// Close, after which none is possible.
func (n *net) meets(c int32) {
	cd := &n.conds[c]
	if n.places[cd.place].kind != threadPlace {
		return
	}
	for _, w := range n.chanWants(c) {
		if w.key.arg != 0 {
			continue // buffered
		}
		for _, u := range n.objects[w.key.obj].users {
			for _, w2 := range n.chanWants(u) {
				if !meet(w, w2) || n.conds[u].place == cd.place || n.bothDefaults(c, u) {
					continue
				}
				r, rc, s, sc := c, w.cas, u, w2.cas
				if w.key.kind == trace.KindSend {
					r, rc, s, sc = u, w2.cas, c, w.cas
				}
				for _, ch := range n.copiesWith(r, n.chanPlace(w.key, n.threadOf(r))) {
					n.tryMeet(r, rc, ch, s, sc)
				}
			}
		}
	}
}

// copiesWith returns the conditions of p, the copy of an unbuffered
// channel of thread condition r's thread, that may be concurrent with r:
// the one r's local configuration leaves, and those Closes made of it (the
// thread's own steps, which take the copy too, follow r or precede it).
func (n *net) copiesWith(r, p int32) []int32 {
	start := n.frontOf(r, p)
	if start < 0 {
		return nil
	}
	out := []int32{start}
	for i := 0; i < len(out); i++ {
		for _, f := range n.conds[out[i]].consumers {
			if ev := &n.events[f]; ev.in() && accessOf(ev.op) == writeAccess {
				out = append(out, ev.post[n.slot(f, p)])
			}
		}
	}
	return out
}

// rendezvous reports whether event ev is a receive that met a sender (its
// last condition is the sender's).
func (n *net) rendezvous(ev *event) bool {
	if cas, _ := cases(ev.alt); ev.op.kind == trace.KindSelect && cas == -1 {
		return false // a default, which may take a timer's thread's condition (timer.go)
	}
	last := ev.pre[len(ev.pre)-1]
	return len(ev.pre) > 2 && n.places[n.conds[last].place].kind == threadPlace && ev.op.kind != trace.KindJoin && ev.op.kind != trace.KindAdvance
}

// meet reports whether a and b are a send and a receive on one unbuffered
// channel.
func meet(a, b chanWant) bool {
	return a.key.obj == b.key.obj && a.key.kind != b.key.kind && a.key.arg == 0 && b.key.arg == 0
}

// canMeet reports whether thread conditions a and b, of different
// threads, offer a send and a receive on one unbuffered channel.
func (n *net) canMeet(a, b int32) bool {
	if n.conds[a].place == n.conds[b].place || n.bothDefaults(a, b) {
		return false
	}
	now := max(n.nowOf(a), n.nowOf(b))
	if n.daemon(a) && !n.due(a, now) || n.daemon(b) && !n.due(b, now) {
		return false // a timer that is not armed or not due (timer.go)
	}
	for _, x := range n.chanWants(a) {
		for _, y := range n.chanWants(b) {
			if meet(x, y) {
				return true
			}
		}
	}
	return false
}

// tryMeet adds the rendezvous of receiver r (its case rc) and sender s
// (its case sc) on ch, a condition of their channel, if ch is open and the
// three are concurrent.
func (n *net) tryMeet(r, rc, ch, s, sc int32) {
	if n.conds[ch].value&chanClosed != 0 {
		return
	}
	if sc == noCase {
		sc = -1
	}
	if n.daemon(s) && !n.due(s, max(n.nowOf(r), n.nowOf(s))) {
		return // a timer that is not armed or not due (timer.go)
	}
	if ok, fatal := n.co(r, ch, s); ok && !fatal {
		n.extensionAlt([]int32{r, ch, s}, altCode(rc, sc))
	}
}
