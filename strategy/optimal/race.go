// This file implements the race analysis of a finished execution
// (Optimal-DPOR, Algorithm 2, lines 1-6): for each reversible race e < e' of
// the execution E, the wakeup sequence v = notdep(e, E).e' is inserted into
// the wakeup tree of the state before e, unless a sleeping event is a weak
// initial of v.

package optimal

import (
	"fmt"
	"slices"
	"sort"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// analysis is the reusable memory of the race analysis.
type analysis struct {
	s  *Strategy
	tr *trace.Trace
	// evs are the events of the execution: those of the states on the
	// stack in their nodes (there is one copy of an event, the node's),
	// any beyond the stack in spill.
	evs      []*event
	spill    []event
	hb       clocks
	byThread [][]int32 // indices of each thread's events (as thread or partner)
	k        kclock
	seq      []*event
	late     []*event     // delaySleeps
	lateSum  eventSummary // delaySleeps: what late's events touch
	pos      []int32      // the positions in E of the events of seq that are E's
	track    coverTrack   // what a check of seq read (cover.go)
	w        world        // the state of a reversal (worldAt)
	sw       sparseWorld  // the state of a reversed receive (recvWorldAt)
	fw       world        // the forward pass of alternatives
	obj      model.Object // the state of one object (readyAt)
	failing  event        // the failing step, repeated after a reversal (reverse)
	// lastSleep is the position of the execution's last event that ends
	// a sleep with time that moves only when every thread is blocked
	// (sleepWhenBlocked), or -1: delaySleeps has nothing to move in the
	// wakeup sequence of a race whose first event comes after it.
	lastSleep int
	// fresh is the first event the execution ran anew (not replayed);
	// newMinV[q], the least entry for thread q of the clocks of the events
	// from fresh on: an event i of q with i < newMinV[q] happens before
	// every new event. limit is the position of the step whose races
	// reverse is given (len(evs) for a pending one).
	fresh   int
	newMinV trace.VC
	noNew   bool // no event is new: every one happens before every new event
	limit   int
	offer   event    // a step whose announcement is reversed, run after the reversal (reverse)
	m       event    // the reversed step (reverseStep)
	base    event    // the step as reverseStep first sees it
	probe   event    // a pending step (scan)
	objs    []objLog // the accesses to each object before the event analysed (frontier.go)
	// logN is the number of events of the last run whose accesses objs
	// holds (all of its events, or 0), and logObjs the number of logs
	// then; reuse is the number of events prepare kept from the last run;
	// keepWorth says whether keeping the logs paid in the last run
	// (keepLogs).
	logN, logObjs, reuse int
	keepWorth            bool
	touch                [][]objRef     // the events that change each object's state, if touchOK
	vars                 trace.VarIndex // the events of each variable (state.go), if varsOK
	// varsOK and touchOK say whether vars and touch index the trace.
	varsOK, touchOK bool
	// newSum summarises, if newOK, the events from position newG on that
	// do not happen after event newI (coveredBefore).
	newSum     depSum
	newI, newG int
	newOK      bool
	// resumeRec is the record of the reversal being checked that
	// coveredBefore found, valid up to position resumeG, or nil
	// (resumeAt).
	resumeRec *coverRec
	resumeG   int
	// multi says whether an event of the trace is a receive or a select;
	// multiAt is the first, or -1. failAt is the failing last event, or -1
	// (prepare).
	multi           bool
	multiAt, failAt int
	cands           []int32
	// With verification on (hb.verify), each scan records the races it
	// reverses (got) and verifyScan runs it again over every candidate,
	// dry: recording (want) instead of reversing.
	record, dry bool
	got, want   []raceRec
	kept        []keptLabel
	labs        []label
	labs2       []label
	// recvOn lists, per object, the threads whose receive or select
	// names it (some stale), and aff the threads an event may disable an
	// alternative of (alternatives.go).
	recvOn [][]trace.ThreadID
	onList []bool
	aff    []trace.ThreadID
	// fwSparse says that fwLabels looks for the partners of a receive
	// among the threads that send on its channels (partners).
	fwSparse bool
	partners []trace.ThreadID
	// firstOf holds, while a sequence's sleepers are checked, the position
	// in the sequence of the first element of each stable thread (as its
	// thread or partner), or -1 (indexThreads).
	firstOf []int32
	// capt is the node of the step whose races are being recorded
	// (capture), captOK whether they can be replayed.
	capt   *node
	captOK bool
}

// keptLabel is an alternative of the step scan looks at, and the clock of
// the candidates kept for it.
type keptLabel struct {
	l label
	k kclock
}

// run analyses execution tr, which ended with end.
func (a *analysis) run(s *Strategy, tr *trace.Trace, end trace.End) {
	a.s, a.tr = s, tr
	// The logs hold the last run's accesses only if it ran to its end.
	logN := a.logN
	a.logN = 0
	if !a.prepare(failed(end)) {
		// Stopped by a bound: the exploration ends without this
		// execution's races.
		a.s, a.tr = nil, nil
		return
	}
	n := len(a.evs)
	// The events before s.seen were looked at as they came (sync).
	a.lastSleep = s.lastSleep
	for k := min(s.seen, n); k < n; k++ {
		if sleepWhenBlocked(a.evs[k]) {
			a.lastSleep = k
		}
	}
	if failed(end) && n > 0 {
		// A failure ends the execution in the local code of its last step:
		// that step disables every other thread (see event.fails).
		a.evs[n-1].fails = true
		a.failAt = n - 1
	}
	// Every race of the execution is analysed (Algorithm 2, line 2: all
	// e < e' of E), those of the replayed prefix too: whether e < e' is a
	// race depends only on the events up to e', but its wakeup sequence
	// v = notdep(e, E).e' holds the events after e' that do not happen
	// after e, and these are new (gen v2 seed 210, order 2: v, inserted
	// where an earlier execution had a CompareAndSwap after two stores,
	// never put it before them; the trace with the CompareAndSwap first
	// and a load after an add that another load preceded was missed). A
	// race of the prefix whose e happens before every new event has the
	// wakeup sequence of the execution that first ran the prefix, less
	// the events of that execution's tail, which commute with e': the
	// branch of that sequence, or the sleeper it left, covers it.
	// (Once an execution has failed, ended before running every thread,
	// nothing is skipped: the differential tests found traces missed
	// otherwise.)
	a.fresh = min(s.branch, n)
	if s.failedBefore {
		a.fresh = 0
	}
	least := a.setNewMin(n)
	if stopped(end) {
		s.failedBefore = true
	}
	// The replayed steps before the first event that some new event does
	// not happen after have only analysed candidates: their scans would
	// reverse nothing. Nor would those of the later replayed steps whose
	// objects no unanalysed event accessed in a conflicting mode
	// (mayReverse).
	skip := 0
	if a.fresh > 0 {
		skip = a.fresh
		if !a.noNew {
			skip = min(skip, int(least))
		}
	}
	// The logs of the accesses of the replayed events are the last run's:
	// until the first step scanned, only which objects unanalysed events
	// accessed is noted (logBits); the logs are then cut back to the
	// events before it (cutLogs), and built on from there.
	kept := a.keepLogs(logN)
	cut := kept > 0
	a.newOK = false
	logged, first := n, n
	for j := range n {
		if s.stop.Poll() {
			logged = 0
			break
		}
		may := j >= skip && j < a.fresh && a.mayReverse(j)
		if first == n && j >= skip && (j >= a.fresh || may || a.hb.verify) {
			first = j
		}
		if cut && (j >= kept || j >= first) {
			a.cutLogs(j)
			cut = false
		}
		switch {
		case j < skip:
		case j >= a.fresh:
			a.capture(j)
		case may:
			if !a.replayRaces(j) {
				a.executed(j)
			}
		case a.hb.verify:
			// Skipped: with verification on, it is scanned to check that
			// it reverses nothing.
			a.executed(j)
			if len(a.got) > 0 {
				panic(fmt.Sprintf("weft internal error: optimal: replayed step %d was taken for one whose scan reverses nothing, but it reverses a race with event %d", j, a.got[0].i))
			}
		}
		if cut {
			a.logBits(j)
		} else {
			a.log(j)
		}
	}
	if cut && logged > 0 {
		a.cutLogs(n)
	}
	a.logN = logged
	// Keeping the logs pays where the first step scanned comes late in
	// the prefix: otherwise cutting them back costs as much as building
	// them (a program whose replayed steps race early). With verification
	// on, every step is scanned, and the logs are kept to check them.
	a.keepWorth = a.hb.verify || 2*first >= a.reuse
	a.alternatives()
	if stopped(end) && !s.stop.Fired() {
		// A failure ends the execution in the local code of its last step:
		// that step disables every other thread, so it races with each
		// pending operation it disabled (unless the execution ended because
		// none was enabled).
		for p, op := range tr.Final {
			if op.Kind != trace.KindNone {
				a.pending(trace.ThreadID(p))
			}
		}
	} else if !s.stop.Fired() {
		// A w.Await still blocked where the execution was cut waits on
		// the variables its condition loaded there, which may be more
		// than those of the events of the await that the analysis
		// reversed to get here (a condition loads what its values
		// lead it to): it races with their writes, whose reversals let
		// it run earlier.
		for p, op := range tr.Final {
			if op.Kind == trace.KindAwait && op.Arg != trace.AwaitYield {
				a.pending(trace.ThreadID(p))
			}
		}
	}
	if a.hb.verify {
		for d := range s.nodes.Len() {
			checkKeys(s.nodes.At(d).wut)
		}
	}
	a.s, a.tr = nil, nil
}

// setNewMin sets a.newMinV to the pointwise minimum of the clocks of the
// events from a.fresh on, of n, or a.noNew if there are none. A thread's
// clocks grow along its events, so the minimum is that of the first event
// of each thread from a.fresh on. It returns the least entry of the
// minimum (0 if there are no new events or none is replayed).
func (a *analysis) setNewMin(n int) uint32 {
	nt := len(a.tr.Threads)
	if cap(a.newMinV) < nt {
		a.newMinV = make(trace.VC, nt, nt+nt/2)
	}
	a.newMinV = a.newMinV[:nt]
	clear(a.newMinV)
	a.noNew = a.fresh >= n
	if a.fresh == 0 || a.noNew {
		return 0 // no event is replayed, or none is new
	}
	c := &a.hb
	first := true
	var m trace.PClock // the minimum, if the clocks are not kept flat
	for _, idx := range a.byThread {
		x := sort.Search(len(idx), func(y int) bool { return int(idx[y]) >= a.fresh })
		if x == len(idx) {
			continue
		}
		k := int(idx[x])
		switch {
		case !c.flatOK && first:
			m = c.clock(k)
		case !c.flatOK:
			m = m.Min(c.clock(k))
		case first:
			copy(a.newMinV, c.row(k))
		default:
			for q, v := range c.row(k) {
				a.newMinV[q] = min(a.newMinV[q], v)
			}
		}
		first = false
	}
	if !c.flatOK {
		m.CopyTo(a.newMinV)
	}
	if nt == 0 {
		return 0
	}
	return slices.Min(a.newMinV)
}

// prepare copies the events with their threads' steps and computes the
// clocks. It reports false if the exploration's stop fired first.
func (a *analysis) prepare(failLast bool) bool {
	tr := a.tr
	n := len(tr.Events)
	// The events of the replayed prefix are those of the last execution,
	// in their nodes; the others are written in place, into the nodes of
	// the states of the steps not replayed (for sleep sets).
	nl := a.s.nodes.Len()
	reuse := min(a.s.branch, len(a.evs), n, nl)
	a.reuse = reuse
	if cap(a.evs) < n {
		a.evs = make([]*event, n, n+n/2)
	}
	a.evs = stateEvents(&a.s.nodes, a.evs[:n])
	if n > nl {
		if cap(a.spill) < n-nl {
			a.spill = make([]event, n-nl, n)
		}
		a.spill = a.spill[:n-nl]
		for i := nl; i < n; i++ {
			a.evs[i] = &a.spill[i-nl]
		}
	}
	// The lists of each thread's events and whether an event is a
	// receive or a select are the last run's for the replayed prefix: the
	// events from reuse on are added.
	nt := len(tr.Threads)
	for len(a.byThread) < nt {
		a.byThread = append(a.byThread, nil)
	}
	a.byThread = a.byThread[:nt]
	for t, l := range a.byThread {
		k := len(l)
		for k > 0 && int(l[k-1]) >= reuse {
			k--
		}
		a.byThread[t] = l[:k]
	}
	if a.failAt >= 0 && a.failAt < reuse {
		a.evs[a.failAt].fails = false // the last run's failing step, replayed
	}
	a.failAt = -1
	if a.multiAt >= reuse {
		a.multiAt = -1
	}
	for i := reuse; i < n; i++ {
		e := &tr.Events[i]
		// In place: an event is large.
		ev := a.evs[i]
		*ev = event{}
		ev.Event = *e
		a.s.nm.own(&ev.Event)
		ev.step, ev.spawnLo = int32(len(a.byThread[e.Thread])), trace.NoThread
		if e.Partner != trace.NoThread {
			ev.pstep = int32(len(a.byThread[e.Partner]))
		}
		if a.multiAt < 0 && multi(e.Op) {
			a.multiAt = i
		}
		a.byThread[e.Thread] = append(a.byThread[e.Thread], int32(i))
		if e.Partner != trace.NoThread {
			a.byThread[e.Partner] = append(a.byThread[e.Partner], int32(i))
		}
	}
	a.multi = a.multiAt >= 0
	if a.hb.verify {
		a.checkPrepared()
	}
	for t := len(tr.Threads) - 1; t >= 0; t-- {
		if st := int(tr.Threads[t].Step); st >= reuse && st < n {
			a.evs[st].spawnLo = trace.ThreadID(t)
		}
	}
	for i := reuse; i < n; i++ {
		nameThreads(&a.s.tn, a.evs[i])
	}
	if !a.hb.run(tr, failLast, reuse, a.s.stop) {
		return false
	}
	for i := reuse; i < n; i++ {
		a.evs[i].setAnn(a.s.nm.accesses(a.hb.steps.Announced(i)))
		a.evs[i].cache()
	}
	// The index of the variables and the lists of the events that change
	// each object are built when a reversal first needs them: most
	// executions need neither.
	a.varsOK, a.touchOK = false, false
	a.sw.ok, a.sw.sendersOK = false, false
	return true
}

// checkPrepared panics if the lists of each thread's events, the first
// receive or select, or the events' fails flags kept from the last run
// differ from a computation over the whole trace.
func (a *analysis) checkPrepared() {
	tr := a.tr
	multiAt := slices.IndexFunc(tr.Events, func(e trace.Event) bool { return multi(e.Op) })
	if multiAt != a.multiAt {
		panic(fmt.Sprintf("weft internal error: optimal: the first receive or select kept is event %d, want %d", a.multiAt, multiAt))
	}
	by := make([][]int32, len(tr.Threads))
	for i := range tr.Events {
		e := &tr.Events[i]
		by[e.Thread] = append(by[e.Thread], int32(i))
		if e.Partner != trace.NoThread {
			by[e.Partner] = append(by[e.Partner], int32(i))
		}
		if a.evs[i].fails {
			panic(fmt.Sprintf("weft internal error: optimal: event %d of a new analysis is marked failing", i))
		}
	}
	for t := range by {
		if !slices.Equal(by[t], a.byThread[t]) {
			panic(fmt.Sprintf("weft internal error: optimal: the events of thread %d kept are %v, want %v", t, a.byThread[t], by[t]))
		}
	}
}

// varIndex returns the index of the variables' events of the trace
// (trace.VarIndex), built on first use.
func (a *analysis) varIndex() *trace.VarIndex {
	if !a.varsOK {
		a.varsOK = true
		a.vars.Reset(a.tr)
	}
	return &a.vars
}

// touched returns the events of the trace that change the state of object
// o, built for every object on first use.
func (a *analysis) touched(o trace.ObjectID) []objRef {
	if !a.touchOK {
		a.touchOK = true
		tr := a.tr
		// TimeObject last.
		a.touch = growLists(a.touch, len(tr.Objects)+1)
		for i := range tr.Events {
			o1, o2 := model.Touched(&tr.Events[i])
			if o1 >= 0 {
				a.touch[o1] = append(a.touch[o1], objRef{int32(i), trace.Write})
			}
			if o2 >= 0 {
				a.touch[o2] = append(a.touch[o2], objRef{int32(i), trace.Write})
			}
		}
	}
	return a.touch[o]
}

// objRef is an access of an event to an object.
type objRef struct {
	i    int32
	mode trace.Mode
}

// growLists returns n empty lists, reusing the memory of l.
func growLists(l [][]objRef, n int) [][]objRef {
	for len(l) < n {
		l = append(l, nil)
	}
	l = l[:n]
	for i := range l {
		l[i] = l[i][:0]
	}
	return l
}

// objIndex returns the index of object o in byObj, or -1.
func (a *analysis) objIndex(o trace.ObjectID) int {
	switch {
	case o == trace.TimeObject:
		return len(a.tr.Objects)
	case o >= 0 && int(o) < len(a.tr.Objects):
		return int(o)
	}
	return -1
}

// before reports whether event i happens before event k (i < k).
func (a *analysis) before(i, k int) bool { return a.hb.knows(k, i, a.tr.Events[i].Thread) }

// executed looks for the races of event j with earlier events (the
// paper's e < e' with e' = E_j).
func (a *analysis) executed(j int) {
	t := a.evs[j]
	a.scan(j, t.Thread, int(t.step), a.tr.Events[j].Op, t)
}

// scan looks for the races of step number step of thread p, whose
// operation is op (with the trace's object numbers), at position limit in E
// (own is its event there) or pending at its end (own is nil), with the
// events before it.
//
// Each alternative of the step is an event of its own (a receive that meets
// one sender or another, or finds the channel closed). For each, the
// candidates are the events e, latest first, dependent with the step and not
// happening before its threads' previous steps or a candidate already kept
// for that alternative. In the state S = pre(E, e).notdep(e, E), if the
// alternative is enabled, notdep(e, E) followed by it is a wakeup sequence
// (a reversible race) and e is kept; if it is not, e enabled it (a release
// before an acquire, a send before a receive), and the race to reverse is
// with an earlier event. The candidates come from what the analysis keeps
// of each object's accesses (frontier.go).
func (a *analysis) scan(limit int, p trace.ThreadID, step int, op trace.Op, own *event) {
	nm := &a.s.nm
	a.limit = limit
	a.kept = a.kept[:0]
	a.k.setEvent(&a.hb, a.eventBefore(p, step)) // k0
	probe := own
	if own == nil {
		probe = &a.probe
		*probe = event{Event: trace.Event{Thread: p, Op: nm.op(p, op), Case: -1, Partner: trace.NoThread, PartnerCase: -1, OK: true},
			step: int32(step), spawnLo: trace.NoThread}
		nameThreads(&a.s.tn, probe)
	}
	var acc []trace.Access
	if own != nil {
		acc = a.hb.steps.Accesses(limit)
	} else {
		var buf [8]trace.Access
		acc = trace.CR.AppendOpAccesses(buf[:0], op, false, false)
	}
	a.record = a.hb.verify
	a.got = a.got[:0]
	switch {
	case own != nil && own.fails:
		// The failing step is dependent with every event: each is a
		// candidate.
		for i := limit - 1; i >= 0; i-- {
			a.consider(i, limit, p, op, own, probe)
		}
		a.record = false
		return
	case !model.MayBlock(op) && !multi(op) && a.frontier(limit, acc, probe):
		for _, i := range a.cands {
			a.consider(int(i), limit, p, op, own, probe)
		}
	default:
		a.walk(limit, p, op, own, probe, acc, !multi(op))
	}
	a.record = false
	if a.hb.verify {
		a.verifyScan(limit, p, op, own, probe, acc)
	}
}

// eventBefore returns the event whose clock is that of thread q before its
// step number s: its previous step, or the step that started it; or -1
// (the clock is zero).
func (a *analysis) eventBefore(q trace.ThreadID, s int) int {
	switch st := a.tr.Threads[q].Step; {
	case s > 0 && s <= len(a.byThread[q]):
		return int(a.byThread[q][s-1])
	case s == 0 && st >= 0:
		return int(st)
	}
	return -1
}

// keptClock returns the clock of the candidates kept for alternative l,
// starting from the clock of its threads' previous steps.
func (a *analysis) keptClock(l label) *kclock {
	for i := range a.kept {
		if a.kept[i].l == l {
			return &a.kept[i].k
		}
	}
	if len(a.kept) < cap(a.kept) {
		a.kept = a.kept[:len(a.kept)+1]
	} else {
		a.kept = append(a.kept, keptLabel{})
	}
	x := &a.kept[len(a.kept)-1]
	x.l = l
	x.k.set(&a.k)
	if l.partner != trace.NoThread {
		x.k.joinEvent(&a.hb, a.eventBefore(l.partner, int(l.pstep)))
	}
	return &x.k
}

// reverseStep reverses the races of event i with the alternatives of the
// step of thread p (see scan) that are enabled in S = pre(E, i).notdep(i, E)
// and not kept before.
func (a *analysis) reverseStep(i, limit int, p trace.ThreadID, op trace.Op, own *event) {
	nm := &a.s.nm
	e := a.evs[i]
	base := &a.base
	if own != nil {
		*base = *own
		base.fails = own.fails && a.sameInput(i, limit)
	} else {
		*base = event{Event: trace.Event{Thread: p, Op: nm.op(p, op), Case: -1, Partner: trace.NoThread, PartnerCase: -1, OK: true},
			step: int32(len(a.byThread[p])), spawnLo: trace.NoThread}
		nameThreads(&a.s.tn, base)
	}
	self := -1
	if own != nil {
		self = limit
	}
	// The accesses own cached are base's, unless the outcome differs.
	if ok := a.outcome(i, limit, op, self); own == nil || !own.cached || ok != own.OK {
		base.OK = ok
		base.cache()
	}
	var w *world
	labs := a.labs[:0]
	// unknown: the model could not tell whether a label is enabled in S
	// (it depends on virtual time that moves only when every thread is
	// blocked) and took it to be; see below.
	unknown := false
	switch {
	case !model.MayBlock(op) && !multi(op):
		labs = append(labs, base.label())
	case multi(op):
		if w = a.recvWorldAt(i, limit, p, op); w == nil {
			w = a.worldAt(i, limit)
		} else if a.hb.verify {
			a.verifyRecvWorld(i, limit, p, op)
		}
		if labels(w, p, op, func(l label) bool { labs = append(labs, l); return true }) == model.Unknown {
			a.s.stats.Unmodelled++
			unknown = true
		}
	case model.ObjectOnly(op):
		if r := a.readyAt(i, limit, op); r != model.Disabled {
			if r == model.Unknown {
				a.s.stats.Unmodelled++
				unknown = true
			}
			labs = append(labs, base.label())
		}
	default:
		w = a.worldAt(i, limit)
		if r := w.Enabled(p, op); r != model.Disabled {
			if r == model.Unknown {
				a.s.stats.Unmodelled++
				unknown = true
			}
			labs = append(labs, label{thread: p, step: w.Threads[p].Steps, cas: -1, partner: trace.NoThread, pcas: -1})
		}
	}
	if own == nil && op.Kind == trace.KindClose && w == nil {
		w = a.worldAt(i, limit)
	}
	if own == nil && w != nil {
		// A pending operation that panics where it would run (a send on or
		// a close of a closed channel) ends that execution: it is
		// dependent with every event, and a sleeping event independent of
		// the operation does not cover the reversal (gen seed 3884: the
		// failing send of T3 was taken for covered by T1's sleeping load,
		// whose absence before the failure makes another trace).
		base.fails = panics(w, p, op, -1)
	}
	a.labs = labs
	var ownLabel label
	if own != nil {
		ownLabel = own.label()
	}
	for _, l := range labs {
		k := a.keptClock(l)
		if k.knows(i, e.Thread) {
			continue
		}
		m := &a.m
		*m = *base
		if own == nil || l != ownLabel {
			*m = a.eventOf(w, *base, l)
			// Another alternative: what it does after its step is unknown;
			// whether the step itself panics is known.
			m.fails = w != nil && panics(w, p, op, l.cas)
			m.cache()
		}
		if nm.racing(e, m) {
			a.reverse(i, m)
		}
		if !unknown {
			// The events that happen before i are no candidates for l: if
			// l is enabled without i, the reversal with i covers them.
			// Where the model only assumed l enabled, the reversal may be
			// infeasible when its turn comes (a timer's send where time
			// cannot have reached its deadline), and the race to reverse
			// is with an earlier event: a timer's Reset before a close
			// that a select on the timer's channel and the closed one
			// raced with (without this, a select that received the
			// timer's value before the Reset was never explored).
			k.joinEvent(&a.hb, i)
		}
	}
}

// analysed reports whether the races of event i with the step at a.limit
// were analysed by the execution that first ran the prefix (see run): the
// step is replayed and i happens before every new event.
func (a *analysis) analysed(i int) bool {
	return a.limit < a.fresh && (a.noNew || a.newMinV[a.tr.Events[i].Thread] > uint32(i))
}

// reverse inserts the reversal of the race of event i with m into the
// wakeup tree of the state before i: v = notdep(i, E).m.
func (a *analysis) reverse(i int, m *event) {
	s := a.s
	if a.capt != nil && !a.dry {
		a.captured(i, m)
	}
	if a.analysed(i) {
		return
	}
	switch {
	case a.dry:
		a.want = append(a.want, raceRec{i, m.label(), m.OK, m.fails})
		return
	case a.record:
		a.got = append(a.got, raceRec{i, m.label(), m.OK, m.fails})
	}
	if s.stop.Poll() {
		return // a bound of the exploration passed: it ends here
	}
	s.stats.Races++
	// With verification on, a reversal found covered from the records is
	// checked in full (below).
	a.resumeRec = nil
	hit := a.limit < a.fresh && a.coveredBefore(i, m)
	if hit {
		s.settled++
	}
	if hit && !a.hb.verify {
		return
	}
	// A race of a step (not of a pending operation) may come again in an
	// execution that replays it: what decides its check is recorded
	// (cover.go), unless the prefixes are analysed anew after a failure.
	keep := !hit && a.limit < len(a.evs) && a.limit < s.nodes.Len() && !s.failedBefore
	seq, pos := a.seq[:0], a.pos[:0]
	if c := &a.hb; c.flatOK {
		// before, with the column of i's thread read in place.
		t := int(a.tr.Events[i].Thread)
		for k := i + 1; k < len(a.evs); k++ {
			if int(c.flat[k*c.n+t]) <= i {
				seq = append(seq, a.evs[k])
				pos = append(pos, int32(k))
			}
		}
	} else {
		for k := i + 1; k < len(a.evs); k++ {
			if !a.before(i, k) {
				seq = append(seq, a.evs[k])
				pos = append(pos, int32(k))
			}
		}
	}
	failingTail := a.evs[i].fails && !s.nm.conflict(a.evs[i], m)
	// Ends of sleeps (time that moves only when every thread is blocked)
	// in notdep, and what depends on them, go after m when m does not:
	// the same trace, but a sleep that E ended late, when every other
	// thread was blocked, cannot end where notdep puts it, and the whole
	// reversal was dropped with it when its turn came (gen.Timed seeds
	// 482 and 832). Not before a failure (below), which depends on them.
	var late []*event
	if !failingTail && a.lastSleep > i {
		if seq, late = a.delaySleeps(seq, m); len(late) > 0 {
			keep = false // pos no longer follows seq (cover.go)
		}
	}
	seq = append(seq, m)
	a.pos = pos
	if e := a.evs[i]; failingTail {
		// i is the failing step, and m does not change what it reads: the
		// trace to explore is m, then the same failure (which m's thread did
		// not reach in E). Without the failure at its end, v's weak initials
		// would include events that the failure disables.
		a.failing = *e
		seq = append(seq, &a.failing)
	}
	a.seq = seq
	n := s.nodes.At(i)
	e := a.evs[i]
	if s.nm.weakInitialOf(seq, e, !failingTail) {
		// Not a race after all (the dependency model let e commute with m):
		// the branch being explored covers v.
		return
	}
	if !e.fails && !m.fails && !joins(m, e) && !s.nm.opConflict(e, m) {
		// e's operation commutes with m; what conflicts is what e's thread
		// announces in its local code (a send offered to m's receivers).
		// The race is between that announcement and m, a point inside e's
		// step: v is m then e, run before e's announcement, and the
		// sleepers of the state before e that e's operation wakes do not
		// cover it (gen v2 seed 8165: T3's add slept before main's load,
		// whose step announced a send to T2's select; v = select, without
		// the load, was taken for covered by the add, which the load
		// reads).
		a.offer = *e
		seq = append(seq, &a.offer)
		a.seq = seq
	}
	seq = append(seq, late...)
	a.seq = seq
	if len(n.sleep) > 0 {
		a.indexThreads(seq, true)
		for q := range n.sleep {
			if ok, at := a.sleeperInitial(seq, &n.sleep[q]); ok {
				a.indexThreads(seq, false)
				if keep {
					a.remember(i, m, &n.sleep[q], at)
				}
				return // an explored branch covers v
			}
		}
		a.indexThreads(seq, false)
	}
	if len(n.given()) > 0 && s.placeGiven(i, seq) {
		return // a branch handed out in a unit covers v, or v goes down it
	}
	if hit {
		if !s.nm.covers(n.wut, seq) {
			panic(fmt.Sprintf("weft internal error: optimal: the reversal of %v < %v was taken for covered from a record, but a check of %v adds a branch at node %d",
				a.evs[i], m, seqString(seq), i))
		}
		return
	}
	var track *coverTrack
	var from []walkStep
	if keep {
		track = &a.track
		track.reset(pos)
		if from = a.resumeAt(); len(from) > 0 {
			s.resumed++
			if a.hb.verify {
				a.verifyResume(&n.wut, seq, from)
			}
		}
	}
	added := s.nm.insertAt(&n.wut, seq, track, from)
	if keep {
		a.rememberTrack(i, m)
	}
	if added {
		if s.logf != nil {
			s.logf("race %v < %v: insert at node %d: %v", a.evs[i], m, i, seqString(seq))
		}
		s.stats.Inserted++
		if i < s.floor {
			s.units.record(&s.nm, i, seq, n.wut)
		}
	}
}

// pending looks for the races of thread p's operation pending at the end of
// the execution (blocked forever, or never run because of a failure) with
// the events before it.
func (a *analysis) pending(p trace.ThreadID) {
	a.scan(len(a.evs), p, len(a.byThread[p]), a.tr.Final[p], nil)
}

// failed reports whether end ended the execution in the middle: a failure
// (not a deadlock or leak, where no thread could move) or an assumption
// that did not hold, in the local code of the last step, which both
// handle alike.
func failed(end trace.End) bool { return end.InStep() }

// stopped reports whether end left threads with operations pending that
// may race with the events before them: a failure, deadlocks and leaks
// included, or an assumption that did not hold.
func stopped(end trace.End) bool { return end.Status == trace.Failed || end.Status == trace.Assumed }

// delaySleeps splits notdep, the events of a wakeup sequence before its
// last event m, into those that stay before m, in order, and those that
// go after it: the ends of sleeps with time that moves only when every
// thread is blocked, and the events after them that depend on one (their
// own thread's next events among them), unless m depends on one. Moving
// them past the others keeps the trace: none of those depends on them.
// late is nil when nothing moves; stay is in notdep's memory.
func (a *analysis) delaySleeps(notdep []*event, m *event) (stay, late []*event) {
	first := -1
	for k, x := range notdep {
		if sleepWhenBlocked(x) {
			first = k
			break
		}
	}
	if first < 0 {
		return notdep, nil
	}
	nm := &a.s.nm
	late = a.late[:0]
	sum := &a.lateSum
	sum.reset()
	for _, x := range notdep[first:] {
		moves := sleepWhenBlocked(x)
		if !moves {
			switch sum.dependent(x) {
			case depYes:
				moves = true
			case depMaybe:
				for _, l := range late {
					if nm.dependent(l, x) {
						moves = true
						break
					}
				}
			}
		}
		if moves {
			late = append(late, x)
			sum.add(x)
		}
	}
	a.late = late
	for _, l := range late {
		if nm.dependent(l, m) {
			return notdep, nil // m needs a sleep to end first
		}
	}
	stay = notdep[:first]
	j := 0
	for _, x := range notdep[first:] {
		if j < len(late) && x == late[j] {
			j++
			continue
		}
		stay = append(stay, x)
	}
	return stay, late
}

// sleepWhenBlocked reports whether e ends a Sleep with time that moves
// only when every thread is blocked: whether it can run in a state
// depends on the time there, which the model does not know.
func sleepWhenBlocked(e *event) bool { return sleepOpWhenBlocked(&e.Op) }

// sleepOpWhenBlocked is sleepWhenBlocked for an event's operation.
func sleepOpWhenBlocked(op *trace.Op) bool {
	return op.Kind == trace.KindSleep && op.Class != trace.ClassClock
}

// verifyResume panics if the walk of the wakeup forest children for seq
// that starts below from (resumeAt) ends elsewhere than the walk from the
// top.
func (a *analysis) verifyResume(children *[]*wnode, seq []*event, from []walkStep) {
	nm := &a.s.nm
	wantAt, rest, wantLeaf := nm.end(children, seq, nil, nil)
	wantRest := slices.Clone(rest)
	gotAt, rest, gotLeaf := nm.end(children, seq, nil, from)
	if wantLeaf != gotLeaf || (!wantLeaf && (wantAt != gotAt || !slices.Equal(wantRest, rest))) {
		panic(fmt.Sprintf("weft internal error: optimal: the walk of a wakeup tree for %v resumed below %d levels ends at a leaf %v, %d left, but from the top at a leaf %v, %d left",
			seqString(seq), len(from), gotLeaf, len(rest), wantLeaf, len(wantRest)))
	}
}

// indexThreads sets a.firstOf for seq, or, if not set, puts back the
// entries it set to -1.
func (a *analysis) indexThreads(seq []*event, set bool) {
	mark := func(t trace.ThreadID, k int) {
		if t < 0 {
			return
		}
		for int(t) >= len(a.firstOf) {
			a.firstOf = append(a.firstOf, -1)
		}
		switch {
		case !set:
			a.firstOf[t] = -1
		case a.firstOf[t] < 0:
			a.firstOf[t] = int32(k)
		}
	}
	for k, x := range seq {
		mark(x.sth, k)
		if x.spart != trace.NoThread {
			mark(x.spart, k)
		}
	}
}

// sleeperInitial is weakInitial(seq, z) for a sleeper z, with a.firstOf
// set for seq (indexThreads). The first element that shares a thread with
// z is dependent with it: if it is not z, z is no weak initial (z, which
// shares its threads, comes no earlier); if it is, z is one if no element
// before it is dependent with it; if there is none, z is not in seq, and
// is one if no element is dependent with it. The elements are compared
// from the last one back, which finds one dependent with z soon where
// there is one.
func (a *analysis) sleeperInitial(seq []*event, z *event) (ok bool, at int) {
	nm := &a.s.nm
	f := a.threadAt(z.sth)
	if z.spart != trace.NoThread {
		if g := a.threadAt(z.spart); g >= 0 && (f < 0 || g < f) {
			f = g
		}
	}
	end := len(seq)
	if f >= 0 {
		end = f
	}
	ok, at = true, f
	if f >= 0 && !sameKey(seq[f], z) {
		ok, at = false, -1
	} else {
		for k := end - 1; k >= 0; k-- {
			if nm.dependent(seq[k], z) {
				ok, at = false, -1
				break
			}
		}
	}
	if a.hb.verify {
		if wok, wat := nm.weakInitial(seq, z); wok != ok || (ok && wat != at) {
			panic(fmt.Sprintf("weft internal error: optimal: sleeper %v is a weak initial of %v: %v at %d, but a scan says %v at %d", z, seqString(seq), ok, at, wok, wat))
		}
	}
	return ok, at
}

// threadAt returns a.firstOf[t], or -1.
func (a *analysis) threadAt(t trace.ThreadID) int {
	if t < 0 || int(t) >= len(a.firstOf) {
		return -1
	}
	return int(a.firstOf[t])
}
