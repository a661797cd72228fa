// This file implements the synthetic runner: it executes a Program under a
// strategy.Strategy as weft's runtime would, step by step, without
// goroutines.

package strategytest

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// MaxSteps bounds the steps of one execution; an execution that reaches it
// ends as a livelock (the programs have no loops: a strategy that never
// ends an execution would).
const MaxSteps = 10_000

// Result is what an exploration by Run saw.
type Result struct {
	// Executions counts the executions; Complete those in which every
	// thread finished, Cut those the strategy cut (strategy.Cut).
	Executions, Complete, Cut int
	// Exhausted reports that the strategy ended the exploration (Next
	// returned false) within the bound on executions.
	Exhausted bool
	// Failures counts the failing executions by kind (deadlocks and leaks
	// included).
	Failures map[trace.FailureKind]int
	// Traces counts the executions of each Mazurkiewicz trace (its Foata
	// normal form under trace.CR) among the maximal executions: those that
	// completed, deadlocked or leaked.
	Traces map[string]int
	// Failing counts the executions of each trace that failed otherwise
	// (an assertion, a negative WaitGroup counter, ...), keyed by the
	// kind and the Foata normal form.
	Failing map[string]int
	// Finals holds the final states of the complete executions: the
	// variables' values by name ("v0=1 v1=0").
	Finals map[string]bool
	// Schedules lists each execution's threads in the order they took
	// their steps ("1122"; threads above 9 print in brackets), followed by
	// "/cut" for a cut execution and "/<kind>" for a failing one.
	Schedules []string
}

// Run explores p with s until s ends the exploration or limit executions
// have run (no bound if limit is 0). It reports an error if s chose a
// thread or an alternative that is not enabled.
func Run(s strategy.Strategy, p *Program, limit int) (*Result, error) {
	return RunEach(s, func(int) *Program { return p }, limit)
}

// RunEach is Run for a test body that changes between executions: execution
// i (from 1) runs program(i).
func RunEach(s strategy.Strategy, program func(i int) *Program, limit int) (*Result, error) {
	r := newResult()
	var tr trace.Trace
	for {
		if limit > 0 && r.Executions == limit {
			return r, nil
		}
		if !s.Next() {
			r.Exhausted = true
			return r, nil
		}
		if err := r.execute(s, program(r.Executions+1), &tr); err != nil {
			return r, err
		}
	}
}

// newResult returns an empty Result.
func newResult() *Result {
	return &Result{Failures: map[trace.FailureKind]int{}, Traces: map[string]int{}, Failing: map[string]int{}, Finals: map[string]bool{}}
}

// execute runs one execution of p under s, for which s.Next returned
// true, records it in r, and hands it to s.Finish.
func (r *Result) execute(s strategy.Strategy, p *Program, tr *trace.Trace) error {
	r.Executions++
	m := newMachine(p, tr)
	end, sched, err := m.run(s)
	if err != nil {
		return fmt.Errorf("execution %d: %w", r.Executions, err)
	}
	switch {
	case end.Status == trace.Cut:
		r.Cut++
		sched += "/cut"
	case end.Status == trace.Complete:
		r.Complete++
		r.Traces[trace.Foata(tr, trace.CR)]++
		r.Finals[m.finalState()] = true
	default:
		r.Failures[end.Kind]++
		sched += "/" + end.Kind.String()
		if end.Kind == trace.Deadlock || end.Kind == trace.Leak {
			r.Traces[trace.Foata(tr, trace.CR)]++
		} else {
			r.Failing[end.Kind.String()+": "+trace.Foata(tr, trace.CR)]++
		}
	}
	r.Schedules = append(r.Schedules, sched)
	s.Finish(tr, end)
	return nil
}

// objRef names an object of a program: its class and its number among the
// program's objects of that class.
type objRef struct {
	class trace.Class
	n     int
}

// machine is the state of one execution of a program.
type machine struct {
	p       *Program
	tr      *trace.Trace
	threads []*thread
	top     []trace.ThreadID // the threads of p.Threads
	vars    []int
	locked  []bool
	wgs     []int64
	ids     map[objRef]trace.ObjectID // the objects registered so far
	failure *trace.End
	// sync follows the execution in the model of the primitives, which
	// gives each event the source of its synchronisation pair
	// (trace.Event.Src), as the runtime records it.
	sync model.State
}

// thread is a thread of the execution: the statements it has still to run,
// innermost last, and its pending operation.
type thread struct {
	id     trace.ThreadID
	frames []frame
	// pending is the pending operation, if has is set.
	pending pending
	has     bool
	done    bool
	// adds counts the body's WaitGroup Adds still to run before it starts
	// the threads; started reports that it did.
	adds    int
	started bool
}

// frame is a list of statements being run: then the threads they started
// to be joined, then the statements to run after them (the Release that
// ends a critical section).
type frame struct {
	stmts  []Stmt
	i      int
	joins  []trace.ThreadID
	joined int
	then   []Stmt
}

// pending is a thread's pending operation: the operation and the statement
// it belongs to.
type pending struct {
	op  trace.Op
	s   Stmt
	ref objRef // the object, if op has one
	// inc holds, for the store of an Inc, the value its load read plus 1.
	inc int
	// store marks the store of an Inc.
	store bool
}

// newMachine starts an execution of p, recorded in tr: the body runs to
// its first operation.
func newMachine(p *Program, tr *trace.Trace) *machine {
	tr.Reset()
	m := &machine{p: p, tr: tr, vars: make([]int, p.Vars), locked: make([]bool, p.Mutexes),
		wgs: make([]int64, p.WaitGroups), ids: map[objRef]trace.ObjectID{}}
	body := &thread{id: 0}
	if p.WGAdd != 0 {
		body.adds = p.WaitGroups
	}
	m.threads = append(m.threads, body)
	tr.Threads = append(tr.Threads, trace.ThreadInfo{Parent: trace.NoThread, Step: -1})
	m.sync.Reset(tr.Objects, len(tr.Threads))
	m.advance(body)
	return m
}

// run runs the execution under s and returns how it ended and its
// schedule.
func (m *machine) run(s strategy.Strategy) (trace.End, string, error) {
	var st strategy.State
	var sched strings.Builder
	for {
		if m.failure != nil {
			return m.finish(*m.failure), sched.String(), nil
		}
		st.Step, st.Trace = len(m.tr.Events), m.tr
		st.Threads = st.Threads[:0]
		live, enabled := 0, 0
		for _, t := range m.threads {
			th := strategy.Thread{Done: t.done}
			if t.has {
				th.Op = t.pending.op
				th.Alts = m.alts(t)
			}
			if !t.done {
				live++
			}
			enabled += int(th.Alts)
			st.Threads = append(st.Threads, th)
		}
		switch {
		case live == 0:
			return m.finish(trace.End{Status: trace.Complete, Thread: trace.NoThread}), sched.String(), nil
		case enabled == 0:
			end := trace.End{Status: trace.Failed, Kind: trace.Deadlock, Thread: trace.NoThread, Message: "no thread can move"}
			if m.threads[0].done {
				end.Kind, end.Message = trace.Leak, "the test body returned while other threads stay blocked forever"
			}
			return m.finish(end), sched.String(), nil
		case len(m.tr.Events) >= MaxSteps:
			return m.finish(trace.End{Status: trace.Failed, Kind: trace.Livelock, Thread: trace.NoThread,
				Message: fmt.Sprintf("the execution reached the step bound (%d steps)", MaxSteps)}), sched.String(), nil
		}
		c := s.Choose(&st)
		if c.Thread == trace.NoThread {
			return m.finish(trace.End{Status: trace.Cut, Thread: trace.NoThread}), sched.String(), nil
		}
		if c.Thread < 0 || int(c.Thread) >= len(st.Threads) || c.Alt < 0 || c.Alt >= st.Threads[c.Thread].Alts {
			return trace.End{}, sched.String(), fmt.Errorf("step %d: the strategy chose %v alternative %d, which is not enabled", len(m.tr.Events)+1, c.Thread, c.Alt)
		}
		m.tr.AddEnabled(len(st.Threads), func(i int) bool { return st.Threads[i].Alts > 0 })
		if c.Thread < 10 {
			sched.WriteByte('0' + byte(c.Thread))
		} else {
			fmt.Fprintf(&sched, "[%d]", int(c.Thread))
		}
		m.step(m.threads[c.Thread], c.Alt)
	}
}

// finish records each thread's pending operation at the end and returns
// end.
func (m *machine) finish(end trace.End) trace.End {
	m.tr.Final = m.tr.Final[:0]
	for _, t := range m.threads {
		var op trace.Op
		if t.has && !t.done {
			op = t.pending.op
		}
		m.tr.Final = append(m.tr.Final, op)
	}
	return end
}

// alts returns the number of alternatives of t's pending operation: 1 if
// it is enabled, 0 if it blocks.
func (m *machine) alts(t *thread) int32 {
	p := &t.pending
	blocked := false
	switch p.op.Kind {
	case trace.KindLock:
		blocked = m.locked[p.ref.n]
	case trace.KindWGWait:
		blocked = m.wgs[p.ref.n] != 0
	case trace.KindJoin:
		blocked = !m.threads[p.op.Arg].done
	}
	if blocked {
		return 0
	}
	return 1
}

// object returns the ObjectID of ref, registering it if t touches it first
// in this execution, as the runtime does when a thread announces an
// operation on it.
func (m *machine) object(t *thread, ref objRef) trace.ObjectID {
	if id, ok := m.ids[ref]; ok {
		return id
	}
	id := trace.ObjectID(len(m.tr.Objects))
	m.ids[ref] = id
	info := trace.ObjectInfo{Class: ref.class, Creator: t.id, Key: m.key(ref)}
	switch ref.class {
	case trace.ClassVar:
		info.Name = fmt.Sprintf("v%d", ref.n)
	case trace.ClassMutex:
		info.Name = fmt.Sprintf("m%d", ref.n)
	}
	m.tr.Objects = append(m.tr.Objects, info)
	return id
}

// key returns the key of ref, the same in every execution: objects that
// outlive executions have keys of their own.
func (m *machine) key(ref objRef) uint64 {
	k := uint64(ref.n) + 1
	switch ref.class {
	case trace.ClassMutex:
		k += uint64(m.p.Vars)
	case trace.ClassWaitGroup:
		k += uint64(m.p.Vars + m.p.Mutexes)
	}
	return k
}

// announce makes s, or its part the store of an Inc, t's pending
// operation.
func (m *machine) announce(t *thread, s Stmt) {
	p := pending{s: s}
	switch s.Kind {
	case Load, Inc:
		p.ref = objRef{trace.ClassVar, s.Obj}
		p.op = trace.Op{Kind: trace.KindLoad, Class: trace.ClassVar}
	case Store:
		p.ref = objRef{trace.ClassVar, s.Obj}
		p.op = trace.Op{Kind: trace.KindStore, Class: trace.ClassVar}
	case Add:
		p.ref = objRef{trace.ClassVar, s.Obj}
		p.op = trace.Op{Kind: trace.KindAdd, Class: trace.ClassVar}
	case AddOnly:
		// Op.Arg: the size of the variables' type, int.
		p.ref = objRef{trace.ClassVar, s.Obj}
		p.op = trace.Op{Kind: trace.KindAdd, Class: trace.ClassVar, Arg: int64(unsafe.Sizeof(int(0)))}
	case CAS:
		p.ref = objRef{trace.ClassVar, s.Obj}
		p.op = trace.Op{Kind: trace.KindCAS, Class: trace.ClassVar, Arg: int64(s.Val)}
	case Lock, Acquire:
		p.ref = objRef{trace.ClassMutex, s.Obj}
		p.op = trace.Op{Kind: trace.KindLock, Class: trace.ClassMutex}
	case TryLock:
		p.ref = objRef{trace.ClassMutex, s.Obj}
		p.op = trace.Op{Kind: trace.KindTryLock, Class: trace.ClassMutex}
	case Release:
		p.ref = objRef{trace.ClassMutex, s.Obj}
		p.op = trace.Op{Kind: trace.KindUnlock, Class: trace.ClassMutex}
	case Done:
		p.ref = objRef{trace.ClassWaitGroup, s.Obj}
		p.op = trace.Op{Kind: trace.KindWGAdd, Class: trace.ClassWaitGroup, Arg: -1}
	case Wait:
		p.ref = objRef{trace.ClassWaitGroup, s.Obj}
		p.op = trace.Op{Kind: trace.KindWGWait, Class: trace.ClassWaitGroup}
	case Join:
		p.op = trace.Op{Kind: trace.KindJoin, Class: trace.ClassThread, Obj: trace.NoObject, Arg: int64(m.top[s.Obj])}
	default:
		panic(fmt.Sprintf("strategytest: statement %v is not modelled", s.Kind))
	}
	if p.op.Kind != trace.KindJoin {
		p.op.Obj = m.object(t, p.ref)
	}
	t.pending, t.has = p, true
}

// announceAdd makes the body's Add to WaitGroup n its pending operation.
func (m *machine) announceAdd(t *thread, n int) {
	p := pending{s: Stmt{Kind: Done, Obj: n}, ref: objRef{trace.ClassWaitGroup, n}}
	p.op = trace.Op{Kind: trace.KindWGAdd, Class: trace.ClassWaitGroup, Arg: int64(m.p.WGAdd)}
	p.op.Obj = m.object(t, p.ref)
	t.pending, t.has = p, true
}

// advance runs t's local code up to its next operation, or to its end.
func (m *machine) advance(t *thread) {
	for !t.has && !t.done && m.failure == nil {
		if t.id == 0 && !t.started {
			if t.adds > 0 {
				m.announceAdd(t, m.p.WaitGroups-t.adds)
				t.adds--
				continue
			}
			t.started = true
			for _, th := range m.p.Threads {
				m.top = append(m.top, m.spawn(t, th))
			}
			t.frames = append(t.frames, frame{stmts: m.p.Main})
			continue
		}
		if len(t.frames) == 0 {
			t.done = true
			return
		}
		f := &t.frames[len(t.frames)-1]
		switch {
		case f.i < len(f.stmts):
			s := f.stmts[f.i]
			f.i++
			if s.Kind == Spawn {
				u := m.spawn(t, s.Body)
				if s.Joined {
					f.joins = append(f.joins, u)
				}
				continue
			}
			m.announce(t, s)
		case f.joined < len(f.joins):
			u := f.joins[f.joined]
			f.joined++
			t.pending = pending{s: Stmt{Kind: Join}, op: trace.Op{Kind: trace.KindJoin, Class: trace.ClassThread, Obj: trace.NoObject, Arg: int64(u)}}
			t.has = true
		case len(f.then) > 0:
			s := f.then[0]
			f.then = f.then[1:]
			m.announce(t, s)
		default:
			t.frames = t.frames[:len(t.frames)-1]
		}
	}
}

// spawn starts a thread of parent running ss, in parent's local code: it
// runs to its first operation at once.
func (m *machine) spawn(parent *thread, ss []Stmt) trace.ThreadID {
	u := &thread{id: trace.ThreadID(len(m.threads)), frames: []frame{{stmts: ss}}, started: true}
	m.threads = append(m.threads, u)
	n := len(m.tr.Events)
	m.tr.Threads = append(m.tr.Threads, trace.ThreadInfo{Parent: parent.id, Step: int32(n) - 1})
	if n > 0 {
		m.tr.Events[n-1].Spawned++
	}
	m.advance(u)
	return u.id
}

// fail ends the execution with a failure of t.
func (m *machine) fail(t *thread, kind trace.FailureKind, format string, args ...any) {
	m.failure = &trace.End{Status: trace.Failed, Kind: kind, Thread: t.id, Message: fmt.Sprintf(format, args...)}
}

// step runs t's pending operation, records its event, and runs t's local
// code up to its next operation.
func (m *machine) step(t *thread, alt int32) {
	p := t.pending
	t.has = false
	var value uint64
	ok := true
	n := p.ref.n
	var after func() // the local code right after the operation
	switch p.s.Kind {
	case Load:
		v := m.vars[n]
		value = uint64(v)
		if p.s.Assert && v == p.s.Val {
			after = func() { m.fail(t, trace.Assertion, "v%d == %d", n, v) }
		}
	case Inc:
		if p.store {
			m.vars[n] = p.inc
			value = uint64(p.inc)
			break
		}
		v := m.vars[n]
		value = uint64(v)
		after = func() {
			m.announce(t, p.s)
			t.pending.op.Kind, t.pending.store, t.pending.inc = trace.KindStore, true, v+1
		}
	case Store:
		m.vars[n] = p.s.Val
		value = uint64(p.s.Val)
	case Add, AddOnly:
		m.vars[n] += p.s.Val
		value = uint64(m.vars[n])
	case CAS:
		ok = m.vars[n] == p.s.Val
		if ok {
			m.vars[n] = p.s.Val2
		}
		value = uint64(m.vars[n])
	case Lock, Acquire:
		m.locked[n] = true
		if p.s.Kind == Lock {
			after = func() { t.frames = append(t.frames, frame{stmts: p.s.Body, then: []Stmt{{Kind: Release, Obj: n}}}) }
		}
	case TryLock:
		ok = !m.locked[n]
		if ok {
			m.locked[n] = true
			after = func() { t.frames = append(t.frames, frame{stmts: p.s.Body, then: []Stmt{{Kind: Release, Obj: n}}}) }
		} else {
			after = func() { t.frames = append(t.frames, frame{stmts: []Stmt{{Kind: Store, Obj: p.s.Val, Val: 9}}}) }
		}
	case Release:
		ok = m.locked[n]
		m.locked[n] = false
		if !ok {
			after = func() { m.fail(t, trace.UnlockOfUnlocked, "fatal error: sync: unlock of unlocked mutex") }
		}
	case Done:
		m.wgs[n] += p.op.Arg
		value = uint64(m.wgs[n])
		if m.wgs[n] < 0 {
			after = func() { m.fail(t, trace.NegativeWaitGroup, "sync: negative WaitGroup counter") }
		}
	case Wait, Join:
		// Waiting and joining change nothing once enabled.
	}
	ev := trace.Event{Thread: t.id, Alt: alt, Op: p.op, Case: -1, Partner: trace.NoThread,
		PartnerCase: -1, Value: value, OK: ok}
	m.sync.Grow(m.tr.Objects, len(m.tr.Threads))
	src := m.sync.Outcome(t.id, p.op, model.Alt{Case: -1, Partner: trace.NoThread, PartnerCase: -1}).Source
	ev.SetSource(int(src))
	m.sync.Apply(&ev)
	m.tr.Events = append(m.tr.Events, ev)
	if after != nil {
		after()
	}
	m.advance(t)
}

// finalState describes the final values of the variables, by name.
func (m *machine) finalState() string {
	var b strings.Builder
	for i, v := range m.vars {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "v%d=%d", i, v)
	}
	return b.String()
}
