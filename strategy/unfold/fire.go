// This file models an execution in the unfolding (Kähkönen et al. 2014, Fig. 8, lines
// 7-15): each executed step is matched with the event enabled in the
// current marking (CorrespondingEvent), added with its postset if it is
// new, its possible extensions computed, and fired.

package unfold

import (
	"fmt"
	"slices"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// nowFunc gives a thread's pending operation in the state being modelled,
// and whether it has finished.
type nowFunc func(id trace.ThreadID) (op trace.Op, done bool)

// key returns op, an operation of thread id in the current execution, with
// stable numbers. An RUnlock's argument says whether id holds a read lock
// (rwHolder) or not (rwStranger), not the runtime's.
func (s *Strategy) key(id trace.ThreadID, op trace.Op) opKey {
	k := opKey{kind: op.Kind, class: op.Class, obj: -1, arg: op.Arg}
	if op.Class == trace.ClassClock {
		// Time that moves at any step (clock.go).
		if op.Kind == trace.KindTimerStop {
			k.obj = s.on.stable(op.Obj)
		}
		if op.Kind == trace.KindSleep {
			s.n.sleeps = true
		}
		return s.clockKeyOf(k, op, int32(s.tn.Stable(id)))
	}
	if op.Kind == trace.KindRUnlock {
		k.arg = rwStranger
		if s.reads.holds(id, op.Obj) {
			k.arg = rwHolder
		}
	}
	switch op.Kind {
	case trace.KindNone:
		return opKey{obj: -1}
	case trace.KindSleep:
		s.n.sleeps = true
		return opKey{kind: op.Kind, class: op.Class, obj: -1, arg: op.Arg}
	case trace.KindJoin:
		k.obj, k.arg = int32(s.tn.Stable(trace.ThreadID(op.Arg))), 0
	case trace.KindSelect:
		cs := make([]selCase, len(op.Cases))
		for j, c := range op.Cases {
			cs[j] = selCase{kind: c.Kind, obj: s.on.stable(c.Obj)}
			if cs[j].obj >= 0 {
				cs[j].cap = s.on.caps[cs[j].obj]
			}
		}
		k.obj = s.n.internCases(cs)
	case trace.KindAwait:
		if op.Arg != trace.AwaitYield {
			break // its event's cases are its evaluation's (formIn)
		}
		cs := make([]selCase, len(op.Cases))
		for j, c := range op.Cases {
			cs[j] = selCase{kind: trace.KindLoad, obj: s.on.stable(c.Obj)}
		}
		k.obj = s.n.internCases(cs)
	default:
		k.obj = s.on.stable(op.Obj)
		switch {
		case op.Class == trace.ClassChan && k.obj >= 0:
			k.arg = s.on.caps[k.obj] // the state's meaning depends on it
		case semaphore(op.Class) && k.obj >= 0:
			k.arg = s.on.caps[k.obj] // the initial value
		case op.Class == trace.ClassCond:
			m := int32(-1)
			if a := trace.ArgObject(&op); a != trace.NoObject {
				m = s.on.stable(a)
			}
			k.arg = condArg(int32(s.tn.Stable(id)), m)
		case op.Class == trace.ClassMonitor && k.obj >= 0:
			var c int64
			switch op.Kind {
			case trace.KindMWait, trace.KindMSignal, trace.KindMSignalAll, trace.KindMReenter:
				c = op.Arg
			}
			k.arg = monitorArg(int32(s.tn.Stable(id)), c, s.on.caps[k.obj] == 1)
		}
	}
	return k
}

// startOf returns thread id's state at a new thread condition: its next
// operation, and whether it has one, finished, or failed (the step that
// made the condition failed and the thread has no operation).
func (s *Strategy) startOf(id trace.ThreadID, now nowFunc, fatal bool) threadStart {
	op, fin := now(id)
	st := threadStart{thread: int32(s.tn.Stable(id)), op: s.key(id, op)}
	if op.Kind == trace.KindSend && st.op.obj >= 0 && int(op.Obj) < len(s.objs) && s.objs[op.Obj].Class == trace.ClassTimer {
		// A timer's channel that the execution named before it became
		// one: with time at any step, the timer's creation reads the
		// clock in a step of its own first (clock.go).
		s.on.classes[st.op.obj] = trace.ClassTimer
	}
	switch {
	case op.Kind == trace.KindSend && s.on.timer(st.op.obj):
		// A timer's thread (timer.go): only it sends on the timer's
		// channel. It starts armed at the timer's first deadline.
		st.state = pending
		s.n.noteTimer(st.thread, st.op.obj)
		if int(op.Obj) < len(s.objs) && s.objs[op.Obj].Ticker {
			s.n.tickers[st.op.obj] = true
		}
		if int(op.Obj) < len(s.objs) {
			st.value = timerState(true, s.objs[op.Obj].When)
		}
	case op.Kind != trace.KindNone:
		st.state = pending
	case s.cut[id] && !fatal:
		st.state = unknown // another thread's failure cut its local code short
	case fatal || !fin:
		st.state = stopped
	default:
		st.state = done
	}
	return st
}

// nextOf returns thread id's state after step i of tr, which it ran or
// which started it: its first branch in the local code after the step, or
// its next operation.
func (s *Strategy) nextOf(tr *trace.Trace, id trace.ThreadID, i int, now nowFunc, fatal bool) threadStart {
	st := s.startOf(id, now, fatal)
	if len(tr.Branches) == 0 {
		return st
	}
	return s.withBranch(st, tr, branchAt(tr, id, i+1, 0))
}

// begin starts modelling an execution in the initial marking. The first
// execution makes the initial conditions of the threads started before
// the first step and computes their possible extensions; later ones check
// that the same threads start with the same operations.
//
// The threads started before the first step are those of tr whose Step is
// -1, and their operations those of their first events in tr (now's if
// they have none), so that a whole trace is modelled as the trace of each
// step's state is (a unit's log, unit.go).
func (s *Strategy) begin(tr *trace.Trace, now nowFunc, fatal bool) {
	n := s.n
	first := now
	now = func(id trace.ThreadID) (trace.Op, bool) { return pendingAfter(tr, -1, id, first) }
	initial := 0
	for initial < len(tr.Threads) && tr.Threads[initial].Step < 0 {
		initial++
	}
	s.begun = true
	s.reads = s.reads[:0]
	s.marking = s.marking[:0]
	for i := range n.places {
		s.marking = append(s.marking, n.places[i].init)
	}
	if len(tr.Branches) > 0 {
		s.syncInputs(tr)
	}
	if s.initial == nil {
		for id := range initial {
			st := s.withBranch(s.startOf(trace.ThreadID(id), now, fatal), tr, branchAt(tr, trace.ThreadID(id), 0, 0))
			s.addInitial(st)
		}
		s.newConds(s.initial)
		if fatal || n.observe {
			return // the initial local code fails: nothing to extend
		}
		if n.naive {
			n.naiveExtensions(s.initial)
		} else {
			for _, c := range s.initial {
				n.fromThread(c, s.marking)
			}
		}
		return
	}
	// An execution that failed before its first step (in the initial
	// local code of a thread, on a branch on inputs) may have started
	// fewer threads, and one that completes the initial local code such
	// an execution cut short, more (interrupt.go).
	fewer := initial < len(s.initial) && len(tr.Events) == 0
	more := initial > len(s.initial) && slices.ContainsFunc(s.initial, func(c int32) bool { return n.conds[c].state == unknown })
	if initial != len(s.initial) && !fewer && !more {
		s.diverge(fmt.Errorf("the execution started %d threads before its first step, the first one %d", initial, len(s.initial)))
		return
	}
	var done []int32
	for id := range initial {
		st := s.withBranch(s.startOf(trace.ThreadID(id), now, fatal), tr, branchAt(tr, trace.ThreadID(id), 0, 0))
		if id >= len(s.initial) {
			done = append(done, s.addInitial(st))
			continue
		}
		c := s.initial[id]
		completed, same := n.settle(c, st)
		if !same {
			s.diverge(fmt.Errorf("thread %v started with %v, in the first execution with %v", trace.ThreadID(id), st.op, n.conds[c].op))
			return
		}
		if completed {
			done = append(done, c)
		}
	}
	if !fatal {
		s.extendCompleted(done)
	}
}

// addInitial makes the initial condition of the thread st starts, in its
// thread's place, marks it and adds it to s.initial; it returns it.
func (s *Strategy) addInitial(st threadStart) int32 {
	n := s.n
	p := n.threadPlace(st.thread)
	c := n.newCond(p, -1)
	n.places[p].init = c
	n.conds[c].state, n.conds[c].op, n.conds[c].value = st.state, st.op, st.value
	n.setCond(c, st)
	s.initial = append(s.initial, c)
	for len(s.marking) < len(n.places) {
		s.marking = append(s.marking, -1)
	}
	s.marking[p] = c
	return c
}

// newConds makes the places the next operations of the new thread
// conditions cs need, marks the new copies in the current marking, and
// lists the conditions where the algorithms look for them.
func (s *Strategy) newConds(cs []int32) {
	n := s.n
	var made []int32
	for _, c := range cs {
		cd := &n.conds[c]
		th := n.places[cd.place].thread
		made = n.need(th, cd.op, made[:0])
		for len(s.marking) < len(n.places) {
			s.marking = append(s.marking, -1)
		}
		for _, p := range made {
			pl := &n.places[p]
			s.marking[p] = pl.init
			if pl.kind == copyPlace {
				if ob := n.objects[pl.obj]; len(ob.copies) > 1 {
					s.marking[p] = n.sibling(p, s.marking[ob.copies[0]])
				}
			}
		}
		cd = &n.conds[c]
		switch accessOf(cd.op) {
		case readAccess, writeAccess, mutexAccess, stateAccess, timerAccess, clockTimerAccess, advanceAccess:
			ob := n.objects[cd.op.obj]
			ob.users = append(ob.users, c)
			if accessOf(cd.op) == clockTimerAccess {
				n.objects[n.clk.obj].users = append(n.objects[n.clk.obj].users, c)
			}
			if cd.op.kind == trace.KindWGWait {
				u := n.frontOf(c, n.copies[[2]int32{cd.op.obj, th}])
				n.waitAt[u] = append(n.waitAt[u], c)
			}
			if queued(cd.op) {
				u := n.frontOf(c, ob.mutex)
				n.waitAt[u] = append(n.waitAt[u], c)
			}
		case condAccess:
			ob := n.objects[cd.op.obj]
			ob.users = append(ob.users, c)
			m := n.objects[condMutex(cd.op)]
			m.condUsers = append(m.condUsers, c)
		case awaitAccess:
			for _, sc := range n.awaitCases(cd.op) {
				ob := n.objects[sc.obj]
				if !containsInt32(ob.awaiters, c) {
					ob.awaiters = append(ob.awaiters, c)
				}
			}
		case nilAccess:
			if cd.op.kind == trace.KindSend || cd.op.kind == trace.KindRecv {
				n.nilBlocked = true
			}
		case selectAccess:
			if n.needsThreads(cd.op) && cd.state == pending {
				n.defaultSels = append(n.defaultSels, c)
			}
			var seen []int32
			for _, sc := range n.casesOf(cd.op) {
				if sc.obj >= 0 && !containsInt32(seen, sc.obj) {
					seen = append(seen, sc.obj)
					n.objects[sc.obj].users = append(n.objects[sc.obj].users, c)
				}
			}
		case joinAccess:
			u := cd.op.obj
			n.joiners[u] = append(n.joiners[u], c)
			if a := n.frontOf(c, n.threads[u]); a >= 0 {
				n.waitAt[a] = append(n.waitAt[a], c)
			} else {
				n.unplaced[u] = append(n.unplaced[u], c)
			}
		}
		if cd.state == done {
			n.markDone(c)
		}
	}
}

// step models event i of tr, the execution's next step: now gives the
// pending operations after it; fatal reports that the step failed.
func (s *Strategy) step(tr *trace.Trace, i int, now nowFunc, fatal bool) {
	n := s.n
	ev := &tr.Events[i]
	th := int32(s.tn.Stable(ev.Thread))
	k := s.key(ev.Thread, ev.Op)
	s.reads.apply(ev)
	tp, ok := n.threads[th]
	if !ok || s.marking[tp] < 0 {
		s.diverge(fmt.Errorf("step %d: thread %v has no condition in the unfolding", i+1, ev.Thread))
		return
	}
	t := s.marking[tp]
	for s.waitsForTime(t, k, ev.Partner) {
		// Time moved: every live thread was blocked (sleep.go), maybe
		// more than once (timers that fire for no one, timer.go).
		if !s.advanceIn() {
			s.diverge(fmt.Errorf("step %d: thread %v did %v, which waits for a time the unfolding's marking (time %d) does not move to", i+1, ev.Thread, k, n.nowOf(t)))
			return
		}
		t = s.marking[tp]
	}
	if n.conds[t].op != k {
		s.diverge(fmt.Errorf("step %d: thread %v did %v where the unfolding has %v", i+1, ev.Thread, k, n.conds[t].op))
		return
	}
	k = s.formIn(k, th)
	cas := int32(noCase)
	if k.kind == trace.KindSelect {
		cas = ev.Case
	}
	if ev.Partner != trace.NoThread {
		if _, ok := s.partnerCond(ev.Partner, ev.PartnerOp); !ok {
			s.diverge(fmt.Errorf("step %d: thread %v met thread %v (%v), which the unfolding does not have there", i+1, ev.Thread, ev.Partner, ev.PartnerOp))
			return
		}
	}
	alt := altCode(cas, ev.PartnerCase)
	if condAwait(k) {
		alt = awaitAlt(s.lastEval[th].path) // the path of the evaluation that held
	}
	pre, ok := s.preOf(t, th, k, cas, ev.Partner)
	if !ok {
		s.diverge(fmt.Errorf("step %d: thread %v did %v, whose places the unfolding does not have there", i+1, ev.Thread, k))
		return
	}
	if len(pre) == 2 && !n.accepts(n.caseOpOf(k, cas), &n.conds[pre[1]]) {
		s.diverge(fmt.Errorf("step %d: thread %v did %v, which the unfolding has disabled there", i+1, ev.Thread, k))
		return
	}
	e := int32(-1)
	if i < len(s.sched) {
		if want := &n.events[s.sched[i]]; !slices.Equal(want.pre, pre) || want.alt != alt {
			s.diverge(fmt.Errorf("step %d: thread %v did %v, not the scheduled event", i+1, ev.Thread, k))
			return
		}
		e = s.sched[i]
	}
	if len(tr.Branches) > 0 {
		s.syncInputs(tr)
	}
	if e < 0 {
		e = n.find(pre, alt)
	}
	if e >= 0 && n.events[e].in() {
		x := &n.events[e]
		if err := clockDiffers(x, ev); err != nil {
			s.diverge(fmt.Errorf("step %d: thread %v did %v: %w", i+1, ev.Thread, k, err))
			return
		}
		// A value may come from an input, whose values differ between
		// tests: only a step with no input before it is checked.
		if v, ok := observed(ev); (v != x.value || ok != x.ok) && (len(tr.Inputs) == 0 || int(tr.Inputs[0].Step) > i) {
			s.diverge(fmt.Errorf("step %d: thread %v did %v and observed (%d, %v), where an earlier execution of the same event observed (%d, %v)", i+1, ev.Thread, k, v, ok, x.value, x.ok))
			return
		}
		next := s.nextOf(tr, ev.Thread, i, now, fatal)
		completed, same := n.settle(x.post[0], next)
		if !same {
			s.diverge(fmt.Errorf("step %d: after %v, thread %v has %v pending, where an earlier execution of the same event left it %v", i+1, k, ev.Thread, next.op, n.conds[x.post[0]].op))
			return
		}
		if ev.Partner != trace.NoThread {
			if next := s.nextOf(tr, ev.Partner, i, now, false); next.op != n.conds[x.post[len(x.post)-1]].op {
				s.diverge(fmt.Errorf("step %d: after meeting thread %v, thread %v has %v pending, where an earlier execution of the same event left it %v", i+1, ev.Thread, ev.Partner, next.op, n.conds[x.post[len(x.post)-1]].op))
				return
			}
		}
		var done []int32
		if completed {
			done = append(done, x.post[0])
		}
		done = s.completeKids(e, tr, i, now, fatal, done)
		s.fire(e)
		if !fatal {
			s.extendCompleted(done)
		}
		return
	}
	if e < 0 {
		// An event enabled in a reachable marking that is no possible
		// extension: the computation missed it (or, observing, makes
		// none).
		if !n.observe {
			n.stats.Unexpected++
		}
		e, _ = n.extensionAlt(pre, alt)
	}
	next := s.nextOf(tr, ev.Thread, i, now, fatal)
	var kids []threadStart
	for c := range tr.Threads {
		if int(tr.Threads[c].Step) == i {
			kids = append(kids, s.nextOf(tr, trace.ThreadID(c), i, now, fatal))
		}
	}
	var partner threadStart
	if ev.Partner != trace.NoThread {
		// The sender goes on as the receiver does; a failure is taken
		// for the receiver's.
		partner = s.nextOf(tr, ev.Partner, i, now, false)
	}
	x := &n.events[e]
	setClockArg(x, ev)
	if err := clockDiffers(x, ev); err != nil {
		s.diverge(fmt.Errorf("step %d: thread %v did %v: %w", i+1, ev.Thread, k, err))
		return
	}
	x.fatal = fatal
	x.value, x.ok = observed(ev)
	x.symVal = ev.SymValue
	n.add(e, next, partner, kids, int64(ev.Value))
	s.fire(e)
	x = &n.events[e]
	news := append([]int32{x.post[0]}, x.spawned...)
	if ev.Partner != trace.NoThread {
		news = append(news, x.post[len(x.post)-1])
	} else {
		for _, d := range x.post[1:] {
			if p := n.conds[d].place; n.daemonPlace(p) || isDefault(x) && n.places[p].kind == threadPlace {
				news = append(news, d) // a Stop's, a Reset's, a default's (timer.go, offer.go)
			}
		}
	}
	s.newConds(news)
	if fatal || n.observe {
		return // nothing follows a failed step
	}
	if n.naive {
		x = &n.events[e]
		n.naiveExtensions(append(slices.Clone(x.post), x.spawned...))
		return
	}
	for _, c := range news[1:] {
		n.fromThread(c, s.marking)
	}
	n.fromThread(news[0], s.marking)
	n.fromResources(e)
}

// formIn returns the operation of the event of stable thread th's
// operation k in the current marking: a holder's RUnlock takes every copy
// when its copy has a deficit (rwForm).
func (s *Strategy) formIn(k opKey, th int32) opKey {
	if condAwait(k) {
		if ev, ok := s.lastEval[th]; ok {
			k.obj = s.n.awaitVars(ev.reads)
		}
		return k
	}
	if !holderRUnlock(k) {
		return k
	}
	if p, ok := s.n.copies[[2]int32{k.obj, th}]; ok && int(p) < len(s.marking) && s.marking[p] >= 0 && rwDeficitOf(s.n.conds[s.marking[p]].value) != 0 {
		return holderAll(k)
	}
	return k
}

// partnerCond returns the condition of thread id, the partner of a
// rendezvous, in the current marking, and whether its next operation there
// is op.
func (s *Strategy) partnerCond(id trace.ThreadID, op trace.Op) (int32, bool) {
	p, ok := s.n.threads[int32(s.tn.Stable(id))]
	if !ok || int(p) >= len(s.marking) || s.marking[p] < 0 {
		return -1, false
	}
	u := s.marking[p]
	return u, s.n.conds[u].op == s.key(id, op)
}

// fire fires event e in the current marking.
func (s *Strategy) fire(e int32) {
	n := s.n
	ev := &n.events[e]
	for len(s.marking) < len(n.places) {
		s.marking = append(s.marking, -1)
	}
	for i, c := range ev.pre {
		s.marking[n.conds[c].place] = ev.post[i]
	}
	for _, c := range ev.spawned {
		s.marking[n.conds[c].place] = c
	}
}

// nextEvent returns the event thread id (enabled) would run with its
// pending operation op in the current marking, meeting thread partner if
// it is not trace.NoThread (a receive on an unbuffered channel): of the
// unfolding, an extension, or -1 if neither.
func (s *Strategy) nextEvent(id trace.ThreadID, op trace.Op, alt strategy.Alternative) int32 {
	n := s.n
	th := int32(s.tn.Stable(id))
	tp, ok := n.threads[th]
	if !ok || int(tp) >= len(s.marking) || s.marking[tp] < 0 {
		return -1
	}
	t := s.marking[tp]
	k := s.key(id, op)
	for !n.observe && s.waitsForTime(t, k, alt.Partner) {
		// Enabled, though its condition waits for time: the runtime
		// moved time (sleep.go), which the next step would show.
		if !s.advanceIn() {
			return -1
		}
		t = s.marking[tp]
	}
	if n.conds[t].op != k {
		return -1
	}
	k = s.formIn(k, th)
	cas := int32(noCase)
	if k.kind == trace.KindSelect {
		cas = alt.Case
	}
	pre, ok := s.preOf(t, th, k, cas, alt.Partner)
	if !ok {
		return -1
	}
	if condAwait(k) {
		return n.find(pre, awaitAlt(s.lastEval[th].path))
	}
	return n.find(pre, altCode(cas, alt.PartnerCase))
}

// preOf returns the preset, in the current marking, of the event of thread
// condition t, of stable thread th, whose next operation is k: t, the
// conditions of k's places (for a select, of case cas's channel, or of
// every case's channel for its default, cas -1), and the condition of
// thread partner, a sender a receive meets, unless it is trace.NoThread.
// ok is false if one of them has no condition in the marking. The preset
// is in s.pre, valid until the next call.
func (s *Strategy) preOf(t, th int32, k opKey, cas int32, partner trace.ThreadID) (pre []int32, ok bool) {
	n := s.n
	pre = append(s.pre[:0], t)
	ps := n.resources(s.buf[:0], th, k)
	if k.kind == trace.KindSelect {
		switch cs := n.casesOf(k); {
		case cas == -1:
			ps = append(ps, n.casePlaces(k, th)...)
		case cas >= 0 && int(cas) < len(cs) && cs[cas].obj >= 0:
			ps = append(ps, n.chanPlace(cs[cas].key(), th))
		default:
			return nil, false
		}
	}
	s.buf = ps
	for _, p := range ps {
		if int(p) >= len(s.marking) || s.marking[p] < 0 {
			if k.kind == trace.KindAdvance && n.daemonPlace(p) {
				continue // a timer not started in this execution (clock.go)
			}
			return nil, false
		}
		pre = append(pre, s.marking[p])
	}
	if cas == -1 && n.needsThreads(k) {
		pre = s.liveThreads(pre, th)
	}
	if partner != trace.NoThread {
		u, _ := s.partnerCond(partner, trace.Op{})
		if u < 0 {
			return nil, false
		}
		pre = append(pre, u)
	}
	s.pre = pre
	return pre, true
}

// observed returns what the program observes of event ev (model.Observed):
// a load's or read-modify-write's value, whether a CompareAndSwap or a
// TryLock succeeded.
func observed(ev *trace.Event) (value uint64, ok bool) {
	v, o := model.Observed(ev.Op, ev.Case)
	if v {
		value = ev.Value
	}
	if o {
		ok = ev.OK
	}
	return value, ok
}
