// Tests of virtual time that moves at any step (weft.TimeAnyStep): the
// clock a shared variable, each against exhaustive search.

package reach_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/reach"
	"github.com/weft-go/weft/trace"
)

var anyStep = weft.WithTime(weft.TimeAnyStep)

// TestTimeAny compares reach with exhaustive search, time at any step, on
// small programs of sleeps, timers and tickers: every SYN-sequence exactly
// once (seqs of them, in as many runs), the same failures (the kinds, and
// the failing thread and step, as compare checks) and the same number of
// distinct final states. Exhaustive search's executions and failures are
// pinned too (execs, fails; its executions count each interleaving).
func TestTimeAny(t *testing.T) {
	for _, c := range []struct {
		name                      string
		seqs, execs, fails, final int
		body                      func(*weft.T)
	}{
		// A sleep races with a write: the writer may be slower than the
		// sleep, which only time at any step finds. The clock's
		// accesses are the sleep's start and wake-up and the advance,
		// in one order; the sleeper's load is placed before or after
		// the store.
		{"sleep-write", 2, 5, 1, 1, func(w *weft.T) {
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1) })
			w.Sleep(time.Millisecond)
			w.Assert(x.Load() == 1, "the writer was slower than the sleep")
		}},
		// The built-in program: a select between each worker's answer
		// and time.After; a worker left without its receiver leaks.
		{"timeout", 12, 729, 374, 1, body("timeout", nil)},
		// A Stop races with its timer's firing: before the advance
		// that makes the timer due, between it and the firing (Stop
		// reports true both times, and the receiver leaks), or after
		// the firing.
		{"timer stop", 3, 6, 4, 1, func(w *weft.T) {
			tm := weft.NewTimer(time.Millisecond)
			done := weft.MakeChan[int](1)
			w.Go(func() { tm.C.Recv(); done.Send(1) })
			if tm.Stop() {
				done.Send(2)
			}
			done.Recv()
		}},
		// A ticker read twice while the body stops it: before the first
		// tick, between the ticks (the reader leaks), or after both.
		{"ticker", 54, 186, 58, 1, func(w *weft.T) {
			tk := weft.NewTicker(time.Millisecond)
			x := weft.NewVar[int]("x")
			w.Go(func() { tk.C.Recv(); tk.C.Recv(); x.Store(1) })
			tk.Stop()
			_ = x.Load()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ex, r := run(t, c.body, exhaustive.New(), 20000, anyStep)
			if !r.Exhausted {
				t.Fatal("exhaustive search did not finish")
			}
			fails := 0
			for _, n := range r.FailureCounts {
				fails += n
			}
			cmp := compareRuns(t, ex, c.body, reach.Options{}, anyStep)
			got := cmp.result
			if !cmp.ok() || cmp.want != c.seqs || cmp.got != c.seqs || got.Executions != c.seqs {
				t.Errorf("want %d sequences in as many runs: %v", c.seqs, cmp)
			}
			if r.Executions != c.execs || fails != c.fails {
				t.Errorf("exhaustive search: %d executions, %d failures; want %d, %d", r.Executions, fails, c.execs, c.fails)
			}
			if got.FinalStates != r.FinalStates || r.FinalStates != c.final || !sameKinds(got.FailureCounts, r.FailureCounts) {
				t.Errorf("reach: %d final states, failures %v; exhaustive search: %d, %v; want %d final states", got.FinalStates, got.FailureCounts, r.FinalStates, r.FailureCounts, c.final)
			}
			t.Logf("%s: %d sequences in %d runs, failures %v, %d final states; exhaustive: %d executions, failures %v", c.name, cmp.got, got.Executions, got.FailureCounts, got.FinalStates, r.Executions, r.FailureCounts)
		})
	}
}

// sameKinds reports whether a and b count failures of the same kinds.
func sameKinds(a, b map[trace.FailureKind]int) bool {
	for k, n := range a {
		if n > 0 && b[k] == 0 {
			return false
		}
	}
	for k, n := range b {
		if n > 0 && a[k] == 0 {
			return false
		}
	}
	return true
}

// TestGeneratedTimeAny runs reach and exhaustive search, time at any
// step, on generated programs on virtual time: gen.Timed's (sleeps, reads
// of the clock, timeouts), gen.Loops' (event loops of timers that re-arm,
// timers stopped or reset, sleeps) and genweft.NewTickers' (tickers read, stopped
// and reset by several threads), each with the free runs in thread order
// and at random: every SYN-sequence exactly once, every failure found.
// 10 programs of gen's, 4 of genweft.NewTickers' (100 of each with WEFT_LONG=1;
// REACH_TIME=n of each, from seed REACH_FROM; the programs exhaustive
// search does not finish in 5,000 executions, 1,500 for genweft.NewTickers', are
// skipped).
func TestGeneratedTimeAny(t *testing.T) {
	t.Parallel()
	n, err := strconv.Atoi(os.Getenv("REACH_TIME"))
	if err != nil {
		n = 0
	}
	if n == 0 && long.Enabled() {
		n = 100
	}
	from, _ := strconv.Atoi(os.Getenv("REACH_FROM"))
	for _, k := range []struct {
		name string
		// limit bounds exhaustive search's executions, default the
		// programs checked by default.
		limit, dflt int
		body        func(seed uint64) (func(*weft.T), fmt.Stringer)
		// pinned are the default run's programs too big for exhaustive
		// search, that advance the clock, that stop or reset a timer,
		// and reach's sequences and runs.
		pinned [5]int
	}{
		{"timed", 5000, 10, func(seed uint64) (func(*weft.T), fmt.Stringer) {
			p := gen.NewWith(seed, gen.Timed)
			return genweft.Body(p), p
		}, [5]int{2, 4, 0, 188, 189}},
		{"loops", 5000, 10, func(seed uint64) (func(*weft.T), fmt.Stringer) {
			p := gen.NewWith(seed, gen.Loops)
			return genweft.Body(p), p
		}, [5]int{0, 5, 2, 244, 255}},
		{"tickers", 1500, 4, func(seed uint64) (func(*weft.T), fmt.Stringer) {
			p := genweft.NewTickers(seed)
			return p.Body(), p
		}, [5]int{52, 4, 4, 230, 230}},
	} {
		programs := k.dflt
		if n > 0 {
			programs = n
		}
		checked, big, bad, seqs, runs := 0, 0, 0, 0, 0
		timed, stops := 0, 0
		for seed := uint64(from); checked < programs && seed < uint64(from)+100000; seed++ {
			body, p := k.body(seed)
			ex, r := run(t, body, exhaustive.New(), k.limit, anyStep)
			if !r.Exhausted {
				big++
				continue
			}
			checked++
			a, st := 0, 0
			for _, x := range ex {
				a, st = max(a, x.advances), max(st, x.stops)
			}
			timed += b2i(a > 0)
			stops += b2i(st > 0)
			for _, o := range []reach.Options{{}, {Seed: int64(seed) + 1}} {
				c := compareRuns(t, ex, body, o, anyStep)
				if o.Seed == 0 {
					seqs += c.got
					runs += c.runs
				}
				if !c.ok() {
					bad++
					t.Errorf("%s seed %d %+v: %v\n%v", k.name, seed, o, c, p)
				}
			}
			if bad > 3 {
				t.FailNow()
			}
		}
		t.Logf("%s: %d programs (%d too big for exhaustive search; %d advance the clock, %d stop or reset a timer), %d sequences in %d runs, %d disagreements",
			k.name, checked, big, timed, stops, seqs, runs, bad)
		if got := [5]int{big, timed, stops, seqs, runs}; n == 0 && from == 0 && got != k.pinned {
			t.Errorf("%s, the default run: too big, advancing the clock, stopping or resetting a timer, sequences, runs %v, want %v", k.name, got, k.pinned)
		}
	}
}

// b2i returns 1 if b, else 0.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
