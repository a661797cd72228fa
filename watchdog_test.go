// This file tests the watchdog's reports: their stacks, and a failure
// followed by a deferred call that blocks.

//lint:file-ignore SA5002 the loops that spin for ever are the programs under test

package weft_test

import (
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// stackHeader matches the first line of a goroutine's stack in a report.
var stackHeader = regexp.MustCompile(`(?m)^goroutine \d+ \[`)

// TestWatchdogStacksDoNotAccumulate checks that a watchdog report shows the
// stack of the goroutine that blocked in its own exploration only, not the
// goroutines that earlier explorations abandoned (1, 2, ... 5 stacks
// before).
func TestWatchdogStacksDoNotAccumulate(t *testing.T) {
	var held []*sync.Mutex
	defer func() {
		for _, mu := range held {
			mu.Unlock() // the abandoned threads return and unwind
		}
		// Their next weft operations, in another exploration, are no
		// misuse of it: they unwind.
		r, err := weft.Explore(func(w *weft.T) {
			x := weft.NewVar[int]("x")
			for range 1000 {
				x.Store(1)
			}
		}, weft.NoReplayFiles())
		if err != nil || r.Failed() {
			t.Errorf("an exploration after the abandoned threads came back: %v, failures %v", err, r.FailureCounts)
		}
	}()
	for i := range 5 {
		mu := new(sync.Mutex)
		mu.Lock()
		held = append(held, mu)
		r, err := weft.Explore(func(w *weft.T) {
			x := weft.NewVar[int]("x")
			x.Store(1)
			mu.Lock()
			x.Store(2)
		}, weft.WithWatchdog(50*time.Millisecond), weft.NoReplayFiles())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Blocked {
			t.Fatalf("report %d: failures %v; want one of kind %v", i+1, r.FailureCounts, trace.Blocked)
		}
		msg := r.Failures[0].Message
		if n := len(stackHeader.FindAllString(msg, -1)); n != 1 {
			t.Errorf("report %d shows %d goroutine stacks, want 1:\n%s", i+1, n, msg)
		}
		if !strings.Contains(msg, "watchdog_test.go:") {
			t.Errorf("report %d does not show where the thread blocked:\n%s", i+1, msg)
		}
	}
}

// TestFailThenBlockedDefer checks that a body that fails and then blocks
// outside weft in a deferred call is reported with its failure first (kind
// and message), and the blocked deferred call after it as a second problem.
func TestFailThenBlockedDefer(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	defer mu.Unlock() // the abandoned thread returns and unwinds
	r, err := weft.Explore(func(w *weft.T) {
		defer mu.Lock()
		x := weft.NewVar[int]("x")
		x.Store(1)
		w.Fail("boom %d", 7)
	}, weft.WithWatchdog(50*time.Millisecond), weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Assertion {
		t.Fatalf("failures %v; want one of kind %v", r.FailureCounts, trace.Assertion)
	}
	f := r.Failures[0]
	if !strings.HasPrefix(f.Message, "boom 7\n") {
		t.Errorf("the message does not lead with the failure:\n%s", f.Message)
	}
	for _, want := range []string{"Then, as the execution ended, a deferred call blocked outside weft's control", "watchdog_test.go:"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("the message does not say %q:\n%s", want, f.Message)
		}
	}
	if rep := f.Report(""); !strings.HasPrefix(rep, "weft: assertion in T0 ") {
		t.Errorf("the report does not lead with the assertion:\n%s", rep)
	}
}

// spinChildEnv makes TestWatchdogSpinLine run its cases: it runs them in
// a child process of the test binary, whose end ends the goroutines that
// spin for ever (abandoned to the watchdog, they would take the CPU from
// every test after them).
const spinChildEnv = "WEFT_TEST_SPIN_CHILD"

// TestWatchdogSpinLine checks that the report of a thread spinning in a
// loop with an empty body, which the compiler's jump back to the loop's
// head places on line 1, points at the loop's line. Each case's body
// returns the line of its loop: the line where it is built, plus the
// loop's distance from it. The cases run in a child process.
func TestWatchdogSpinLine(t *testing.T) {
	if os.Getenv(spinChildEnv) != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWatchdogSpinLine$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), spinChildEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || strings.Count(string(out), "--- PASS: TestWatchdogSpinLine/") != 3 {
			t.Fatalf("the child process: %v, want its 3 cases passed:\n%s", err, out)
		}
		return
	}
	for _, tc := range []struct {
		name string
		body func() (func(w *weft.T), int)
	}{
		{"for !flag {}", func() (func(w *weft.T), int) {
			_, _, line, _ := runtime.Caller(0)
			return func(w *weft.T) {
				var flag bool
				for !flag {
				}
			}, line + 3
		}},
		{"for {}", func() (func(w *weft.T), int) {
			_, _, line, _ := runtime.Caller(0)
			return func(w *weft.T) {
				for {
				}
			}, line + 2
		}},
		{"in a thread", func() (func(w *weft.T), int) {
			_, _, line, _ := runtime.Caller(0)
			return func(w *weft.T) {
				var flag bool
				w.Go(func() {
					for !flag {
					}
				})
			}, line + 4
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, line := tc.body()
			r, err := weft.Explore(body, weft.WithWatchdog(50*time.Millisecond), weft.NoReplayFiles())
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Blocked {
				t.Fatalf("failures %v; want one of kind %v", r.FailureCounts, trace.Blocked)
			}
			msg := r.Failures[0].Message
			// The offset is left out at the function's entry.
			want := regexp.MustCompile(`watchdog_test\.go:` + strconv.Itoa(line) + `( \+0x|\n)`)
			if !want.MatchString(msg) || strings.Contains(msg, "watchdog_test.go:1 ") {
				t.Errorf("report does not point at the loop (line %d):\n%s", line, msg)
			}
		})
	}
}
