// This file tests IgnoreLeaks, which turns the leak rule off.

package weft_test

import (
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
