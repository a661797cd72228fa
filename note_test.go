// Tests the note of a strategy without sleep sets stopped by a bound with
// time at any step.

package weft_test

import (
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft"
)

// sleepers is two threads that sleep and write one variable: with time at
// any step, the clock's advances interleave with every step.
func sleepers(w *weft.T) {
	var x weft.Var[int]
	for i := range 2 {
		w.Go(func() {
			w.Sleep(time.Millisecond)
			x.Store(i)
		})
	}
}

// TestRedundantNote checks that a strategy without sleep sets stopped by
// the run bound with time at any step says that a strategy with sleep sets
// goes further, and that none says so when it has sleep sets, when time
// moves only when every thread is blocked, or when it finished.
func TestRedundantNote(t *testing.T) {
	anyStep, bound := weft.WithTime(weft.TimeAnyStep), weft.WithMaxRuns(2)
	for _, c := range []struct {
		strategy        string
		opts            []weft.Option
		note, exhausted bool
	}{
		{"dpor", []weft.Option{anyStep, bound}, true, false},
		{"flip", []weft.Option{anyStep, bound}, true, false},
		{"exhaustive", []weft.Option{anyStep, bound}, true, false},
		{"dpor+sleep", []weft.Option{anyStep, bound}, false, false},
		{"optimal", []weft.Option{anyStep, bound}, false, false},
		{"dpor", []weft.Option{bound}, false, false},
		{"dpor", []weft.Option{anyStep}, false, true},
	} {
		r, err := weft.Explore(sleepers, append(c.opts, weft.WithStrategy(c.strategy), weft.NoReplayFiles())...)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(r.Note, "has no sleep sets"); got != c.note || r.Exhausted != c.exhausted {
			t.Errorf("%s, %d executions: exhausted %v, note %q; want exhausted %v, a note about sleep sets %v",
				c.strategy, r.Executions, r.Exhausted, r.Note, c.exhausted, c.note)
		}
	}
}
