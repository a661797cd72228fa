// Tests that a report's steps point at the program's lines, not at weft's
// files or the standard library's.

package weft_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// line returns the line it is called from.
func line() int {
	_, _, l, _ := runtime.Caller(1)
	return l
}

// TestStepLocations: every step of a failing execution is shown at the
// line of this file that performs it, for operations whose API is inlined
// into the caller (Chan.Recv calls RecvOK) and for the Done that
// WaitGroup.Go runs when its function returns (shown at the wg.Go call).
func TestStepLocations(t *testing.T) {
	want := map[string]int{} // operation -> line
	body := func(w *weft.T) {
		c := weft.MakeChan[int](0)
		var wg weft.WaitGroup
		var mu weft.Mutex
		var once weft.Once
		goLine := line() + 1
		wg.Go(func() { c.Send(1) })
		recvLine := line() + 1
		v := c.Recv()
		mu.Lock()
		lockLine := line() - 1
		once.Do(func() {})
		onceLine := line() - 1
		mu.Unlock()
		unlockLine := line() - 1
		wg.Wait()
		waitLine := line() - 1
		for op, l := range map[string]int{"wg.add(1)": goLine, "wg.add(-1)": goLine, "recv": recvLine, "lock": lockLine,
			"once.do": onceLine, "once.done": onceLine, "unlock": unlockLine, "wg.wait": waitLine} {
			want[op] = l
		}
		w.Assert(v == 2, "v")
	}
	r, err := weft.Explore(body, weft.NoReplayFiles())
	if err != nil || len(r.Failures) != 1 {
		t.Fatalf("Explore: %v, failures %v; want one", err, r.FailureCounts)
	}
	steps := r.Failures[0].Steps
	if len(steps) != 8 {
		t.Fatalf("%d steps, want 8", len(steps))
	}
	var bad []string
	for _, s := range steps {
		op, _, _ := strings.Cut(s.Op, " ")
		if got, exp := fmt.Sprintf("%s:%d", filepath.Base(s.File), s.Line), fmt.Sprintf("location_test.go:%d", want[op]); got != exp {
			bad = append(bad, fmt.Sprintf("%s at %s, want %s", s.Op, got, exp))
		}
	}
	if len(bad) > 0 {
		t.Errorf("steps shown elsewhere than the program's lines:\n%s", strings.Join(bad, "\n"))
	}
}

// TestBlockedThreads: a deadlock's report lists each blocked thread where
// it waits and who holds the mutex it wants; a chain of waits that ends at
// a thread blocked on a channel is no cycle.
func TestBlockedThreads(t *testing.T) {
	var lockLine, sendLine int
	body := func(w *weft.T) {
		var a weft.Mutex
		c := weft.MakeChan[int](0)
		a.Lock()
		w.Go(func() {
			lockLine = line() + 1
			a.Lock()
		})
		sendLine = line() + 1
		c.Send(1)
	}
	r, err := weft.Explore(body, weft.NoReplayFiles())
	if err != nil || len(r.Failures) != 1 || r.Failures[0].Kind.String() != "deadlock" {
		t.Fatalf("Explore: %v, failures %v; want one deadlock", err, r.FailureCounts)
	}
	f := r.Failures[0]
	var got []string
	for _, b := range f.Blocked {
		got = append(got, fmt.Sprintf("%v %s %s:%d held by %v", b.Thread, b.Op, filepath.Base(b.File), b.Line, b.Holder))
	}
	want := []string{
		fmt.Sprintf("T0 send chan#1 location_test.go:%d held by -", sendLine),
		fmt.Sprintf("T1 lock mutex#0 location_test.go:%d held by T0", lockLine),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || f.Cycle != nil {
		t.Errorf("blocked:\n%s\ncycle %v; want\n%s\nand no cycle", strings.Join(got, "\n"), f.Cycle, strings.Join(want, "\n"))
	}
}

// TestSetNameVar: a Var or an Int named with SetName shows its name in the
// steps of a report, with the value each step wrote.
func TestSetNameVar(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		var x weft.Var[int]
		x.SetName("x")
		var n weft.Int[int]
		n.SetName("counter")
		n.Add(1)
		x.Store(1)
		w.Assert(false, "stop")
	}, weft.NoReplayFiles())
	if err != nil || len(r.Failures) != 1 {
		t.Fatalf("Explore: %v, failures %v", err, r.FailureCounts)
	}
	var ops []string
	for _, s := range r.Failures[0].Steps {
		ops = append(ops, s.Op)
	}
	if got, want := strings.Join(ops, "; "), "add counter = 1; store x = 1"; got != want {
		t.Errorf("steps %q, want %q", got, want)
	}
}

// TestRangeAll: ranging over Chan.All receives until the channel is
// closed and drained, as a loop of RecvOK does: the same executions and
// failures (25 traces, each with the sum 3), and each receive is shown at
// the range statement.
func TestRangeAll(t *testing.T) {
	var rangeLine int
	program := func(loop func(c *weft.Chan[int]) int) func(w *weft.T) {
		return func(w *weft.T) {
			c := weft.MakeChan[int](2)
			var wg weft.WaitGroup
			wg.Go(func() { c.Send(1) })
			wg.Go(func() { c.Send(2) })
			w.Go(func() { wg.Wait(); c.Close() })
			sum := loop(c)
			w.Assert(sum != 3, "sum %d", sum)
		}
	}
	ranged := program(func(c *weft.Chan[int]) (sum int) {
		rangeLine = line() + 1
		for v := range c.All() {
			sum += v
		}
		return sum
	})
	looped := program(func(c *weft.Chan[int]) (sum int) {
		for {
			v, ok := c.RecvOK()
			if !ok {
				return sum
			}
			sum += v
		}
	})
	var results []*weft.Result
	for _, body := range []func(*weft.T){ranged, looped} {
		r, err := weft.Explore(body, weft.NoReplayFiles(), weft.KeepGoing(), weft.WithStrategy("optimal"))
		if err != nil {
			t.Fatal(err)
		}
		if r.Executions != 25 || r.FailureCounts[trace.Assertion] != 25 {
			t.Fatalf("%d executions, failures %v; want 25, each failing the assertion", r.Executions, r.FailureCounts)
		}
		results = append(results, r)
	}
	recvs := 0
	for _, s := range results[0].Failures[0].Steps {
		if strings.HasPrefix(s.Op, "recv") {
			recvs++
			if got := fmt.Sprintf("%s:%d", filepath.Base(s.File), s.Line); got != fmt.Sprintf("location_test.go:%d", rangeLine) {
				t.Errorf("%s at %s, want line %d", s.Op, got, rangeLine)
			}
		}
	}
	if recvs != 3 {
		t.Errorf("%d receives, want 3 (two values and the close)", recvs)
	}
}
