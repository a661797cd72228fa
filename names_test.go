// Tests of named threads (GoNamed) in reports.

package weft_test

import (
	"path/filepath"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/golden"
	"github.com/weft-go/weft/trace"
)

// TestNamedThreadsGolden checks reports of programs whose threads have
// names, against testdata/report/named_*.golden: the steps, the partner
// of a rendezvous, a join, the failing thread, the engine's list of
// blocked threads, the blocked list, the holders and the cycle of waits
// name them.
func TestNamedThreadsGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		kind trace.FailureKind
		body func(w *weft.T)
	}{
		{"deadlock", trace.Deadlock, func(w *weft.T) {
			a, b := weft.NewMutex("a"), weft.NewMutex("b")
			c := weft.MakeChan[int](0)
			c.SetName("c")
			x := w.GoNamed("left", func() { a.Lock(); c.Send(1); b.Lock(); b.Unlock(); a.Unlock() })
			y := weft.GoNamed("right", func() { b.Lock(); c.Recv(); a.Lock(); a.Unlock(); b.Unlock() })
			x.Join()
			y.Join()
		}},
		{"assertion", trace.Assertion, func(w *weft.T) {
			n := weft.NewVar[int]("n")
			inc := func() { n.Store(n.Load() + 1) }
			x := w.GoNamed("worker", inc)
			inc()
			x.Join()
			w.Assert(n.Load() == 2, "lost update: n = %d", n.Load())
		}},
		{"panic", trace.Panic, func(w *weft.T) {
			n := weft.NewVar[int]("n")
			w.GoNamed("checker", func() {
				if n.Load() == 1 {
					panic("saw the store")
				}
			})
			n.Store(1)
		}},
		// A reader that reads again while a writer waits: Go's RWMutex
		// re-entry deadlock, the writer waiting for the reader and the
		// reader for the writer.
		{"rwmutex_reentry", trace.Deadlock, func(w *weft.T) {
			var rw weft.RWMutex
			rw.SetName("rw")
			x := weft.NewVar[int]("x")
			th := w.GoNamed("reader", func() {
				rw.RLock()
				x.Load()
				rw.RLock()
				rw.RUnlock()
				rw.RUnlock()
			})
			x.Store(1)
			rw.Lock()
			rw.Unlock()
			th.Join()
		}},
		// A writer waiting for a reader that waits for a mutex the
		// writer holds.
		{"rwmutex_writer", trace.Deadlock, func(w *weft.T) {
			var rw weft.RWMutex
			rw.SetName("rw")
			var mu weft.Mutex
			mu.SetName("mu")
			th := w.GoNamed("reader", func() { rw.RLock(); mu.Lock(); mu.Unlock(); rw.RUnlock() })
			mu.Lock()
			rw.Lock()
			rw.Unlock()
			mu.Unlock()
			th.Join()
		}},
		{"leak", trace.Leak, func(w *weft.T) {
			c := weft.MakeChan[int](0)
			c.SetName("c")
			w.GoNamed("sender", func() { c.Send(1) })
			w.Go(func() { c.Send(2) })
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := explore(t, c.body, weft.WithStrategy("optimal"), weft.NoReplayFiles())
			if len(r.Failures) != 1 || r.Failures[0].Kind != c.kind {
				t.Fatalf("failures %v, want one %v", r.FailureCounts, c.kind)
			}
			f := r.Failures[0]
			report := f.Report(weft.ReplayEnv + "=" + f.Token + " go test -run '^TestNamedThreadsGolden$'")
			golden.Check(t, filepath.Join("testdata", "report", "named_"+c.name+".golden"), golden.Normalize(report), *update)
		})
	}
}
