// This file tests loops that poll the clock through Since and Until, in
// both time modes.

package time_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/stdtest"
	"github.com/weft-go/weft/std/rt"
	wtime "github.com/weft-go/weft/std/time"
)

// TestPollLoops runs loops that poll the clock until a deadline, which
// end in both time modes, as under Go: a spin on Since, and a spin on
// Until past a timer's deadline, whose AfterFunc has run by then when
// time moves only when every goroutine is blocked; with time at any step
// its goroutine may not have run yet (it is slower than the timer), which
// the first execution shows and its report says.
func TestPollLoops(t *testing.T) {
	spin := func() {
		start := wtime.Now()
		for wtime.Since(start) < 5*time.Millisecond {
		}
		if d := wtime.Since(start); d != 5*time.Millisecond {
			panic(d)
		}
	}
	timer := func() {
		fired := rt.MakeChan(make(chan struct{}))
		wtime.AfterFunc(2*time.Millisecond, func() { rt.Of("", fired).Close() })
		deadline := wtime.Now().Add(5 * time.Millisecond)
		for wtime.Until(deadline) > 0 {
		}
		if rt.Select(true, rt.Of("", fired).RecvCase()) < 0 {
			panic("the timer of 2ms has not fired after 5ms")
		}
	}
	for _, c := range []struct {
		name            string
		body            func()
		mode            weft.TimeMode
		executions, cut int
		failed          bool
	}{
		{"spin", spin, weft.TimeWhenBlocked, 1, 0, false},
		{"spin", spin, weft.TimeAnyStep, 1, 0, false},
		{"timer", timer, weft.TimeWhenBlocked, 2, 1, false},
		{"timer", timer, weft.TimeAnyStep, 1, 0, true},
	} {
		r := stdtest.Explore(t, c.body, weft.WithTime(c.mode))
		if r.Executions != c.executions || r.Cut != c.cut || r.Failed() != c.failed {
			t.Errorf("%s, %v: %d executions (%d cut), failures %v; want %d (%d cut), failed %t", c.name, c.mode, r.Executions, r.Cut, r.Failures, c.executions, c.cut, c.failed)
		}
		if c.failed && len(r.Failures) > 0 && r.Failures[0].SlowStep == 0 {
			t.Errorf("%s, %v: the failure does not say it needs a slow goroutine:\n%s", c.name, c.mode, r.Failures[0].Report(""))
		}
	}
}

// TestPollBurst times a thousand calls that read the clock and do nothing
// else, as go.uber.org/ratelimit's TestUnlimited times its unlimited
// limiter's Take, and asserts that they took less than a millisecond.
// With time that moves when every goroutine is blocked they see one time,
// as under testing/synctest (and in Go they take some tens of
// microseconds): the test passes. Every third read in a row slept for a
// millisecond before, and it failed. With time at any step it fails at
// once, by design: the clock may move while a goroutine runs.
func TestPollBurst(t *testing.T) {
	burst := func() {
		start := wtime.Now()
		for range 1000 {
			wtime.Now()
		}
		if d := wtime.Since(start); d >= time.Millisecond {
			panic(fmt.Sprintf("a thousand reads of the clock took %v", d))
		}
	}
	for _, c := range []struct {
		mode   weft.TimeMode
		failed bool
	}{{weft.TimeWhenBlocked, false}, {weft.TimeAnyStep, true}} {
		r := stdtest.Explore(t, burst, weft.WithTime(c.mode))
		if r.Executions != 1 || r.Failed() != c.failed {
			t.Errorf("%v: %d executions, failures %v; want 1, failed %t", c.mode, r.Executions, r.Failures, c.failed)
		}
	}
}
