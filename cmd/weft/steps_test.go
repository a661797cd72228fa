// This file tests how weft test's reports place and show steps: a
// deferred call's step at its defer line.

package main

import (
	"strings"
	"testing"
)

// TestTestDeferLine checks that the step of a deferred call of a
// stand-in (wg.Done, mu.Unlock, close) is shown at its defer statement's
// line, not at the line of the panic or the return that ran it.
func TestTestDeferLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with weft test")
	}
	files := map[string]string{
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
	out := testModule(t, t.TempDir(), files, exitFailure)
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
