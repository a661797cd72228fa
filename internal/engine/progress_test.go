// This file tests that an execution in which one thread runs many steps
// without handing control on tells the watchdog that it progresses.

package engine

import (
	"testing"
	"time"

	"github.com/weft-go/weft/trace"
)

// TestProgressAlone checks that a thread that runs alone, never handing
// control to another, counts as progress once every progressEvery steps,
// so that the watchdog does not take a long loop of steps for a thread
// blocked outside weft's control (jackc/puddle's stress tests, whose
// first execution runs one goroutine for 100,000 steps, were abandoned
// after the watchdog's delay, and the goroutine, going on, then unlocked
// the standard library's mutex of a sync.Mutex it had locked as weft's:
// a fatal error of the test binary).
func TestProgressAlone(t *testing.T) {
	var x Obj
	var before, after int64
	e := NewExec(Config{Watchdog: time.Hour})
	t.Cleanup(e.Close)
	end := e.Run(&scripted{}, func() {
		load(&x)
		before = e.progress.Load()
		for range 3 * progressEvery {
			load(&x)
		}
		after = e.progress.Load()
	}, false)
	if end.Status != trace.Complete {
		t.Fatalf("end %v, want complete", end)
	}
	want := int64(3)
	if raceBuild {
		// A race build publishes every step (publish), which counts too.
		want += 3 * progressEvery
	}
	if got := after - before; got != want {
		t.Errorf("progress advanced by %d over %d steps of one thread, want %d", got, 3*progressEvery, want)
	}
}
