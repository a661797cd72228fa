// This file implements a subtree of the combined execution tree: a forced
// prefix, an input vector, and the inner strategy that explores the
// schedules below the prefix.

package concolic

import (
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// step is a choice of a forced prefix: the thread, its alternative, and the
// kind of operation it runs there (checked when the prefix is replayed).
type step struct {
	Thread trace.ThreadID
	Alt    int32
	Kind   trace.Kind
}

// sizes is the number of threads and objects of the state before a prefix
// step, as the first execution saw it.
type sizes struct{ threads, objects int }

// subtree is the part of the combined tree below a branch node: every
// execution replays prefix (the causal past of the branch, Kähkönen et al. 2014, §4.3)
// with the input vector that takes the branch's other side, and inner
// explores the schedules after it. The root subtree has no prefix and the
// default inputs.
//
// The inner strategy sees the prefix as a part of the program with no
// choice: in each prefix state, only the prefix's thread is enabled, with
// one alternative. In the first execution it is asked live; in the later
// ones it is asked before the execution (rehearse), on the states of the
// previous one, which the prefix makes identical, so that a strategy that
// would backtrack into the prefix (it has nothing left below it) ends the
// subtree without an execution.
type subtree struct {
	prefix []step
	sizes  []sizes // per prefix step, recorded in the first execution
	vector solver.Model
	inner  strategy.Strategy
	// thread, ord and side name the subtree's own branch (none for the
	// root): the ord-th branch of thread at step len(prefix), expected to
	// take side.
	thread trace.ThreadID
	ord    int
	side   bool
	root   bool

	started bool // the first execution has begun
	ready   bool // the inner strategy has prepared the next execution and been through its prefix
	done    bool
	// Per execution: live says the inner strategy is asked in the prefix
	// (the first execution); diverged is the step where the prefix could
	// not be replayed (-1: it could); deviated that the inner strategy
	// left the prefix.
	live     bool
	diverged int
	deviated bool
	seen     map[uint64]bool   // the schedules of the executions run
	view     []strategy.Thread // scratch for the restricted states
	st       strategy.State    // scratch for the rehearsed states
	tv       trace.Trace       // scratch for their traces
}

// next prepares the subtree's next execution; false when it is explored.
func (t *subtree) next() bool {
	t.diverged, t.deviated = -1, false
	switch {
	case t.done:
		return false
	case !t.started:
		t.started, t.live = true, true
		return t.inner.Next()
	case t.ready:
		t.ready, t.live = false, false
		return true
	}
	return false
}

// restrict returns a copy of threads in which only thread f is enabled,
// with one alternative.
func (t *subtree) restrict(threads []strategy.Thread, f trace.ThreadID) []strategy.Thread {
	t.view = append(t.view[:0], threads...)
	for i := range t.view {
		t.view[i].Alts = 0
	}
	t.view[f].Alts = 1
	return t.view
}

// choose picks the next step: the prefix's, then the inner strategy's. If
// the prefix cannot be replayed (its thread is not enabled, or runs another
// kind of operation: the inputs changed a part of the program no
// constraint holds), the first execution lets the inner strategy choose
// freely from there on (the prefix is cut there for the next ones), and a
// later one is cut.
func (t *subtree) choose(st *strategy.State) (c strategy.Choice, diverged, deviated bool) {
	// The inner strategy does not see every state as the runtime does
	// (the prefix's steps are not its own, and it sees them restricted):
	// what changed since its last Choose is not known.
	unknown := *st
	unknown.Changed, unknown.EnabledSet = nil, nil
	st = &unknown
	d := st.Step
	if d >= len(t.prefix) || t.diverged >= 0 {
		return t.inner.Choose(st), false, false
	}
	f := t.prefix[d]
	if int(f.Thread) >= len(st.Threads) || st.Threads[f.Thread].Alts <= f.Alt || st.Threads[f.Thread].Op.Kind != f.Kind {
		t.diverged = d
		if !t.live {
			return strategy.Cut, true, false
		}
		return t.inner.Choose(st), true, false
	}
	if !t.live {
		return strategy.Choice{Thread: f.Thread, Alt: f.Alt}, false, false
	}
	t.sizes = append(t.sizes, sizes{len(st.Trace.Threads), len(st.Trace.Objects)})
	view := *st
	view.Threads = t.restrict(st.Threads, f.Thread)
	c = t.inner.Choose(&view)
	if c.Thread == f.Thread && c.Alt == 0 {
		return strategy.Choice{Thread: f.Thread, Alt: f.Alt}, false, false
	}
	t.deviated, t.done = true, true
	return strategy.Cut, false, true
}

// repeated records the schedule of tr and reports whether an execution of
// the subtree ran it before. An inner strategy that explores by depth-first
// search never repeats a schedule unless it has backtracked into the
// prefix, which it does only once it has explored everything below it; it
// can do so without the rehearsal noticing when a step of the prefix has
// several alternatives, which the restricted state hides from it.
func (t *subtree) repeated(tr *trace.Trace) bool {
	h := uint64(14695981039346656037)
	for i := range tr.Events {
		e := &tr.Events[i]
		h = (h ^ uint64(uint32(e.Thread))) * 1099511628211
		h = (h ^ uint64(uint32(e.Alt))) * 1099511628211
	}
	if t.seen == nil {
		t.seen = map[uint64]bool{}
	}
	if t.seen[h] {
		t.done = true
		return true
	}
	t.seen[h] = true
	return false
}

// prepare readies the subtree's next execution after one that ended in
// trace tr: the inner strategy prepares it and chooses the prefix's steps
// on the states of tr's prefix. It reports whether the inner strategy left
// the prefix there (the subtree is then done, as it is when the inner
// strategy has no execution left).
func (t *subtree) prepare(tr *trace.Trace) (deviated bool) {
	if t.done {
		return false
	}
	if t.live && t.diverged >= 0 {
		t.prefix = t.prefix[:t.diverged]
	}
	if t.diverged >= 0 && !t.live || len(t.sizes) < len(t.prefix) || !t.inner.Next() {
		t.done = true
		return false
	}
	var in, br int
	for d, f := range t.prefix {
		for in < len(tr.Inputs) && int(tr.Inputs[in].Step) <= d {
			in++
		}
		for br < len(tr.Branches) && int(tr.Branches[br].Step) <= d {
			br++
		}
		sz := t.sizes[d]
		t.tv = *tr
		t.tv.Events, t.tv.Threads, t.tv.Objects = tr.Events[:d], tr.Threads[:sz.threads], tr.Objects[:sz.objects]
		t.tv.Final, t.tv.Inputs, t.tv.Branches = nil, tr.Inputs[:in], tr.Branches[:br]
		t.view = t.view[:0]
		for p := range sz.threads {
			op, ok := tr.PendingAt(d, trace.ThreadID(p))
			t.view = append(t.view, strategy.Thread{Op: op, Done: ok && op.Kind == trace.KindNone})
		}
		t.view[f.Thread].Alts = 1
		t.st = strategy.State{Step: d, Threads: t.view, Trace: &t.tv}
		c := t.inner.Choose(&t.st)
		if c.Thread != f.Thread || c.Alt != 0 {
			t.done = true
			return true
		}
	}
	t.ready = true
	return false
}

// input returns the vector's value of an input, or its default.
func (t *subtree) input(in strategy.InputRequest) uint64 {
	if v, ok := t.vector[in.Name]; ok {
		return v
	}
	return in.Default
}

// own returns the index in tr.Branches of the subtree's own branch, or -1
// (the root, or a prefix that was not replayed, or a branch that did not
// take the expected side).
func (t *subtree) own(tr *trace.Trace) int {
	if t.root || t.diverged >= 0 {
		return -1
	}
	k := int32(len(t.prefix))
	n := 0
	for i := range tr.Branches {
		b := &tr.Branches[i]
		if b.Step > k {
			break
		}
		if b.Step != k || b.Thread != t.thread {
			continue
		}
		if n == t.ord {
			if b.Taken != t.side {
				return -1
			}
			return i
		}
		n++
	}
	return -1
}
