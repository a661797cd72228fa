// This file computes the possible extensions from a thread condition
// efficiently (Kähkönen et al. 2014, §5.2, cases 1 to 5; case 1, a symbolic branch,
// has both sides at once, symbolic.go; a select's and a rendezvous's are
// select.go's and meet.go's): the search starts from the condition the
// current marking holds and walks adjacent memory access sets, keeping
// those concurrent with the thread condition (Theorems 1 and 2).

package unfold

import (
	"encoding/binary"
	"slices"

	"github.com/weft-go/weft/trace"
)

// fromThread adds the possible extensions of thread condition t, which the
// current marking holds.
func (n *net) fromThread(t int32, marking []int32) {
	n.defaultsWith(t)
	c := &n.conds[t]
	if c.op.none() || c.state != pending {
		return
	}
	k := c.op
	if k.kind == kindBranch {
		n.branchExtensions(t)
		return
	}
	if n.daemon(t) {
		n.meets(t) // a timer's firings (timer.go)
		n.timerChanged(t)
		return
	}
	if k.kind == trace.KindSleep && k.class != trace.ClassClock {
		if !n.sleeping(t) {
			n.tryAlone(t) // only an advance wakes a sleeper (sleep.go)
		}
		return
	}
	th := n.places[c.place].thread
	ps := n.resources(n.psBuf[:0], th, k)
	n.psBuf = ps
	switch accessOf(k) {
	case readAccess, mutexAccess, stateAccess, timerAccess:
		n.searchPlace(t, ps[0], marking[ps[0]])
		n.meets(t)
		if holderRUnlock(k) {
			start := n.tupleBuf[:0]
			for _, p := range n.objects[k.obj].copies {
				start = append(start, marking[p])
			}
			n.tupleBuf = start
			n.holderAllExtensions(t, k, start)
		}
	case selectAccess:
		n.selectExts(t)
		n.meets(t)
	case condAccess, awaitAccess, clockTimerAccess:
		// Two places or more, each searched whole (the naive way for
		// these operations).
		n.naiveOf(t, k, -1, -1)
	case advanceAccess:
		n.advanceExts(t, -1, -1) // clock.go
	case nilAccess:
		if k.kind != trace.KindSend && k.kind != trace.KindRecv {
			n.tryAlone(t) // a Close (it panics), a Len
		}
	case writeAccess:
		start := n.tupleBuf[:0]
		for _, p := range ps {
			start = append(start, marking[p])
		}
		n.tupleBuf = start
		n.searchTuple(t, k, start)
	case joinAccess:
		n.joining(k.obj)
		ds := n.dones[k.obj]
		if u := n.frontOf(t, ps[0]); u >= 0 {
			ds = n.doneUnder[u] // the finished conditions concurrent with t are below u
		}
		for _, d := range ds {
			if ok, fatal := n.co(t, d); ok && !fatal {
				n.extension([]int32{t, d})
			}
		}
	}
	if k.kind == trace.KindLock && k.class == trace.ClassMutex && !n.hasOwnEvent(t) {
		ob := n.objects[k.obj]
		ob.lockers = append(ob.lockers, t)
	}
}

// searchPlace adds the extensions of thread condition t that take one
// condition of place p (a read, a Wait, a mutex operation): it walks the
// tree of p's conditions from start, which is concurrent with t, through
// the conditions concurrent with t (cases 2, 4 and 5). The conditions of
// one place form a tree (each is produced by one event, which took the
// place's previous condition), and those concurrent with t a subtree: the
// descendants of the condition of p in the cut of t's local configuration
// that are concurrent with t, every condition between two of them being
// concurrent with t too (Lemma 2). A mutex is one place whose conditions
// are free or held, one in every reachable marking (see the package doc):
// this walk is Theorem 2's search, the held conditions joining the
// alternatives of Definition 4.
func (n *net) searchPlace(t, p, start int32) {
	k := n.conds[t].op
	seen := n.scratch.search(n)
	n.scratch.seen[start] = seen
	type item struct {
		c     int32
		fatal bool
	}
	_, fatal := n.co(t, start)
	queue := []item{{start, fatal}}
	visit := func(d int32) {
		if d < 0 || n.scratch.seen[d] == seen {
			return
		}
		n.scratch.seen[d] = seen
		if ok, fatal := n.co(t, d); ok {
			queue = append(queue, item{d, fatal})
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		n.stats.Visited++
		s := it.c
		if !it.fatal && n.accepts(k, &n.conds[s]) {
			n.extension([]int32{t, s})
		}
		if d := n.conds[s].parent; d >= 0 {
			visit(d)
		}
		for _, f := range n.conds[s].consumers {
			if ev := &n.events[f]; ev.in() {
				visit(ev.post[n.slot(f, p)])
			}
		}
	}
}

// scanTuples is the number of tuples searchTuple looks through one by one
// before it indexes them.
const scanTuples = 32

// tupleItem is a tuple of searchTuple's queue: its index, and whether a
// failed step precedes it.
type tupleItem struct {
	i     int
	fatal bool
}

// searchTuple adds the write extensions of thread condition t, of
// operation k (its next one, or a holder's RUnlock that takes every copy),
// (case 3):
// a write takes one condition of every copy of its variable. The sets of
// such conditions concurrent with t are connected by adjacency
// (Definition 3, Theorem 1): one read or write of the variable leads from
// one to the next. The search starts from start, a condition of each copy
// in the order of the variable's copies, concurrent with t (the current
// marking's, or the cut of t's local configuration), and moves one event
// forward or back at a time. Every set met is tried; those whose
// conditions the operation accepts (an RWMutex's writer) are extensions.
func (n *net) searchTuple(t int32, k opKey, start []int32) {
	m := len(start)
	// The tuples met are kept end to end in flat, the i-th at i*m; the
	// queue holds the indexes of those concurrent with t, fatal whether
	// a failed step precedes them. A tuple is looked for among those met
	// by a scan while they are few, by a map of their keys beyond.
	sc := &n.scratch
	flat := append(sc.tuples[:0], start...)
	var key []byte
	keyOf := func(s []int32) string {
		key = key[:0]
		for _, c := range s {
			key = binary.LittleEndian.AppendUint32(key, uint32(c))
		}
		return string(key)
	}
	var seen map[string]struct{}
	met := func(s []int32, before int) bool {
		if seen == nil && before <= scanTuples {
			for j := range before {
				if slices.Equal(flat[j*m:(j+1)*m], s) {
					return true
				}
			}
			return false
		}
		if seen == nil {
			seen = make(map[string]struct{}, 2*before)
			for j := range before {
				seen[keyOf(flat[j*m:(j+1)*m])] = struct{}{}
			}
		}
		_, ok := seen[keyOf(s)]
		return ok
	}
	pre := append(sc.tuplePre[:0], t)
	pre = append(pre, flat...)
	_, fatal := n.co(pre...)
	queue := append(sc.tupleQueue[:0], tupleItem{0, fatal})
	defer func() { sc.tuples, sc.tuplePre, sc.tupleQueue = flat, pre, queue }()
	// visit meets the tuple at the end of flat.
	visit := func() {
		i := len(flat)/m - 1
		s := flat[i*m:]
		if met(s, i) {
			flat = flat[:i*m]
			return
		}
		if seen != nil {
			seen[keyOf(s)] = struct{}{}
		}
		pre = append(pre[:1], s...)
		if ok, fatal := n.co(pre...); ok {
			queue = append(queue, tupleItem{i, fatal})
		}
	}
	// with meets tuple i with copy j's condition c.
	with := func(i, j int, c int32) {
		flat = append(flat, flat[i*m:(i+1)*m]...)
		flat[len(flat)-m+j] = c
		visit()
	}
	for h := 0; h < len(queue); h++ {
		it := queue[h]
		n.stats.Visited++
		if !it.fatal {
			pre = append(pre[:1], flat[it.i*m:(it.i+1)*m]...)
			if n.acceptsEach(k, pre[1:]) {
				n.extension(pre)
			}
		}
		for j := range m {
			c := flat[it.i*m+j]
			// Forward: a read of copy j, or a write taking exactly the
			// tuple.
			for _, f := range n.conds[c].consumers {
				ev := &n.events[f]
				if !ev.in() {
					continue
				}
				switch accessOf(ev.op) {
				case readAccess:
					with(it.i, j, ev.post[1])
				case awaitAccess, selectAccess, clockTimerAccess: // a read of several variables, of a case's channel, or of the clock with a timer
					with(it.i, j, ev.post[n.slot(f, n.conds[c].place)])
				case writeAccess:
					if j == 0 && slices.Equal(ev.pre[1:], flat[it.i*m:(it.i+1)*m]) {
						flat = append(flat, ev.post[1:]...)
						visit()
					}
				case advanceAccess: // a write of the clock, its copies first (clock.go)
					if j == 0 && slices.Equal(ev.pre[1:1+m], flat[it.i*m:(it.i+1)*m]) {
						flat = append(flat, ev.post[1:1+m]...)
						visit()
					}
				}
			}
			// Back: the read that produced copy j, or the write that
			// produced the whole tuple.
			if e := n.conds[c].producer; e >= 0 {
				ev := &n.events[e]
				switch accessOf(ev.op) {
				case readAccess:
					with(it.i, j, ev.pre[1])
				case awaitAccess, selectAccess, clockTimerAccess:
					with(it.i, j, ev.pre[n.slot(e, n.conds[c].place)])
				case writeAccess:
					if j == 0 && slices.Equal(ev.post[1:], flat[it.i*m:(it.i+1)*m]) {
						flat = append(flat, ev.pre[1:]...)
						visit()
					}
				case advanceAccess:
					if j == 0 && slices.Equal(ev.post[1:1+m], flat[it.i*m:(it.i+1)*m]) {
						flat = append(flat, ev.pre[1:1+m]...)
						visit()
					}
				}
			}
		}
	}
}

// acceptsEach reports whether the operation k can take each condition of
// cs (accepts): for an RWMutex's writer, whether the tuple of its copies
// lets it run (each copy holds the writers' state; rwAccepts).
func (n *net) acceptsEach(k opKey, cs []int32) bool {
	if k.class == trace.ClassRWMutex {
		return n.rwAccepts(k, cs)
	}
	if condAwait(k) {
		return false // only with its thread condition (condAwaitExts)
	}
	if accessOf(k) == awaitAccess {
		return false // a loop that yields is blocked for good (await.go)
	}
	for _, c := range cs {
		if !n.accepts(k, &n.conds[c]) {
			return false
		}
	}
	return true
}
