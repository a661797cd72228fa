// This file checks the report of each failure kind (Failure.Report) against
// golden files in testdata/report; go test -run Golden -update rewrites
// them.

package weft_test

import (
	"flag"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/golden"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// badStrategy chooses a thread that does not exist: weft's internal error.
type badStrategy struct{ done bool }

func (b *badStrategy) Next() bool                                               { ok := !b.done; b.done = true; return ok }
func (b *badStrategy) Choose(*strategy.State) strategy.Choice                   { return strategy.Choice{Thread: 7} }
func (b *badStrategy) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }
func (b *badStrategy) Finish(*trace.Trace, trace.End)                           {}

// goldenFailure is a program that fails with one kind, and the options it
// is explored with (exhaustive search by default).
type goldenFailure struct {
	kind trace.FailureKind
	body func(w *weft.T)
	opts []weft.Option
}

// goldenFailures returns one failing program per failure kind. Each body
// makes its objects, so that they are named the same whatever ran before.
func goldenFailures() []goldenFailure {
	return []goldenFailure{
		{trace.Assertion, func(w *weft.T) {
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1) })
			w.Assert(x.Load() == 0, "read x = %d", x.Load())
		}, nil},
		{trace.Panic, func(w *weft.T) {
			x := weft.NewVar[int]("x")
			w.Go(func() {
				x.Store(1)
				panic("boom")
			})
		}, nil},
		{trace.Deadlock, func(w *weft.T) {
			var a, b weft.Mutex
			a.SetName("a")
			b.SetName("b")
			th := w.Go(func() { b.Lock(); a.Lock(); a.Unlock(); b.Unlock() })
			a.Lock()
			b.Lock()
			b.Unlock()
			a.Unlock()
			th.Join()
		}, nil},
		{trace.Leak, func(w *weft.T) {
			c := weft.MakeChan[int](0)
			c.SetName("c")
			w.Go(func() { c.Send(1) })
		}, nil},
		{trace.Livelock, func(w *weft.T) {
			x := weft.NewVar[int]("x")
			for x.Load() == 0 {
			}
		}, []weft.Option{weft.WithMaxSteps(5)}},
		{trace.SendOnClosed, func(w *weft.T) {
			c := weft.MakeChan[int](1)
			c.SetName("c")
			w.Go(func() { c.Close() })
			c.Send(1)
		}, nil},
		{trace.CloseOfClosed, func(w *weft.T) {
			c := weft.MakeChan[int](0)
			c.SetName("c")
			c.Close()
			c.Close()
		}, nil},
		{trace.CloseOfNil, func(w *weft.T) {
			var c *weft.Chan[int]
			c.Close()
		}, nil},
		{trace.UnlockOfUnlocked, func(w *weft.T) {
			var mu weft.Mutex
			mu.SetName("mu")
			mu.Lock()
			mu.Unlock()
			mu.Unlock()
		}, nil},
		{trace.NegativeWaitGroup, func(w *weft.T) {
			var wg weft.WaitGroup
			wg.Add(1)
			w.Go(func() { wg.Done() })
			wg.Done()
		}, nil},
		{trace.DivideByZero, func(w *weft.T) {
			x := w.InputRange("x", 0, 9)
			_ = weft.Const[int64](100).Div(x)
		}, nil},
		{trace.Goexit, func(w *weft.T) {
			x := weft.NewVar[int]("x")
			x.Store(1)
			runtime.Goexit()
		}, nil},
		{trace.Nondeterminism, changingBody(), nil},
		{trace.Blocked, blocking(), []weft.Option{weft.WithWatchdog(50 * time.Millisecond)}},
		{trace.Internal, func(w *weft.T) {
			x := weft.NewVar[int]("x")
			x.Store(1)
		}, []weft.Option{weft.WithCustomStrategy(&badStrategy{})}},
		{trace.Misuse, func(w *weft.T) {
			v := weft.NewVar[int]("v")
			done := make(chan struct{})
			go func() {
				defer close(done)
				v.Store(1)
			}()
			<-done
		}, nil},
		{trace.DataRace, func(w *weft.T) {
			x, mu := weft.NewVar[int]("x"), weft.NewMutex("mu")
			w.Go(func() {
				mu.Lock()
				x.Store(x.Load() + 1)
				mu.Unlock()
			})
			x.Store(x.Load() + 1)
		}, []weft.Option{weft.WithRaces()}},
		{trace.WaitGroupMisuse, func(w *weft.T) {
			var wg weft.WaitGroup
			w.Go(func() {
				wg.Add(1)
				wg.Done()
			})
			wg.Wait()
		}, nil},
	}
}

// changingBody returns a body that loads x in its first execution and
// stores it in the next ones.
func changingBody() func(w *weft.T) {
	n := 0
	return func(w *weft.T) {
		n++
		x := weft.NewVar[int]("x")
		w.Go(func() { x.Store(1) })
		if n == 1 {
			x.Load()
		} else {
			x.Store(2)
		}
	}
}

// blocking returns a body whose thread blocks on a real mutex, held until
// the test ends.
func blocking() func(w *weft.T) {
	var mu sync.Mutex
	mu.Lock()
	return func(w *weft.T) {
		x := weft.NewVar[int]("x")
		x.Store(1)
		mu.Lock() // outside weft's control
	}
}

// goldenName is the file name of kind's golden report.
func goldenName(k trace.FailureKind) string {
	return strings.ReplaceAll(k.String(), " ", "_") + ".golden"
}

// TestReportGolden checks the report of each failure kind, as Check prints
// it, against testdata/report/<kind>.golden, after golden.Normalize.
func TestReportGolden(t *testing.T) {
	cases := map[trace.FailureKind]goldenFailure{}
	for _, c := range goldenFailures() {
		cases[c.kind] = c
	}
	for _, k := range trace.FailureKinds() {
		t.Run(goldenName(k), func(t *testing.T) {
			c, ok := cases[k]
			if !ok {
				t.Fatalf("no program fails with %v: add one to goldenFailures", k)
			}
			opts := append([]weft.Option{weft.WithStrategy("exhaustive"), weft.NoReplayFiles()}, c.opts...)
			r := explore(t, c.body, opts...)
			if len(r.Failures) != 1 || r.Failures[0].Kind != k {
				t.Fatalf("failures %v, want one %v", r.FailureCounts, k)
			}
			f := r.Failures[0]
			cmd := weft.ReplayEnv + "=" + f.Token + " go test -run '^TestReportGolden$'"
			golden.Check(t, filepath.Join("testdata", "report", goldenName(k)), golden.Normalize(f.Report(cmd)), *update)
		})
	}
}
