//go:build cgo && unix

// This file tests that an interrupt during a check leaves the Go program
// in charge of its signals.

package z3_test

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/weft-go/weft/solver/z3"
)

// TestInterruptDuringCheck sends SIGINT to the process again and again
// while two Z3 solvers check a hard query with a short time limit, and
// once after. Z3 installs a
// SIGINT handler of its own during a check unless told not to (solver
// parameter ctrl_c), and a signal that finds it there is a fatal error of
// the Go program ("non-Go code set up signal handler without SA_ONSTACK
// flag"): weft run's Ctrl-C during a concolic exploration crashed. The
// signals must reach the Go handler instead.
func TestInterruptDuringCheck(t *testing.T) {
	got := make(chan os.Signal, 1024)
	signal.Notify(got, os.Interrupt)
	defer signal.Stop(got)
	s1, s2 := newSolver(t), newSolver(t)
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
				syscall.Kill(os.Getpid(), syscall.SIGINT)
			}
		}
	}()
	// Two solvers check at once: Z3 saves and restores the process's
	// handler around each check, and two checks that overlap can leave
	// its own installed for good.
	var wg sync.WaitGroup
	for _, s := range []*z3.Solver{s1, s2} {
		wg.Go(func() {
			for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
				s.Check(ctx, semiprime()) // times out: the outcome does not matter here
				cancel()
			}
		})
	}
	wg.Wait()
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	// The sender must be gone before signal.Stop runs (deferred above): a
	// select that finds done closed and its timer fired may still pick the
	// timer, and a SIGINT after Stop kills the test binary.
	close(done)
	<-stopped
	time.Sleep(10 * time.Millisecond) // lets the last signals arrive while Notify holds them
	if len(got) == 0 {
		t.Fatal("no SIGINT reached the Go handler")
	}
}
