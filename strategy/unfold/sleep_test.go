// Tests of virtual time that moves when every thread is blocked (sleeps):
// small programs against the unfolding of every interleaving, with their
// numbers of events and tests.

package unfold_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy/unfold"
)

// timedProgram is a small program on virtual time with its numbers of
// events, tests and advance tests (Stats.AdvanceTests) under the default
// options.
type timedProgram struct {
	name                    string
	body                    func(*weft.T)
	events, tests, advances int
}

// sleepPrograms are small programs with sleeps.
var sleepPrograms = []timedProgram{
	{"a sleeper and a writer", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		w.Go(func() { w.Sleep(1); x.Store(1) })
		_ = x.Load()
	}, 4, 1, 0},
	{"a sleeper holding a lock", func(w *weft.T) {
		var mu weft.Mutex
		x := weft.NewVar[int]("x")
		w.Go(func() { mu.Lock(); w.Sleep(1); x.Store(1); mu.Unlock() })
		mu.Lock()
		_ = x.Load()
		mu.Unlock()
	}, 16, 2, 0},
	{"two sleepers", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		w.Go(func() { w.Sleep(2); x.Store(2) })
		w.Go(func() { w.Sleep(1); x.Store(1) })
		_ = x.Load()
	}, 7, 1, 0},
	{"a sleeper and a blocked receiver", func(w *weft.T) {
		ch := weft.MakeChan[int](0)
		x := weft.NewVar[int]("x")
		w.Go(func() {
			if x.Load() == 0 {
				ch.Recv()
			}
		})
		w.Go(func() { x.Store(1); w.Sleep(1); ch.Send(1) })
	}, 9, 2, 0},
	// Every thread but the sleeper finishes before time moves, in one of
	// 4 combinations of their races (x's store before or after T3's
	// load, y's CompareAndSwap before or after the body's load): 4
	// advances to 1, each with its wake-up, advance to 4 and wake-up; 2
	// of them only the search of the unfolding finds (2 advance tests).
	{"finished threads' races before time moves", func(w *weft.T) {
		x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
		w.Go(func() { x.Store(2) })
		w.Go(func() { y.CompareAndSwap(0, 3) })
		w.Go(func() { _ = x.Load(); w.Sleep(1); w.Sleep(3) })
		_ = y.Load()
	}, 24, 4, 2},
}

// TestSleeps runs sleepPrograms against exhaustive search, with the
// efficient, the naive and the random extensions.
func TestSleeps(t *testing.T) {
	checkTimed(t, sleepPrograms, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 3})
}

// checkTimed runs each of progs against exhaustive search under opts
// (againstExhaustive) and checks its numbers.
func checkTimed(t *testing.T, progs []timedProgram, opts ...unfold.Options) {
	t.Helper()
	for _, c := range progs {
		st, _, ok := againstExhaustive(t, c.name, c.body, opts...)
		if !ok {
			t.Fatalf("%s: too big for exhaustive search", c.name)
		}
		if st.Events != c.events || st.Tests != c.tests || st.AdvanceTests != c.advances {
			t.Errorf("%s: %d events, %d tests, %d advance tests; want %d, %d, %d", c.name, st.Events, st.Tests, st.AdvanceTests, c.events, c.tests, c.advances)
		}
	}
}

// timedKinds are the statements on virtual time unfold models: sleeps, and
// reads of the clock (no step: the time of the local configuration).
var timedKinds = map[gen.Kind]bool{gen.Sleep: true, gen.Now: true}

// TestGeneratedSleeps runs againstExhaustive on generated programs with
// at least one sleep (gen.Timed, whose timeouts unfold refuses, left
// out), with the efficient, a random and the naive possible extensions:
// the same events, the same sets of blocked threads, the same failure
// kinds. 30 programs, 1000 with WEFT_LONG=1, or WEFT_UNFOLD_SLEEPS of
// them.
func TestGeneratedSleeps(t *testing.T) {
	programs := sweepSize(30, 1000, "WEFT_UNFOLD_SLEEPS")
	kinds := maps.Clone(modelled)
	maps.Copy(kinds, timedKinds)
	checked, events, advances, dl, bad := 0, 0, 0, 0, 0
	for seed := uint64(0); checked < programs && seed < 1000000; seed++ {
		p := gen.NewWith(seed, gen.Timed)
		all := append([][]gen.Stmt{p.Main}, p.Threads...)
		use, ok := false, true
		for _, ss := range all {
			use = use || uses(ss, map[gen.Kind]bool{gen.Sleep: true})
			ok = ok && only(ss, kinds, p.Chans)
		}
		if !use || !ok {
			continue
		}
		name := fmt.Sprintf("sleeps seed %d", seed)
		st, blocked, ok, same := againstExhaustiveKinds(t, name, genweft.Body(p), unfold.Options{}, unfold.Options{Seed: int64(seed) + 1}, unfold.Options{Naive: true})
		if !ok {
			continue
		}
		checked++
		events += st.Events
		advances += st.AdvanceTests
		if blocked > 0 {
			dl++
		}
		if !same {
			bad++
			t.Errorf("%s: failure kinds differ from exhaustive search's\n%v", name, p)
		}
	}
	if checked < programs {
		t.Errorf("checked %d programs, want %d", checked, programs)
	}
	t.Logf("%d programs, %d events, %d advance tests, %d that block, %d with other failure kinds", checked, events, advances, dl, bad)
}
