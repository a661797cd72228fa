// This file draws random reachable states for the tests: a random walk
// from the initial state of a few objects of every class, each thread's
// next operation drawn at random, each step a random enabled alternative.

package model

import (
	"math/rand/v2"

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
	switch r.IntN(32) {
	case 0:
		return op(trace.KindLoad, trace.ClassVar, v, 0)
	case 1:
		return op(trace.KindStore, trace.ClassVar, v, 0)
	case 2:
		// An Add, or an AddOnly (Op.Arg: the size of the variable's
		// type; data gives an add 64-bit sums).
		return op(trace.KindAdd, trace.ClassVar, v, []int64{0, 8}[r.IntN(2)])
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
	case 28, 29:
		// An await on the variables p has loaded (w.Await, w.Yield).
		var cs []trace.Case
		for _, o := range []int{oVar, oVar2} {
			if s.Objects[o].entry(p) >= 0 {
				cs = append(cs, trace.Case{Kind: trace.KindLoad, Obj: trace.ObjectID(o)})
			}
		}
		if len(cs) > 0 {
			return trace.Op{Kind: trace.KindAwait, Class: trace.ClassThread, Obj: trace.NoObject, Cases: cs}
		}
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
