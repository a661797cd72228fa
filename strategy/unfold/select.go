// This file models select: a thread condition whose next operation is a
// select has one event per case it can take (each like the plain send or
// receive of the case, with the case's channel's condition) and, with a
// default, one taking a condition of every case's channel where no case is
// ready.

package unfold

import (
	"fmt"
	"strings"

	"github.com/weft-go/weft/trace"
)

// selCase is a case of a select as the unfolding keeps it: a send or a
// receive on the channel of stable number obj (-1: a nil channel, never
// ready) of capacity cap.
type selCase struct {
	kind trace.Kind
	obj  int32
	cap  int64
}

// key returns the operation of a plain send or receive like c.
func (c selCase) key() opKey {
	return opKey{kind: c.kind, class: trace.ClassChan, obj: c.obj, arg: c.cap}
}

// internCases returns the number of the list of cases cs, which a
// select's opKey holds as its obj.
func (n *net) internCases(cs []selCase) int32 {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%d/%d/%d,", c.kind, c.obj, c.cap)
	}
	k := b.String()
	if id, ok := n.caseIDs[k]; ok {
		return id
	}
	id := int32(len(n.caseLists))
	n.caseLists = append(n.caseLists, cs)
	n.caseIDs[k] = id
	return id
}

// casesOf returns the cases of select k.
func (n *net) casesOf(k opKey) []selCase { return n.caseLists[k.obj] }

// The cases of events (event.alt): an event of a plain operation has
// noCase, a select's event the case it took (-1: the default); the
// partner case is the case of the select a receive met (-1: none).
const noCase = -2

// altCode returns event.alt for an event of case cas that met partner
// case pcas: 0 for a plain operation that met no select.
func altCode(cas, pcas int32) int32 { return (cas + 2) | (pcas+1)<<16 }

// cases returns the case and partner case of event.alt a.
func cases(a int32) (cas, pcas int32) { return a&0xffff - 2, a>>16 - 1 }

// chanWant is a send or a receive a thread condition offers: its plain
// operation (cas noCase) or a case of its select.
type chanWant struct {
	cas int32
	key opKey
}

// chanWants returns the sends and receives on channels that thread
// condition c offers, if its thread has one pending there.
func (n *net) chanWants(c int32) []chanWant {
	cd := &n.conds[c]
	if cd.state != pending {
		return nil
	}
	switch k := cd.op; {
	case k.kind == trace.KindSelect:
		var out []chanWant
		for j, sc := range n.casesOf(k) {
			if sc.obj >= 0 {
				out = append(out, chanWant{int32(j), sc.key()})
			}
		}
		return out
	case k.class == trace.ClassChan && k.obj >= 0 && (k.kind == trace.KindSend || k.kind == trace.KindRecv):
		return []chanWant{{noCase, k}}
	}
	return nil
}

// isDefault reports whether ev is a select's default.
func isDefault(ev *event) bool {
	cas, _ := cases(ev.alt)
	return ev.op.kind == trace.KindSelect && cas == -1
}

// bothDefaults reports whether thread conditions a and b both have a
// select with a default next: they never meet.
func (n *net) bothDefaults(a, b int32) bool {
	ka, kb := n.conds[a].op, n.conds[b].op
	return ka.kind == trace.KindSelect && ka.arg == 1 && kb.kind == trace.KindSelect && kb.arg == 1
}

// caseOp returns the operation event ev did on the channel of its
// preset: the case a select took, KindNone for a select's default (which
// changes no channel), the event's own otherwise.
func (n *net) caseOp(ev *event) opKey {
	cas, _ := cases(ev.alt)
	return n.caseOpOf(ev.op, cas)
}

// caseOpOf is caseOp for an event of operation k that took case cas.
func (n *net) caseOpOf(k opKey, cas int32) opKey {
	if k.kind != trace.KindSelect {
		return k
	}
	if cas < 0 {
		return opKey{obj: -1}
	}
	return n.casesOf(k)[cas].key()
}

// chanPlace returns the place of channel operation k (a plain one, or a
// select's case) of stable thread th: an unbuffered channel's copy of the
// thread, a buffered one's place.
func (n *net) chanPlace(k opKey, th int32) int32 {
	if k.arg == 0 {
		return n.copies[[2]int32{k.obj, th}]
	}
	return n.objects[k.obj].mutex
}

// casePlaces returns the places of the channels of select k's cases, of
// stable thread th, each once, in case order: a buffered channel's place,
// th's copy of an unbuffered one, a timer's thread's.
func (n *net) casePlaces(k opKey, th int32) []int32 {
	var out []int32
	for _, c := range n.casesOf(k) {
		if c.obj < 0 {
			continue
		}
		p := n.chanPlace(c.key(), th)
		if tp := n.timerPlace(c.obj); tp >= 0 {
			p = tp // a timer's thread's (timer.go)
		}
		if !containsInt32(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func containsInt32(xs []int32, x int32) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// selectExts adds the extensions of thread condition t, whose next
// operation is a select, that take no partner: each case that a condition
// of its channel concurrent with t makes ready by itself (a buffered
// channel with room or a value, a closed one), and the default where a
// condition of each case's channel, all concurrent with t, makes no case
// ready (and, if its default needsThreads, no other thread offers a send
// it meets: offer.go). The rendezvous of its unbuffered cases are meets'.
func (n *net) selectExts(t int32) {
	if !n.selectCases(t) {
		return
	}
	k := n.conds[t].op
	if k.arg != 1 {
		return
	}
	if n.needsThreads(k) {
		n.defaultExts(t, -1)
		return
	}
	ps := n.casePlaces(k, n.threadOf(t))
	pre := []int32{t}
	var try func(i int)
	try = func(i int) {
		if ok, fatal := n.co(pre...); !ok || fatal {
			return
		}
		if i == len(ps) {
			if !n.anyReady(k, pre) {
				n.extensionAlt(pre, altCode(-1, -1))
			}
			return
		}
		for _, d := range n.places[ps[i]].conds {
			pre = append(pre, d)
			try(i + 1)
			pre = pre[:len(pre)-1]
		}
	}
	try(0)
}

// selectCases adds the extensions of thread condition t, whose next
// operation is a select, that take a case ready by itself (selectExts). It
// reports false if t's local configuration holds a failed step.
func (n *net) selectCases(t int32) bool {
	k := n.conds[t].op
	if _, fatal := n.co(t); fatal {
		return false
	}
	for j, c := range n.casesOf(k) {
		if c.obj < 0 {
			continue
		}
		ck := c.key()
		for _, d := range n.places[n.chanPlace(ck, n.threadOf(t))].conds {
			if stateAccepts(ck, n.conds[d].value) {
				if ok, fatal := n.co(t, d); ok && !fatal {
					n.extensionAlt([]int32{t, d}, altCode(int32(j), -1))
				}
			}
		}
	}
	return true
}

// selectsOf adds the extensions of the selects that want a channel of
// place p, a new condition of which may make a case ready or not
// (selectExts).
func (n *net) selectsOf(p *place) {
	if n.objects[p.obj].class != trace.ClassChan {
		return
	}
	for _, t := range n.objects[p.obj].users {
		if k := n.conds[t].op; k.kind == trace.KindSelect && n.conds[t].state == pending {
			if p.kind == copyPlace && n.needsThreads(k) {
				// A copy's new condition is a Close's (after which no
				// default runs) or follows the thread's own steps
				// (whose new conditions give its defaults: offer.go).
				n.selectCases(t)
				continue
			}
			n.selectExts(t)
		}
	}
}

// anyReady reports whether a case of select k is ready by itself with the
// channels' conditions of pre (pre[0] is the thread's condition).
func (n *net) anyReady(k opKey, pre []int32) bool {
	for _, c := range n.casesOf(k) {
		if c.obj < 0 {
			continue
		}
		if tp := n.timerPlace(c.obj); tp >= 0 {
			for _, d := range pre[1:] {
				if n.conds[d].place == tp && n.due(d, n.nowOf(pre[0])) {
					return true
				}
			}
			continue
		}
		p := n.chanPlace(c.key(), n.threadOf(pre[0]))
		for _, d := range pre[1:] {
			if n.conds[d].place == p && stateAccepts(c.key(), n.conds[d].value) {
				return true
			}
		}
	}
	return false
}
