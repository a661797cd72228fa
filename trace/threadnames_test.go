// Tests of ThreadNames.

package trace

import (
	"slices"
	"testing"
)

// TestThreadNames: two executions that start the same threads in other
// orders name them alike, by their paths of spawns.
func TestThreadNames(t *testing.T) {
	var n ThreadNames
	// Execution 1: T0 starts T1 then T2; T1 starts T3.
	n.Sync([]ThreadInfo{{Parent: NoThread}, {Parent: 0}, {Parent: 0}, {Parent: 1}})
	first := []ThreadID{n.Stable(0), n.Stable(1), n.Stable(2), n.Stable(3)}
	if want := []ThreadID{0, 1, 2, 3}; !slices.Equal(first, want) {
		t.Fatalf("first execution: %v, want %v", first, want)
	}
	// Execution 2: T1 starts its child (thread 2 here) before T0 starts
	// its second (thread 3 here).
	n.Reset()
	n.Sync([]ThreadInfo{{Parent: NoThread}, {Parent: 0}, {Parent: 1}, {Parent: 0}})
	got := []ThreadID{n.Stable(0), n.Stable(1), n.Stable(2), n.Stable(3), n.Stable(4), n.Stable(NoThread)}
	if want := []ThreadID{0, 1, 3, 2, NoThread, NoThread}; !slices.Equal(got, want) {
		t.Errorf("second execution: %v, want %v", got, want)
	}
	if c := n.Current(3); c != 2 {
		t.Errorf("Current(3) = %v, want 2", c)
	}
	if id, ok := n.Lookup(ThreadPath{Parent: 1, Rank: 0}); !ok || id != 3 {
		t.Errorf("Lookup({1, 0}) = %v, %v; want 3, true", id, ok)
	}
	if n.SetPaths(map[ThreadPath]ThreadID{{-1, 0}: 0, {0, 0}: 2}) {
		t.Error("SetPaths took numbers that are not dense from 0")
	}
}
