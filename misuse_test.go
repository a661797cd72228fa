// This file tests the detection of goroutines that use weft objects without
// being weft threads (goroutines that touch weft objects from outside).

package weft_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// TestPlainGoroutine checks that weft operations from a goroutine started
// with a go statement are reported as a failure of kind Misuse that names
// the cause, the fix and where the goroutine is, instead of running the
// operation as the running thread's (which raced inside weft and crashed
// with "iter.Pull: yield called again before next"), alone and while
// another exploration runs (then each finds its running thread by the
// goroutine's owner, not by the first slot of the active ones). Run it
// with -race too: the check itself must not race.
func TestPlainGoroutine(t *testing.T) {
	tests := []struct {
		name string
		body func(w *weft.T)
	}{
		{"store", func(w *weft.T) {
			v := weft.NewVar[int]("v")
			done := make(chan struct{})
			go func() {
				defer close(done)
				v.Store(1)
			}()
			<-done
			v.Load()
		}},
		{"new var", func(w *weft.T) {
			done := make(chan struct{})
			go func() {
				defer close(done)
				weft.NewVar[int]("v")
			}()
			<-done
		}},
		{"while threads switch", func(w *weft.T) {
			var mu weft.Mutex
			x := weft.NewVar[int]("x")
			done := make(chan struct{})
			th := w.Go(func() {
				for range 50 {
					mu.Lock()
					x.Store(x.Load() + 1)
					mu.Unlock()
				}
			})
			go func() {
				defer close(done)
				for range 50 {
					mu.Lock()
					x.Store(0)
					mu.Unlock()
				}
			}()
			for range 50 {
				mu.Lock()
				x.Store(x.Load() + 1)
				mu.Unlock()
			}
			<-done
			th.Join()
		}},
	}
	for _, beside := range []string{"", "/beside another"} {
		for _, tc := range tests {
			for _, name := range []string{"exhaustive", "random"} {
				t.Run(tc.name+"/"+name+beside, func(t *testing.T) {
					if beside != "" {
						defer besideExploration(t)()
					}
					checkPlainGoroutine(t, tc.body, name)
				})
			}
		}
	}
}

// besideExploration starts an exploration, on a goroutine of its own,
// whose one execution waits until the returned function is called, which
// then waits for its end. A misuse is recorded in the exploration whose
// thread started the goroutine (engine.Current): this one, running beside
// it, ends without failure.
func besideExploration(t *testing.T) (stop func()) {
	started, over, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		r, err := weft.Explore(func(w *weft.T) {
			x := weft.NewVar[int]("x")
			x.Store(1)
			close(started)
			<-over
			x.Store(2)
		}, weft.WithStrategy("exhaustive"), weft.NoReplayFiles())
		if err != nil || r.Executions != 1 || r.Complete != 1 || len(r.Failures) != 0 {
			t.Errorf("the exploration beside: %v, %+v; want 1 complete execution, without the other's misuse", err, r)
		}
	}()
	<-started
	return func() { close(over); <-done }
}

// checkPlainGoroutine explores body, whose goroutine started with a go
// statement uses a weft object, with the strategy name, and checks the
// report of its misuse.
func checkPlainGoroutine(t *testing.T, body func(w *weft.T), name string) {
	t.Helper()
	r, err := weft.Explore(body, weft.WithStrategy(name), weft.WithMaxRuns(20), weft.NoReplayFiles())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Misuse {
		t.Fatalf("failures %v; want one of kind %v", r.FailureCounts, trace.Misuse)
	}
	rep := r.Failures[0].Report("")
	for _, want := range []string{
		"weft: misuse (execution 1,",
		"a goroutine that is not a weft thread used a weft object",
		"go statement",
		"Use w.Go to start goroutines that use weft objects",
		"misuse_test.go:",
		"created by github.com/weft-go/weft_test.TestPlainGoroutine",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("the report does not say %q:\n%s", want, rep)
		}
	}
	if strings.Contains(rep, "internal/engine.") {
		t.Errorf("the report shows weft's own frames:\n%s", rep)
	}
}

// TestSharedAcrossExplorations checks that an object made outside the test
// bodies of two explorations that run at the same time (tests that call
// t.Parallel) is refused by the second one to touch it while the first's
// execution uses it (ErrSharedObject, and a failure of kind Misuse that
// names the object), instead of the two corrupting each other's
// executions. The first exploration's thread waits in the middle of its
// only execution until the second exploration is over.
func TestSharedAcrossExplorations(t *testing.T) {
	x := weft.NewVar[int]("x")
	started, over := make(chan struct{}), make(chan struct{})
	firstDone := make(chan *weft.Result, 1)
	go func() {
		r, err := weft.Explore(func(w *weft.T) {
			x.Store(1)
			close(started)
			<-over
			x.Store(2)
		}, weft.WithStrategy("exhaustive"), weft.NoReplayFiles())
		if err != nil {
			t.Error(err)
		}
		firstDone <- r
	}()
	<-started
	second, err := weft.Explore(func(w *weft.T) { x.Load() }, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.NoReplayFiles())
	close(over)
	first := <-firstDone
	if !errors.Is(err, weft.ErrSharedObject) {
		t.Fatalf("second exploration: error %v, want ErrSharedObject", err)
	}
	if first == nil || first.Executions != 1 || len(first.Failures) != 0 {
		t.Errorf("first exploration: %+v, want 1 execution without failure", first)
	}
	if second.Executions != 1 || len(second.Failures) != 1 || second.Failures[0].Kind != trace.Misuse ||
		!strings.Contains(second.Failures[0].Message, "var x was made outside the test body and is used by two explorations at the same time") {
		t.Fatalf("second exploration: failures %v, want one misuse that names variable x", second.FailureCounts)
	}
	if testing.Verbose() {
		t.Log(second.Failures[0].Message)
	}
}
