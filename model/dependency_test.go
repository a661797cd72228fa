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

	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/trace"
)

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
			// A variable's reader: whether a write followed its last load
			// (which enables its await).
			if x.Class == trace.ClassVar && (u.By == x.Rel) != (v.By == y.Rel) {
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
	if !long.Enabled() {
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
