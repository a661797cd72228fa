// This file models executions that a thread's failure ends inside the
// local code of a step of another thread: a thread started in that local
// code fails in its own first local code, after a branch on inputs, so the
// thread that started it never reaches its next operation and the threads
// it would have started next never start. What the step leaves those
// threads is then not known from that execution; another one, whose
// inputs take the other side, completes it.

package unfold

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// cutShort records in s.cut the threads of tr whose local code after its
// last step (before its first step, if it has none) the failure of the
// execution cut short: the ancestors, up to the thread whose step it was
// (the test body, before the first step), of the thread that failed after
// a branch (s.sym.fatalBr), if that thread started in that local code.
func (s *Strategy) cutShort(tr *trace.Trace) {
	clear(s.cut)
	if s.sym.fatalBr < 0 {
		return
	}
	last := int32(len(tr.Events) - 1)
	f := tr.Branches[s.sym.fatalBr].Thread
	for int(f) < len(tr.Threads) && tr.Threads[f].Step == last {
		p := tr.Threads[f].Parent
		if p == trace.NoThread {
			break
		}
		if s.cut == nil {
			s.cut = map[trace.ThreadID]bool{}
		}
		s.cut[p] = true
		f = p
	}
}

// settle checks thread condition d, which an earlier execution of its
// producer left, against next, the state the current execution leaves
// its thread in: where either was cut short (unknown), it is no
// divergence, and a d cut short takes next's state (completed). ok is
// false if the two differ.
func (n *net) settle(d int32, next threadStart) (completed, ok bool) {
	c := &n.conds[d]
	switch {
	case next.state == unknown:
		return false, true
	case c.state == unknown:
		c.state, c.op, c.value = next.state, next.op, next.value
		n.setCond(d, next)
		return true, true
	}
	return false, c.op == next.op
}

// completeKids gives event e, of the unfolding, the initial conditions of
// the threads that step i of tr started and that an earlier execution of
// e, cut short, did not start or left cut short; it returns the
// conditions it made or completed.
func (s *Strategy) completeKids(e int32, tr *trace.Trace, i int, now nowFunc, fatal bool, out []int32) []int32 {
	n := s.n
	kids := 0
	for c := range tr.Threads {
		if int(tr.Threads[c].Step) == i {
			kids++
		}
	}
	if kids == len(n.events[e].spawned) && !slices.ContainsFunc(n.events[e].spawned, func(d int32) bool { return n.conds[d].state == unknown }) {
		return out // nothing to complete: the usual case
	}
	added := false
	for c := range tr.Threads {
		if int(tr.Threads[c].Step) != i {
			continue
		}
		st := s.nextOf(tr, trace.ThreadID(c), i, now, fatal)
		d := int32(-1)
		for _, k := range n.events[e].spawned {
			if n.places[n.conds[k].place].thread == st.thread {
				d = k
			}
		}
		if d >= 0 {
			if done, _ := n.settle(d, st); done {
				out = append(out, d)
			}
			continue
		}
		d = n.newCond(n.threadPlace(st.thread), e)
		n.conds[d].state, n.conds[d].op, n.conds[d].value = st.state, st.op, st.value
		n.setCond(d, st)
		ev := &n.events[e]
		ev.spawned = append(ev.spawned, d)
		out = append(out, d)
		added = true
	}
	if added {
		n.refront(e)
	}
	return out
}

// refront computes the fronts of event e and of the events of the
// unfolding after it again: e's postset has new conditions (threads it
// starts that an earlier execution, cut short, did not).
func (n *net) refront(e int32) {
	past := map[int32]bool{e: true}
	n.front(e)
	var later []int32
	for x := range n.events {
		if ev := &n.events[x]; ev.in() && ev.order > n.events[e].order {
			later = append(later, int32(x))
		}
	}
	slices.SortFunc(later, func(a, b int32) int { return int(n.events[a].order - n.events[b].order) })
	for _, x := range later {
		for _, c := range n.events[x].pre {
			if p := n.conds[c].producer; p >= 0 && past[p] {
				past[x] = true
			}
		}
		if past[x] {
			n.front(x)
		}
	}
}

// extendCompleted makes the places and possible extensions of thread
// conditions cs, in the current marking, which an execution completed
// (or started) after an earlier one cut them short.
func (s *Strategy) extendCompleted(cs []int32) {
	n := s.n
	if len(cs) == 0 {
		return
	}
	s.newConds(cs)
	if n.observe {
		return
	}
	if n.naive {
		n.naiveExtensions(cs)
		return
	}
	for _, c := range cs {
		n.fromThread(c, s.marking)
	}
}
