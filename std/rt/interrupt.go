// This file implements what an interrupt (Ctrl-C) and a terminal change in
// weft test's explorations: the exploration that runs stops and logs its
// summary, the tests after it are not run, and on a terminal each
// exploration reports its progress.

package rt

import (
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weft-go/weft"
)

// InterruptedMarker starts the message with which Test skips a test whose
// exploration an interrupt stopped, or which an interrupt kept from
// running: weft test looks for it to print the test's summary and exit
// with its status for an interrupt.
const InterruptedMarker = "weft: interrupted"

// ProgressMarker starts the progress lines that Test prints, about once a
// second, with ProgressEnv=1: weft test shows them on the terminal in
// place of one another.
const ProgressMarker = "weft-progress:"

// ProgressEnv is the environment variable that, set to 1 (weft test sets
// it on a terminal), makes Test print its exploration's progress.
const ProgressEnv = "WEFT_PROGRESS"

// interrupted says that an interrupt stopped an exploration: the tests
// after it are not run.
var interrupted atomic.Bool

// watchInterrupt stops the running exploration at an interrupt (the
// context of its refusals is canceled, which stops it as WithContext
// does): the returned function ends the watch and reports whether an
// interrupt came.
func watchInterrupt() func() bool {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	done := make(chan struct{})
	came := make(chan bool, 1)
	go func() {
		select {
		case <-sig:
			interrupted.Store(true)
			refusal.Lock()
			if refusal.cancel != nil {
				refusal.cancel()
			}
			refusal.Unlock()
			came <- true
		case <-done:
			came <- false
		}
	}()
	return func() bool {
		signal.Stop(sig)
		close(done)
		return <-came
	}
}

// progressOptions returns the option that prints the progress of t's
// exploration with ProgressEnv=1, or none.
func progressOptions(t *testing.T) []weft.Option {
	if os.Getenv(ProgressEnv) != "1" {
		return nil
	}
	name := t.Name()
	return []weft.Option{weft.WithProgress(func(p weft.Progress) {
		rate := 0.0
		if s := p.Elapsed.Seconds(); s > 0 {
			rate = float64(p.Executions) / s
		}
		fmt.Printf("%s %s: %d executions, %.0f/s, %v\n", ProgressMarker, name, p.Executions, rate, p.Elapsed.Round(time.Second))
	})}
}
