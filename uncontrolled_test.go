// This file tests that Check notices goroutines a body starts outside
// weft's control (uncontrolled.go), and only those.

package weft_test

import (
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/weft-go/weft"
)

// plainBody starts two goroutines with go statements that share a
// sync.Mutex and a Go channel: weft sees none of it.
func plainBody(w *weft.T) {
	var mu sync.Mutex
	n := 0
	done := make(chan bool)
	for range 2 {
		go func() {
			mu.Lock()
			n++
			mu.Unlock()
			done <- true
		}()
	}
	<-done
	<-done
	w.Assert(n == 2, "n = %d", n)
}

// TestCheckUncontrolled: the body's two goroutines fail Check with the
// reason and the ways out, although its one execution passes.
func TestCheckUncontrolled(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv(weft.CommandEnv, "")
	ft := &fakeTB{TB: t, name: "TestPlain"}
	r := weft.Check(ft, plainBody)
	if r.Executions != 1 || !r.Exhausted || len(r.Failures) != 0 || r.Uncontrolled != 2 {
		t.Fatalf("%d executions, exhausted %v, failures %v, %d uncontrolled; want 1, true, none, 2", r.Executions, r.Exhausted, r.FailureCounts, r.Uncontrolled)
	}
	if len(ft.errors) != 1 || len(ft.fatals) != 0 {
		t.Fatalf("errors %q, fatals %q; want one error", ft.errors, ft.fatals)
	}
	for _, want := range []string{
		"weft: the body starts goroutines outside weft's control: its first execution created 2 goroutines besides weft's threads, in each of 3 runs.\n",
		"so the exploration's 1 executions cover none of their interleavings",
		"weft vet ./...", "weft test ./...",
	} {
		if !strings.Contains(ft.errors[0], want) {
			t.Errorf("the error does not hold %q:\n%s", want, ft.errors[0])
		}
	}
}

// TestUncontrolledNone: weft's own goroutines (the coroutines of many
// threads, a thread's runtime.Goexit) and an exploration of many
// executions count none.
func TestUncontrolledNone(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv(weft.CommandEnv, "")
	bodies := []struct {
		name string
		body func(w *weft.T)
		runs int
	}{
		{"threads", func(w *weft.T) {
			var xs [6]weft.Var[int]
			var ths []*weft.Thread
			for i := range xs {
				ths = append(ths, w.Go(func() { xs[i].Store(1) }))
			}
			for _, th := range ths {
				th.Join()
			}
		}, 1},
		{"goexit", func(w *weft.T) {
			w.Go(func() { runtime.Goexit() }).Join()
		}, 1},
		{"counter", func(w *weft.T) {
			var mu weft.Mutex
			var n weft.Var[int]
			for range 3 {
				w.Go(func() {
					mu.Lock()
					n.Store(n.Load() + 1)
					mu.Unlock()
				})
			}
		}, 6},
	}
	for _, b := range bodies {
		ft := &fakeTB{TB: t, name: "Test_" + b.name}
		r := weft.Check(ft, b.body)
		if r.Uncontrolled != 0 || len(ft.errors) != 0 || r.Executions != b.runs {
			t.Errorf("%s: %d uncontrolled, %d executions, errors %q; want 0, %d, none", b.name, r.Uncontrolled, r.Executions, ft.errors, b.runs)
		}
	}
}

// TestUncontrolledExplore: Explore counts the goroutines in its Result
// and fails nothing.
func TestUncontrolledExplore(t *testing.T) {
	r, err := weft.Explore(plainBody)
	if err != nil {
		t.Fatal(err)
	}
	if r.Uncontrolled != 2 || r.Failed() {
		t.Errorf("%d uncontrolled, failures %v; want 2, none", r.Uncontrolled, r.FailureCounts)
	}
}
