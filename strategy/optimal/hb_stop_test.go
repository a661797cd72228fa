// Tests that the clocks of a long execution stop at the exploration's bound.

package optimal

import (
	"slices"
	"testing"
	"time"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// TestClocksStop computes the clocks of a trace of 1,000 stores of two
// threads to one variable under a Stop whose deadline has passed: the run
// stops at its first look at the clock (strategy.Stop looks every 128
// polls), keeps the 127 clocks computed before as valid, and a later run
// without a bound computes them all, equal to those of a fresh run, with
// flat clocks and with persistent ones.
func TestClocksStop(t *testing.T) {
	tr := &trace.Trace{
		Threads: []trace.ThreadInfo{{Parent: trace.NoThread, Step: -1}, {Parent: 0, Step: -1}},
		Objects: []trace.ObjectInfo{{Class: trace.ClassVar}},
	}
	for i := range 1000 {
		tr.Events = append(tr.Events, trace.Event{Thread: trace.ThreadID(i % 2), Partner: trace.NoThread,
			Op: trace.Op{Kind: trace.KindStore, Class: trace.ClassVar, Obj: 0}})
	}
	for _, persistent := range []bool{false, true} {
		c := clocks{persistent: persistent}
		if c.run(tr, false, 0, strategy.NewStop(time.Unix(1, 0), nil)) {
			t.Fatalf("persistent %v: run under a passed deadline computed every clock", persistent)
		}
		if c.valid != 127 {
			t.Fatalf("persistent %v: %d valid clocks after the stop, want 127", persistent, c.valid)
		}
		if !c.run(tr, false, c.valid, nil) || c.valid != len(tr.Events) {
			t.Fatalf("persistent %v: run without a bound: %d valid clocks, want %d", persistent, c.valid, len(tr.Events))
		}
		full := clocks{persistent: persistent}
		full.run(tr, false, 0, nil)
		for i := range tr.Events {
			if got, want := c.vc(i), full.vc(i); !slices.Equal(got, want) {
				t.Fatalf("persistent %v: clock %d after resuming is %v, want %v", persistent, i, got, want)
			}
		}
	}
}
