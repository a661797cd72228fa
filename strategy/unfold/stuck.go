// This file searches the unfolding for deadlocks that involve the
// primitives beyond the paper's model (RWMutex, Once, buffered channels):
// reachable markings where every thread has finished or is blocked, the
// blocked ones on the conditions the marking holds.

package unfold

import (
	"fmt"
	"slices"

	"github.com/weft-go/weft/trace"
)

// mayBlock reports whether an operation k can be blocked: one that some
// condition of its place does not accept (accepts).
func mayBlock(k opKey) bool {
	switch k.kind {
	case trace.KindLock, trace.KindRLock, trace.KindOnceDo, trace.KindSend, trace.KindRecv, trace.KindWGWait, trace.KindJoin:
		return true
	}
	return false
}

// hasState reports whether the unfolding has a place of an RWMutex, a
// Once or a channel.
func (n *net) hasState() bool {
	for i := range n.places {
		if n.places[i].kind == statePlace {
			return true
		}
	}
	return false
}

// stuckMarkings returns the thread conditions of the reachable markings
// where every thread that has started has finished or is blocked, and one
// is blocked: a thread condition per started thread, sorted, one marking
// for each set of blocked thread conditions. The search
// goes through the threads in order, choosing for each a condition where
// it has finished or has an operation that may block, concurrent with
// those chosen before, or none if the thread is not started; a full
// choice is kept if the threads it leaves out are not started in its
// configuration and each blocked one is blocked by the condition of its
// place in the marking. Its cost grows with the product of the numbers of
// such conditions per thread: it is made only for an unfolding with a
// place of an RWMutex, a Once or a channel (the mutexes' deadlocks have
// the paper's search, Fig. 11).
func (n *net) stuckMarkings() [][]int32 {
	var threads []int32 // thread places
	for _, p := range n.threads {
		threads = append(threads, p)
	}
	slices.Sort(threads)
	cands := make([][]int32, len(threads))
	for i, p := range threads {
		for _, c := range n.places[p].conds {
			cd := &n.conds[c]
			if cd.state == done || (cd.state == pending && mayBlock(cd.op)) {
				cands[i] = append(cands[i], c)
			}
		}
	}
	var found [][]int32
	seen := map[string]bool{}
	set := make([]int32, 0, len(threads))
	var search func(i int)
	search = func(i int) {
		if i == len(threads) {
			if n.stuckAt(set, threads) {
				// One marking for each set of blocked conditions: those
				// that differ in where the other threads finished are one
				// deadlock.
				m := slices.Sorted(slices.Values(set))
				if k := fmt.Sprint(n.blockedOf(m)); !seen[k] {
					seen[k] = true
					found = append(found, m)
				}
			}
			return
		}
		search(i + 1) // the thread not started
		for _, c := range cands[i] {
			set = append(set, c)
			if ok, fatal := n.co(set...); ok && !fatal {
				search(i + 1)
			}
			set = set[:len(set)-1]
		}
	}
	search(0)
	return found
}

// blockedOf returns the conditions of set where their threads have not
// finished.
func (n *net) blockedOf(set []int32) []int32 {
	var out []int32
	for _, c := range set {
		if n.conds[c].state == pending {
			out = append(out, c)
		}
	}
	return out
}

// stuckAt reports whether the marking of the configuration of the thread
// conditions set (concurrent) is a deadlock: the threads of the places
// threads that set leaves out are not started in it, and each condition of
// set is one where its thread has finished or is blocked by the marking's
// condition of its place, one at least blocked.
func (n *net) stuckAt(set, threads []int32) bool {
	cut := map[int32]int32{} // place -> its condition in the marking
	for _, c := range set {
		if e := n.conds[c].producer; e >= 0 {
			for _, f := range n.events[e].front {
				if old, ok := cut[f.place]; !ok || n.conds[f.cond].depth > n.conds[old].depth {
					cut[f.place] = f.cond
				}
			}
		}
		cut[n.conds[c].place] = c
	}
	at := func(p int32) int32 {
		if c, ok := cut[p]; ok {
			return c
		}
		return n.places[p].init
	}
	for _, p := range threads {
		if at(p) >= 0 && !slices.ContainsFunc(set, func(c int32) bool { return n.conds[c].place == p }) {
			return false // started, and not chosen
		}
	}
	blocked := false
	for _, t := range set {
		cd := &n.conds[t]
		if cd.state != pending {
			continue
		}
		ps := n.resources(nil, n.places[cd.place].thread, cd.op)
		if len(ps) != 1 {
			return false
		}
		r := at(ps[0])
		if r < 0 || accepts(cd.op, &n.conds[r]) {
			return false
		}
		if slices.ContainsFunc(set, func(u int32) bool { return n.partners(t, u) }) {
			return false // a rendezvous is enabled
		}
		blocked = true
	}
	return blocked
}
