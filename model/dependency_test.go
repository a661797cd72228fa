// This file checks trace's dependency relation against the model: two
// operations the model finds not to commute in some state (run in the two
// orders, they give different states or results, or one disables the
// other) must be dependent under trace.CR and trace.Plain, and two
// operations enabled together must not be declared never co-enabled.

package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/weft-go/weft/trace"
)

// The objects of the random states: their classes and infos.
const (
	oVar = iota
	oMutex
	oRW
	oWG
	oOnce
	oCond
	oChan
	oBuf
	oSem
	oBin
	oMonSC
	oMonSU
	oTimer
	oVar2
	numObjs
)

// workers is the number of threads that take random operations; thread
// workers is the timer's thread.
const workers = 3

func depObjects() []trace.ObjectInfo {
	objs := make([]trace.ObjectInfo, numObjs)
	classes := [numObjs]trace.Class{trace.ClassVar, trace.ClassMutex, trace.ClassRWMutex, trace.ClassWaitGroup,
		trace.ClassOnce, trace.ClassCond, trace.ClassChan, trace.ClassChan, trace.ClassSemaphore,
		trace.ClassBinarySemaphore, trace.ClassMonitor, trace.ClassMonitor, trace.ClassTimer, trace.ClassVar}
	for i, c := range classes {
		objs[i].Class = c
	}
	objs[oBuf].Cap = 2
	objs[oSem].Cap = 1
	objs[oMonSU].Cap = 1
	objs[oTimer].When = 2
	return objs
}

// randomOp returns a random operation for worker p in state s.
func randomOp(r *rand.Rand, s *State, p trace.ThreadID) trace.Op {
	op := func(k trace.Kind, c trace.Class, o int, arg int64) trace.Op {
		return trace.Op{Kind: k, Class: c, Obj: trace.ObjectID(o), Arg: arg}
	}
	sel := func(def bool, cs ...trace.Case) trace.Op {
		o := trace.Op{Kind: trace.KindSelect, Class: trace.ClassChan, Obj: trace.NoObject, Cases: cs}
		if def {
			o.Arg = 1
		}
		return o
	}
	send := func(o int) trace.Case { return trace.Case{Kind: trace.KindSend, Obj: trace.ObjectID(o)} }
	recv := func(o int) trace.Case { return trace.Case{Kind: trace.KindRecv, Obj: trace.ObjectID(o)} }
	v := oVar
	if r.IntN(2) == 0 {
		v = oVar2
	}
	ch := oChan
	if r.IntN(2) == 0 {
		ch = oBuf
	}
	mon := oMonSC
	if r.IntN(2) == 0 {
		mon = oMonSU
	}
	switch r.IntN(30) {
	case 0:
		return op(trace.KindLoad, trace.ClassVar, v, 0)
	case 1:
		return op(trace.KindStore, trace.ClassVar, v, 0)
	case 2:
		return op(trace.KindAdd, trace.ClassVar, v, 0)
	case 3:
		return op(trace.KindSwap, trace.ClassVar, v, 0)
	case 4:
		return op(trace.KindCAS, trace.ClassVar, v, int64(r.IntN(3)))
	case 5:
		return op([]trace.Kind{trace.KindLock, trace.KindUnlock, trace.KindTryLock}[r.IntN(3)], trace.ClassMutex, oMutex, 0)
	case 6:
		return op([]trace.Kind{trace.KindLock, trace.KindUnlock, trace.KindRLock, trace.KindRUnlock}[r.IntN(4)], trace.ClassRWMutex, oRW, 0)
	case 7:
		return op(trace.KindTryLock, trace.ClassRWMutex, oRW, int64(r.IntN(2)))
	case 8:
		return op(trace.KindWGAdd, trace.ClassWaitGroup, oWG, int64(1-2*r.IntN(2)))
	case 9:
		return op(trace.KindWGWait, trace.ClassWaitGroup, oWG, 0)
	case 10:
		if s.Objects[oOnce].Owner == p {
			return op(trace.KindOnceDone, trace.ClassOnce, oOnce, 0)
		}
		return op(trace.KindOnceDo, trace.ClassOnce, oOnce, 0)
	case 11:
		return op(trace.KindWait, trace.ClassCond, oCond, oMutex)
	case 12:
		return op([]trace.Kind{trace.KindSignal, trace.KindBroadcast}[r.IntN(2)], trace.ClassCond, oCond, 0)
	case 13, 14:
		return op([]trace.Kind{trace.KindSend, trace.KindRecv}[r.IntN(2)], trace.ClassChan, ch, 0)
	case 15:
		return op([]trace.Kind{trace.KindClose, trace.KindLen}[r.IntN(2)], trace.ClassChan, ch, 0)
	case 16:
		return sel(r.IntN(2) == 0, recv(oChan), send(oBuf))
	case 17:
		return sel(r.IntN(2) == 0, send(oChan), recv(oBuf), recv(oTimer))
	case 18:
		return op([]trace.Kind{trace.KindP, trace.KindV}[r.IntN(2)], trace.ClassSemaphore, oSem, 0)
	case 19:
		return op([]trace.Kind{trace.KindP, trace.KindV}[r.IntN(2)], trace.ClassBinarySemaphore, oBin, 0)
	case 20, 21:
		return op([]trace.Kind{trace.KindMEnter, trace.KindMExit}[r.IntN(2)], trace.ClassMonitor, mon, 0)
	case 22:
		return op([]trace.Kind{trace.KindMWait, trace.KindMSignal, trace.KindMSignalAll}[r.IntN(3)], trace.ClassMonitor, mon, int64(r.IntN(2)))
	case 23:
		return op(trace.KindRecv, trace.ClassChan, oTimer, 0)
	case 24:
		return op(trace.KindTimerStop, trace.ClassTimer, oTimer, []int64{-1, s.Now + 1}[r.IntN(2)])
	case 25:
		return trace.Op{Kind: trace.KindSleep, Class: trace.ClassTimer, Obj: trace.NoObject, Arg: s.Now + int64(r.IntN(2))}
	case 26:
		return trace.Op{Kind: trace.KindJoin, Class: trace.ClassThread, Obj: trace.NoObject, Arg: int64(r.IntN(workers))}
	case 27:
		return trace.Op{} // the thread finishes
	}
	return op(trace.KindLoad, trace.ClassVar, v, 0)
}

// data is the program's data a step of thread p with outcome out records:
// a value of its own for each thread and operation, an add's sum, the
// sender's value for a rendezvous.
func data(s *State, p trace.ThreadID, op trace.Op, out Outcome) uint64 {
	if out.Partner != trace.NoThread {
		return 40 + uint64(out.Partner)
	}
	switch op.Kind {
	case trace.KindAdd:
		return s.Objects[op.Obj].Value + uint64(p) + 1
	case trace.KindSwap, trace.KindCAS:
		return 20 + uint64(p)
	}
	return 10 + uint64(p)
}

// refresh gives the pending RUnlocks of s the Op.Arg the runtime states
// (balanced or not), as it does when the state changes.
func refresh(s *State) {
	for q := range s.Threads {
		if op := &s.Threads[q].Op; op.Kind == trace.KindRUnlock {
			op.Arg = s.Objects[op.Obj].Balanced(trace.ThreadID(q))
		}
	}
}

// step runs alternative a of thread p in s, if the operation is enabled
// there with that alternative and does not fail; it reports whether it did.
func step(s *State, p trace.ThreadID, a Alt) (trace.Event, Outcome, bool) {
	refresh(s)
	op := s.Threads[p].Op
	found := false
	s.Alternatives(p, op, func(b Alt) bool { found = b == a; return !found })
	if !found {
		return trace.Event{}, Outcome{}, false
	}
	out := s.Outcome(p, op, a)
	if out.Fail != trace.NoFailure {
		return trace.Event{}, out, false
	}
	e, out := s.Step(p, a, data(s, p, op, out))
	return e, out, true
}

// alternatives returns the alternatives of thread p in s.
func alternatives(s *State, p trace.ThreadID) []Alt {
	refresh(s)
	var as []Alt
	s.Alternatives(p, s.Threads[p].Op, func(a Alt) bool { as = append(as, a); return true })
	return as
}

// walk returns a random state reached from the initial one by up to n
// random steps of random operations.
func walk(r *rand.Rand, n int) *State {
	s := &State{Timed: true}
	s.Reset(depObjects(), workers+1)
	for range n {
		s.Threads[workers].Op = trace.Op{Kind: trace.KindSend, Class: trace.ClassChan, Obj: oTimer}
		for p := range workers {
			if t := &s.Threads[p]; !t.Done && t.Op.Kind == trace.KindNone {
				t.Op = randomOp(r, s, trace.ThreadID(p))
				if t.Op.Kind == trace.KindNone {
					t.Done = true
				}
			}
		}
		var choices [][2]int
		for p := range workers {
			for i := range alternatives(s, trace.ThreadID(p)) {
				choices = append(choices, [2]int{p, i})
			}
		}
		if len(choices) == 0 {
			if !s.Advance() {
				break
			}
			continue
		}
		c := choices[r.IntN(len(choices))]
		p := trace.ThreadID(c[0])
		if _, _, ok := step(s, p, alternatives(s, p)[c[1]]); !ok {
			s.Threads[p].Op = trace.Op{} // it would fail: draw another
		}
	}
	s.Threads[workers].Op = trace.Op{Kind: trace.KindSend, Class: trace.ClassChan, Obj: oTimer} // the timer's thread
	for p := range workers {
		if t := &s.Threads[p]; !t.Done && t.Op.Kind == trace.KindNone {
			t.Op = randomOp(r, s, trace.ThreadID(p))
			t.Done = t.Op.Kind == trace.KindNone
		}
	}
	refresh(s)
	return s
}

// sameState reports whether a and b are the same abstract state: the
// events the sources of pairs refer to are history, not state.
func sameState(a, b *State) bool {
	if a.Now != b.Now || len(a.Threads) != len(b.Threads) {
		return false
	}
	for i := range a.Threads {
		x, y := &a.Threads[i], &b.Threads[i]
		if !sameOp(x.Op, y.Op) || x.Steps != y.Steps || x.Done != y.Done {
			return false
		}
	}
	for i := range a.Objects {
		x, y := a.Objects[i], b.Objects[i]
		if len(x.Queue) != len(y.Queue) || len(x.Buf) != len(y.Buf) {
			return false
		}
		if x.Class == trace.ClassRWMutex {
			// The read locks each thread holds: a set, in no order.
			byThread := func(u, v Waiter) int { return int(u.Thread - v.Thread) }
			x.Queue = slices.SortedFunc(slices.Values(x.Queue), byThread)
			y.Queue = slices.SortedFunc(slices.Values(y.Queue), byThread)
		}
		for k := range x.Queue {
			u, v := x.Queue[k], y.Queue[k]
			if u.Thread != v.Thread || u.Cond != v.Cond || (u.By < 0) != (v.By < 0) {
				return false
			}
		}
		for k := range x.Buf {
			if x.Buf[k].Value != y.Buf[k].Value {
				return false
			}
		}
		x.Rel, x.RRel, x.Hand, x.Queue, x.Buf = 0, 0, 0, nil, nil
		y.Rel, y.RRel, y.Hand, y.Queue, y.Buf = 0, 0, 0, nil, nil
		if !equalObjects(&x, &y) {
			return false
		}
	}
	return true
}

func equalObjects(x, y *Object) bool {
	return x.Class == y.Class && x.Cap == y.Cap && x.Locked == y.Locked && x.Closed == y.Closed &&
		x.Done == y.Done && x.Owner == y.Owner && x.N == y.N && x.Writers == y.Writers &&
		x.Value == y.Value && x.When == y.When && x.Init == y.Init
}

func sameOp(a, b trace.Op) bool {
	return a.Kind == b.Kind && a.Class == b.Class && a.Obj == b.Obj && a.Arg == b.Arg && slices.Equal(a.Cases, b.Cases)
}

// sameResult reports whether e and f, two events of one operation, have
// the same results as far as the program observes them.
func sameResult(e, f *trace.Event) bool {
	if e.Case != f.Case || e.Partner != f.Partner || e.PartnerCase != f.PartnerCase {
		return false
	}
	value, ok := Observed(e.Op, e.Case)
	return (!value || e.Value == f.Value) && (!ok || e.OK == f.OK)
}

// TestDependency checks trace.Dependent (CR and Plain), trace.DependentOp,
// trace.OpsDependent and trace.MayBeCoEnabled against the model on pairs
// of operations enabled in random reachable states.
func TestDependency(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 100000
	if testing.Short() {
		n = 20000
	}
	pairs, commute, conservative := 0, 0, 0
	errs := 0
	for range n {
		s := walk(r, r.IntN(10))
		var choices [][2]int
		for p := range workers {
			for i := range alternatives(s, trace.ThreadID(p)) {
				choices = append(choices, [2]int{p, i})
			}
		}
		if len(choices) < 2 {
			continue
		}
		ca, cb := choices[r.IntN(len(choices))], choices[r.IntN(len(choices))]
		if ca[0] == cb[0] {
			continue
		}
		p, q := trace.ThreadID(ca[0]), trace.ThreadID(cb[0])
		a, b := alternatives(s, p)[ca[1]], alternatives(s, q)[cb[1]]
		opA, opB := s.Threads[p].Op, s.Threads[q].Op
		var s1, s2 State
		s1.CopyFrom(s)
		s2.CopyFrom(s)
		ea1, outA, okA := step(&s1, p, a)
		eb2, outB, okB := step(&s2, q, b)
		if outA.Fail != trace.NoFailure || outB.Fail != trace.NoFailure || !okA || !okB {
			continue // a failing step ends the execution
		}
		pairs++
		eb1, _, ok1 := step(&s1, q, b)
		ea2, _, ok2 := step(&s2, p, a)
		why := ""
		switch {
		case !ok1:
			why = fmt.Sprintf("%v %v disables %v %v", p, opA, q, opB)
		case !ok2:
			why = fmt.Sprintf("%v %v disables %v %v", q, opB, p, opA)
		case !sameResult(&ea1, &ea2) || !sameResult(&eb1, &eb2):
			why = fmt.Sprintf("results differ: %v %+v / %+v; %v %+v / %+v", opA, ea1, ea2, opB, eb1, eb2)
		case !sameState(&s1, &s2):
			why = "the states differ"
		}
		if !trace.MayBeCoEnabled(&ea1, opB) {
			errs++
			if errs <= 5 {
				t.Errorf("%v %v and %v %v are enabled together, MayBeCoEnabled says never\n%s", p, opA, q, opB, describe(s))
			}
		}
		if why == "" {
			commute++
			if trace.Dependent(&ea1, &eb1) {
				conservative++
			}
			continue
		}
		// a and b as they run in s, and in the order a, b where both can.
		ea, eb := &ea1, &eb2
		bad := []string{}
		if !trace.Dependent(ea, eb) {
			bad = append(bad, "CR")
		}
		if !trace.DependentPlain(ea, eb) {
			bad = append(bad, "Plain")
		}
		if ok1 && !trace.Dependent(&ea1, &eb1) {
			bad = append(bad, "CR in the order a, b")
		}
		if ok2 && !trace.Dependent(&eb2, &ea2) {
			bad = append(bad, "CR in the order b, a")
		}
		if !trace.CR.DependentOp(ea, q, opB) || !trace.CR.DependentOp(eb, p, opA) {
			bad = append(bad, "DependentOp")
		}
		if !trace.CR.OpsDependent(opA, opB) {
			bad = append(bad, "OpsDependent")
		}
		if len(bad) > 0 {
			errs++
			if errs <= 5 {
				t.Errorf("%v %v (alt %+v) and %v %v (alt %+v) do not commute (%s), independent under %v\n%s", p, opA, a, q, opB, b, why, bad, describe(s))
			}
		}
	}
	t.Logf("%d pairs enabled together, %d commute in the model (%d of them dependent in trace)", pairs, commute, conservative)
	if pairs < n/8 {
		t.Errorf("only %d pairs of %d states", pairs, n)
	}
}

// describe prints the non-initial part of state s.
func describe(s *State) string {
	str := fmt.Sprintf("\tnow %d\n", s.Now)
	for i, t := range s.Threads {
		str += fmt.Sprintf("\tT%d %v steps %d done %v\n", i, t.Op, t.Steps, t.Done)
	}
	infos := depObjects()
	for i, o := range s.Objects {
		var init Object
		init.Reset(&infos[i])
		x := o
		x.Rel, x.RRel, x.Hand = NoEvent, NoEvent, NoEvent
		if equalObjects(&x, &init) && len(o.Queue) == 0 && len(o.Buf) == 0 {
			continue
		}
		str += fmt.Sprintf("\to%d %v: locked %v closed %v done %v owner %v n %d writers %d value %d when %d init %d queue %v buf %v\n",
			i, o.Class, o.Locked, o.Closed, o.Done, o.Owner, o.N, o.Writers, o.Value, o.When, o.Init, o.Queue, o.Buf)
	}
	return str
}
