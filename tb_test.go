// This file tests T's testing-like methods (tb.go) through a helper
// written against a minimal interface of the kind assertion libraries
// take, as a test would use them.

package weft_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// TestingT is the interface an assertion library's helpers take (as
// testify's require.TestingT): *weft.T satisfies it.
type TestingT interface {
	Errorf(format string, args ...any)
	FailNow()
}

var _ TestingT = (*weft.T)(nil)

// requireEqual fails t and stops, as require.Equal does, unless a == b.
func requireEqual(t TestingT, a, b any) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	if a != b {
		t.Errorf("not equal: %v != %v", a, b)
		t.FailNow()
	}
}

// lineOf returns "tb_test.go:N", N the line of this file that holds
// marker.
func lineOf(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile("tb_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, marker) && !strings.Contains(l, "lineOf") {
			return fmt.Sprintf("tb_test.go:%d", i+1)
		}
	}
	t.Fatalf("no line holds %q", marker)
	return ""
}

// TestRequireHelper: a require-style helper fails the execution in which
// T0 reads T1's store, the second of two, with its message at the line
// that called the helper (Helper), and stops the thread (FailNow).
func TestRequireHelper(t *testing.T) {
	after := 0
	r, err := weft.Explore(func(w *weft.T) {
		var x weft.Var[int]
		w.Go(func() { x.Store(1) })
		requireEqual(w, x.Load(), 0) // marker: require
		after++
	}, weft.WithShorten(0))
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 2 || len(r.Failures) != 1 || r.FailureCounts[trace.Assertion] != 1 {
		t.Fatalf("%d executions, failures %v; want 2 and one assertion", r.Executions, r.FailureCounts)
	}
	f := r.Failures[0]
	if want := lineOf(t, "marker: require") + ": not equal: 1 != 0"; f.Kind != trace.Assertion || f.Message != want || f.Thread != 0 || f.Execution != 2 {
		t.Errorf("failure %v in %v (execution %d): %q; want an assertion in T0 (execution 2): %q", f.Kind, f.Thread, f.Execution, f.Message, want)
	}
	// The passing execution went on after the helper, and so did its run
	// again after the failure (which checks that the body keeps no state
	// between executions); the failing one, and its replay for the
	// report, did not.
	if after != 2 {
		t.Errorf("the body went on after the helper %d times, want 2", after)
	}
}

// TestErrorfGoesOn: Errorf marks the execution failed and goes on; the
// execution fails when the body returns, with every message in order.
func TestErrorfGoesOn(t *testing.T) {
	reached, failed := 0, 0
	r, err := weft.Explore(func(w *weft.T) {
		if w.Failed() {
			t.Error("Failed before any Error")
		}
		w.Errorf("first %d", 1) // marker: first
		w.Error("second", 2)    // marker: second
		if w.Failed() {
			failed++
		}
		reached++
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 1 || len(r.Failures) != 1 {
		t.Fatalf("%d executions, %d failures; want 1 and 1", r.Executions, len(r.Failures))
	}
	f := r.Failures[0]
	want := lineOf(t, "marker: first") + ": first 1\n" + lineOf(t, "marker: second") + ": second 2"
	if f.Kind != trace.Assertion || f.Message != want || len(f.Log) != 0 {
		t.Errorf("failure %v: %q, log %q; want an assertion: %q, no log", f.Kind, f.Message, f.Log, want)
	}
	// The execution and the replay that describes it both reached the end.
	if reached != 2 || failed != 2 {
		t.Errorf("reached the end %d times, Failed %d times; want 2 and 2", reached, failed)
	}
}

// TestFatalfStops: Fatalf ends the execution at once, with the messages of
// the Errors before it; the cleanups still run.
func TestFatalfStops(t *testing.T) {
	cleaned, after := 0, 0
	r, err := weft.Explore(func(w *weft.T) {
		w.Cleanup(func() { cleaned++ })
		w.Error("soft")             // marker: soft
		w.Fatalf("hard %s", "stop") // marker: hard
		after++
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 1 || len(r.Failures) != 1 {
		t.Fatalf("%d executions, %d failures; want 1 and 1", r.Executions, len(r.Failures))
	}
	f := r.Failures[0]
	want := lineOf(t, "marker: soft") + ": soft\n" + lineOf(t, "marker: hard") + ": hard stop"
	if f.Kind != trace.Assertion || f.Message != want {
		t.Errorf("failure %v: %q; want an assertion: %q", f.Kind, f.Message, want)
	}
	if after != 0 || cleaned != 2 {
		t.Errorf("went on after Fatalf %d times, cleaned up %d times; want 0 and 2 (the execution and its replay)", after, cleaned)
	}
}

// TestFailNowAlone: FailNow without an Error names its own line.
func TestFailNowAlone(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		w.FailNow() // marker: failnow
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) != 1 || r.Failures[0].Message != lineOf(t, "marker: failnow")+": FailNow" {
		t.Fatalf("failures %+v; want one with message %q", r.Failures, lineOf(t, "marker: failnow")+": FailNow")
	}
}

// leakBody starts a thread that waits on a channel, which a cleanup
// closes if clean is set; it records the order of its three cleanups.
func leakBody(clean bool, order *[]int) func(w *weft.T) {
	return func(w *weft.T) {
		*order = (*order)[:0]
		c := weft.MakeChan[int](0)
		w.Go(func() { c.Recv() })
		for i := range 3 {
			w.Cleanup(func() { *order = append(*order, i) })
		}
		if clean {
			w.Cleanup(func() { c.Close() })
		}
	}
}

// TestCleanupBeforeLeakCheck: cleanups run last registered first, under
// weft's control and before weft looks for leaked threads: the one that
// closes the channel lets the waiting thread end.
func TestCleanupBeforeLeakCheck(t *testing.T) {
	var order []int
	r, err := weft.Explore(leakBody(true, &order), weft.WithStrategy("exhaustive"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 1 || r.Complete != 1 || len(r.Failures) != 0 {
		t.Errorf("%d executions, %d complete, failures %v; want 1, 1, none", r.Executions, r.Complete, r.FailureCounts)
	}
	if !slices.Equal(order, []int{2, 1, 0}) {
		t.Errorf("cleanups ran in the order %v, want [2 1 0]", order)
	}
	// Without the closing cleanup, the thread leaks.
	r, err = weft.Explore(leakBody(false, &order), weft.WithStrategy("exhaustive"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 1 || r.FailureCounts[trace.Leak] != 1 {
		t.Errorf("%d executions, failures %v; want 1 and one leak", r.Executions, r.FailureCounts)
	}
}

// TestCleanupPanics: a panic in a cleanup is the execution's failure, and
// the other cleanups still run.
func TestCleanupPanics(t *testing.T) {
	var ran []int
	r, err := weft.Explore(func(w *weft.T) {
		ran = ran[:0]
		w.Cleanup(func() { ran = append(ran, 0) })
		w.Cleanup(func() { panic("boom") })
		w.Cleanup(func() { ran = append(ran, 2) })
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 1 || len(r.Failures) != 1 || r.Failures[0].Kind != trace.Panic || !strings.HasPrefix(r.Failures[0].Message, "panic: boom\n") {
		t.Fatalf("%d executions, failures %+v; want 1 and a panic: boom", r.Executions, r.Failures)
	}
	if !slices.Equal(ran, []int{2, 0}) {
		t.Errorf("cleanups ran %v, want [2 0]", ran)
	}
}

// logBody logs in every execution and fails in the one where T0 reads
// T1's store.
func logBody(w *weft.T) {
	var x weft.Var[int]
	w.Go(func() { x.Store(1) })
	v := x.Load()
	w.Logf("read %d", v) // marker: logf
	w.Log("done")        // marker: logline
	if v == 1 {
		w.Error("read the store") // marker: readstore
	}
}

// TestLogInFailingReport: Log's lines appear in the report of the failing
// execution only, and not in the output of a passing test.
func TestLogInFailingReport(t *testing.T) {
	wantLog := []string{lineOf(t, "marker: logf") + ": read 1", lineOf(t, "marker: logline") + ": done"}
	wantMsg := lineOf(t, "marker: readstore") + ": read the store"
	t.Chdir(t.TempDir())
	ft := &fakeTB{TB: t, name: "TestLogs"}
	r := weft.Check(ft, logBody, weft.NoReplayFiles())
	if r.Executions != 2 || len(ft.errors) != 1 || len(r.Failures) != 1 {
		t.Fatalf("%d executions, errors %q; want 2 and one", r.Executions, ft.errors)
	}
	f := r.Failures[0]
	if !slices.Equal(f.Log, wantLog) || f.Message != wantMsg {
		t.Errorf("message %q, log %q; want %q", f.Message, f.Log, wantLog)
	}
	want := "\n    " + f.Message + "\nlog:\n    " + wantLog[0] + "\n    " + wantLog[1] + "\ninterleaving:\n"
	if !strings.Contains(ft.errors[0], want) {
		t.Errorf("the report does not hold %q:\n%s", want, ft.errors[0])
	}
	for _, l := range ft.logs {
		if strings.Contains(l, "read 0") || strings.Contains(l, "done") {
			t.Errorf("a passing execution's log reached the test's output: %q", l)
		}
	}
}

// TestErrorAfterBody: an Error from a thread that runs after the body
// returned fails the execution at once, as that thread's.
func TestErrorAfterBody(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		var x weft.Var[int]
		w.Go(func() {
			x.Store(1)
			w.Error("late")
		})
		x.Load()
	}, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.WithShorten(0))
	if err != nil {
		t.Fatal(err)
	}
	// T1's store before or after the body's end: both fail.
	if r.Executions != 2 || r.FailureCounts[trace.Assertion] != 2 {
		t.Fatalf("%d executions, failures %v; want 2, both assertions", r.Executions, r.FailureCounts)
	}
}

// TestNameAndSkip: Name is the test's name under Check and "" under
// Explore; Skip assumes the execution away.
func TestNameAndSkip(t *testing.T) {
	t.Chdir(t.TempDir())
	var name string
	ft := &fakeTB{TB: t, name: "TestNamed/sub"}
	weft.Check(ft, func(w *weft.T) { name = w.Name() })
	if name != "TestNamed/sub" || len(ft.errors) != 0 {
		t.Errorf("Name %q under Check, errors %q; want %q, none", name, ft.errors, "TestNamed/sub")
	}
	r, err := weft.Explore(func(w *weft.T) {
		name = w.Name()
		w.Skip("not here")
		t.Error("Skip returned")
	})
	if err != nil {
		t.Fatal(err)
	}
	if name != "" || r.Executions != 1 || r.Assumed != 1 || len(r.Failures) != 0 {
		t.Errorf("Name %q under Explore, %d executions, %d assumed, failures %v; want \"\", 1, 1, none", name, r.Executions, r.Assumed, r.FailureCounts)
	}
}
