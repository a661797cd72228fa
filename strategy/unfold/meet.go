// This file computes the rendezvous of unbuffered channels: a receive (or
// a select's receive case) that meets a send (or a select's send case) is
// one event of the receiver's, which takes the receiver's condition, the
// channel's (open) and the sender's.

package unfold

import "github.com/weft-go/weft/trace"

// meets adds the rendezvous with condition c: c is a thread condition that
// offers a send or a receive on an unbuffered channel (chanWants), with
// every thread condition that offers the other on it and every open
// condition of the channel; or an open condition of an unbuffered channel,
// with every pair of a receiver and a sender. Each set of concurrent
// conditions is an extension.
func (n *net) meets(c int32) {
	cd := &n.conds[c]
	switch pl := &n.places[cd.place]; pl.kind {
	case threadPlace:
		for _, w := range n.chanWants(c) {
			if w.key.arg != 0 {
				continue // buffered
			}
			ob := n.objects[w.key.obj]
			for _, u := range ob.users {
				for _, w2 := range n.chanWants(u) {
					if !meet(w, w2) || n.conds[u].place == cd.place {
						continue
					}
					for _, ch := range n.places[ob.mutex].conds {
						if w.key.kind == trace.KindRecv {
							n.tryMeet(c, w.cas, ch, u, w2.cas)
						} else {
							n.tryMeet(u, w2.cas, ch, c, w.cas)
						}
					}
				}
			}
		}
	case statePlace:
		ob := n.objects[pl.obj]
		if ob.class != trace.ClassChan || cd.value&chanClosed != 0 {
			return
		}
		for _, r := range ob.users {
			for _, wr := range n.chanWants(r) {
				if wr.key.obj != pl.obj || wr.key.kind != trace.KindRecv || wr.key.arg != 0 {
					continue
				}
				for _, s := range ob.users {
					for _, ws := range n.chanWants(s) {
						if meet(wr, ws) && n.conds[s].place != n.conds[r].place {
							n.tryMeet(r, wr.cas, c, s, ws.cas)
						}
					}
				}
			}
		}
	}
}

// meet reports whether a and b are a send and a receive on one unbuffered
// channel.
func meet(a, b chanWant) bool {
	return a.key.obj == b.key.obj && a.key.kind != b.key.kind && a.key.arg == 0 && b.key.arg == 0
}

// canMeet reports whether thread conditions a and b, of different
// threads, offer a send and a receive on one unbuffered channel.
func (n *net) canMeet(a, b int32) bool {
	if n.conds[a].place == n.conds[b].place {
		return false
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
	if ok, fatal := n.co(r, ch, s); ok && !fatal {
		n.extensionAlt([]int32{r, ch, s}, altCode(rc, sc))
	}
}
