// Tests that the clocks of an earlier trace do not outlive it.

package optimal

import (
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestClocksDropEarlier runs the clocks of a trace of 1,000 stores of 8
// threads with persistent clocks (a clock of up to four threads holds its
// entries without a tree), then of its first 500, then of those 500 with
// flat clocks: the clocks past the shorter trace's end, and then every
// persistent clock, are zero, holding no tree. It failed before reset
// cleared them.
func TestClocksDropEarlier(t *testing.T) {
	const threads = 8
	long := &trace.Trace{Objects: []trace.ObjectInfo{{Class: trace.ClassVar}}}
	long.Threads = append(long.Threads, trace.ThreadInfo{Parent: trace.NoThread, Step: -1})
	for i := 1; i < threads; i++ {
		long.Threads = append(long.Threads, trace.ThreadInfo{Parent: 0, Step: -1})
	}
	for i := range 1000 {
		long.Events = append(long.Events, trace.Event{Thread: trace.ThreadID(i % threads), Partner: trace.NoThread,
			Op: trace.Op{Kind: trace.KindStore, Class: trace.ClassVar, Obj: 0}})
	}
	short := *long
	short.Events = long.Events[:500]

	c := clocks{persistent: true}
	c.run(long, false, 0, nil)
	if c.ev[999] == (trace.PClock{}) {
		t.Fatalf("the last clock of the long trace is zero")
	}
	c.run(&short, false, 0, nil)
	if len(c.ev) != 500 {
		t.Fatalf("%d persistent clocks for the short trace, want 500", len(c.ev))
	}
	for i, k := range c.ev[500:cap(c.ev)] {
		if k != (trace.PClock{}) {
			t.Fatalf("persistent clock %d, past the short trace's end, was kept", 500+i)
		}
	}
	c.persistent = false
	c.run(&short, false, 0, nil)
	if !c.flatOK {
		t.Fatalf("the short trace of %d threads kept persistent clocks, want flat", threads)
	}
	for i, k := range c.ev[:cap(c.ev)] {
		if k != (trace.PClock{}) {
			t.Fatalf("persistent clock %d was kept beside the flat ones", i)
		}
	}
}
