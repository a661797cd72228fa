// Tests of the primitives beyond the paper's model (RWMutex, Once): small
// programs and generated ones, against the unfolding of every
// interleaving and the deadlocks exhaustive search runs into.

package unfold_test

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// againstExhaustive explores body with unfold under each of opts and
// checks its unfolding against that of every interleaving: the same
// events (every local state exhaustive search reaches, unfold reaches),
// and every set of threads blocked in an execution of exhaustive search
// found blocked by unfold (its search or its tests). It returns the
// statistics of the first run, the executions of exhaustive search that
// ended blocked, and false if exhaustive search ran out of its budget
// (nothing checked then).
func againstExhaustive(t *testing.T, name string, body func(*weft.T), opts ...unfold.Options) (unfold.Stats, int, bool) {
	t.Helper()
	st, blocked, ok, _ := againstExhaustiveKinds(t, name, body, opts...)
	return st, blocked, ok
}

// againstExhaustiveKinds is againstExhaustive that also reports whether
// every exploration of unfold found the failure kinds exhaustive search
// found, no more, no fewer.
func againstExhaustiveKinds(t *testing.T, name string, body func(*weft.T), opts ...unfold.Options) (unfold.Stats, int, bool, bool) {
	t.Helper()
	obs, sigs, stuck := unfold.NewObserverDeadlocks(true)
	r, err := weft.Explore(body, weft.WithCustomStrategy(obs), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(3000))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exhausted {
		return unfold.Stats{}, 0, false, false
	}
	exKinds, sameKinds := kinds(r), true
	want, err := sigs()
	if err != nil {
		t.Fatalf("%s: observer: %v", name, err)
	}
	blocked := r.FailureCounts[trace.Deadlock] + r.FailureCounts[trace.Leak]
	var first unfold.Stats
	for i, o := range opts {
		r, s := explore(t, body, o)
		got := unfold.AnonSignatures(s)
		if i == 0 {
			first = s.Stats()
		}
		found := r.FailureCounts[trace.Deadlock] + r.FailureCounts[trace.Leak]
		sameKinds = sameKinds && maps.Equal(kinds(r), exKinds)
		missed, ok := unfold.Covers(unfold.DeadlockSigs(s, true), stuck())
		if d := unfold.Diff(got, want, "unfold", "exhaustive"); d != "" || s.Err() != nil || !r.Exhausted || s.Stats().Unexpected != 0 || !ok || (blocked > 0) != (found > 0) {
			t.Errorf("%s %+v: %d events, want %d; %d unexpected; err %v %v; blocked %d, unfold %d, missed %v (covered %v)\n%s", name, o, len(got), len(want), s.Stats().Unexpected, s.Err(), s.Diverged(), blocked, found, missed, ok, d)
		}
	}
	return first, blocked, true, sameKinds
}

// TestPrimitives: small programs with RWMutex, Once and buffered
// channels, with their numbers of events and tests (weft's body joins no
// thread here).
func TestPrimitives(t *testing.T) {
	for _, c := range []struct {
		name          string
		body          func(*weft.T)
		events, tests int
	}{
		// Two readers and a writer: each reader takes its thread's copy
		// of the RWMutex, the writer every copy, so the readers' RLocks
		// and RUnlocks commute: 62 events, 9 tests (149 and 26 when every
		// operation took the one place of the RWMutex's state).
		{"readers and a writer", func(w *weft.T) {
			var mu weft.RWMutex
			x := weft.NewVar[int]("x")
			for range 2 {
				w.Go(func() { mu.RLock(); _ = x.Load(); mu.RUnlock() })
			}
			w.Go(func() { mu.Lock(); x.Store(1); mu.Unlock() })
		}, 62, 9},
		// A writer that announces itself while a reader holds the lock,
		// and waits for it (model.RWAnnounced).
		{"announced writer", func(w *weft.T) {
			var mu weft.RWMutex
			w.Go(func() { mu.RLock(); mu.RUnlock() })
			w.Go(func() { mu.Lock(); mu.Unlock() })
		}, 12, 3},
		{"try-locks", func(w *weft.T) {
			var mu weft.RWMutex
			w.Go(func() {
				if mu.TryRLock() {
					mu.RUnlock()
				}
			})
			w.Go(func() {
				if mu.TryLock() {
					mu.Unlock()
				}
			})
		}, 12, 4},
		// Once: one of two threads runs the function, the other waits for
		// it or finds it run.
		{"once", func(w *weft.T) {
			var once weft.Once
			x := weft.NewVar[int]("x")
			for i := range 2 {
				w.Go(func() { once.Do(func() { x.Store(i) }); _ = x.Load() })
			}
		}, 12, 2},
		// A buffered channel of one value: two senders, a receiver of
		// both values, which it tells apart: one send, the receive, the
		// other send, the receive, for each order of the senders.
		{"buffered", func(w *weft.T) {
			ch := weft.MakeChan[int](1)
			for i := range 2 {
				w.Go(func() { ch.Send(i) })
			}
			w.Go(func() { _, _ = ch.Recv(), ch.Recv() })
		}, 8, 2},
		// A close that races with a send (which may panic) and with a
		// receive (which may get the zero value), and Len.
		{"close", func(w *weft.T) {
			ch := weft.MakeChan[int](2)
			w.Go(func() { ch.Send(1) })
			w.Go(func() { ch.Close() })
			w.Go(func() { _, _ = ch.RecvOK(); _ = ch.Len() })
		}, 15, 6},
		// An unbuffered channel: two senders, a receiver that meets
		// both, in either order.
		{"unbuffered", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			for i := range 2 {
				w.Go(func() { ch.Send(i) })
			}
			w.Go(func() { _, _ = ch.Recv(), ch.Recv() })
		}, 4, 2},
		// A close that races with a rendezvous: 2 tests, the first
		// receiving from the closed channel before the send panics
		// (the free part leaves the send, a misuse, for last; 3 tests
		// when it ran the send first and needed one more for the
		// receive).
		{"unbuffered close", func(w *weft.T) {
			ch := weft.MakeChan[int](0)
			w.Go(func() { ch.Send(1) })
			w.Go(func() { ch.Close() })
			w.Go(func() { _, _ = ch.RecvOK() })
		}, 5, 2},
		// A select that receives from either of two unbuffered
		// channels, each with a sender, twice; and a select that sends
		// on a buffered channel or receives from it, with a default.
		{"select", func(w *weft.T) {
			a, b := weft.MakeChan[int](0), weft.MakeChan[int](0)
			w.Go(func() { a.Send(1) })
			w.Go(func() { b.Send(2) })
			w.Go(func() {
				for range 2 {
					weft.Select(weft.OnRecv(a, nil), weft.OnRecv(b, nil))
				}
			})
		}, 4, 2},
		{"select with default", func(w *weft.T) {
			c := weft.MakeChan[int](1)
			w.Go(func() { c.Send(1) })
			w.Go(func() {
				weft.Select(weft.OnSend(c, 2, nil), weft.OnRecv(c, nil), weft.OnDefault(nil))
				weft.Select(weft.OnRecv(c, nil), weft.OnDefault(nil))
			})
		}, 6, 2},
		// Generated (gen seed 640): a Close that races with a select's
		// rendezvous, which must give it its extension after the
		// rendezvous (a regression). 4 tests: the free part leaves the
		// body's send on the closed channel for last (5 when it ran it
		// first).
		{"gen seed 640", genweft.Body(gen.New(640)), 19, 4},
		// A select's send case that a plain receive meets; if the
		// select sends on the buffered channel instead, the receive
		// waits forever.
		{"select sender", func(w *weft.T) {
			a, b := weft.MakeChan[int](0), weft.MakeChan[int](1)
			w.Go(func() { weft.Select(weft.OnSend(a, 1, nil), weft.OnSend(b, 2, nil)) })
			w.Go(func() { a.Recv() })
		}, 2, 2},
	} {
		st, _, ok := againstExhaustive(t, c.name, c.body, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 3})
		if !ok {
			t.Fatalf("%s: too big for exhaustive search", c.name)
		}
		if st.Events != c.events || st.Tests != c.tests {
			t.Errorf("%s: %+v; want %d events, %d tests", c.name, st, c.events, c.tests)
		}
	}
}

// uses reports whether the statements ss use a primitive of kinds, and
// only reports whether they use nothing but the kinds of ok.
func uses(ss []gen.Stmt, kinds map[gen.Kind]bool) (some bool) {
	for _, s := range ss {
		if kinds[s.Kind] || uses(s.Body, kinds) || uses(s.Child, kinds) {
			return true
		}
	}
	return false
}

// only reports whether the statements ss use nothing but kinds, no
// objects of a Scope, and no select with a default and a case on an
// unbuffered channel (of capacity caps[i]).
func only(ss []gen.Stmt, kinds map[gen.Kind]bool, caps []int) bool {
	for _, s := range ss {
		if !kinds[s.Kind] || s.Local || !only(s.Body, kinds, caps) || !only(s.Child, kinds, caps) {
			return false
		}
		for _, c := range s.Cases {
			if s.Default && caps[c.Chan] == 0 {
				return false
			}
		}
	}
	return true
}

// modelled are the statements of generated programs unfold models.
var modelled = map[gen.Kind]bool{
	gen.Load: true, gen.Store: true, gen.Add: true, gen.CAS: true, gen.Lock: true, gen.TryLock: true,
	gen.Done: true, gen.Wait: true, gen.Join: true, gen.Spawn: true,
	gen.RLock: true, gen.WLock: true, gen.TryRLock: true, gen.TryWLock: true, gen.OnceDo: true,
	gen.Send: true, gen.Recv: true, gen.Close: true, gen.Len: true, gen.Cap: true, gen.Select: true,
	gen.SemP: true, gen.SemV: true, gen.CondWait: true, gen.CondSignal: true, gen.Monitor: true, gen.MonWait: true,
	gen.MonSignal: true, gen.Await: true,
}

// TestGeneratedPrimitives runs againstExhaustive on generated programs
// that use RWMutex, Once, channels or select (with the primitives of the
// paper's model), with the efficient possible extensions, a random free
// part, and the naive possible extensions.
func TestGeneratedPrimitives(t *testing.T) {
	t.Parallel()
	programs := 100
	if !long.Enabled() {
		programs = 40
	}
	news := map[gen.Kind]bool{gen.RLock: true, gen.WLock: true, gen.TryRLock: true, gen.TryWLock: true, gen.OnceDo: true,
		gen.Send: true, gen.Recv: true, gen.Close: true, gen.Len: true, gen.Select: true}
	checked, events, dl, sel := 0, 0, 0, 0
	selects := map[gen.Kind]bool{gen.Select: true}
	for seed := uint64(0); checked < programs && seed < 100000; seed++ {
		p := gen.New(seed)
		all := append([][]gen.Stmt{p.Main}, p.Threads...)
		use, ok := false, true
		for _, ss := range all {
			use = use || uses(ss, news)
			ok = ok && only(ss, modelled, p.Chans)
		}
		if !use || !ok {
			continue
		}
		if st, blocked, ok := againstExhaustive(t, fmt.Sprintf("seed %d", seed), genweft.Body(p), unfold.Options{}, unfold.Options{Seed: int64(seed) + 1}, unfold.Options{Naive: true}); ok {
			checked++
			events += st.Events
			if blocked > 0 {
				dl++
			}
			if uses(all[0], selects) || slices.ContainsFunc(all[1:], func(ss []gen.Stmt) bool { return uses(ss, selects) }) {
				sel++
			}
		}
	}
	if checked < programs {
		t.Errorf("checked %d programs, want %d", checked, programs)
	}
	t.Logf("%d programs (%d with selects), %d events, %d that block", checked, sel, events, dl)
}

// TestStuck: deadlocks on RWMutexes and channels are found by the search
// of the unfolding (stuck.go), those no test runs into run to, and all are
// reported as weft's deadlock failures, with a replay token that
// reproduces them.
func TestStuck(t *testing.T) {
	for _, c := range []struct {
		name string
		body func(*weft.T)
		// deadlocks the search finds, of which run are not reached by a
		// test before the search; all deadlocking executions.
		deadlocks, run int
	}{
		// A reader that takes its read lock again while a writer waits
		// for it to leave: the writer blocks the second RLock (Go's
		// rule), the reader the writer.
		{"recursive read lock", func(w *weft.T) {
			var mu weft.RWMutex
			t1 := w.Go(func() { mu.RLock(); mu.RLock(); mu.RUnlock(); mu.RUnlock() })
			t2 := w.Go(func() { mu.Lock(); mu.Unlock() })
			t1.Join()
			t2.Join()
		}, 1, 0},
		// Generated (gen seed 184): two sends on a channel of one value
		// that nobody receives from, one of which blocks forever, among
		// stores and CompareAndSwaps: every execution blocks, in 88
		// different local states of the blocked thread, 30 of which no
		// test reaches.
		{"gen seed 184", genweft.Body(gen.New(184)), 88, 30},
		// A full buffer, and a sender that holds a mutex the receiver
		// wants.
		{"full buffer under a mutex", func(w *weft.T) {
			var mu weft.Mutex
			ch := weft.MakeChan[int](1)
			t1 := w.Go(func() { mu.Lock(); ch.Send(1); ch.Send(2); mu.Unlock() })
			t2 := w.Go(func() { mu.Lock(); mu.Unlock(); ch.Recv(); ch.Recv() })
			t1.Join()
			t2.Join()
		}, 1, 0},
	} {
		if _, _, ok := againstExhaustive(t, c.name, c.body, unfold.Options{}); !ok {
			t.Fatalf("%s: too big for exhaustive search", c.name)
		}
		r, s := explore(t, c.body, unfold.Options{})
		st := s.Stats()
		blocked := r.FailureCounts[trace.Deadlock] + r.FailureCounts[trace.Leak]
		if st.Deadlocks != c.deadlocks || st.DeadlockTests != c.run || blocked < max(c.run, 1) || blocked+r.Complete != r.Executions {
			t.Errorf("%s: %+v, failures %v; want %d deadlocks, %d run", c.name, st, r.FailureCounts, c.deadlocks, c.run)
		}
		for _, f := range r.Failures {
			if (f.Kind != trace.Deadlock && f.Kind != trace.Leak) || f.Token == "" {
				t.Errorf("%s: failure %v %q without a token", c.name, f.Kind, f.Message)
				continue
			}
			rr, err := weft.Replay(c.body, f.Token, weft.NoReplayFiles())
			if err != nil || len(rr.Failures) != 1 || rr.Failures[0].Kind != f.Kind {
				t.Errorf("%s: replaying %s: %v, %+v", c.name, f.Token, err, rr)
			}
		}
	}
}

// sweepSize is the number of generated programs a sweep checks: def by
// default, longN with WEFT_LONG=1, or the value of the environment
// variable env when it is a positive number.
func sweepSize(def, longN int, env string) int {
	n := def
	if long.Enabled() {
		n = longN
	}
	if v, err := strconv.Atoi(os.Getenv(env)); err == nil && v > 0 {
		n = v
	}
	return n
}
