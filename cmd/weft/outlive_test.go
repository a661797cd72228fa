// This file tests memory that outlives an execution under weft test: the
// atomic words of a package-level variable get back, at the end of each
// execution, the values they held when the execution first used them, so
// that each execution starts from the same words, and after the
// exploration the values its last execution left, as one run of the test
// under go test, unless that execution was cut mid-way: then a later test
// that uses them is inconclusive; a test's cleanups run in each execution;
// an example, which runs as plain Go, is
// bounded by -timeout.

package main

import (
	"strings"
	"testing"
)

func TestTestOutlive(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	files := map[string]string{
		"go.mod": "module example.com/outlive\n\ngo 1.26.0\n",
		"outlive_test.go": `package outlive

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A pool made at the package's initialisation, before any execution.
var pool = struct {
	state  int32 // 0 open, 1 closed
	closed atomic.Bool
	last   atomic.Pointer[int]
	names  atomic.Value
}{state: 0}

// TestCloseOnce closes the pool, which each execution must find open,
// after two goroutines raced on it (two executions).
func TestCloseOnce(t *testing.T) {
	if !atomic.CompareAndSwapInt32(&pool.state, 0, 1) {
		t.Fatal("state: closed before the test began")
	}
	if pool.closed.Swap(true) {
		t.Fatal("closed: set before the test began")
	}
	if pool.last.Load() != nil || pool.names.Load() != nil {
		t.Fatal("last, names: stored before the test began")
	}
	pool.names.Store("x")
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pool.last.Store(&i)
		}()
	}
	wg.Wait()
}

// TestAfterClose finds the pool as one run of TestCloseOnce left it, as
// under go test; an example, which runs as plain Go, is bounded by
// -timeout.
func TestAfterClose(t *testing.T) {
	if atomic.LoadInt32(&pool.state) != 1 || !pool.closed.Load() || pool.last.Load() == nil || pool.names.Load() != "x" {
		t.Fatal("the pool is not as TestCloseOnce left it")
	}
}

// held is a lock of a package-level variable that TestHold takes and
// never gets to release: the step bound cuts its every execution inside
// the loop, so that its last one leaves the lock held, as no run of
// TestHold does under go test.
var held atomic.Bool

func TestHold(t *testing.T) {
	held.Store(true)
	var n atomic.Int64
	for n.Load() >= 0 {
		n.Add(1)
	}
	held.Store(false)
}

// mark is a word TestAfterHold sets before it takes the lock.
var mark atomic.Int32

// TestAfterHold takes the lock TestHold left held: it is inconclusive,
// not a failure.
func TestAfterHold(t *testing.T) {
	mark.Store(1)
	if held.Load() {
		t.Fatal("held: left by an execution of TestHold cut in its loop")
	}
}

// TestAfterHoldAgain reads the word TestAfterHold set before it stopped:
// inconclusive too, from TestHold.
func TestAfterHoldAgain(t *testing.T) {
	if mark.Load() != 0 {
		t.Fatal("mark: left by TestAfterHold's execution")
	}
}

// TestCleanup's goroutine waits for the test's cleanup, which runs in
// each execution when the body returns, as under go test.
func TestCleanup(t *testing.T) {
	stop := make(chan struct{})
	go func() { <-stop }()
	t.Cleanup(func() { close(stop) })
}

// done is never closed; a goroutine started at initialisation, outside
// any execution, keeps the runtime from seeing a deadlock.
var done = make(chan struct{})

func init() {
	go func() {
		for {
			time.Sleep(time.Millisecond)
		}
	}()
}

// Example_wait waits for ever, as plain Go: the -timeout bounds it.
func Example_wait() {
	<-done
	fmt.Println("done")
	// Output: done
}
`,
	}
	out := testModuleArgs(t, t.TempDir(), files, []string{"-v", "-replay-files=off", "-timeout", "1s", "-max-steps", "500"}, exitFailure)
	for _, want := range []string{
		"weft: strategy optimal, executions 5 (complete 5, cut 0, failing 0), final states 1,",
		"--- PASS: TestCloseOnce",
		"--- PASS: TestAfterClose",
		"weft: step bound reached, a possible livelock (execution 1, 500 steps)",
		"--- INCONCLUSIVE: TestHold",
		"weft: inconclusive: this test uses memory (an atomic word, a channel) that the last execution of TestHold changed and left mid-way (stopped at the step bound): no run of TestHold leaves it so under go test",
		"--- INCONCLUSIVE: TestAfterHold",
		"outlive_test.go:89: weft: strategy optimal, executions 1 (complete 1, cut 0, failing 0), final states 1,",
		"--- PASS: TestCleanup",
		"panic: weft: Example_wait ran longer than 1s (weft test -timeout): an example runs once, as plain Go, outside any exploration,",
		"outlive_test.go:109", // the goroutine of the example, waiting
		"weft test: the test binary of example.com/outlive crashed while Example_wait ran (above)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "that the last execution of TestHold changed and left mid-way"); n != 2 {
		t.Errorf("%d tests say TestHold left their memory mid-way, want 2 (TestAfterHold, TestAfterHoldAgain):\n%s", n, out)
	}
}
