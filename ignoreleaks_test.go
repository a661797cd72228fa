// This file tests IgnoreLeaks, which turns the leak rule off.

package weft_test

import (
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// TestIgnoreLeaks explores a body that leaves a thread blocked on a
// receive if it reads a flag before the body sets it: 2 executions, one a leak by default, both
// complete with IgnoreLeaks, which leaves the other failures alone.
func TestIgnoreLeaks(t *testing.T) {
	body := func(w *weft.T) {
		ch := weft.MakeChan[int](0)
		done := weft.NewVar[bool]("done")
		w.Go(func() {
			if !done.Load() {
				ch.Recv()
			}
		})
		done.Store(true)
	}
	r, err := weft.Explore(body, weft.KeepGoing())
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 2 || r.FailureCounts[trace.Leak] != 1 || r.Complete != 1 {
		t.Errorf("default: %d executions, %d complete, %v; want 2, 1 and a leak", r.Executions, r.Complete, r.FailureCounts)
	}
	r, err = weft.Explore(body, weft.KeepGoing(), weft.IgnoreLeaks())
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 2 || r.Complete != 2 || r.Failed() {
		t.Errorf("IgnoreLeaks: %d executions, %d complete, %v; want 2 complete", r.Executions, r.Complete, r.FailureCounts)
	}
	r, err = weft.Explore(func(w *weft.T) {
		body(w)
		w.Fail("still an assertion")
	}, weft.IgnoreLeaks())
	if err != nil || r.FailureCounts[trace.Assertion] != 1 {
		t.Errorf("IgnoreLeaks with an assertion: %v, %v; want the assertion", err, r.FailureCounts)
	}
}

// backgroundWorker receives from jobs for ever: a by-design background
// goroutine, leaked when the test's body returns.
func backgroundWorker(jobs *weft.Chan[int]) {
	for {
		jobs.Recv()
	}
}

// stuckSender sends on ch, which nobody receives from.
func stuckSender(ch *weft.Chan[int]) { ch.Send(1) }

// TestIgnoreLeak checks IgnoreLeak, which ignores the threads left blocked
// in the functions it names: a body that leaves backgroundWorker blocked
// leaks by default (1 execution: the channel's buffer of one orders the
// sends and the receive) and completes when that function is ignored; one that
// also leaves stuckSender blocked still leaks unless both are ignored.
// WEFT_IGNORE_LEAK gives the option, and an empty name is refused.
func TestIgnoreLeak(t *testing.T) {
	const worker = "github.com/weft-go/weft_test.backgroundWorker"
	body := func(w *weft.T) {
		jobs := weft.MakeChan[int](1)
		w.Go(func() { backgroundWorker(jobs) })
		jobs.Send(1)
		jobs.Send(2)
	}
	both := func(w *weft.T) {
		body(w)
		ch := weft.MakeChan[int](0)
		w.Go(func() { stuckSender(ch) })
	}
	for _, c := range []struct {
		name       string
		body       func(w *weft.T)
		opts       []weft.Option
		executions int
		leak       bool
	}{
		{"default", body, nil, 1, true},
		{"ignored", body, []weft.Option{weft.IgnoreLeak(worker)}, 1, false},
		{"another function", body, []weft.Option{weft.IgnoreLeak("example.com/x.worker")}, 1, true},
		{"one of two ignored", both, []weft.Option{weft.IgnoreLeak(worker)}, 1, true},
		{"both ignored", both, []weft.Option{weft.IgnoreLeak(worker), weft.IgnoreLeak("github.com/weft-go/weft_test.stuckSender")}, 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := weft.Explore(c.body, append(c.opts, weft.KeepGoing(), weft.NoReplayFiles())...)
			if err != nil {
				t.Fatal(err)
			}
			leaks := r.FailureCounts[trace.Leak]
			if r.Executions != c.executions || (leaks == c.executions) != c.leak || leaks != 0 && leaks != c.executions || !r.Exhausted {
				t.Errorf("%d executions, %d leaks, exhausted %v; want %d, every one a leak: %v", r.Executions, leaks, r.Exhausted, c.executions, c.leak)
			}
		})
	}
	t.Setenv(weft.IgnoreLeakEnv, worker)
	ft := &fakeTB{TB: t, name: "TestWorker"}
	t.Chdir(t.TempDir())
	if r := weft.Check(ft, body); r == nil || r.Failed() || len(ft.errors)+len(ft.fatals) != 0 {
		t.Errorf("Check with %s=%s: %v, errors %q, fatals %q; want no failure", weft.IgnoreLeakEnv, worker, r, ft.errors, ft.fatals)
	}
	t.Setenv(weft.IgnoreLeakEnv, worker+",")
	ft = &fakeTB{TB: t, name: "TestWorker"}
	weft.Check(ft, body)
	if len(ft.fatals) != 1 || !strings.Contains(ft.fatals[0], "WEFT_IGNORE_LEAK") {
		t.Errorf("Check with an empty function in %s: fatals %q; want one naming the variable", weft.IgnoreLeakEnv, ft.fatals)
	}
}
