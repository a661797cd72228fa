// This file tests busy-wait loops under weft test: a loop whose condition
// only loads atomic words is one await, which the default strategy
// explores with dpor+sleep; a polling loop whose turns receive from closed
// channels yields; and atomic words that hold a value when an execution
// first uses them.

package main

import (
	"strings"
	"testing"
)

func TestTestSpinAwait(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	files := map[string]string{
		"go.mod": "module example.com/spin\n\ngo 1.26.0\n",
		"spin_test.go": `package spin

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestFlag waits, yielding, for a flag set after two stores.
func TestFlag(t *testing.T) {
	var ready atomic.Bool
	var a, b atomic.Int32
	go func() {
		a.Store(1)
		b.Store(1)
		ready.Store(true)
	}()
	for !ready.Load() {
		runtime.Gosched()
	}
	if a.Load()+b.Load() != 2 {
		t.Error("lost a store")
	}
}

type gate struct{ left int32 }

// TestGate spins, without yielding, on a word that holds 2 when the
// execution first uses it, in whichever goroutine that is.
func TestGate(t *testing.T) {
	g := &gate{left: 2}
	for range 2 {
		go func() { atomic.AddInt32(&g.left, -1) }()
	}
	for atomic.LoadInt32(&g.left) != 0 {
	}
}

// TestWord counts down a word that holds 2 from two goroutines.
func TestWord(t *testing.T) {
	g := &gate{left: 2}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); atomic.AddInt32(&g.left, -1) }()
	}
	wg.Wait()
	if v := atomic.LoadInt32(&g.left); v != 0 {
		t.Errorf("left %d", v)
	}
}

type pool struct {
	allDone chan struct{}
	stopped int32
}

// release waits for the pool's goroutine to stop, as panjf2000/ants'
// ReleaseContext does: its turns receive from closed channels and load
// the word the goroutine stores last.
func (p *pool) release(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.allDone:
			<-p.allDone
			if p.isStopped() {
				return nil
			}
		}
	}
}

func (p *pool) isStopped() bool { return atomic.LoadInt32(&p.stopped) == 1 }

// TestPoll releases a pool whose goroutine stores its word once a channel
// closed before the release is closed.
func TestPoll(t *testing.T) {
	p := &pool{allDone: make(chan struct{})}
	stop := make(chan struct{})
	go func() {
		<-stop
		atomic.StoreInt32(&p.stopped, 1)
	}()
	close(p.allDone)
	close(stop)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := p.release(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestNeverSet waits for a flag nobody sets.
func TestNeverSet(t *testing.T) {
	var ready atomic.Bool
	for !ready.Load() {
		runtime.Gosched()
	}
}
`,
	}
	out := testModuleArgs(t, t.TempDir(), files, []string{"-v", "-replay-files=off"}, exitFailure)
	for _, want := range []string{
		"weft: strategy dpor+sleep, executions 1 (complete 1, cut 0, failing 0), final states 1,",
		"--- PASS: TestFlag",
		"weft: strategy dpor+sleep, executions 2 (complete 2, cut 0, failing 0), final states 1,",
		"--- PASS: TestGate",
		"weft: strategy optimal, executions 3 (complete 3, cut 0, failing 0), final states 1,",
		"--- PASS: TestWord",
		"weft: strategy optimal, executions 49 (complete 12, cut 37, failing 0), final states 1,",
		"--- PASS: TestPoll",
		"weft: deadlock (execution 1, 0 steps)",
		"T0 blocked in w.Await, waiting for a write of ready",
		"--- FAIL: TestNeverSet",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"livelock", "store g.left"} {
		if strings.Contains(out, bad) {
			t.Errorf("output has %q:\n%s", bad, out)
		}
	}
}
