// This file computes the rendezvous of unbuffered channels: a receive that
// meets a send is one event of the receiver's, which takes the receiver's
// condition, the channel's (open) and the sender's.

package unfold

import "github.com/weft-go/weft/trace"

// unbuffered reports whether k is a send or a receive on an unbuffered
// channel (whose capacity is its argument).
func unbuffered(k opKey) bool {
	return k.class == trace.ClassChan && k.arg == 0 && (k.kind == trace.KindSend || k.kind == trace.KindRecv)
}

// meets adds the rendezvous with condition c: c is a thread condition
// whose next operation is a send or receive on an unbuffered channel, with
// every thread condition that wants to do the other on it and every open
// condition of the channel; or an open condition of an unbuffered
// channel, with every pair of a receiver and a sender. Each set of
// concurrent conditions is an extension.
func (n *net) meets(c int32) {
	cd := &n.conds[c]
	switch pl := &n.places[cd.place]; pl.kind {
	case threadPlace:
		k := cd.op
		if cd.state != pending || !unbuffered(k) {
			return
		}
		ob := n.objects[k.obj]
		for _, u := range ob.users {
			if !n.partners(c, u) {
				continue
			}
			r, s := c, u
			if k.kind == trace.KindSend {
				r, s = u, c
			}
			for _, ch := range n.places[ob.mutex].conds {
				n.tryMeet(r, ch, s)
			}
		}
	case statePlace:
		ob := n.objects[pl.obj]
		for _, r := range ob.users {
			if n.conds[r].op.kind != trace.KindRecv || !unbuffered(n.conds[r].op) {
				continue
			}
			for _, s := range ob.users {
				if n.partners(r, s) {
					n.tryMeet(r, c, s)
				}
			}
		}
	}
}

// partners reports whether thread conditions a and b, of different
// threads, want to do a send and a receive, one each, on one unbuffered
// channel.
func (n *net) partners(a, b int32) bool {
	x, y := &n.conds[a], &n.conds[b]
	return x.state == pending && y.state == pending && unbuffered(x.op) && unbuffered(y.op) &&
		x.op.obj == y.op.obj && x.op.kind != y.op.kind && x.place != y.place
}

// tryMeet adds the rendezvous of receiver r and sender s on ch, a
// condition of their channel, if ch is open and the three are concurrent.
func (n *net) tryMeet(r, ch, s int32) {
	if n.conds[ch].value&chanClosed != 0 {
		return
	}
	if ok, fatal := n.co(r, ch, s); ok && !fatal {
		n.extension([]int32{r, ch, s})
	}
}
