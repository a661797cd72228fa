// Tests that the timeout and the context stop every strategy within a
// second of the bound, inside its analysis of a long execution too.

package weft_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/strategy/reach"
	"github.com/weft-go/weft/trace"
)

// boundSteps is the step bound of the spinning body in TestBoundsStopEveryStrategy:
// an execution runs well within the bound of a second, and a quadratic
// analysis of it would take far longer.
const boundSteps = 20_000

// checkReturn checks that an exploration bounded to a second, started at
// start when the process had used cpu of processor time, returned within
// two seconds. On a machine so busy that the process got less than half
// of the wall time as processor time, a late return is the machine's, not
// weft's: it is logged, not failed, unless the process used over two
// seconds of processor time (weft kept working past the bound). It
// reports whether the machine was that busy.
func checkReturn(t *testing.T, start time.Time, cpu time.Duration) (busy bool) {
	t.Helper()
	wall, used := time.Since(start), cpuTime()-cpu
	busy = used < wall/2
	switch {
	case wall < 2*time.Second:
	case busy && used < 2*time.Second:
		t.Logf("Explore returned after %v with %v of processor time: the machine is busy, the bound is not checked", wall, used)
	default:
		t.Errorf("Explore returned after %v (%v of processor time); want less than 2s", wall, used)
	}
	return busy
}

// TestBoundsStopEveryStrategy runs spin, whose every execution hits the
// step bound, under each registered strategy in both time modes, with a
// timeout of a second and with a context canceled after a second: the
// exploration returns within two seconds and says what stopped it (or the
// strategy refuses the program, or the time mode, at once). By default it
// runs a few strategies; WEFT_LONG=1 runs every one.
func TestBoundsStopEveryStrategy(t *testing.T) {
	names := registry.Names()
	if !long.Enabled() {
		names = []string{"optimal", "dpor+sleep", "flip"}
	}
	modes := []struct {
		name string
		opts []weft.Option
	}{
		{"blocked", nil},
		{"any", []weft.Option{weft.WithTime(weft.TimeAnyStep)}},
	}
	bounds := []string{"timeout", "context"}
	for _, name := range names {
		for _, m := range modes {
			for _, bound := range bounds {
				if !long.Enabled() && name != "optimal" && (m.name == "any" || bound == "context") {
					continue // the representative subset
				}
				t.Run(name+"/"+m.name+"/"+bound, func(t *testing.T) {
					opts := append([]weft.Option{weft.WithStrategy(name), weft.WithMaxSteps(boundSteps), weft.KeepGoing(), weft.NoReplayFiles()}, m.opts...)
					if bound == "timeout" {
						opts = append(opts, weft.WithTimeout(time.Second))
					} else {
						ctx, cancel := context.WithTimeout(context.Background(), time.Second)
						defer cancel()
						opts = append(opts, weft.WithContext(ctx))
					}
					start, cpu := time.Now(), cpuTime()
					r, err := weft.Explore(spin, opts...)
					busy := checkReturn(t, start, cpu)
					switch {
					case errors.Is(err, weft.ErrTimeMode), errors.Is(err, reach.ErrUnmodelled):
						return // the strategy refuses the time mode, or shared variables
					case errors.Is(err, weft.ErrNoExecution) && busy:
						t.Logf("no execution ended within the bound on a busy machine: %v", err)
						return
					case err != nil:
						t.Fatal(err)
					}
					if r.Executions == 0 && busy && r.Canceled && bound == "context" {
						// As the timeout's ErrNoExecution, but a canceled
						// context is no error.
						t.Logf("no execution ended within the bound on a busy machine")
						return
					}
					if r.Executions == 0 || r.Exhausted || r.TimedOut != (bound == "timeout") || r.Canceled != (bound == "context") {
						t.Errorf("executions %d, exhausted %v, timed out %v, canceled %v; want some, false, and stopped by the %s",
							r.Executions, r.Exhausted, r.TimedOut, r.Canceled, bound)
					}
				})
			}
		}
	}
}

// lostUpdates is a body whose threads each add 1 to a variable
// lostUpdateRounds times by a load and a store, and whose test body then
// asserts the sum: an interleaving that loses an update fails after some
// 40,000 steps, with many preemptions to shorten.
func lostUpdates(w *weft.T) {
	var x weft.Var[int]
	add := func() {
		for range lostUpdateRounds {
			x.Store(x.Load() + 1)
		}
	}
	a, b := w.Go(add), w.Go(add)
	a.Join()
	b.Join()
	w.Assert(x.Load() == 2*lostUpdateRounds, "lost updates: %d", x.Load())
}

// lostUpdateRounds is the number of additions of each thread of
// lostUpdates.
const lostUpdateRounds = 10_000

// TestBoundsStopShortening runs lostUpdates under random schedules with a
// timeout of a second: the first execution fails, and its shortening (up
// to 200 replays of 40,000 steps) and the replay that lists its steps stop
// at the timeout. Explore returns within two seconds with the failure as
// found, its every step listed.
func TestBoundsStopShortening(t *testing.T) {
	start, cpu := time.Now(), cpuTime()
	r, err := weft.Explore(lostUpdates, weft.WithStrategy("random"), weft.WithSeed(1), weft.WithTimeout(time.Second), weft.NoReplayFiles())
	busy := checkReturn(t, start, cpu)
	if errors.Is(err, weft.ErrNoExecution) && busy {
		t.Skipf("no execution ended within the bound on a busy machine: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) != 1 {
		t.Fatalf("%d failures, want 1", len(r.Failures))
	}
	f := r.Failures[0]
	if f.Kind != trace.Assertion || f.FoundSteps != 0 || int64(len(f.Steps)) != r.Events {
		t.Errorf("failure %v, shortened from %d steps, %d steps listed; want an assertion as found, its %d steps listed", f.Kind, f.FoundSteps, len(f.Steps), r.Events)
	}
}

// TestLivelockNotShortened runs, under a random schedule, a body whose two
// threads spin for ever, to the step bound of 20,000 steps: the possible
// livelock is reported as found, not shortened (a variant without a
// preemption would spin to the bound too, with fewer switches, and each
// replay would take the whole bound).
func TestLivelockNotShortened(t *testing.T) {
	const steps = 20_000
	body := func(w *weft.T) {
		var x weft.Var[int]
		for range 2 {
			w.Go(func() {
				for x.Load() == 0 {
				}
			})
		}
	}
	r, err := weft.Explore(body, weft.WithStrategy("random"), weft.WithSeed(1), weft.WithMaxSteps(steps), weft.WithMaxRuns(1), weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) != 1 {
		t.Fatalf("%d failures, want 1", len(r.Failures))
	}
	f := r.Failures[0]
	if f.Kind != trace.Livelock || f.FoundSteps != 0 || len(f.Steps) != steps || f.Switches == 0 {
		t.Errorf("failure %v, shortened from %d steps, %d steps listed, %d switches; want a livelock as found, its %d steps listed, with switches",
			f.Kind, f.FoundSteps, len(f.Steps), f.Switches, steps)
	}
}

// TestBoundsStopReplay replays the token of a failing execution of spin
// (a possible livelock at the step bound) under a timeout and a context
// that stop it before it ends: Replay says so with ErrNoExecution instead
// of running on, and a Check whose replay file the timeout interrupts
// fails with the same cause rather than ignoring its bound: inconclusive,
// or failed under WithStrict. Without a bound the replay reproduces the
// bound hit. Check reports the bound hit as inconclusive and writes no
// replay file for it; a replay file of one (written here, as weft wrote
// them before) that reaches the bound again leaves the test inconclusive.
func TestBoundsStopReplay(t *testing.T) {
	opts := []weft.Option{weft.WithMaxSteps(boundSteps), weft.NoReplayFiles()}
	r, err := weft.Explore(spin, append(opts, weft.WithMaxRuns(1))...)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Failed() || r.Failures[0].Kind != trace.Livelock {
		t.Fatalf("failures %v; want a livelock", r.Failures)
	}
	tok := r.Failures[0].Token
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name  string
		bound weft.Option
		want  string
	}{
		{"timeout", weft.WithTimeout(time.Nanosecond), "the timeout 1ns expired before the replayed execution ended"},
		{"context", weft.WithContext(canceled), "the context was canceled before the replayed execution ended"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := weft.Replay(spin, tok, append(opts, c.bound)...)
			if !errors.Is(err, weft.ErrNoExecution) || r != nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Replay: %v, %v; want no result and an error wrapping ErrNoExecution that says %q", r, err, c.want)
			}
		})
	}
	r, err = weft.Replay(spin, tok, opts...)
	if err != nil || !r.Failed() || r.Failures[0].Kind != trace.Livelock {
		t.Fatalf("Replay without a bound: %v, %v; want the livelock", r, err)
	}

	t.Chdir(t.TempDir())
	ft := &fakeTB{TB: t, name: "TestSpin"}
	weft.Check(ft, spin, weft.WithMaxSteps(boundSteps), weft.WithMaxRuns(1))
	if len(ft.errors) != 0 || len(ft.fatals) != 0 || len(ft.skips) != 1 ||
		!strings.HasPrefix(ft.skips[0], weft.Inconclusive+": 1 execution reached the step bound (20000 steps) without ending, and no execution failed otherwise") {
		t.Fatalf("first Check: errors %q, fatals %q, skips %q; want the test inconclusive", ft.errors, ft.fatals, ft.skips)
	}
	// The replay command stops the replay at the bound the exploration had.
	if logs := strings.Join(ft.logs, "\n"); !strings.Contains(logs, "\nreplay: WEFT_MAX_STEPS=20000 WEFT_REPLAY='TestSpin=") {
		t.Errorf("first Check's logs lack the replay command with WEFT_MAX_STEPS=20000:\n%s", logs)
	}
	if _, err := os.Stat(filepath.Join(weft.ReplayDir, "TestSpin")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a replay directory for the bound hit: %v; want none", err)
	}
	file := filepath.Join(weft.ReplayDir, "TestSpin", "livelock")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("weft replay v1\nkind: livelock\ntime: blocked\ntoken: "+tok+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ft = &fakeTB{TB: t, name: "TestSpin"}
	weft.Check(ft, spin, weft.WithMaxSteps(boundSteps), weft.WithMaxRuns(1))
	if len(ft.errors) != 0 || len(ft.fatals) != 0 || len(ft.skips) == 0 ||
		!strings.HasPrefix(ft.skips[0], weft.Inconclusive+": replay file testdata/weft/TestSpin/livelock reaches the step bound (20000 steps) without ending") {
		t.Fatalf("Check replaying its file of the bound hit: errors %q, fatals %q, skips %q; want the test inconclusive", ft.errors, ft.fatals, ft.skips)
	}
	ft = &fakeTB{TB: t, name: "TestSpin"}
	weft.Check(ft, spin, weft.WithMaxSteps(boundSteps), weft.WithTimeout(time.Nanosecond))
	// fakeTB's Skipf returns, where a test's ends it: the first is what counts.
	if len(ft.errors) != 0 || len(ft.fatals) != 0 || len(ft.skips) == 0 ||
		!strings.HasPrefix(ft.skips[0], weft.Inconclusive+": replay file testdata/weft/TestSpin/") ||
		!strings.Contains(ft.skips[0], "the timeout 1ns expired before the replayed execution ended") {
		t.Fatalf("Check replaying its file under a timeout of 1ns: errors %q, fatals %q, skips %q; want the test inconclusive, the replay stopped by the timeout", ft.errors, ft.fatals, ft.skips)
	}
	ft = &fakeTB{TB: t, name: "TestSpin"}
	weft.Check(ft, spin, weft.WithMaxSteps(boundSteps), weft.WithTimeout(time.Nanosecond), weft.WithStrict())
	if len(ft.fatals) == 0 || !strings.HasPrefix(ft.fatals[0], "weft: replay file testdata/weft/TestSpin/") {
		t.Fatalf("the same under WithStrict: fatals %q; want the replay's timeout as the test's failure", ft.fatals)
	}
}

// crowdThreads is the number of threads of crowd blocked on a channel.
const crowdThreads = 500

// crowd is spin among crowdThreads threads blocked on a channel: every
// step of an execution is as costly as the threads are many (the enabled
// set, the threads' clocks), and so is a strategy's analysis of each state.
func crowd(w *weft.T) {
	ch := weft.MakeChan[int](0)
	for range crowdThreads {
		w.Go(func() { ch.Recv() })
	}
	spin(w)
}

// TestBoundsStopCrowd runs crowd under each strategy with a timeout of a
// second: the exploration returns within two seconds, with the executions
// that ended or with ErrNoExecution if none did (or the strategy refuses
// the program at once). The bound then falls inside the first execution or
// inside the analysis of one, whose cost grows with the threads. By
// default it runs a few strategies; WEFT_LONG=1 runs every one.
func TestBoundsStopCrowd(t *testing.T) {
	names := registry.Names()
	if !long.Enabled() {
		names = []string{"optimal", "dpor+sleep"}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			start, cpu := time.Now(), cpuTime()
			r, err := weft.Explore(crowd, weft.WithStrategy(name), weft.WithMaxSteps(boundSteps), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithTimeout(time.Second))
			checkReturn(t, start, cpu)
			switch {
			case errors.Is(err, weft.ErrNoExecution), errors.Is(err, reach.ErrUnmodelled):
			case err != nil:
				t.Fatal(err)
			case !r.TimedOut || r.Exhausted:
				t.Errorf("%d executions, timed out %v, exhausted %v; want stopped by the timeout", r.Executions, r.TimedOut, r.Exhausted)
			}
		})
	}
}
