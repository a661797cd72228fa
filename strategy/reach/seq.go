// This file reads the SYN-sequence of an execution (Lei and Carver 2006, §3,
// Definition 1) from its trace: each step is a receiving event at the next
// position of the object it completes on, synchronised with the calls
// (sending events) of its thread and, for a rendezvous, of its partner;
// and it timestamps every event (§4) to decide happened-before
// (Proposition 1) and control structures (Definition 3).

package reach

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// vc is a vector clock over the threads of one execution. Entry t is the
// number of thread t's steps known: a clock knows step k of thread t
// (counted from 0) iff entry t > k. A step completes the call of each of
// its threads, so knowing a thread's step is knowing its call's
// completion; a call (a thread's pending operation) is known by no one but
// its thread before it completes (weft's steps are atomic), which is what
// Lei and Carver 2006, §4's rule for synchronous sends arranges with its exchange of
// clocks.
type vc []uint32

func (c vc) join(o vc) {
	for i, x := range o {
		if x > c[i] {
			c[i] = x
		}
	}
}

// knows reports whether c knows step k of thread t.
func (c vc) knows(t int32, k int32) bool { return c[t] > uint32(k) }

// side is one call of a step: its thread (current ThreadID), its call
// index (the thread's step number) and its select case (-1).
type side struct {
	t, k, cas int32
}

// noSide is the partner of a step without one.
var noSide = side{-1, -1, -1}

// analysis is the SYN-sequence of one execution, with its timestamps.
type analysis struct {
	tr *trace.Trace
	n  int // threads
	// Per step: its group (-1 for a step on no object of the model: a
	// Join, a select on nil channels), its position there, its executor's
	// and partner's calls.
	grp, pos  []int32
	exec, par []side
	// ts is each step's timestamp; cs the clock of its control structure
	// (Definition 3: the previous step on its object and everything that
	// happened before it); both n entries per step.
	ts, cs []uint32
	// start is each thread's clock when it started (its parent's after the
	// step that started it).
	start []uint32
	// steps lists each thread's steps in order: steps[t][k] completes its
	// call k.
	steps [][]int32
	// cross lists, per step, the steps it synchronises with that are not
	// calls nor the previous step on its object (-1: none): the send whose
	// value a receive takes (or the close it finds), the receive that made
	// room in a buffer for a send, the end of a joined thread.
	cross [][2]int32
	// slot is, for a step on the input of a buffered channel, the
	// receive that made room for a value sent there (the one a send needs,
	// whether the step is a send or not), or -1.
	slot []int32
	// ncalls is each thread's number of calls: its steps, and its pending
	// operation at the end if it has one.
	ncalls []int32
	// late holds the clocks of the calls (thread, call) whose past grew
	// after their thread's step before them: a child's local code up to
	// its first step runs inside its parent's spawn, so the branches it
	// takes there happened before everything its parent does after the
	// spawn (nil if no call's did).
	late map[[2]int32]vc
	// ofStep maps a branch event that is the outcome of its thread's step
	// before it (a CompareAndSwap whose comparison depends on inputs) to
	// that step: the next step on the step's object happened after it
	// (whether the CAS wrote is what that step finds), so a variant that
	// flips the branch removes what came after on the variable. Set by
	// the caller of reset (nil: none).
	ofStep map[int32]int32
	// count is the number of steps of each group.
	count map[int32]int32
	// sent and took list, per buffered channel, its sends that put a value
	// in the buffer and its receives that took one, in order; closed is
	// its close (-1).
	sent, took map[trace.ObjectID][]int32
	closed     map[trace.ObjectID]int32
}

func (a *analysis) clock(x []uint32, i int) vc { return vc(x[i*a.n : (i+1)*a.n]) }

// tsOf returns the timestamp of step i.
func (a *analysis) tsOf(i int) vc { return a.clock(a.ts, i) }

// csOf returns the clock of step i's control structure.
func (a *analysis) csOf(i int) vc { return a.clock(a.cs, i) }

// callClock returns the timestamp of thread t's call k: its clock after its
// step k-1 (or at its start), which is the past of the call and its
// control structure.
func (a *analysis) callClock(t, k int32) vc {
	if c, ok := a.late[[2]int32{t, k}]; ok {
		return c
	}
	if k == 0 {
		return a.clock(a.start, int(t))
	}
	return a.tsOf(int(a.steps[t][k-1]))
}

// calls returns the number of calls of thread t: its steps, and its
// pending operation at the end if it has one.
func (a *analysis) calls(t int32) int32 { return a.ncalls[t] }

// callOp returns the operation of thread t's call k.
func (a *analysis) callOp(t, k int32) trace.Op {
	if int(k) < len(a.steps[t]) {
		e := &a.tr.Events[a.steps[t][k]]
		if e.Thread == trace.ThreadID(t) {
			return e.Op
		}
		return e.PartnerOp
	}
	return a.tr.Final[t]
}

// completion returns the step that completes thread t's call k, or -1.
func (a *analysis) completion(t, k int32) int32 {
	if int(k) < len(a.steps[t]) {
		return a.steps[t][k]
	}
	return -1
}

// reset reads the SYN-sequence of tr, whose objects gs groups.
func (a *analysis) reset(tr *trace.Trace, gs *groups) {
	a.tr = tr
	n := len(tr.Threads)
	a.n = n
	steps := len(tr.Events)
	a.grp = resize(a.grp, steps)
	a.pos = resize(a.pos, steps)
	a.exec = resizeSides(a.exec, steps)
	a.par = resizeSides(a.par, steps)
	a.cross = resizeCross(a.cross, steps)
	a.slot = resize(a.slot, steps)
	a.ts = resizeU(a.ts, steps*n)
	a.cs = resizeU(a.cs, steps*n)
	a.start = resizeU(a.start, n*n)
	clear(a.start)
	if cap(a.steps) < n {
		a.steps = make([][]int32, n)
	}
	a.steps = a.steps[:n]
	for t := range a.steps {
		a.steps[t] = a.steps[t][:0]
	}
	if a.count == nil {
		a.count = make(map[int32]int32)
	}
	clear(a.count)
	last := make(map[int32]int32) // the last step of each group
	// The outcome of the last step of each group, if a branch (ofStep).
	outcome := make(map[int32]int32)
	// Buffered channels: successful sends so far, and the steps that took
	// a value, per channel.
	enq := make(map[trace.ObjectID]int)
	took := make(map[trace.ObjectID][]int32)
	a.sent = make(map[trace.ObjectID][]int32)
	a.closed = make(map[trace.ObjectID]int32)
	thread := make([]uint32, n*n) // each thread's clock
	th := func(t trace.ThreadID) vc { return vc(thread[int(t)*n : (int(t)+1)*n]) }
	a.late = nil
	stepped := make([]bool, n) // the thread has taken a step (not a branch)
	// The threads in the order they start: after the step Threads[t].Step
	// (augment may place a start after the branches of the parent's local
	// code, so that order need not be the threads').
	order := make([]int32, 0, n)
	for t := range n {
		if tr.Threads[t].Step >= 0 {
			order = append(order, int32(t))
		}
	}
	slices.SortStableFunc(order, func(x, y int32) int { return int(tr.Threads[x].Step) - int(tr.Threads[y].Step) })
	spawned := 0
	for i := range tr.Events {
		e := &tr.Events[i]
		ts, cs := a.tsOf(i), a.csOf(i)
		clear(cs)
		copy(ts, th(e.Thread))
		k := int32(len(a.steps[e.Thread]))
		a.exec[i] = side{int32(e.Thread), k, e.Case}
		a.par[i] = noSide
		if e.Partner != trace.NoThread {
			a.par[i] = side{int32(e.Partner), int32(len(a.steps[e.Partner])), e.PartnerCase}
			ts.join(th(e.Partner))
		}
		a.grp[i], a.pos[i] = -1, -1
		if r, ok := stepRef(e.Op, e.Case, tr.Objects); ok {
			g := gs.of(r)
			a.grp[i], a.pos[i] = g, a.count[g]
			a.count[g]++
			if j, ok := last[g]; ok {
				cs.join(a.tsOf(int(j)))
			}
			if b, ok := outcome[g]; ok {
				cs.join(a.tsOf(int(b)))
				delete(outcome, g)
			}
			last[g] = int32(i)
		}
		if e.Op.Kind == trace.KindBranch {
			// A branch's outcome is decided by its thread's past (the
			// values it received, the inputs): its control structure.
			cs.join(th(e.Thread))
		}
		// The step it synchronises with (a value's send, a close, a
		// Join's thread's end: Lei and Carver 2006, §3's pairs that are not calls),
		// and for a send into a buffer, the receive that made room.
		a.cross[i] = [2]int32{-1, -1}
		a.slot[i] = -1
		if o, ok := inputOf(e, tr.Objects); ok {
			// Filled in below, once every receive is known: the one a
			// close's place needs may come later.
			a.slot[i] = -2 - int32(enq[o])
		}
		if src := e.Source(); src >= 0 {
			ts.join(a.tsOf(src))
			a.cross[i][0] = int32(src)
		}
		if ch, kind, ok := bufferedCase(e, tr.Objects); ok && e.OK {
			switch kind {
			case trace.KindSend:
				if q, c := enq[ch], int(tr.Objects[ch].Cap); q >= c {
					j := took[ch][q-c]
					ts.join(a.tsOf(int(j)))
					a.cross[i][1] = j
				}
				enq[ch]++
				a.sent[ch] = append(a.sent[ch], int32(i))
			case trace.KindRecv:
				took[ch] = append(took[ch], int32(i))
			}
		}
		if e.Op.Kind == trace.KindClose && e.OK && tr.Objects[e.Op.Obj].Cap > 0 {
			a.closed[e.Op.Obj] = int32(i)
		}
		ts.join(cs)
		ts[e.Thread] = uint32(k + 1)
		th(e.Thread).join(ts)
		a.steps[e.Thread] = append(a.steps[e.Thread], int32(i))
		if p := e.Partner; p != trace.NoThread {
			ts[p] = uint32(len(a.steps[p]) + 1)
			th(p).join(ts)
			a.steps[p] = append(a.steps[p], int32(i))
		}
		if e.Op.Kind == trace.KindBranch {
			if j, ok := a.ofStep[int32(i)]; ok && a.grp[j] >= 0 {
				outcome[a.grp[j]] = int32(i)
			}
			a.spawnTime(tr, e.Thread, ts, stepped, th)
		} else {
			stepped[e.Thread] = true
			if e.Partner != trace.NoThread {
				stepped[e.Partner] = true
			}
		}
		for ; spawned < len(order) && tr.Threads[order[spawned]].Step == int32(i); spawned++ {
			// The parent's clock: its past, with the branches of the
			// children it started before in the same local code.
			t := order[spawned]
			from := ts
			if p := tr.Threads[t].Parent; p != trace.NoThread {
				from = th(p)
			}
			copy(a.clock(a.start, int(t)), from)
			copy(th(trace.ThreadID(t)), from)
		}
	}
	a.took = took
	for i := range a.slot {
		if a.slot[i] < -1 {
			o, _ := inputOf(&tr.Events[i], tr.Objects)
			q := int(-2-a.slot[i]) - int(tr.Objects[o].Cap)
			a.slot[i] = -1
			if q >= 0 && q < len(took[o]) {
				a.slot[i] = took[o][q]
			}
		}
	}
	a.ncalls = resize(a.ncalls, n)
	for t := range a.ncalls {
		a.ncalls[t] = int32(len(a.steps[t]))
		if t < len(tr.Final) && tr.Final[t].Kind != trace.KindNone {
			a.ncalls[t]++
		}
	}
}

// spawnTime records that branch event ts of thread c, if c has taken no
// step yet, ran in the spawn of c by its parent (the runtime runs a new
// thread's local code up to its first operation before the parent
// resumes), so that it happened before the parent's next call: a failure
// after it ends the run before the parent goes on, and its side decides
// whether one does. A parent that has taken no step either is in its own
// spawn, and so on up.
func (a *analysis) spawnTime(tr *trace.Trace, c trace.ThreadID, ts vc, stepped []bool, th func(trace.ThreadID) vc) {
	for !stepped[c] {
		p := tr.Threads[c].Parent
		if p == trace.NoThread {
			return
		}
		th(p).join(ts)
		key := [2]int32{int32(p), int32(len(a.steps[p]))}
		l, ok := a.late[key]
		if !ok {
			l = slices.Clone(a.callClock(int32(p), key[1]))
			if a.late == nil {
				a.late = make(map[[2]int32]vc)
			}
			a.late[key] = l
		}
		l.join(ts)
		c = p
	}
}

// clone returns a copy of a that does not share its memory, without its
// trace: what a node of the exploration keeps of its SYN-sequence.
func (a *analysis) clone() *analysis {
	c := &analysis{n: a.n,
		grp: slices.Clone(a.grp), pos: slices.Clone(a.pos),
		exec: slices.Clone(a.exec), par: slices.Clone(a.par),
		ts: slices.Clone(a.ts), cs: slices.Clone(a.cs), start: slices.Clone(a.start),
		cross: slices.Clone(a.cross), slot: slices.Clone(a.slot), ncalls: slices.Clone(a.ncalls),
		steps: make([][]int32, len(a.steps)),
	}
	for k, l := range a.late {
		if c.late == nil {
			c.late = make(map[[2]int32]vc, len(a.late))
		}
		c.late[k] = slices.Clone(l)
	}
	for t, s := range a.steps {
		c.steps[t] = slices.Clone(s)
	}
	return c
}

// bufferedCase reports the buffered channel and the direction (KindSend,
// KindRecv) of a step that sends into or receives from one.
func bufferedCase(e *trace.Event, objs []trace.ObjectInfo) (trace.ObjectID, trace.Kind, bool) {
	k, o := e.Op.Kind, e.Op.Obj
	if k == trace.KindSelect {
		if e.Case < 0 || int(e.Case) >= len(e.Op.Cases) {
			return 0, 0, false
		}
		c := e.Op.Cases[e.Case]
		k, o = c.Kind, c.Obj
	}
	if (k != trace.KindSend && k != trace.KindRecv) || o == trace.NoObject || objs[o].Class != trace.ClassChan || objs[o].Cap == 0 {
		return 0, 0, false
	}
	return o, k, true
}

// inputOf reports the buffered channel whose input a step completes on: a
// send (plain or a select's case), or a close.
func inputOf(e *trace.Event, objs []trace.ObjectInfo) (trace.ObjectID, bool) {
	k, o := e.Op.Kind, e.Op.Obj
	if k == trace.KindSelect {
		if e.Case < 0 || int(e.Case) >= len(e.Op.Cases) {
			return 0, false
		}
		k, o = e.Op.Cases[e.Case].Kind, e.Op.Cases[e.Case].Obj
	}
	if (k != trace.KindSend && k != trace.KindClose) || o == trace.NoObject || objs[o].Class != trace.ClassChan || objs[o].Cap == 0 {
		return 0, false
	}
	return o, true
}

// source returns the step a receiving event at position p of the
// buffered channel half r would synchronise with, whatever its partner: at
// the output, the send of the p-th value (or the close, after the last);
// at the input, the receive that made room for a p-th value. -1 if none
// (or the channel is not buffered).
func (a *analysis) source(objs []trace.ObjectInfo, r ref, p int32) int32 {
	if r.half == whole {
		return -1
	}
	o := trace.NoObject
	for id := range objs {
		if objs[id].Key == r.key && objs[id].Class == trace.ClassChan {
			o = trace.ObjectID(id)
		}
	}
	if o == trace.NoObject {
		return -1
	}
	if r.half == output {
		if s := a.sent[o]; int(p) < len(s) {
			return s[p]
		}
		if c, ok := a.closed[o]; ok {
			return c
		}
		return -1
	}
	if q := int(p) - int(objs[o].Cap); q >= 0 && q < len(a.took[o]) {
		return a.took[o][q]
	}
	return -1
}

// before reports whether step i happened before event clock c (the
// timestamp of a step or a call): c knows i's executor's call.
func (a *analysis) before(i int32, c vc) bool {
	x := a.exec[i]
	return c.knows(x.t, x.k)
}

func resize(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

func resizeU(s []uint32, n int) []uint32 {
	if cap(s) < n {
		return make([]uint32, n)
	}
	return s[:n]
}

func resizeCross(s [][2]int32, n int) [][2]int32 {
	if cap(s) < n {
		return make([][2]int32, n)
	}
	return s[:n]
}

func resizeSides(s []side, n int) []side {
	if cap(s) < n {
		return make([]side, n)
	}
	return s[:n]
}
