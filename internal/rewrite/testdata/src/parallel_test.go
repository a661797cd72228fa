package src

import (
	"os"
	"runtime"
	"testing"
)

// TestSkipParallel skips under a quiet condition before t.Parallel(): the
// if runs as plain Go, before the test pauses.
func TestSkipParallel(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		t.Skipf("not on %s", runtime.GOOS)
	} else if os.Getenv("QUIET") == "" {
		t.Log("loud")
	}
	t.Parallel()
	ch := make(chan int, 1)
	ch <- 1
	<-ch
}

// TestChildParallel is the part of a test that reruns its own binary
// that its child runs: the block before t.Parallel() ends the test, and
// is an exploration of its own.
func TestChildParallel(t *testing.T) {
	if os.Getenv("CHILD") != "" {
		ch := make(chan int)
		go func() { ch <- 1 }()
		<-ch
		t.Fatal("child")
	}
	t.Parallel()
	done := make(chan bool)
	go func() { done <- true }()
	<-done
}
