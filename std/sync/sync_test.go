package sync_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/std/sync"
)

// TestOutsideExecution checks that the stand-ins behave as package sync's
// types outside an execution, with real goroutines.
func TestOutsideExecution(t *testing.T) {
	var mu sync.Mutex
	var rw sync.RWMutex
	var wg sync.WaitGroup
	var once sync.Once
	cond := sync.NewCond(&mu)
	n, onces, ready := 0, 0, false
	for range 4 {
		wg.Go(func() {
			once.Do(func() { onces++ })
			mu.Lock()
			n++
			mu.Unlock()
			rw.RLock()
			rw.RUnlock()
		})
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		ready = true
		cond.Broadcast()
		mu.Unlock()
	}()
	mu.Lock()
	for !ready {
		cond.Wait()
	}
	mu.Unlock()
	wg.Wait()
	if n != 4 || onces != 1 {
		t.Errorf("n = %d, onces = %d, want 4 and 1", n, onces)
	}
	if !rw.TryLock() || mu.TryLock() != true {
		t.Error("TryLock of unlocked mutexes failed")
	}
	f := sync.OnceValue(func() int { n++; return n })
	if first, second := f(), f(); first != 5 || second != 5 {
		t.Errorf("OnceValue called its function twice: n = %d", n)
	}
}

// counter is two threads incrementing a counter under a mutex, with the
// stand-ins (shim) or weft's own primitives.
func counter(shim bool) func(w *weft.T) {
	return func(w *weft.T) {
		n := 0
		var mu interface {
			Lock()
			Unlock()
		} = new(weft.Mutex)
		var wg interface {
			Go(func())
			Wait()
		} = new(weft.WaitGroup)
		if shim {
			mu, wg = new(sync.Mutex), new(sync.WaitGroup)
		}
		for range 2 {
			wg.Go(func() {
				mu.Lock()
				n++
				mu.Unlock()
			})
		}
		wg.Wait()
		w.Assert(n == 2, "n = %d", n)
	}
}

// TestInsideExecution checks that inside an execution the stand-ins are
// weft's primitives: the same executions as with weft's own.
func TestInsideExecution(t *testing.T) {
	shim, err := weft.Explore(counter(true))
	if err != nil {
		t.Fatal(err)
	}
	own, err := weft.Explore(counter(false))
	if err != nil {
		t.Fatal(err)
	}
	if shim.Failed() || shim.Executions != own.Executions || shim.Executions != 5 {
		t.Errorf("stand-ins: %d executions (failed %v), weft's primitives: %d; want 5 each", shim.Executions, shim.Failed(), own.Executions)
	}
}

// TestMissedSignal checks that a Cond stand-in's missed signal is found.
func TestMissedSignal(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		var mu sync.Mutex
		c := sync.NewCond(&mu)
		var ready weft.Var[bool]
		weft.Go(func() {
			ready.Store(true)
			c.Signal()
		})
		mu.Lock()
		if !ready.Load() {
			c.Wait()
		}
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Failed() || r.Failures[0].Kind.String() != "deadlock" {
		t.Fatalf("want a deadlock, got %+v", r.Failures)
	}
}
