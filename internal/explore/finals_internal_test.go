// This file tests FinalStates' cache of the hashes it has seen.

package explore

import (
	"testing"

	"github.com/weft-go/weft/trace"
)

// finalTrace returns a trace whose final state has variable key 1 at v
// and variable key 2 at 0.
func finalTrace(v uint64) *trace.Trace {
	return &trace.Trace{
		Objects: []trace.ObjectInfo{{Class: trace.ClassVar, Key: 1}, {Class: trace.ClassVar, Key: 2}},
		Events: []trace.Event{
			{Op: trace.Op{Kind: trace.KindStore, Class: trace.ClassVar, Obj: 1}, Value: 0},
			{Op: trace.Op{Kind: trace.KindStore, Class: trace.ClassVar, Obj: 0}, Value: v},
		},
	}
}

// TestFinalStatesKnown adds three times as many distinct states as the
// cache has slots, twice over and in two orders, and counts each once,
// whether Add finds it in the cache or in the map.
func TestFinalStatesKnown(t *testing.T) {
	const n = 3 * knownSlots
	var f FinalStates
	for round := range 2 {
		for i := range n {
			v := uint64(i)
			if round == 1 {
				v = uint64(n - 1 - i)
			}
			f.Add(finalTrace(v))
			f.Add(finalTrace(v)) // found in the cache
		}
		if got := f.Count(); got != n {
			t.Fatalf("round %d: %d final states, want %d", round, got, n)
		}
	}
	if len(f.states) != n {
		t.Errorf("%d states kept, want %d", len(f.states), n)
	}
}
