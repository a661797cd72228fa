// This file searches the unfolding for deadlocks that involve the
// primitives beyond the paper's model (RWMutex, Once, buffered channels):
// reachable markings where every thread has finished or is blocked, the
// blocked ones on the conditions the marking holds.

package unfold

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// mayBlock reports whether an operation k can be blocked: one that some
// condition of its place does not accept (accepts).
func mayBlock(k opKey) bool {
	switch k.kind {
	case trace.KindLock, trace.KindRLock, trace.KindOnceDo, trace.KindSend, trace.KindRecv, trace.KindWGWait, trace.KindJoin,
		trace.KindP, trace.KindRelock, trace.KindMEnter, trace.KindMReenter, trace.KindAwait, trace.KindSleep:
		return true
	case trace.KindV:
		return k.class == trace.ClassBinarySemaphore
	case trace.KindSelect:
		return k.arg != 1 // a select with a default never blocks
	}
	return false
}

// hasState reports whether the unfolding has an RWMutex, a Once or a
// channel.
func (n *net) hasState() bool {
	if n.nilBlocked || n.sleeps {
		return true
	}
	for _, ob := range n.objects {
		switch ob.class {
		case trace.ClassRWMutex, trace.ClassOnce, trace.ClassChan, trace.ClassCond, trace.ClassMonitor, trace.ClassSemaphore, trace.ClassBinarySemaphore:
			return true
		}
		if len(ob.awaiters) > 0 {
			return true
		}
	}
	return false
}

// hasWaits reports whether the unfolding has a WaitGroup.
func (n *net) hasWaits() bool {
	for _, ob := range n.objects {
		if ob.class == trace.ClassWaitGroup {
			return true
		}
	}
	return false
}

// stuckBudget bounds the concurrency checks of one search of stuck
// markings: past it, the search stops (Stats.DeadlockSearchCut, the
// Result's counter "net deadlock search cut"), and the deadlocks it did
// not reach are found only if a test runs into them.
const stuckBudget = 300000

// stuckMarkings returns the thread conditions of the reachable markings
// where every thread that has started has finished or is blocked, and one
// is blocked: a thread condition per started thread, sorted, one marking
// for each set of blocked thread conditions. The search goes through the
// threads in order, choosing for each a condition where it has an
// operation that may block, concurrent with those chosen before, or none;
// for each such set, it looks for one way to complete it into a marking
// (completeStuck). Its cost grows with the product of the numbers of such
// conditions per thread, and it stops past stuckBudget concurrency
// checks.
//
// With lazy (a program whose blocking operations are Mutex Locks, Joins
// and WaitGroup Waits), the threads blocked on a Lock or a Join are not
// chosen but completed: one marking is found per set of threads blocked
// on a Wait, with Locks and Joins where they complete it. The deadlocks
// of Locks and Joins alone are the paper's search's (Fig. 11, a Join as a
// lock its thread holds until it ends), and the Locks and Joins of a
// program with many of them would use the budget up before the Waits are
// reached.
func (n *net) stuckMarkings(lazy bool) [][]int32 {
	var threads []int32 // thread places
	for _, p := range n.threads {
		threads = append(threads, p)
	}
	slices.Sort(threads)
	pend := make([][]int32, len(threads))
	dones := make([][]int32, len(threads))
	for i, p := range threads {
		for _, c := range n.places[p].conds {
			switch cd := &n.conds[c]; {
			case cd.state == done || n.daemonPlace(p) || n.clockThreadPlace(p):
				// A timer's thread is never blocked, nor live: it
				// completes a marking with its timer's state.
				dones[i] = append(dones[i], c)
			case lazy && cd.state == pending && (cd.op.kind == trace.KindLock && cd.op.class == trace.ClassMutex || cd.op.kind == trace.KindJoin):
				dones[i] = append(dones[i], c) // completeStuck may choose it
			case cd.state == pending && mayBlock(cd.op):
				pend[i] = append(pend[i], c)
			}
		}
	}
	limit := n.stats.CoChecks + stuckBudget
	var found [][]int32
	blocked := make([]int32, 0, len(threads))
	var pick func(i int)
	pick = func(i int) {
		if n.stats.CoChecks > limit {
			return
		}
		if i == len(threads) {
			switch {
			case len(blocked) > 0 && len(n.timerOf) > 0 && !n.clk.on:
				// Whether time moves depends on the timers' states in
				// the completion: an advance for each completion where
				// a deadline lies ahead, one deadlock for the others.
				dl := false
				for _, m := range n.completeAll(blocked, threads, dones, limit) {
					if n.advanceTo(m) >= 0 {
						found = append(found, m)
					} else if !dl {
						dl = true
						found = append(found, m)
					}
				}
			case len(blocked) > 0 && slices.ContainsFunc(blocked, n.sleeping):
				// An advance of time: every completion is one (sleep.go).
				found = append(found, n.completeAll(blocked, threads, dones, limit)...)
			case len(blocked) > 0:
				if m := n.completeStuck(blocked, threads, dones, limit); m != nil {
					found = append(found, m)
				}
			}
			return
		}
		pick(i + 1) // the thread not blocked
		for _, c := range pend[i] {
			blocked = append(blocked, c)
			if ok, fatal := n.co(blocked...); ok && !fatal {
				pick(i + 1)
			}
			blocked = blocked[:len(blocked)-1]
		}
	}
	pick(0)
	if n.stats.CoChecks > limit {
		n.stats.DeadlockSearchCut++
	}
	return found
}

// completeStuck returns a marking, sorted, where the threads of blocked
// (concurrent thread conditions) are blocked there and every other thread
// of the places threads has finished or is blocked (at one of its
// conditions dones) or has not started; nil if there is none, or if the
// concurrency checks pass limit.
func (n *net) completeStuck(blocked, threads []int32, dones [][]int32, limit int) []int32 {
	set := slices.Clone(blocked)
	var search func(i int) bool
	search = func(i int) bool {
		if n.stats.CoChecks > limit {
			return false
		}
		if i == len(threads) {
			return n.stuckAt(set, threads)
		}
		if slices.ContainsFunc(blocked, func(c int32) bool { return n.conds[c].place == threads[i] }) {
			return search(i + 1)
		}
		if search(i + 1) { // the thread not started
			return true
		}
		for _, c := range dones[i] {
			set = append(set, c)
			if ok, fatal := n.co(set...); ok && !fatal && search(i+1) {
				return true
			}
			set = set[:len(set)-1]
		}
		return false
	}
	if !search(0) {
		return nil
	}
	slices.Sort(set)
	return set
}

// completeAll returns every marking completeStuck could return for
// blocked: an advance of time takes the condition of every thread
// started, finished ones too, so each completion is an advance of its own.
func (n *net) completeAll(blocked, threads []int32, dones [][]int32, limit int) [][]int32 {
	var out [][]int32
	set := slices.Clone(blocked)
	var search func(i int)
	search = func(i int) {
		if n.stats.CoChecks > limit {
			return
		}
		if i == len(threads) {
			if n.stuckAt(set, threads) {
				m := slices.Clone(set)
				slices.Sort(m)
				out = append(out, m)
			}
			return
		}
		if slices.ContainsFunc(blocked, func(c int32) bool { return n.conds[c].place == threads[i] }) {
			search(i + 1)
			return
		}
		search(i + 1) // the thread not started
		for _, c := range dones[i] {
			set = append(set, c)
			if ok, fatal := n.co(set...); ok && !fatal {
				search(i + 1)
			}
			set = set[:len(set)-1]
		}
	}
	search(0)
	return out
}

// blockedOf returns the conditions of set where their threads have not
// finished.
func (n *net) blockedOf(set []int32) []int32 {
	var out []int32
	for _, c := range set {
		if n.conds[c].state == pending && !n.daemon(c) && !n.isClockThread(c) {
			out = append(out, c)
		}
	}
	return out
}

// cutOf returns the condition of each place in the marking of the
// configuration of the thread conditions set (concurrent): the initial
// one of a place none of its events touched.
func (n *net) cutOf(set []int32) func(p int32) int32 {
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
	return func(p int32) int32 {
		if c, ok := cut[p]; ok {
			return c
		}
		return n.places[p].init
	}
}

// stuckAt reports whether the marking of the configuration of the thread
// conditions set (concurrent) is a deadlock: the threads of the places
// threads that set leaves out are not started in it, and each condition of
// set is one where its thread has finished or is blocked by the marking's
// condition of its place, one at least blocked.
func (n *net) stuckAt(set, threads []int32) bool {
	at := n.cutOf(set)
	for _, p := range threads {
		if at(p) >= 0 && !slices.ContainsFunc(set, func(c int32) bool { return n.conds[c].place == p }) {
			return false // started, and not chosen
		}
	}
	blocked := false
	for _, t := range set {
		cd := &n.conds[t]
		if cd.state == pending && n.isClockThread(t) {
			if n.advanceAt(t, at) {
				return false // time moves (clock.go)
			}
			continue
		}
		if cd.state != pending || n.daemon(t) {
			continue // finished, or a timer's thread (timer.go)
		}
		if ws := n.chanWants(t); len(ws) > 0 {
			// A send, a receive, a select (without default): blocked if
			// no channel is ready by itself and no partner is there.
			for _, w := range ws {
				if r := at(n.chanPlace(w.key, n.threadOf(t))); r < 0 || stateAccepts(w.key, n.conds[r].value) {
					return false
				}
			}
			if slices.ContainsFunc(set, func(u int32) bool { return n.canMeet(t, u) }) {
				return false // a rendezvous is enabled
			}
			blocked = true
			continue
		}
		// One place, or an RWMutex writer's copies: blocked if one of
		// the marking's conditions of them does not let it run.
		if cd.op.kind == trace.KindRUnlock {
			return false // it never blocks (runlock.go)
		}
		if cd.op.kind == trace.KindSleep && cd.op.class != trace.ClassClock {
			if !n.sleeping(t) {
				return false // it wakes
			}
			blocked = true // until an advance (sleep.go)
			continue
		}
		if accessOf(cd.op) == nilAccess {
			if cd.op.kind != trace.KindSend && cd.op.kind != trace.KindRecv {
				return false // a Close or a Len of a nil channel runs
			}
			blocked = true // a nil channel blocks forever
			continue
		}
		if condAwait(cd.op) {
			if !n.awaitBlocked(t, at) {
				return false
			}
			blocked = true
			continue
		}
		ps := n.resources(nil, n.places[cd.place].thread, cd.op)
		if len(ps) == 0 {
			return false
		}
		rs := make([]int32, 0, len(ps))
		for _, p := range ps {
			r := at(p)
			if r < 0 {
				return false
			}
			rs = append(rs, r)
		}
		if n.acceptsEach(cd.op, rs) {
			return false
		}
		blocked = true
	}
	return blocked
}
