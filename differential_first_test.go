// This file holds, as data, the random programs of weft's first generator
// (a private one of the DPOR tests, since replaced by internal/gen) on
// which a strategy of the DPOR family once missed something; they are
// checked like the gen programs, against exhaustive search.

package weft_test

import (
	"testing"

	"github.com/weft-go/weft/internal/gen"
)

// The statements of the first generator, over two variables (v0, v1), a
// mutex, an RWMutex, an unbuffered channel c0 and a buffered one c1 (capacity
// 1), and a WaitGroup.
func firstLoad(v int) gen.Stmt     { return gen.Stmt{Kind: gen.Load, Obj: v} }
func firstAssert(v int) gen.Stmt   { return gen.Stmt{Kind: gen.Load, Obj: v, Val: 2, Assert: true} } // assert v != 2
func firstStore(v, x int) gen.Stmt { return gen.Stmt{Kind: gen.Store, Obj: v, Val: x} }
func firstCAS(v, x int) gen.Stmt   { return gen.Stmt{Kind: gen.CAS, Obj: v, Val: 0, Val2: x} } // CompareAndSwap(0, x)
func firstSend(c, x int) gen.Stmt  { return gen.Stmt{Kind: gen.Send, Obj: c, Val: x} }
func firstRecv(c int) gen.Stmt     { return gen.Stmt{Kind: gen.Recv, Obj: c} }
func firstSendOrRecv(x int) gen.Stmt { // select { case c0 <- x: case <-c1: }
	return gen.Stmt{Kind: gen.Select, Cases: []gen.Case{{Send: true, Chan: 0, Val: x}, {Chan: 1}}}
}

// m.Lock(); v++; m.Unlock()
func firstInc(v int) gen.Stmt {
	return gen.Stmt{Kind: gen.Lock, Body: []gen.Stmt{{Kind: gen.Inc, Obj: v}}}
}

// rw.RLock(); v.Load(); rw.RUnlock()
func firstRead(v int) gen.Stmt {
	return gen.Stmt{Kind: gen.RLock, Body: []gen.Stmt{firstLoad(v)}}
}

// rw.Lock(); v.Store(x); rw.Unlock()
func firstWrite(v, x int) gen.Stmt {
	return gen.Stmt{Kind: gen.WLock, Body: []gen.Stmt{firstStore(v, x)}}
}

var (
	firstRecvEither = gen.Stmt{Kind: gen.Select, Cases: []gen.Case{{Chan: 0}, {Chan: 1}}, Default: true} // select { case <-c0: case <-c1: default: }
	firstDone       = gen.Stmt{Kind: gen.Done}
	firstWait       = gen.Stmt{Kind: gen.Wait}
)

// firstProgram returns the program of the first generator whose body makes
// its objects, adds the number of Dones to the WaitGroup (if any), and
// starts the threads.
func firstProgram(seed uint64, threads ...[]gen.Stmt) *gen.Program {
	p := &gen.Program{Seed: seed, Vars: 2, Local: true, Threads: threads}
	var walk func([]gen.Stmt)
	walk = func(ss []gen.Stmt) {
		for _, s := range ss {
			switch s.Kind {
			case gen.Lock:
				p.Mutexes = 1
			case gen.RLock, gen.WLock:
				p.RWMutexes = 1
			case gen.Send, gen.Recv, gen.Select:
				p.Chans = []int{0, 1}
			case gen.Done:
				p.WaitGroups = 1
				p.WGAdd++
			case gen.Wait:
				p.WaitGroups = 1
			}
			walk(s.Body)
		}
	}
	for _, th := range threads {
		walk(th)
	}
	return p
}

// firstRegressions are the programs of the first generator, by its seed,
// on which a strategy of the DPOR family once missed a trace or a failure.
// Each was checked, when the first generator was removed, to explore
// exactly as the first generator's body did (the same executions and
// Foata forms under exhaustive search and every strategy of the family).
var firstRegressions = []struct {
	why string
	p   *gen.Program
}{
	{"sleep sets with a backtracking rule other than initials", firstProgram(5,
		[]gen.Stmt{firstRecvEither, firstSend(0, 2), firstAssert(0)},
		[]gen.Stmt{firstSendOrRecv(1)},
		[]gen.Stmt{firstSendOrRecv(1), firstSendOrRecv(1), firstStore(1, 1)})},
	{"sleep sets with a backtracking rule other than initials", firstProgram(32,
		[]gen.Stmt{firstCAS(1, 1), firstRecvEither, firstAssert(1)},
		[]gen.Stmt{firstRecvEither},
		[]gen.Stmt{firstWrite(0, 2), firstWait, firstRead(1)})},
	{"failures stopping an execution early", firstProgram(91,
		[]gen.Stmt{firstCAS(0, 2), firstAssert(0), firstLoad(0)},
		[]gen.Stmt{firstSend(1, 2), firstCAS(0, 1), firstRecv(0)},
		[]gen.Stmt{firstRecvEither})},
	{"unbuffered sends announced in local code", firstProgram(291,
		[]gen.Stmt{firstDone, firstWait, firstSendOrRecv(1), firstWait},
		[]gen.Stmt{firstDone, firstRead(1), firstRecvEither})},
	{"sleep sets with a backtracking rule other than initials", firstProgram(303,
		[]gen.Stmt{firstInc(0), firstRecvEither, firstSend(0, 1), firstRecv(0)},
		[]gen.Stmt{firstSend(1, 2), firstDone, firstRead(1), firstStore(1, 1)},
		[]gen.Stmt{firstRecvEither, firstSendOrRecv(2), firstSendOrRecv(2)})},
	{"sleep sets with a backtracking rule other than initials", firstProgram(803,
		[]gen.Stmt{firstStore(1, 2), firstSend(0, 1)},
		[]gen.Stmt{firstInc(1)},
		[]gen.Stmt{firstRead(1), firstStore(0, 2), firstAssert(1)})},
	{"a select's partner that could also run on its own", firstProgram(833,
		[]gen.Stmt{firstRecv(0)},
		[]gen.Stmt{firstRead(0), firstLoad(0), firstWrite(1, 1), firstSend(1, 2)},
		[]gen.Stmt{firstDone, firstSendOrRecv(1), firstWait})},
	{"sleep sets with a backtracking rule other than initials", firstProgram(909,
		[]gen.Stmt{firstCAS(0, 2), firstSendOrRecv(1)},
		[]gen.Stmt{firstSendOrRecv(1), firstRead(0), firstRead(1)},
		[]gen.Stmt{firstWait, firstCAS(0, 2), firstRecv(0), firstStore(0, 1)})},
	{"sleep sets with a backtracking rule other than initials", firstProgram(969,
		[]gen.Stmt{firstRead(0), firstSendOrRecv(2), firstWait, firstSend(1, 1)},
		[]gen.Stmt{firstCAS(1, 2), firstRecv(1), firstInc(1)},
		[]gen.Stmt{firstCAS(0, 1), firstWait, firstSend(0, 1)})},
	{"a select's partner that could also run on its own", firstProgram(1192,
		[]gen.Stmt{firstRecv(0), firstDone},
		[]gen.Stmt{firstRecvEither, firstRead(0), firstSendOrRecv(2), firstStore(0, 2)},
		[]gen.Stmt{firstSend(1, 1), firstRecv(0), firstInc(0), firstDone})},
	{"sleep sets with a backtracking rule other than initials", firstProgram(1398,
		[]gen.Stmt{firstInc(1), firstCAS(1, 2), firstLoad(1)},
		[]gen.Stmt{firstInc(1), firstStore(1, 1), firstCAS(1, 2), firstLoad(0)},
		[]gen.Stmt{firstInc(1)})},
	{"sleep sets with a backtracking rule other than initials", firstProgram(1580,
		[]gen.Stmt{firstRecvEither, firstDone, firstWait},
		[]gen.Stmt{firstRecv(0), firstWrite(0, 2), firstSend(0, 1)},
		[]gen.Stmt{firstSendOrRecv(2), firstStore(1, 1), firstSend(1, 1)})},
	{"sleep sets with a backtracking rule other than initials", firstProgram(1622,
		[]gen.Stmt{firstCAS(0, 2), firstSendOrRecv(2), firstWrite(0, 1)},
		[]gen.Stmt{firstRecv(0)},
		[]gen.Stmt{firstWrite(0, 2), firstSend(1, 2), firstDone})},
	{"sleep sets with a backtracking rule other than initials", firstProgram(2942,
		[]gen.Stmt{firstAssert(1), firstAssert(1), firstRecv(0), firstWrite(0, 1)},
		[]gen.Stmt{firstSendOrRecv(1), firstDone, firstRead(1)},
		[]gen.Stmt{firstStore(1, 1), firstWrite(1, 1), firstSend(1, 1), firstRecv(1)})},
}

// TestDifferentialFirstGenerator checks the complete strategies against
// exhaustive search on firstRegressions.
func TestDifferentialFirstGenerator(t *testing.T) {
	t.Parallel()
	for _, r := range firstRegressions {
		if !checkProgram(t, r.p) {
			t.Errorf("first generator's program %d (%s): too large for exhaustive search", r.p.Seed, r.why)
		}
	}
}
