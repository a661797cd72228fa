// This file builds the symbolic trace of an execution and its interference
// scenario (Farzan et al. 2013, §4, §5: π and IS(π)) into the forest, step by step as
// the trace grows.

package con2

import (
	"errors"
	"fmt"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// ErrUnsupported is wrapped by the error of a strategy that met an
// operation con2 does not model. Every operation of weft's programs is
// modelled (doc.go): it guards against kinds added later.
var ErrUnsupported = errors.New("con2 does not model the operation")

// builder turns an execution into nodes of the forest: one per action of
// Farzan et al. 2013's Σ (a read, a write, both for an atomic update, a lock acquire
// or release, a fork, a join, a symbolic branch), in each thread's order.
// A read is interfered when the last write to its variable before it in
// the trace is not the one it reads locally (forest.locW): a write of
// another thread, or of its parent after the fork.
type builder struct {
	f     *forest
	names *trace.ThreadNames
	ren   renamer
	tr    *trace.Trace

	slot int // the next step: its local actions, then its event
	br   int // branches done
	thr  int // threads whose fork is done
	acc  int // the cursor in tr.Accesses
	// last holds each thread's last node (by ThreadID); for a thread with
	// no node yet, the fork that started it.
	last      []int32
	lastWrite map[uint64]int32
	// due holds, by the key of a timer's channel, the advance of the
	// clock that made the timer due last (time at any step).
	due map[uint64]int32
	// steps holds the node of each step (the receiver's for a
	// rendezvous); trk follows the sources the runtime does not record.
	steps []int32
	trk   *tracker
	// ms is the state of the primitives after the steps built, in which
	// the strategy foresees what a pending step synchronises with.
	ms model.State
	// made holds the nodes of the execution in the order they ran;
	// observed those of them no execution had run before.
	made, observed []int32
	err            error
}

// reset starts building execution tr.
func (b *builder) reset(f *forest, names *trace.ThreadNames, tr *trace.Trace) {
	b.f, b.names, b.tr = f, names, tr
	names.Reset()
	b.ren.reset()
	b.slot, b.br, b.thr, b.acc = 0, 0, 1, 0
	b.last = append(b.last[:0], none)
	if b.lastWrite == nil {
		b.lastWrite = map[uint64]int32{}
	}
	clear(b.lastWrite)
	if b.due == nil {
		b.due = map[uint64]int32{}
	}
	clear(b.due)
	b.trk = newTracker()
	b.ms.Reset(nil, 0)
	b.steps = b.steps[:0]
	b.made, b.observed, b.err = b.made[:0], b.observed[:0], nil
}

// stable returns the stable number of thread p.
func (b *builder) stable(p trace.ThreadID) trace.ThreadID { return b.names.Stable(p) }

// own returns the last node of thread p, or none if it has none.
func (b *builder) own(p trace.ThreadID) int32 {
	n := b.last[p]
	if n == none || b.f.nodes[n].thread != b.stable(p) {
		return none
	}
	return n
}

// advance builds the nodes of every action the trace holds so far. Called
// at a scheduling point, every thread has run its local code: the local
// actions before the next step are all there.
func (b *builder) advance() {
	tr := b.tr
	b.names.Sync(tr.Threads)
	for len(b.last) < len(tr.Threads) {
		b.last = append(b.last, none)
	}
	for b.err == nil {
		s := int32(b.slot)
		// The local actions before step s: the threads started in the
		// local code of step s-1 and the branches taken before step s,
		// in the order they happened.
		for {
			fork := b.thr < len(tr.Threads) && tr.Threads[b.thr].Step == s-1
			branch := b.br < len(tr.Branches) && tr.Branches[b.br].Step == s
			switch {
			case fork && (!branch || tr.Threads[b.thr].Branch <= int32(b.br)):
				b.fork(trace.ThreadID(b.thr))
				b.thr++
				continue
			case branch:
				b.branch(b.br)
				b.br++
				continue
			}
			break
		}
		if b.slot >= len(tr.Events) {
			return
		}
		b.event(b.slot)
		b.ms.Grow(tr.Objects, len(tr.Threads))
		b.ms.Apply(&tr.Events[b.slot])
		b.slot++
	}
}

// add interns the node of thread p with label l and source src, after
// p's last node, and records it.
func (b *builder) add(p trace.ThreadID, l label, src int32) int32 {
	n, _ := b.f.intern(key{thread: b.stable(p), up: b.last[p], src: src, lab: l})
	b.last[p] = n
	b.made = append(b.made, n)
	if b.f.observe(n) {
		b.observed = append(b.observed, n)
	}
	return n
}

// fork adds the fork of thread c to its parent.
func (b *builder) fork(c trace.ThreadID) {
	p := b.tr.Threads[c].Parent
	n := b.add(p, label{kind: kFork, obj: uint64(b.stable(c))}, none)
	b.last[c] = n
}

// branch adds branch j, unless it is one of the condition of a w.Await:
// the condition is evaluated silently, in states the thread may never
// run in, and is no action of its thread (doc.go, "Busy waits").
func (b *builder) branch(j int) {
	br := &b.tr.Branches[j]
	if br.InAwait {
		return
	}
	b.add(br.Thread, label{kind: kBranch, expr: b.ren.rename(br.Cond), taken: br.Taken, pc: br.PC}, none)
}

// event adds the node of step s.
func (b *builder) event(s int) {
	tr := b.tr
	ev := &tr.Events[s]
	p := ev.Thread
	l := label{op: ev.Op.Kind}
	switch {
	case ev.Op.Class == trace.ClassVar:
		switch ev.Op.Kind {
		case trace.KindLoad:
			l.kind = kRead
		case trace.KindStore:
			l.kind = kWrite
		case trace.KindSwap, trace.KindAdd:
			l.kind = kUpdate
		case trace.KindCAS:
			l.kind = kRead
			if ev.OK {
				l.kind = kUpdate
			}
		}
	case ev.Op.Class == trace.ClassMutex && ev.Op.Kind == trace.KindLock:
		l.kind = kAcquire
	case ev.Op.Class == trace.ClassMutex && ev.Op.Kind == trace.KindUnlock:
		l.kind = kRelease
	case ev.Op.Class == trace.ClassMutex && ev.Op.Kind == trace.KindTryLock && ev.OK:
		l.kind = kAcquire
	case ev.Op.Class == trace.ClassClock:
		b.clock(s)
		return
	case ev.Op.Kind == trace.KindAwait:
		b.await(s)
		return
	case ev.Op.Kind == trace.KindJoin:
		l.kind = kJoin
		u := trace.ThreadID(ev.Op.Arg)
		l.obj = uint64(b.stable(u))
		b.step(s, b.add(p, l, b.last[u]))
		return
	case modelled(ev.Op):
		b.sync(s)
		return
	}
	if l.kind == 0 {
		b.err = fmt.Errorf("%w: step %d is a %v (%v); concolic-optimal explores inputs with every primitive", ErrUnsupported, s, ev.Op, ev.Op.Class)
		return
	}
	l.obj = tr.Objects[ev.Op.Obj].Key
	if l.kind == kAcquire || l.kind == kRelease {
		n := b.step(s, b.add(p, l, none))
		b.f.addSync(n)
		b.trk.apply(b.f, b.stable(p), n, &l, b.f.ops[n])
		return
	}
	for b.acc < len(tr.Accesses) && int(tr.Accesses[b.acc].Step) < s {
		b.acc++
	}
	var a trace.SymAccess
	if b.acc < len(tr.Accesses) && int(tr.Accesses[b.acc].Step) == s {
		a = tr.Accesses[b.acc]
	}
	src := none
	if l.kind.reads() {
		if a.Read.IsValid() {
			b.learnWidth(l.obj, a.Read.Width())
			b.ren.sym[s] = symbol(b.stable(p), b.depthAfter(p), a.Read.Width())
		}
		w, ok := b.lastWrite[l.obj]
		if !ok {
			w = none
		}
		if w != b.f.locW(b.last[p], l.obj) {
			src = w
		}
	}
	if l.kind.writes() {
		l.expr = b.ren.rename(a.Write)
		if l.expr.IsValid() {
			b.learnWidth(l.obj, l.expr.Width())
		}
	}
	n := b.step(s, b.add(p, l, src))
	if l.kind.writes() {
		b.lastWrite[l.obj] = n
	}
}

// step records that node n is step s's, with the step's operation, and
// returns n.
func (b *builder) step(s int, n int32) int32 {
	for len(b.steps) <= s {
		b.steps = append(b.steps, none)
	}
	b.steps[s] = n
	b.f.setOp(n, b.tr, b.tr.Events[s].Op, b.names)
	return n
}

// depthAfter returns the depth of thread p's next node.
func (b *builder) depthAfter(p trace.ThreadID) int32 {
	if n := b.own(p); n != none {
		return b.f.nodes[n].depth + 1
	}
	return 0
}

// learnWidth records the width of variable obj's values.
func (b *builder) learnWidth(obj uint64, w int) {
	if _, ok := b.f.widths[obj]; !ok {
		b.f.widths[obj] = w
	}
}
