// This file models the default of a select that has a receive case on an
// unbuffered channel: the default runs only where no other thread offers
// the matching send, so its event takes the condition of every thread
// that has started, finished or not (see the package doc, "A select's
// default facing other threads").

package unfold

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// needsThreads reports whether the default of select k depends on other
// threads: k has a default and a receive case on an unbuffered channel
// that is no timer's, which a thread offering the send makes ready. (A
// send case on an unbuffered channel never makes a default wait: the
// receiver's step meets it, and the runtime offers the default beside it.)
func (n *net) needsThreads(k opKey) bool {
	if k.kind != trace.KindSelect || k.arg != 1 {
		return false
	}
	for _, c := range n.casesOf(k) {
		if c.obj >= 0 && c.kind == trace.KindRecv && c.cap == 0 && n.timerPlace(c.obj) < 0 {
			return true
		}
	}
	return false
}

// offersTo reports whether thread condition u offers a send that a
// receive case of select k (with a default) meets: a plain send on the
// unbuffered channel, or a send case of a select without default on it
// (two selects with defaults never meet).
func (n *net) offersTo(k opKey, u int32) bool {
	if uk := n.conds[u].op; uk.kind == trace.KindSelect && uk.arg == 1 {
		return false
	}
	for _, w := range n.chanWants(u) {
		if w.key.kind != trace.KindSend || w.key.arg != 0 {
			continue
		}
		for _, c := range n.casesOf(k) {
			if c.kind == trace.KindRecv && c.cap == 0 && c.obj == w.key.obj {
				return true
			}
		}
	}
	return false
}

// otherThreads returns the places of the threads other than stable thread
// th whose conditions a default of th's may take, sorted: every thread's
// but th's and the timers' (whose conditions a timer's case takes).
func (n *net) otherThreads(th int32, buf []int32) []int32 {
	out := buf[:0]
	for t, p := range n.threads {
		if t != th && !n.daemonPlace(p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// quiet reports whether thread condition c may be in the preset of a
// default of select k: its thread has finished, or has an operation next
// that is not a send a receive case of k meets. (A thread whose next
// action is not known yet, cut short, is left out: interrupt.go.)
func (n *net) quiet(k opKey, c int32) bool {
	switch n.conds[c].state {
	case done:
		return true
	case pending:
		return !n.offersTo(k, c)
	}
	return false
}

// defaultExts adds the defaults of thread condition t, whose next
// operation is a select that needsThreads: every choice of a condition of
// each case's channel (as selectExts) and of a condition of each thread
// started, concurrent, where no case is ready by itself and no chosen
// thread condition offers a send a receive case meets. The choice of
// threads must be the marking's: every thread that the cut of the chosen
// conditions' local configuration starts has a condition in it, finished
// ones too (as an advance's, sleep.go: a finished condition not taken
// would leave an earlier condition of its thread concurrent with the
// default). With fixed >= 0, a new thread condition, only the choices
// where fixed is its thread's are tried. The search is the naive one
// (Fig. 10) over these places.
func (n *net) defaultExts(t, fixed int32) {
	k := n.conds[t].op
	th := n.threadOf(t)
	ps := n.casePlaces(k, th)
	others := n.otherThreads(th, nil)
	fp := int32(-1)
	if fixed >= 0 {
		if !n.quiet(k, fixed) {
			return
		}
		fp = n.conds[fixed].place
	}
	pre := []int32{t}
	var pick func(j int)
	pick = func(j int) {
		if ok, fatal := n.co(pre...); !ok || fatal {
			return
		}
		if j == len(others) {
			if n.liveCut(pre, len(ps)+1, others) {
				n.extensionAlt(pre, altCode(-1, -1))
			}
			return
		}
		p := others[j]
		if p == fp {
			pre = append(pre, fixed)
			pick(j + 1)
			pre = pre[:len(pre)-1]
			return
		}
		pick(j + 1) // not started (liveCut checks)
		for _, c := range n.places[p].conds {
			if !n.quiet(k, c) {
				continue
			}
			pre = append(pre, c)
			pick(j + 1)
			pre = pre[:len(pre)-1]
		}
	}
	var try func(i int)
	try = func(i int) {
		if ok, fatal := n.co(pre...); !ok || fatal {
			return
		}
		if i == len(ps) {
			if !n.anyReady(k, pre) {
				pick(0)
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

// liveCut reports whether the thread conditions pre[from:] (of the places
// others, in order) are those of every thread started in the marking of
// the local configuration of pre (concurrent).
func (n *net) liveCut(pre []int32, from int, others []int32) bool {
	at := n.cutOf(pre)
	chosen := pre[from:]
	for _, p := range others {
		if len(chosen) > 0 && n.conds[chosen[0]].place == p {
			chosen = chosen[1:]
			continue
		}
		if at(p) >= 0 {
			return false // started, and not chosen
		}
	}
	return true
}

// defaultsWith adds the defaults that d, a new condition of a thread,
// enables for the selects that needsThreads: d is its thread's condition
// in their presets. (A condition given back by an event of another
// thread, a Join's, needs no call: every default that takes it takes a
// condition of that thread made after it.)
func (n *net) defaultsWith(d int32) {
	if len(n.defaultSels) == 0 || n.daemon(d) {
		return
	}
	for _, t := range n.defaultSels {
		if n.conds[t].place == n.conds[d].place {
			continue // t's own thread: d follows t or is in conflict with it
		}
		if ok, fatal := n.co(t, d); ok && !fatal {
			n.defaultExts(t, d)
		}
	}
}

// liveThreads appends to pre the current marking's conditions of the
// threads other than stable thread th that have started, in place order: the conditions the default of a select that
// needsThreads takes beside its channels'.
func (s *Strategy) liveThreads(pre []int32, th int32) []int32 {
	n := s.n
	s.tbuf = n.otherThreads(th, s.tbuf)
	for _, p := range s.tbuf {
		if int(p) < len(s.marking) {
			if c := s.marking[p]; c >= 0 {
				pre = append(pre, c)
			}
		}
	}
	return pre
}

// hasOwnEvent reports whether thread condition t has an event of its own
// thread (or an extension): one whose preset starts with t. Its other
// consumers are defaults of other threads' polls, which take it and give
// it back, and rendezvous and joins.
func (n *net) hasOwnEvent(t int32) bool {
	for _, f := range n.conds[t].consumers {
		if n.events[f].pre[0] == t {
			return true
		}
	}
	return false
}
