// This file implements the path of states an exploration replays and
// extends: its nodes, the replay of a prefix, fresh choices and sleep sets
// (Saarikivi et al. 2012, §IV-C and IV-D, Figs. 5 and 7).

package dpor

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/pages"
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
	// Ann are the other accesses of the thread's step, seen when it ran Op:
	// what it announced in the local code after it (trace.Steps) and the
	// operations of the partners its receive met. An access to newObject
	// stands for any object first used after the state where the step was
	// seen, which had Objs objects: objects are numbered by first use, so
	// their numbers are stable only in the prefix executions share.
	Ann  []trace.Access
	Objs int32
}

// newObject marks, in Sleeper.Ann, an object first used in the local code of
// the step.
const newObject trace.ObjectID = -100

// Node is a state on the current path, and what the exploration knows of it.
// The unit of choice is a thread: when a thread is explored from a state,
// every alternative of its pending operation there is (select cases,
// channel partners), one execution each, before another thread is.
type Node struct {
	// Enabled holds the enabled threads, which it shares with the state
	// before where they are the same.
	Enabled EnabledSet
	// Thread and Alt are the choice explored now, out of Alts.
	Thread    trace.ThreadID
	Alt, Alts int32
	// Backtrack and Done are DPOR's sets (Saarikivi et al. 2012, Fig. 1); Force holds the
	// threads to explore although asleep (DPOR-1, Kähkönen et al. 2014, §6.1). flip uses
	// Done as the postponed set and Race, Racer as its race flag.
	Backtrack, Done, Force ThreadSet
	Race                   bool
	Racer                  trace.ThreadID
	// Sleep is the sleep set on entry to the state, with its memory in
	// more.
	Sleep []Sleeper
	// more holds what most states of a long execution leave empty, apart
	// (nil until needed), so that a state costs few bytes: a long
	// execution pushes a node per step, and its memory is much of the
	// cost of a first execution.
	more *nodeMore
	// objs is the number of objects known in the state.
	objs int32
	// The entries chgLo to chgLo+chgN of the tree's chgs hold the
	// threads whose pending operation or number of alternatives differ
	// from those of the state before (every thread in the first state),
	// to check that a replay of the state finds them again: a state costs
	// what changed, not the number of threads. The states of the path keep
	// their changes in order in the one stack, with no memory of their own.
	chgLo, chgN int32
}

// change is a thread's pending operation (its kind, class and object) and
// number of alternatives in a state, where they changed: an entry of
// Tree.chgs.
type change struct {
	thread trace.ThreadID
	kind   trace.Kind
	class  trace.Class
	obj    trace.ObjectID
	alts   int32
}

// pending returns c's operation and alternatives.
func (c *change) pending() pending {
	return pending{trace.Op{Kind: c.kind, Class: c.class, Obj: c.obj}, c.alts}
}

// pendChange is a change as a unit carries it.
type pendChange struct {
	Thread trace.ThreadID
	Op     trace.Op
	Alts   int32
}

// pending is a thread's pending operation and number of alternatives in a
// state of the path (Tree.rec).
type pending struct {
	op   trace.Op
	alts int32
}

// arena holds the memory of sleepers' slices: the runtime reuses the memory
// of an execution's select cases, and a node outlives its execution.
type arena struct {
	cases []trace.Case
	acc   []trace.Access
}

// nodeMore is the part of a Node that most states leave empty.
type nodeMore struct {
	mem arena // memory for the Sleep ops' cases and announcements
	// pass is the candidate sleep set of the next state: (Sleep ∪ Done)
	// minus Thread, set when the state is left (Fig. 7: the candidate sent
	// by the server).
	pass    []Sleeper
	passMem arena
	// ann holds what each thread explored here announced after its step.
	ann []announced
}

// extra returns n.more, made if n has none yet. It stays with the node
// when the node is reset, with its memory.
func (n *Node) extra() *nodeMore {
	if n.more == nil {
		n.more = new(nodeMore)
	}
	return n.more
}

// passed returns the candidate sleep set of the next state (nodeMore.pass).
func (n *Node) passed() []Sleeper {
	if n.more == nil {
		return nil
	}
	return n.more.pass
}

// announcements returns what each thread explored here announced after
// its step (nodeMore.ann).
func (n *Node) announcements() []announced {
	if n.more == nil {
		return nil
	}
	return n.more.ann
}

// announced is an access a thread announced after its step from a node.
type announced struct {
	thread trace.ThreadID
	acc    trace.Access
}

// reset empties n for reuse, keeping its memory.
func (n *Node) reset() {
	n.Enabled = EnabledSet{} // shared with other nodes: never written
	n.chgLo, n.chgN = 0, 0
	n.Backtrack.Clear()
	n.Done.Clear()
	n.Force.Clear()
	n.Race, n.Racer = false, trace.NoThread
	n.Sleep = n.Sleep[:0]
	if m := n.more; m != nil {
		m.mem.cases, m.mem.acc = m.mem.cases[:0], m.mem.acc[:0]
		m.pass = m.pass[:0]
		m.passMem.cases, m.passMem.acc = m.passMem.cases[:0], m.passMem.acc[:0]
		m.ann = m.ann[:0]
	}
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
func (n *Node) AltsOf(t trace.ThreadID) int32 { return n.Enabled.Alts(t) }

// Tree is the current path of an exploration that re-executes the program
// from the start each time (stateless, Saarikivi et al. 2012, §IV-C): an execution replays
// the choices of Nodes[:Start], takes Nodes[Start]'s choice, which the
// strategy set in Next, and then chooses afresh, pushing new nodes. With
// Sleep, it keeps a sleep set per node (Fig. 7) and never chooses a sleeping
// thread afresh; when every enabled thread sleeps, it cuts the execution.
type Tree struct {
	Nodes NodeStack
	Start int
	// Floor is the number of states above the root of a tree resumed from
	// a unit (ResumeUnit): its owner never backtracks into them.
	Floor int
	// Sleep turns sleep sets on; Rel is the relation that wakes sleepers.
	Sleep bool
	Rel   trace.Relation
	// Rand, if not nil, randomises the order of fresh choices.
	Rand *rand.Rand
	// Avoid holds threads that fresh choices take only when no other
	// thread can run (flip's postponed threads).
	Avoid ThreadSet
	// Diverged, if not nil, says how a replayed state differed from the
	// recorded one: the program is not deterministic, and the path no
	// longer describes it.
	Diverged error
	pick     []trace.ThreadID
	acc      []trace.Access
	vacc     []trace.Access
	// rec holds each thread's pending operation and alternatives in the
	// state of the node Choose saw last, kept from node to node with their
	// changes (Node.chgLo, chgs); cand is scratch space of Choose.
	rec  []pending
	chgs pages.Stack[change]
	cand []trace.ThreadID
	// frozen holds the states above a resumed tree's root as the unit
	// brought them, to tell what its exploration added (HandbackUnit).
	frozen []frozen
}

// Choose implements strategy.Strategy.Choose for the tree's owner. A
// replayed state that differs from the recorded one cuts the execution and
// sets Diverged.
//
// A state records the threads whose pending operation or alternatives
// changed since the state before (Node.chgLo), and shares the set of
// enabled threads of the state before when it is the same: with the
// threads the runtime lists as changed (strategy.State.Changed), a step
// costs what changed, not the number of threads.
func (t *Tree) Choose(st *strategy.State) strategy.Choice {
	k := st.Step
	if k == 0 {
		t.rec = t.rec[:0]
	}
	if t.Diverged != nil {
		return strategy.Cut
	}
	cand := t.candidates(st)
	if k < t.Nodes.Len() {
		n := t.Nodes.At(k)
		for i := n.chgLo; i < n.chgLo+n.chgN; i++ {
			c := t.chgs.At(int(i))
			t.recSet(c.thread, c.pending())
			cand = append(cand, c.thread)
		}
		t.cand = cand
		if d := t.differs(n, st, cand); d != "" {
			t.Diverged = fmt.Errorf("step %d: %s", k+1, d)
			return strategy.Cut
		}
		if t.Sleep && k == t.Start {
			t.setPass(n, st)
		}
		return strategy.Choice{Thread: n.Thread, Alt: n.Alt}
	}
	n := t.push()
	n.objs = int32(len(st.Trace.Objects))
	t.record(n, k, st, cand)
	if t.Sleep && k > 0 {
		t.wake(n, t.Nodes.At(k-1), &st.Trace.Events[k-1], st)
	}
	p, ok := t.fresh(n)
	if !ok {
		// Every enabled thread sleeps: the execution is redundant (Fig. 7,
		// line 9).
		t.Nodes.Truncate(k)
		return strategy.Cut
	}
	n.Thread, n.Alt, n.Alts = p, 0, n.AltsOf(p)
	n.Backtrack.Add(p)
	if t.Sleep {
		t.setPass(n, st)
	}
	return strategy.Choice{Thread: p}
}

// candidates returns the threads of st that may differ from the state of
// the last Choose: st.Changed, or every thread when it is not known.
func (t *Tree) candidates(st *strategy.State) []trace.ThreadID {
	cand := t.cand[:0]
	if st.Changed != nil && st.Step > 0 {
		cand = append(cand, st.Changed...)
	} else {
		for p := range max(len(st.Threads), len(t.rec)) {
			cand = append(cand, trace.ThreadID(p))
		}
	}
	t.cand = cand
	return cand
}

// recSet sets thread p's entry of t.rec.
func (t *Tree) recSet(p trace.ThreadID, x pending) {
	if n := len(t.rec); int(p) >= n {
		// Doubled: append would grow the threads of a long execution
		// a quarter at a time. The new entries are empty.
		if int(p) >= cap(t.rec) {
			t.rec = slices.Grow(t.rec, max(int(p)+1, 2*cap(t.rec))-n)
		}
		t.rec = t.rec[:int(p)+1]
		clear(t.rec[n:])
	}
	t.rec[p] = x
}

// stPending returns thread p's pending operation (kind, class and object)
// and alternatives in st; alternatives 0 if p does not exist.
func stPending(st *strategy.State, p trace.ThreadID) pending {
	if int(p) >= len(st.Threads) {
		return pending{}
	}
	th := &st.Threads[p]
	return pending{trace.Op{Kind: th.Op.Kind, Class: th.Op.Class, Obj: th.Op.Obj}, th.Alts}
}

// record sets fresh node n, at depth k, to state st, of which the threads
// cand may differ from the state before: its changes and its enabled
// threads, those of the node before if none changed its alternatives.
func (t *Tree) record(n *Node, k int, st *strategy.State, cand []trace.ThreadID) {
	altsChanged := false
	t.startChanges(n, k)
	for _, p := range cand {
		x := stPending(st, p)
		var old pending
		if int(p) < len(t.rec) {
			old = t.rec[p]
		}
		if x.alts == old.alts && x.op.Kind == old.op.Kind && x.op.Class == old.op.Class && x.op.Obj == old.op.Obj {
			continue
		}
		if x.alts != old.alts {
			altsChanged = true
		}
		t.recSet(p, x)
		t.addChange(n, change{p, x.op.Kind, x.op.Class, x.op.Obj, x.alts})
	}
	var en EnabledSet
	if k > 0 {
		en = t.Nodes.At(k - 1).Enabled
	}
	if altsChanged {
		for i := n.chgLo; i < n.chgLo+n.chgN; i++ {
			c := t.chgs.At(int(i))
			en = en.With(c.thread, c.alts)
		}
	}
	n.Enabled = en
}

// startChanges empties the changes of n, the state at depth k on top of
// the path: they start where those of the state before end.
func (t *Tree) startChanges(n *Node, k int) {
	lo := int32(0)
	if k > 0 {
		p := t.Nodes.At(k - 1)
		lo = p.chgLo + p.chgN
	}
	t.chgs.Truncate(int(lo))
	n.chgLo, n.chgN = lo, 0
}

// addChange adds c to the changes of n, the state on top of the path.
func (t *Tree) addChange(n *Node, c change) {
	*t.chgs.Push() = c
	n.chgN++
}

// fresh returns the thread a fresh choice from n takes: the first enabled
// thread not asleep and not avoided, or a random one of them, or of those
// not asleep if every one is avoided; ok is false if every enabled thread
// sleeps.
func (t *Tree) fresh(n *Node) (p trace.ThreadID, ok bool) {
	awake := func(q trace.ThreadID) bool { return !t.Sleep || !n.Asleep(q) }
	if t.Rand == nil {
		first := trace.NoThread
		for e := range n.Enabled.All() {
			if !awake(e.Thread) {
				continue
			}
			if !t.Avoid.Has(e.Thread) {
				return e.Thread, true
			}
			if first == trace.NoThread {
				first = e.Thread
			}
		}
		return first, first != trace.NoThread
	}
	t.pick = t.pick[:0]
	for e := range n.Enabled.All() {
		if awake(e.Thread) && !t.Avoid.Has(e.Thread) {
			t.pick = append(t.pick, e.Thread)
		}
	}
	if len(t.pick) == 0 {
		for e := range n.Enabled.All() {
			if awake(e.Thread) {
				t.pick = append(t.pick, e.Thread)
			}
		}
	}
	if len(t.pick) == 0 {
		return trace.NoThread, false
	}
	return t.pick[t.Rand.IntN(len(t.pick))], true
}

// differs says how state st differs from the state n recorded, in its
// enabled threads, their pending operations and their alternatives, or
// returns "" if it does not. t.rec holds n's state; only the threads of
// cand may differ (those that changed in st or in n).
func (t *Tree) differs(n *Node, st *strategy.State, cand []trace.ThreadID) string {
	bad := trace.NoThread
	for _, p := range cand {
		var rec pending
		if int(p) < len(t.rec) {
			rec = t.rec[p]
		}
		x := stPending(st, p)
		if x.alts != rec.alts || (x.alts > 0 && (x.op.Kind != rec.op.Kind || x.op.Obj != rec.op.Obj)) {
			if bad == trace.NoThread || p < bad {
				bad = p
			}
		}
	}
	if p := bad; p != trace.NoThread {
		var rec pending
		if int(p) < len(t.rec) {
			rec = t.rec[p]
		}
		switch {
		case rec.alts == 0:
			return fmt.Sprintf("recorded %v not enabled, but it is enabled with %v", p, st.Threads[p].Op)
		case int(p) >= len(st.Threads):
			return fmt.Sprintf("recorded %v enabled with %v, but the execution has no thread %v", p, rec.op, p)
		case st.Threads[p].Alts == 0:
			return fmt.Sprintf("recorded %v enabled with %v, but it is blocked or finished (%v)", p, rec.op, st.Threads[p].Op)
		}
		return fmt.Sprintf("recorded %v with %v (%d alternatives), but it has %v (%d alternatives)", p, rec.op, rec.alts, st.Threads[p].Op, st.Threads[p].Alts)
	}
	if n.Alt >= n.AltsOf(n.Thread) {
		return fmt.Sprintf("recorded %v alternative %d, but it has %d", n.Thread, n.Alt, n.AltsOf(n.Thread))
	}
	return ""
}

// push appends a fresh node, reusing the memory of an old one.
func (t *Tree) push() *Node {
	n := t.Nodes.Push()
	n.reset()
	return n
}

// setPass sets n.pass to (n.Sleep ∪ n.Done) minus n.Thread, with the
// pending operations of st.
func (t *Tree) setPass(n *Node, st *strategy.State) {
	if m := n.more; m != nil {
		m.pass = m.pass[:0]
		m.passMem.cases, m.passMem.acc = m.passMem.cases[:0], m.passMem.acc[:0]
	}
	for _, s := range n.Sleep {
		if s.Thread != n.Thread {
			m := n.extra()
			m.pass = m.passMem.appendSleeper(m.pass, s)
		}
	}
	// The threads of Done that are enabled, in thread order (as
	// n.Enabled lists them): Done is small, and walking it rather than
	// the enabled threads keeps a step's cost from growing with their
	// number.
	for q := range n.Done.All() {
		if q == n.Thread || n.AltsOf(q) == 0 || n.Asleep(q) {
			continue
		}
		th := &st.Threads[q]
		t.vacc = t.vacc[:0]
		for _, a := range n.announcements() {
			if a.thread == q {
				t.vacc = append(t.vacc, a.acc)
			}
		}
		m := n.extra()
		m.pass = m.passMem.appendSleeper(m.pass, Sleeper{q, th.Op, th.Alts, t.vacc, n.objs})
	}
}

// Partners adds to the backtracking set of each state the execution left
// for the first time (from Start on) the partner of the rendezvous taken
// there if the partner was enabled there itself: its select could also take
// another case on its own, a transition of the same thread that no race
// between threads reveals.
func (t *Tree) Partners(tr *trace.Trace) {
	for k := t.Start; k < t.Nodes.Len(); k++ {
		n := t.Nodes.At(k)
		if q := tr.Events[k].Partner; q != trace.NoThread && n.AltsOf(q) > 0 {
			n.Backtrack.Add(q)
		}
	}
}

// Learn records, for the nodes of the states the execution left for the
// first time (from Start on), the rest of their explored thread's step:
// what it announced in the local code after it (steps, computed on the
// finished trace) and, for a rendezvous, the partner's operation. A thread
// that falls asleep there carries them.
func (t *Tree) Learn(tr *trace.Trace, steps *trace.Steps) {
	for k := t.Start; k < t.Nodes.Len(); k++ {
		n := t.Nodes.At(k)
		t.vacc = append(t.vacc[:0], steps.Announced(k)...)
		if e := &tr.Events[k]; e.Partner != trace.NoThread {
			t.vacc = t.Rel.AppendOpAccesses(t.vacc, e.PartnerOp, false, false)
		}
		for _, a := range t.vacc {
			if a.Obj >= trace.ObjectID(n.objs) {
				a.Obj = newObject
			}
			if !slices.Contains(n.announcements(), announced{n.Thread, a}) {
				m := n.extra()
				m.ann = append(m.ann, announced{n.Thread, a})
			}
		}
	}
}

// wake sets n.Sleep to the sleepers of the parent's pass that the step that
// led from the parent to n (event ev and the operations its threads reached
// in its local code, trace.Steps) leaves asleep (Fig. 7, line 12). A sleeper
// also wakes when its number of alternatives changed.
func (t *Tree) wake(n, parent *Node, ev *trace.Event, st *strategy.State) {
	k := st.Step
	t.acc = t.Rel.AppendEventAccesses(t.acc[:0], ev)
	t.acc = trace.AppendAnnounced(t.acc, st.Threads[ev.Thread].Op, st.Trace.Objects)
	if ev.Partner != trace.NoThread {
		t.acc = trace.AppendAnnounced(t.acc, st.Threads[ev.Partner].Op, st.Trace.Objects)
	}
	for c := len(st.Trace.Threads) - 1; c >= 0 && int(st.Trace.Threads[c].Step) == k-1; c-- {
		t.acc = trace.AppendAnnounced(t.acc, st.Threads[c].Op, st.Trace.Objects)
	}
	for _, s := range parent.passed() {
		if st.Threads[s.Thread].Alts != s.Alts || t.Rel.DependentOp(ev, s.Thread, s.Op) {
			continue
		}
		t.vacc = t.Rel.AppendOpAccesses(t.vacc[:0], s.Op, false, false)
		if conflict(t.acc, t.vacc) || conflict(t.acc, s.Ann) || (slices.ContainsFunc(s.Ann, isNew) && usesNew(t.acc, s.Objs)) {
			continue
		}
		n.Sleep = n.extra().mem.appendSleeper(n.Sleep, s)
	}
}

// isNew reports whether a stands for an object first used after its state.
func isNew(a trace.Access) bool { return a.Obj == newObject }

// usesNew reports whether some access of as is to an object numbered objs or
// more.
func usesNew(as []trace.Access, objs int32) bool {
	return slices.ContainsFunc(as, func(a trace.Access) bool { return a.Obj >= trace.ObjectID(objs) })
}

// conflict reports whether some access of as conflicts with some of bs.
func conflict(as, bs []trace.Access) bool {
	for _, a := range as {
		for _, b := range bs {
			if trace.Conflict(a, b) {
				return true
			}
		}
	}
	return false
}

// appendSleeper appends s to ss, copying its slices into the arena.
func (m *arena) appendSleeper(ss []Sleeper, s Sleeper) []Sleeper {
	if len(s.Op.Cases) > 0 {
		lo := len(m.cases)
		m.cases = append(m.cases, s.Op.Cases...)
		s.Op.Cases = m.cases[lo:len(m.cases):len(m.cases)]
	}
	if len(s.Ann) > 0 {
		lo := len(m.acc)
		m.acc = append(m.acc, s.Ann...)
		s.Ann = m.acc[lo:len(m.acc):len(m.acc)]
	}
	return append(ss, s)
}

// Truncate drops the nodes from depth n on (an execution that ended before
// reaching them).
func (t *Tree) Truncate(n int) {
	if n < t.Nodes.Len() {
		t.Nodes.Truncate(n)
	}
}

// AfterFailure handles an execution of n steps that ended with end. A
// failure (other than a deadlock or a leak, which are maximal), or an
// assumption that did not hold (w.Assume), stops the execution early: the operations the other threads would have run after it
// are never seen, and neither are their races with the steps before it. So
// every thread enabled before the last step is added to that state's
// backtracking set, to run first; if the failure recurs, the search moves
// back one step at a time.
func (t *Tree) AfterFailure(n int, end trace.End) {
	if !end.InStep() || n == 0 || n > t.Nodes.Len() {
		return
	}
	last := t.Nodes.At(n - 1)
	for e := range last.Enabled.All() {
		last.Backtrack.Add(e.Thread)
	}
}

// PickFrom returns a thread of n.Enabled for which ok holds: the first, or a
// random one if the tree is randomised.
func (t *Tree) PickFrom(n *Node, ok func(trace.ThreadID) bool) (trace.ThreadID, bool) {
	if t.Rand == nil {
		for e := range n.Enabled.All() {
			if ok(e.Thread) {
				return e.Thread, true
			}
		}
		return trace.NoThread, false
	}
	t.pick = t.pick[:0]
	for e := range n.Enabled.All() {
		if ok(e.Thread) {
			t.pick = append(t.pick, e.Thread)
		}
	}
	if len(t.pick) == 0 {
		return trace.NoThread, false
	}
	return t.pick[t.Rand.IntN(len(t.pick))], true
}
