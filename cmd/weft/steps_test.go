// This file tests how weft test's reports place, show, count and name
// steps: a deferred call's step at its defer line, a stand-in's inner
// steps folded into the program's call, a timer named after its
// expression.

package main

import (
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/long"
)

// deferlineFiles is the module of TestTestDeferLine.
var deferlineFiles = map[string]string{
	"go.mod": "module example.com/deferline\n\ngo 1.26.0\n",
	"d_test.go": `package deferline

import (
	"sync"
	"testing"
)

func TestPanic(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		defer mu.Unlock()
		panic("boom")
	}()
	wg.Wait()
}

func produce(ch chan int) {
	defer close(ch)
	ch <- 1
	return
}

func TestClose(t *testing.T) {
	ch := make(chan int)
	go produce(ch)
	n := 0
	for v := range ch {
		n += v
	}
	if n != 2 {
		t.Errorf("sum %d", n)
	}
}
`,
}

// TestTestDeferLine checks that the step of a deferred call of a
// stand-in (wg.Done, mu.Unlock, close) is shown at its defer statement's
// line, not at the line of the panic or the return that ran it.
func TestTestDeferLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	out, _ := batchModule(t, "deferline")
	for _, want := range []string{
		"  T1   lock mu                           d_test.go:14\n",
		"  T1   unlock mu                         d_test.go:15\n",
		"  T1   wg.add(-1) wg                     d_test.go:13\n",
		"  T1   close ch                          d_test.go:22\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// foldedFiles is the module of TestTestFoldedCalls.
var foldedFiles = map[string]string{
	"go.mod": "module example.com/folded\n\ngo 1.26.0\n",
	"c_test.go": `package folded

import (
	"context"
	"testing"
	"time"
)

func TestTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	res := make(chan int)
	go func() {
		time.Sleep(2 * time.Second)
		res <- 1
	}()
	select {
	case <-ctx.Done():
		t.Errorf("timed out: %v", ctx.Err())
	case <-res:
	}
}
`,
}

// TestTestFoldedCalls checks that the inner steps of weft's stand-in for
// package context (its mutex, its timer, the goroutine that waits for the
// deadline) are shown as the program's calls: one step each, at the
// program's line.
func TestTestFoldedCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	t.Parallel()
	out, _ := batchModule(t, "folded")
	// The header counts the four steps listed, not the inner steps of
	// the stand-ins (eleven).
	if head := "weft: assertion in T0 (execution 1, 4 steps)\n"; !strings.Contains(out, head) {
		t.Errorf("output lacks %q:\n%s", head, out)
	}
	want := `        interleaving:
             1  T0   context.WithTimeout               c_test.go:10
             2  T2   deadline of ctx                   c_test.go:10
             3  T0   select: recv ctx.Done()           c_test.go:17
             4  T0   ctx.Err()                         c_test.go:19
        replay token: `
	if !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
	for _, bad := range []string{"mutex#", "timer#"} {
		if strings.Contains(out, bad) {
			t.Errorf("output shows a stand-in's inner step on %s...:\n%s", bad, out)
		}
	}
}

// TestTestTimerNames checks that a report names a timer and a ticker
// after the variable they were assigned to, and a time.After after the
// call, not timer#N.
func TestTestTimerNames(t *testing.T) {
	long.Skip(t, "builds a module with weft test")
	files := map[string]string{
		"go.mod": "module example.com/timers\n\ngo 1.26.0\n",
		"t_test.go": `package timers

import (
	"testing"
	"time"
)

func TestTimers(t *testing.T) {
	tm := time.NewTimer(time.Second)
	tk := time.NewTicker(time.Second)
	<-tk.C
	tm.Stop()
	<-time.After(time.Second)
	t.Errorf("fail")
}
`,
	}
	out := testModule(t, t.TempDir(), files, exitFailure)
	want := `weft: assertion in T0 (execution 1, 4 steps)
            t_test.go:14: t.Errorf: fail
        interleaving:
             1  T0   recv tk = 2000-01-01 00:00:01 +0000 UTC  t_test.go:11
             2  T0   timer.stop tk                     t_test.go:11
             3  T0   timer.stop tm                     t_test.go:12
             4  T0   recv time.After(time.Second) = 2000-01-01 00:00:02 +0000 UTC  t_test.go:13
        replay token: `
	if !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}
