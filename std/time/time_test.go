package time_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/stdtest"
	"github.com/weft-go/weft/std/rt"
	wtime "github.com/weft-go/weft/std/time"
)

// TestClock checks Now, Since, Until, Sleep and After on virtual time: the
// clock starts at the latest real time read outside executions (before),
// in every execution, and moves by what the program waits for.
func TestClock(t *testing.T) {
	var got []string
	before := wtime.Now()
	r := stdtest.Explore(t, func() {
		start := wtime.Now()
		wtime.Sleep(3 * time.Second)
		fired := rt.OfRecv("", wtime.After(time.Second)).Recv()
		got = append(got, start.Format(time.RFC3339Nano), wtime.Since(start).String(), fired.Sub(start).String(),
			wtime.Until(start.Add(time.Hour)).String())
	})
	want := before.Format(time.RFC3339Nano) + " 4s 4s 59m56s"
	if r.Failed() || r.Executions != 1 || strings.Join(got, " ") != want {
		t.Errorf("%d executions, failures %v, got %q; want 1, none, %q", r.Executions, r.Failures, strings.Join(got, " "), want)
	}
}

// TestNowLocal checks that the virtual time is in the local time zone, as
// time.Now's is, Now's and a timer's: a program that compares times with
// ==, which compares their locations, gets Go's answer (oklog/ulid's
// TestULIDTimestamp compares time.Now().Truncate(time.Millisecond) with
// the time.Unix of its milliseconds).
func TestNowLocal(t *testing.T) {
	var got []bool
	r := stdtest.Explore(t, func() {
		now := wtime.Now()
		fired := rt.OfRecv("", wtime.After(time.Second)).Recv()
		got = append(got, time.UnixMilli(now.UnixMilli()) == now.Truncate(time.Millisecond),
			now.Location() == time.Local, fired.Location() == time.Local)
	})
	if r.Failed() || r.Executions != 1 || fmt.Sprint(got) != "[true true true]" {
		t.Errorf("%d executions, failures %v, got %v; want 1, none, [true true true]", r.Executions, r.Failures, got)
	}
}

// TestTimeoutLeak checks the timeout race of a select on a result and
// After: the worker that answers after the timeout blocks for ever on its
// send, a leak; with room in the channel, no failure, in one complete
// execution and one that optimal cuts (the select receiving the result, which
// the worker sends only after the timer has fired).
func TestTimeoutLeak(t *testing.T) {
	for _, c := range []struct {
		capacity        int
		want            string
		executions, cut int
	}{{0, "leak", 1, 0}, {1, "", 2, 1}} {
		r := stdtest.Explore(t, func() {
			result := rt.MakeChan(make(chan int, c.capacity))
			rt.Go(func() {
				wtime.Sleep(2 * time.Second)
				rt.Of("", result).Send(1)
			})
			rt.Select(false, rt.Of("", result).RecvCase(), rt.OfRecv("", wtime.After(time.Second)).RecvCase())
		})
		got := ""
		if r.Failed() {
			got = r.Failures[0].Kind.String()
		}
		if got != c.want || r.Executions != c.executions || r.Cut != c.cut {
			t.Errorf("capacity %d: %d executions (%d cut), failure %q; want %d (%d cut) and %q", c.capacity, r.Executions, r.Cut, got, c.executions, c.cut, c.want)
		}
	}
}

// TestTicker checks a ticker's ticks (at each multiple of its period, the
// missed ones dropped), Stop and Reset. optimal explores the final select
// with default twice: the receive from the stopped ticker is cut.
func TestTicker(t *testing.T) {
	var ends []string
	r := stdtest.Explore(t, func() { ends = append(ends, tickerProgram()) })
	want := "1s 2s 4s 4.3s 1h0m4.3s stopped"
	if r.Failed() || r.Executions != 2 || r.Cut != 1 || len(ends) != 1 || ends[0] != want {
		t.Errorf("%d executions (%d cut), failures %v, ends %q; want 2 (1 cut), none, one end %q", r.Executions, r.Cut, r.Failures, ends, want)
	}
}

// tickerProgram is TestTicker's program: it returns the instants of the
// ticks it receives, that of the end of its last Sleep, and "stopped".
func tickerProgram() string {
	var got []string
	since := sinceStart()
	tk := wtime.NewTicker(time.Second)
	c := rt.OfRecv("", tk.C)
	got = append(got, since(c.Recv()))
	wtime.Sleep(2500 * time.Millisecond) // misses the ticks at 2s and 3s but one
	got = append(got, since(c.Recv()), since(c.Recv()))
	tk.Reset(300 * time.Millisecond)
	got = append(got, since(c.Recv()))
	tk.Stop()
	wtime.Sleep(time.Hour)
	if rt.Select(true, c.RecvCase()) == -1 {
		got = append(got, since(wtime.Now()), "stopped")
	}
	return strings.Join(got, " ")
}

// sinceStart returns a function that gives the virtual instant of a time
// read in the current execution: how long after the instant of the call
// of sinceStart, which must be at the execution's first instant.
func sinceStart() func(tm time.Time) string {
	start := wtime.Now()
	return func(tm time.Time) string { return tm.Sub(start).String() }
}

// TestTickerLeak checks that a goroutine reading a ticker for ever is
// reported as leaked once the test's body has returned, whether or not the
// ticker was stopped: an unstopped ticker's deadlines no longer move time
// after the body returned.
func TestTickerLeak(t *testing.T) {
	for _, stop := range []bool{false, true} {
		ticks := 0
		r := stdtest.Explore(t, func() {
			ticks = 0 // the report runs the failing execution again
			tk := wtime.NewTicker(time.Second)
			rt.Go(func() {
				for range rt.OfRecv("", tk.C).Range() {
					ticks++
				}
			})
			wtime.Sleep(2500 * time.Millisecond)
			if stop {
				tk.Stop()
			}
		})
		// Ticks at 1s and 2s, then none: unstopped, the ticker's
		// deadlines no longer move time once the body has returned.
		want := 2
		if !r.Failed() || r.Failures[0].Kind.String() != "leak" || r.Executions != 1 || ticks != want {
			t.Errorf("stop %v: %d executions, %d ticks, failures %v; want 1, %d and a leak", stop, r.Executions, ticks, r.Failures, want)
		}
	}
}

// TestAfterFunc checks that AfterFunc's function runs in a goroutine of
// its own when the timer fires, not after Stop, and again after Reset. The
// goroutines that wait for the timers select between the timer and Stop:
// optimal tries the other case of those selects three times (once before
// an earlier event too, as its model does not know whether the timer is
// due), and cuts them.
func TestAfterFunc(t *testing.T) {
	var ends []string
	r := stdtest.Explore(t, func() { ends = append(ends, afterFuncProgram()) })
	want := "1s 2s fired stopped " // nothing ran after Stop: an empty channel
	if r.Failed() || r.Executions != 4 || r.Cut != 3 || len(ends) != 1 || ends[0] != want {
		t.Errorf("%d executions (%d cut), failures %v, ends %q; want 4 (3 cut), none, one end %q", r.Executions, r.Cut, r.Failures, ends, want)
	}
}

// afterFuncProgram is TestAfterFunc's program: it returns the instants at
// which its functions ran, whether a Reset found the timer fired and a
// Stop stopped one, and an x per function run after that Stop.
func afterFuncProgram() string {
	var got []string
	ran := rt.MakeChan(make(chan string, 3))
	since := sinceStart()
	f := func() { rt.Of("", ran).Send(since(wtime.Now())) }
	tm := wtime.AfterFunc(time.Second, f)
	got = append(got, rt.Of("", ran).Recv())
	wasArmed := tm.Reset(time.Second)
	got = append(got, rt.Of("", ran).Recv(), map[bool]string{false: "fired"}[wasArmed])
	stopped := wtime.AfterFunc(time.Second, f)
	wtime.Sleep(500 * time.Millisecond)
	got = append(got, map[bool]string{true: "stopped"}[stopped.Stop()])
	wtime.Sleep(time.Hour)
	got = append(got, strings.Repeat("x", rt.Of("", ran).Len()))
	return strings.Join(got, " ")
}

// TestOutsideExecution checks the clock and timers outside an execution:
// the standard library's.
func TestOutsideExecution(t *testing.T) {
	if wtime.Now().Year() < 2024 {
		t.Errorf("Now() = %v, not the real time", wtime.Now())
	}
	tm := wtime.NewTimer(time.Millisecond)
	<-tm.C
	if tm.Stop() {
		t.Error("Stop of a fired timer reported it armed")
	}
	done := rt.MakeChan(make(chan bool))
	wtime.AfterFunc(time.Millisecond, func() { done <- true })
	<-done
}

// TestAnyStep runs TestTicker's and TestAfterFunc's programs with time
// that moves at any step (weft test -time any), where a goroutine may be
// delayed past a deadline: the ticks stay at multiples of the period (each
// re-armed at its instant), and AfterFunc's function may run before the
// Stop that follows a Sleep of half its delay.
func TestAnyStep(t *testing.T) {
	ends := map[string]int{}
	r := stdtest.Explore(t, func() { ends[tickerProgram()]++ }, weft.WithTime(weft.TimeAnyStep), weft.KeepGoing())
	// The clock may advance to the next tick before the Sleep or the
	// Reset reads the time: each moves the later ticks by a second or
	// 300ms, and the Stop may come after the tick at 4.6s (or 5.6s,
	// 6.6s) is due, which the stopped ticker never sends. Where it comes
	// before, time may still move to the stopped tick's deadline after
	// it (nothing fires then), before or after the last read of the
	// clock: two traces with the same end.
	want := map[string]int{}
	for _, e := range []string{"1s 2s 4s 4.3s 1h0m4.3s", "1s 2s 4s 4.3s 1h0m4.6s", "1s 2s 4s 5.3s 1h0m5.3s", "1s 2s 4s 5.3s 1h0m5.6s",
		"1s 2s 5s 5.3s 1h0m5.3s", "1s 2s 5s 5.3s 1h0m5.6s", "1s 2s 5s 6.3s 1h0m6.3s", "1s 2s 5s 6.3s 1h0m6.6s"} {
		want[e+" stopped"] = 1
		if strings.HasSuffix(e, ".6s") {
			want[e+" stopped"] = 2
		}
	}
	if r.Failed() || r.Executions != 12 || r.Cut != 0 || !maps.Equal(ends, want) {
		t.Errorf("ticker: %d executions (%d cut), failures %v, ends %v; want 12 (none cut), none, %v", r.Executions, r.Cut, r.Failures, ends, want)
	}
	ends = map[string]int{}
	r = stdtest.Explore(t, func() { ends[afterFuncProgram()]++ }, weft.WithTime(weft.TimeAnyStep), weft.KeepGoing())
	// The stopped timer fires first (the Sleep's wake and the Stop come
	// after the advance to 1s), and its function runs before the Len or
	// after it; or the Stop stops it (and time may move to the stopped
	// deadline after it, one trace more).
	want = map[string]int{"1s 2s fired  ": 11, "1s 2s fired  x": 11, "1s 2s fired stopped ": 5}
	if r.Failed() || r.Executions != 27 || r.Cut != 0 || !maps.Equal(ends, want) {
		t.Errorf("AfterFunc: %d executions (%d cut), failures %v, ends %v; want 27 (none cut), none, %v", r.Executions, r.Cut, r.Failures, ends, want)
	}
}

// TestWallClockBefore checks that a time read outside executions, before
// the exploration (a test function's, for its subtests), is not after the
// time inside: every execution starts at the latest one read outside, and
// a deadline a second after it passes once a second of virtual time has.
// With the clock at 2000-01-01 inside, the deadline read in the present
// would lie 26 years ahead.
func TestWallClockBefore(t *testing.T) {
	made := wtime.Now()
	deadline := made.Add(time.Second)
	var got []string
	r := stdtest.Explore(t, func() {
		start := wtime.Now()
		wtime.Sleep(500 * time.Millisecond)
		early := wtime.Now().Before(deadline)
		wtime.Sleep(time.Second)
		got = append(got, start.Sub(made).String(), fmt.Sprint(early), fmt.Sprint(wtime.Now().After(deadline)), wtime.Until(deadline).String())
	})
	want := "0s true true -500ms"
	if r.Failed() || r.Executions != 1 || strings.Join(got, " ") != want {
		t.Errorf("%d executions, failures %v, got %q; want 1, none, %q", r.Executions, r.Failures, strings.Join(got, " "), want)
	}
}
