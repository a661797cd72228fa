// This file searches the unfolding for deadlocks (Kähkönen et al. 2014, §4.4, Fig. 11):
// sets of concurrent thread conditions whose threads wait for one another's
// mutexes in a cycle, or for a mutex a finished thread holds.

package unfold

import (
	"fmt"
	"slices"

	"github.com/weft-go/weft/trace"
)

// holder returns the thread that holds the mutex at held condition h: the
// thread of the Lock (or successful TryLock) that made the mutex held, the
// failed TryLocks after it taken back.
func (n *net) holder(h int32) int32 { return n.events[n.acquire(h)].thread }

// acquire returns the event that made the mutex held at held condition h
// (a Lock or a successful TryLock; failed TryLocks after it are skipped).
func (n *net) acquire(h int32) int32 {
	for {
		e := n.conds[h].producer
		if n.events[e].op.kind == trace.KindTryLock && n.conds[n.conds[h].parent].state == held {
			h = n.conds[h].parent
			continue
		}
		return e
	}
}

// holds returns the mutex places whose mutex thread condition c's thread
// holds at c: those left held, in the cut of c's local configuration, by a
// Lock of c's thread (holds(c) in Fig. 11); and, unless the thread has
// finished there, its own place: a Join waits for the joined thread as
// for a lock the thread holds until it ends (Kähkönen et al. 2014, §4.4,
// footnote 1).
func (n *net) holds(c int32) []int32 {
	var out []int32
	if n.conds[c].state == pending && len(n.joiners[n.threadOf(c)]) > 0 {
		out = append(out, n.conds[c].place)
	}
	e := n.conds[c].producer
	if e < 0 {
		return out
	}
	th := n.places[n.conds[c].place].thread
	for _, f := range n.events[e].front {
		if n.places[f.place].kind == mutexPlace && n.conds[f.cond].state == held && n.holder(f.cond) == th {
			out = append(out, f.place)
		}
	}
	return out
}

// wants returns the mutex place thread condition c's thread wants to lock
// next, or -1 (wants(c) in Fig. 11).
func (n *net) wants(c int32) int32 {
	k := n.conds[c].op
	switch {
	case n.conds[c].state != pending:
		return -1
	case k.kind == trace.KindJoin:
		return n.threads[k.obj] // the joined thread's "lock" (holds)
	case k.kind != trace.KindLock || k.class != trace.ClassMutex:
		return -1
	}
	return n.objects[k.obj].mutex
}

// deadlocks returns the deadlocks of the unfolding: sets of concurrent
// thread conditions, no failed step before them, where each thread wants
// a mutex the next holds, the last one's held by the first (Fig. 11; a
// cycle of one thread wants a mutex it holds itself), or where a thread
// wants a mutex that a finished thread holds. Each set is sorted; none
// repeats.
func (n *net) deadlocks() [][]int32 {
	n.advances = n.advances[:0]
	seen := map[string]bool{}
	var found [][]int32
	add := func(s []int32) {
		s = slices.Clone(s)
		slices.Sort(s)
		k := fmt.Sprint(s)
		if !seen[k] {
			seen[k] = true
			found = append(found, s)
		}
	}
	// The lockers of each mutex place; those that hold a mutex start the
	// search.
	lockers := map[int32][]int32{}
	var starts []int32
	for i := range n.conds {
		c := int32(i)
		if n.places[n.conds[c].place].kind != threadPlace {
			continue
		}
		if m := n.wants(c); m >= 0 {
			lockers[m] = append(lockers[m], c)
			if hs := n.holds(c); slices.Contains(hs, m) {
				if ok, fatal := n.co(c); ok && !fatal {
					add([]int32{c}) // it wants a mutex it holds
				}
			} else if len(hs) > 0 {
				starts = append(starts, c)
			}
		}
	}
	var search func(first, c int32, set []int32)
	search = func(first, c int32, set []int32) {
		if n.stop.Poll() {
			return // a bound of the exploration passed: it ends here
		}
		for _, m := range n.holds(c) {
			for _, a := range n.nextLockers(c, m, lockers[m]) {
				// A cycle is searched from its thread of least stable
				// number only.
				if n.threadOf(a) <= n.threadOf(first) || len(n.holds(a)) == 0 {
					continue
				}
				if slices.Contains(set, a) {
					continue
				}
				s := append(set[:len(set):len(set)], a)
				if ok, fatal := n.co(s...); !ok || fatal {
					continue
				}
				if slices.Contains(n.holds(a), n.wants(first)) {
					add(s)
				} else if len(s) < len(n.threads) {
					search(first, a, s)
				}
			}
		}
	}
	for _, c := range starts {
		search(c, c, []int32{c})
	}
	// A thread that finished holding a mutex: every locker of it
	// concurrent with the finished condition waits forever.
	for th := range n.threads {
		for _, d := range n.dones[th] {
			for _, m := range n.holds(d) {
				for _, a := range lockers[m] {
					if ok, fatal := n.co(d, a); ok && !fatal {
						add([]int32{d, a})
					}
				}
			}
		}
	}
	// Markings where threads are blocked on RWMutexes, Onces, channels,
	// Conds, semaphores, monitors, awaits, Joins and WaitGroups
	// (stuck.go), unless a deadlock found above is in them.
	if lazy := !n.hasState(); !lazy || n.hasWaits() {
		for _, m := range n.stuckMarkings(lazy) {
			if n.advanceTo(m) >= 0 {
				// Time moves there: no deadlock, an advance (sleep.go,
				// timer.go).
				n.advances = append(n.advances, m)
				continue
			}
			in := func(d []int32) bool {
				for _, c := range d {
					if !slices.Contains(m, c) {
						return false
					}
				}
				return true
			}
			if !slices.ContainsFunc(found, in) {
				add(m)
			}
		}
	}
	return found
}

// nextLockers returns the candidates of FindNext among lockers, the thread
// conditions that want mutex place m, which thread condition c holds
// (Lemma 1): a locker concurrent with c has no event, or an event or
// possible extension that takes the free condition the acquisition of m
// that c holds took, or one an Unlock releasing that acquisition left.
func (n *net) nextLockers(c, m int32, lockers []int32) []int32 {
	if n.places[m].kind == threadPlace {
		return lockers // the joiners of c's thread
	}
	var h int32 = -1
	for _, f := range n.events[n.conds[c].producer].front {
		if f.place == m {
			h = f.cond
		}
	}
	e1 := n.acquire(h)
	frees := []int32{n.events[e1].pre[n.slot(e1, m)]}
	// The releases of the acquisition: free conditions below its output
	// through held ones.
	stack := []int32{n.events[e1].post[n.slot(e1, m)]}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, f := range n.conds[x].consumers {
			ev := &n.events[f]
			if !ev.in() {
				continue
			}
			d := ev.post[n.slot(f, m)]
			if n.conds[d].state == free {
				frees = append(frees, d)
			} else {
				stack = append(stack, d)
			}
		}
	}
	var out []int32
	for _, l := range frees {
		for _, f := range n.conds[l].consumers {
			if n.events[f].op.kind == trace.KindLock {
				out = append(out, n.events[f].pre[0])
			}
		}
	}
	for _, a := range lockers {
		if !n.hasOwnEvent(a) {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// threadOf returns the stable thread of thread condition c.
func (n *net) threadOf(c int32) int32 { return n.places[n.conds[c].place].thread }
