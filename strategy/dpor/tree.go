// This file implements the path of states an exploration replays and
// extends: its nodes, the replay of a prefix, fresh choices and sleep sets
// (seed 000 §IV-C and IV-D, Figs. 5 and 7).

package dpor

import (
	"math/rand/v2"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Enabled is a thread enabled in a state, with the number of alternatives
// of its pending operation there.
type Enabled struct {
	Thread trace.ThreadID
	Alts   int32
}

// Sleeper is a thread in a sleep set: its pending operation and its number
// of alternatives when it fell asleep. It wakes when an executed event is
// dependent with the operation, or when the number changes (another thread
// offered a new partner to its receive: a transition that was not explored).
type Sleeper struct {
	Thread trace.ThreadID
	Op     trace.Op
	Alts   int32
}

// Node is a state on the current path, and what the exploration knows of it.
// The unit of choice is a thread: when a thread is explored from a state,
// every alternative of its pending operation there is (select cases,
// channel partners), one execution each, before another thread is.
type Node struct {
	// Enabled lists the enabled threads, in thread order.
	Enabled []Enabled
	// Thread and Alt are the choice explored now, out of Alts.
	Thread    trace.ThreadID
	Alt, Alts int32
	// Backtrack and Done are DPOR's sets (seed 000 Fig. 1); Force holds the
	// threads to explore although asleep (DPOR-1, seed 002 §6.1). flip uses
	// Done as the postponed set and Race, Racer as its race flag.
	Backtrack, Done, Force ThreadSet
	Race                   bool
	Racer                  trace.ThreadID
	// Sleep is the sleep set on entry to the state.
	Sleep []Sleeper
	cases []trace.Case // memory for the Sleep ops' cases
	// pass is the candidate sleep set of the next state: (Sleep ∪ Done)
	// minus Thread, set when the state is left (Fig. 7: the candidate sent
	// by the server).
	pass      []Sleeper
	passCases []trace.Case
}

// reset empties n for reuse, keeping its memory.
func (n *Node) reset() {
	n.Enabled = n.Enabled[:0]
	n.Backtrack.Clear()
	n.Done.Clear()
	n.Force.Clear()
	n.Race, n.Racer = false, trace.NoThread
	n.Sleep, n.cases = n.Sleep[:0], n.cases[:0]
	n.pass, n.passCases = n.pass[:0], n.passCases[:0]
}

// Asleep reports whether thread t is in the node's sleep set.
func (n *Node) Asleep(t trace.ThreadID) bool {
	for i := range n.Sleep {
		if n.Sleep[i].Thread == t {
			return true
		}
	}
	return false
}

// AltsOf returns the number of alternatives of thread t in the state, 0 if
// it is not enabled.
func (n *Node) AltsOf(t trace.ThreadID) int32 {
	for _, e := range n.Enabled {
		if e.Thread == t {
			return e.Alts
		}
	}
	return 0
}

// Tree is the current path of an exploration that re-executes the program
// from the start each time (stateless, seed 000 §IV-C): an execution replays
// the choices of Nodes[:Start], takes Nodes[Start]'s choice, which the
// strategy set in Next, and then chooses afresh, pushing new nodes. With
// Sleep, it keeps a sleep set per node (Fig. 7) and never chooses a sleeping
// thread afresh; when every enabled thread sleeps, it cuts the execution.
type Tree struct {
	Nodes []Node
	Start int
	// Sleep turns sleep sets on; Rel is the relation that wakes sleepers.
	Sleep bool
	Rel   trace.Relation
	// Rand, if not nil, randomises the order of fresh choices.
	Rand *rand.Rand
	pick []trace.ThreadID
}

// Choose implements strategy.Strategy.Choose for the tree's owner.
func (t *Tree) Choose(st *strategy.State) strategy.Choice {
	k := st.Step
	if k < len(t.Nodes) {
		n := &t.Nodes[k]
		if t.Sleep && k == t.Start {
			t.setPass(n, st)
		}
		return strategy.Choice{Thread: n.Thread, Alt: n.Alt}
	}
	n := t.push()
	for i := range st.Threads {
		if a := st.Threads[i].Alts; a > 0 {
			n.Enabled = append(n.Enabled, Enabled{trace.ThreadID(i), a})
		}
	}
	if t.Sleep && k > 0 {
		t.wake(n, &t.Nodes[k-1], &st.Trace.Events[k-1], st)
	}
	t.pick = t.pick[:0]
	for _, e := range n.Enabled {
		if !t.Sleep || !n.Asleep(e.Thread) {
			t.pick = append(t.pick, e.Thread)
		}
	}
	if len(t.pick) == 0 {
		// Every enabled thread sleeps: the execution is redundant (Fig. 7,
		// line 9).
		t.Nodes = t.Nodes[:k]
		return strategy.Cut
	}
	p := t.pick[0]
	if t.Rand != nil {
		p = t.pick[t.Rand.IntN(len(t.pick))]
	}
	n.Thread, n.Alt, n.Alts = p, 0, n.AltsOf(p)
	n.Backtrack.Add(p)
	if t.Sleep {
		t.setPass(n, st)
	}
	return strategy.Choice{Thread: p}
}

// push appends a fresh node, reusing the memory of an old one.
func (t *Tree) push() *Node {
	k := len(t.Nodes)
	if k < cap(t.Nodes) {
		t.Nodes = t.Nodes[:k+1]
	} else {
		t.Nodes = append(t.Nodes, Node{})
	}
	n := &t.Nodes[k]
	n.reset()
	return n
}

// setPass sets n.pass to (n.Sleep ∪ n.Done) minus n.Thread, with the
// pending operations of st.
func (t *Tree) setPass(n *Node, st *strategy.State) {
	n.pass, n.passCases = n.pass[:0], n.passCases[:0]
	for _, s := range n.Sleep {
		if s.Thread != n.Thread {
			n.pass, n.passCases = appendSleeper(n.pass, n.passCases, s)
		}
	}
	for _, e := range n.Enabled {
		if e.Thread != n.Thread && n.Done.Has(e.Thread) && !n.Asleep(e.Thread) {
			th := &st.Threads[e.Thread]
			n.pass, n.passCases = appendSleeper(n.pass, n.passCases, Sleeper{e.Thread, th.Op, th.Alts})
		}
	}
}

// wake sets n.Sleep to the sleepers of the parent's pass that ev, the event
// that led from the parent to n, leaves asleep (Fig. 7, line 12).
func (t *Tree) wake(n, parent *Node, ev *trace.Event, st *strategy.State) {
	for _, s := range parent.pass {
		if t.Rel.DependentOp(ev, s.Thread, s.Op) || st.Threads[s.Thread].Alts != s.Alts {
			continue
		}
		n.Sleep, n.cases = appendSleeper(n.Sleep, n.cases, s)
	}
}

// appendSleeper appends s to ss, copying its select cases into cases (the
// runtime reuses the memory of an execution's cases).
func appendSleeper(ss []Sleeper, cases []trace.Case, s Sleeper) ([]Sleeper, []trace.Case) {
	if len(s.Op.Cases) > 0 {
		lo := len(cases)
		cases = append(cases, s.Op.Cases...)
		s.Op.Cases = cases[lo:len(cases):len(cases)]
	}
	return append(ss, s), cases
}

// Truncate drops the nodes from depth n on (an execution that ended before
// reaching them).
func (t *Tree) Truncate(n int) {
	if n < len(t.Nodes) {
		t.Nodes = t.Nodes[:n]
	}
}

// PickFrom returns a thread of n.Enabled for which ok holds: the first, or a
// random one if the tree is randomised.
func (t *Tree) PickFrom(n *Node, ok func(trace.ThreadID) bool) (trace.ThreadID, bool) {
	t.pick = t.pick[:0]
	for _, e := range n.Enabled {
		if ok(e.Thread) {
			t.pick = append(t.pick, e.Thread)
		}
	}
	switch {
	case len(t.pick) == 0:
		return trace.NoThread, false
	case t.Rand != nil:
		return t.pick[t.Rand.IntN(len(t.pick))], true
	}
	return t.pick[0], true
}
