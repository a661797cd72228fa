// This file tests weft test on the shapes of goroutine pools' code and
// tests: a spin lock whose back-off calls runtime.Gosched several times in
// a row, a default pool that a package-level variable's initialisation
// made.

package main

import (
	"strings"
	"testing"
)

// poolFiles is a module with the shapes the tests of goroutine pools
// have.
var poolFiles = map[string]string{
	"go.mod": "module example.com/pl\n\ngo 1.26.0\n",
	"lock.go": `package pl

import (
	"runtime"
	"sync/atomic"
)

// Lock is a spin lock whose back-off yields 1, 2, 4, ... times between
// two attempts.
type Lock uint32

func (l *Lock) Lock() {
	backoff := 1
	for !atomic.CompareAndSwapUint32((*uint32)(l), 0, 1) {
		for i := 0; i < backoff; i++ {
			runtime.Gosched()
		}
		if backoff < 16 {
			backoff <<= 1
		}
	}
}

func (l *Lock) Unlock() { atomic.StoreUint32((*uint32)(l), 0) }
`,
	"pool.go": `package pl

// Pool closes done when it is released.
type Pool struct{ done chan struct{} }

func NewPool() *Pool { return &Pool{done: make(chan struct{})} }

// Release closes done if the pool runs no task.
func (p *Pool) Release(running bool) {
	if !running {
		close(p.done)
	}
}

// Wait waits for the release.
func (p *Pool) Wait() { <-p.done }

// defaultPool is made at the package's initialisation, outside any
// execution.
var defaultPool = NewPool()
`,
	"wake_test.go": `package pl

import (
	"sync/atomic"
	"testing"
	"time"
)

// workers starts two goroutines that take and release l, the last to
// finish closing done, as the workers of a goroutine pool do.
func workers(l *Lock, done chan struct{}) {
	var left atomic.Int32
	left.Store(2)
	for range 2 {
		go func() {
			l.Lock()
			l.Unlock()
			if left.Add(-1) == 0 {
				close(done)
			}
		}()
	}
}

// TestWakeTimeout waits for the workers with a timeout that Go, whose
// time moves only when every goroutine is blocked under weft, never
// reaches: the worker that lost the lock is not blocked.
func TestWakeTimeout(t *testing.T) {
	var l Lock
	done := make(chan struct{})
	workers(&l, done)
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("timed out")
	}
}

// TestWakePoll polls for the workers with a select's default, which is
// always ready.
func TestWakePoll(t *testing.T) {
	var l Lock
	done := make(chan struct{})
	workers(&l, done)
	for {
		select {
		case <-done:
			return
		default:
		}
	}
}
`,
	"pl_test.go": `package pl

import (
	"sync"
	"testing"
)

func TestBackoff(t *testing.T) {
	var l Lock
	var wg sync.WaitGroup
	n := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				l.Lock()
				n++
				l.Unlock()
			}
		}()
	}
	wg.Wait()
	if n != 6 {
		t.Errorf("n = %d, want 6", n)
	}
}

func TestDefaultPool(t *testing.T) {
	go defaultPool.Release(true)
	defaultPool.Wait()
}

func TestOwnPool(t *testing.T) {
	p := NewPool()
	go p.Release(true)
	p.Wait()
}
`,
}

// TestTestPools runs weft test on poolFiles: the goroutine that lost the
// spin lock three times in a row yields four times in a row, which is one
// pause, not a loop of nothing but yields (a deadlock, before); a failed
// CompareAndSwap before the yields blocks its goroutine for good (79
// executions, 38 of them assumed away; 2625 when it went on after the
// write that ended its wait). A test
// left waiting on the channel of the pool a package-level variable's
// initialisation made is blocked outside weft, which cannot know what
// happened to the channel outside the execution (inconclusive; a
// deadlock, before that a failure); one
// waiting on its own pool's is deadlocked. A worker that lost the spin
// lock, blocked for good on its word, which the holder then released, is
// runnable: virtual time does not move past it (a timeout fired, before)
// and a loop that polls a select's default gives way to it (it spun to
// the step bound, a livelock, before); either ends the execution as
// assumed away, its next turn being another execution's.
func TestTestPools(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	out, _ := batchModule(t, "pl")
	for _, want := range []string{
		"pl_test.go:8: weft: strategy optimal, executions 79 (complete 41, cut 0, assumed away 38, failing 0)", "--- PASS: TestBackoff",
		"pl_test.go:29: weft: blocked outside weft in T0 (execution 1, 0 steps)",
		"T0 blocked on recv p.done, a channel this execution did not make, outside weft's control: it was made before the execution began",
		"--- INCONCLUSIVE: TestDefaultPool",
		"pl_test.go:34: weft: deadlock (execution 1, 0 steps)", "--- FAIL: TestOwnPool",
		"wake_test.go:28: weft: strategy optimal, executions 14 (complete 4, cut 8, assumed away 2, failing 0), final states 1,", "--- PASS: TestWakeTimeout",
		"wake_test.go:41: weft: strategy optimal, executions 84 (complete 78, cut 4, assumed away 2, failing 0), final states 1,", "--- PASS: TestWakePoll",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
