// This file tests how the API refuses bad usage: negative bounds, a timeout
// that leaves no time for an execution, explorations nested in a test body
// and malformed replay files.

package weft_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// TestNegativeBounds checks that negative durations, and an interference
// bound above MaxInterferences, are refused with an error naming the value
// and the bound.
func TestNegativeBounds(t *testing.T) {
	body := func(w *weft.T) {}
	for _, tc := range []struct {
		name string
		opt  weft.Option
		want string
	}{
		{"timeout", weft.WithTimeout(-time.Second), "timeout -1s: must not be negative (0: no bound)"},
		{"watchdog", weft.WithWatchdog(-time.Millisecond), "watchdog -1ms: must not be negative (0: the default)"},
		{"interferences", weft.WithInterferences(weft.MaxInterferences + 1), "interference bound 17: must be at most 16 (MaxInterferences)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := weft.Explore(body, tc.opt)
			if err == nil || err.Error() != tc.want || r != nil {
				t.Errorf("Explore = %v, %v; want nil and %q", r, err, tc.want)
			}
		})
	}
}

// TestTimeoutBeforeFirstExecution checks that an exploration whose timeout
// expires before its first execution is an error, not an empty success,
// and that a replay runs its execution whatever the timeout.
func TestTimeoutBeforeFirstExecution(t *testing.T) {
	r, err := weft.Explore(raceBody, weft.WithTimeout(time.Nanosecond))
	want := "timeout 1ns expired before the first execution ended: no execution ran; raise the timeout (0: no bound)"
	if !errors.Is(err, weft.ErrNoExecution) || err.Error() != want || r != nil {
		t.Fatalf("Explore = %v, %v; want nil and %q wrapping ErrNoExecution", r, err, want)
	}

	// Check: nothing was checked, the test is inconclusive (skipped),
	// or fails under WithStrict.
	ft := &fakeTB{TB: t, name: "TestT"}
	weft.Check(ft, raceBody, weft.WithTimeout(time.Nanosecond), weft.NoReplayFiles())
	if len(ft.skips) != 1 || ft.skips[0] != weft.Inconclusive+": "+want || len(ft.fatals) != 0 {
		t.Errorf("Check: skips %q, fatals %q; want the skip %q", ft.skips, ft.fatals, weft.Inconclusive+": "+want)
	}
	ft = &fakeTB{TB: t, name: "TestT"}
	weft.Check(ft, raceBody, weft.WithTimeout(time.Nanosecond), weft.NoReplayFiles(), weft.WithStrict())
	if len(ft.fatals) != 1 || ft.fatals[0] != "weft: "+want || len(ft.skips) != 0 {
		t.Errorf("Check under WithStrict: fatals %q, want %q", ft.fatals, "weft: "+want)
	}

	// A timeout that leaves time for executions stops at it (weft checks
	// it before every execution; five stores have 120 orders). Each
	// execution sleeps 1ms, so the check after the tenth finds the 10ms
	// past.
	r, err = weft.Explore(func(w *weft.T) {
		var x weft.Var[int]
		for range 5 {
			w.Go(func() { x.Store(1) })
		}
		time.Sleep(time.Millisecond)
	}, weft.WithTimeout(10*time.Millisecond))
	if err != nil || r.Executions < 1 || r.Executions > 10 || !r.TimedOut || r.Exhausted {
		t.Errorf("Explore with a 10ms timeout: %+v, %v; want 1 to 10 executions, stopped by the timeout", r, err)
	}

	tok := explore(t, raceBody).Failures[0].Token
	// A replay is bounded too: the timeout passed before its one
	// execution (TestBoundsStopReplay stops one inside it).
	r, err = weft.Replay(raceBody, tok, weft.WithTimeout(time.Nanosecond))
	if !errors.Is(err, weft.ErrNoExecution) || r != nil {
		t.Errorf("Replay with a 1ns timeout: %+v, %v; want no execution (ErrNoExecution)", r, err)
	}
	if r, err = weft.Replay(raceBody, tok); err != nil || r.Executions != 1 || !r.Failed() {
		t.Errorf("Replay without a timeout: %+v, %v; want its one failing execution", r, err)
	}
}

// TestNested checks that an exploration, a replay or a Check started
// inside a test body fails at once with a clear error, instead of waiting
// for the watchdog (which would report a thread blocked outside weft).
func TestNested(t *testing.T) {
	tok := explore(t, raceBody).Failures[0].Token
	const advice = " called inside a test body (or a thread or callback of a running exploration): explorations do not nest; call it from the test function (or main), not from a function weft runs"
	tests := []struct {
		name   string
		nested func(w *weft.T)
		kind   trace.FailureKind
		msg    string
	}{
		{"Explore", func(w *weft.T) {
			_, err := weft.Explore(func(*weft.T) {})
			w.Assert(errors.Is(err, weft.ErrNested), "%v", err)
			w.Fail("%v", err)
		}, trace.Assertion, "weft.Explore" + advice},
		{"Replay in a thread", func(w *weft.T) {
			th := w.Go(func() {
				_, err := weft.Replay(raceBody, tok)
				w.Assert(errors.Is(err, weft.ErrNested), "%v", err)
				w.Fail("%v", err)
			})
			th.Join()
		}, trace.Assertion, "weft.Replay" + advice},
		{"Check", func(w *weft.T) {
			weft.Check(t, func(*weft.T) {})
		}, trace.Panic, "panic: weft.Check" + advice},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			r, err := weft.Explore(func(w *weft.T) {
				var x weft.Var[int]
				x.Store(1)
				tc.nested(w)
			}, weft.WithWatchdog(time.Second))
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 500*time.Millisecond {
				t.Errorf("took %v: the nesting was not detected at once", d)
			}
			if len(r.Failures) != 1 {
				t.Fatalf("failures %v, want one %v", r.FailureCounts, tc.kind)
			}
			f := r.Failures[0]
			if first, _, _ := strings.Cut(f.Message, "\n"); f.Kind != tc.kind || first != tc.msg {
				t.Errorf("%v: %q; want %v: %q", f.Kind, first, tc.kind, tc.msg)
			}
		})
	}
	// A callback of the exploration loop (here a strategy's Next) is
	// refused too.
	s := &nestingStrategy{Strategy: weft.StrategyByName("exhaustive", 0)}
	if _, err := weft.Explore(raceBody, weft.WithCustomStrategy(s)); err != nil {
		t.Fatal(err)
	}
	if want := "weft.Explore" + advice; !errors.Is(s.err, weft.ErrNested) || s.err.Error() != want {
		t.Errorf("Explore in Next: %v, want %q", s.err, want)
	}
	// The lock was released: explorations run again.
	if r := explore(t, raceBody); r.Executions != 2 {
		t.Errorf("after the nested calls: %d executions, want 2", r.Executions)
	}
}

// nestingStrategy calls Explore from its first Next.
type nestingStrategy struct {
	strategy.Strategy
	called bool
	err    error
}

func (s *nestingStrategy) Next() bool {
	if !s.called {
		s.called = true
		_, s.err = weft.Explore(func(*weft.T) {})
	}
	return s.Strategy.Next()
}

// TestBadReplayFiles checks that Check refuses a malformed replay file with
// an error naming the file, the line, the field and what it allows.
func TestBadReplayFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	tok := explore(t, raceBody).Failures[0].Token
	kinds := `"assertion", "panic", "deadlock", "leak", "livelock", "send on closed channel", "close of closed channel", "close of nil channel", ` +
		`"unlock of unlocked mutex", "negative WaitGroup counter", "integer divide by zero", "goexit", "nondeterminism", "blocked outside weft", "weft internal error", "misuse", "data race", "WaitGroup misuse"`
	tests := []struct{ name, content, want string }{
		{"bogus kind", "weft replay v1\nkind: bogus\ntoken: " + tok + "\n",
			":2: field kind: unknown failure kind \"bogus\" (allowed: " + kinds + ")"},
		{"kind none", "weft replay v1\ntoken: " + tok + "\nkind: none\n",
			":3: field kind: unknown failure kind \"none\" (allowed: " + kinds + ")"},
		{"unknown field", "weft replay v1\nkind: deadlock\nseed: 3\ntoken: " + tok + "\n",
			`:3: unknown field "seed" (fields: kind, time, token)`},
		{"no colon", "weft replay v1\nkind deadlock\n",
			`:2: malformed line "kind deadlock": want "field: value" (fields: kind, time, token)`},
		{"bad time", "weft replay v1\nkind: deadlock\ntime: soon\ntoken: " + tok + "\n",
			`:3: field time: time mode "soon": want any (time may move at any step) or blocked (only when every thread is blocked)`},
		{"twice", "weft replay v1\nkind: deadlock\n\nkind: leak\n",
			":4: field kind given twice"},
		{"bad token", "weft replay v1\nkind: deadlock\ntoken: w1.garbage\n",
			":3: field token: malformed replay token: checksum mismatch (truncated or altered token)"},
		{"no token", "weft replay v1\nkind: deadlock\n",
			`: no token field: want a line "token: ..."`},
		{"no kind", "weft replay v1\ntoken: " + tok + "\n",
			`: no kind field: want a line "kind: ..."`},
		{"header", "weft replay v2\n",
			`:1: not a weft replay file: the first line must be "weft replay v1"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join("testdata", "weft", "TestR")
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "F")
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			ft := &fakeTB{TB: t, name: "TestR"}
			weft.Check(ft, raceBody)
			want := "weft: replay file: " + path + tc.want + " (fix it or delete it)"
			if len(ft.fatals) != 1 || ft.fatals[0] != want {
				t.Errorf("fatals %q, want\n%q", ft.fatals, want)
			}
		})
	}
}
