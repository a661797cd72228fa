// This file tests the threads a small view lists as changed
// (strategy.State.Changed): the new ones and those whose entry differs.

package engine

import (
	"slices"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// changedLog records, at each Choose, the threads listed as changed and
// the threads' entries, and runs the first enabled thread.
type changedLog struct {
	changed [][]trace.ThreadID
	states  [][]strategy.Thread
}

func (c *changedLog) Next() bool { return true }

func (c *changedLog) Choose(st *strategy.State) strategy.Choice {
	l := slices.Clone(st.Changed)
	slices.Sort(l)
	c.changed = append(c.changed, slices.Compact(l))
	c.states = append(c.states, slices.Clone(st.Threads))
	return strategy.Choice{Thread: st.NextEnabled(0)}
}

func (c *changedLog) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }
func (c *changedLog) Finish(*trace.Trace, trace.End)                           {}

// TestSmallViewChanged runs three threads that store to variables of
// their own and checks that each Choose lists exactly the threads that are
// new or whose pending operation, alternatives or end changed since the
// previous one: every thread at the first, then the thread that ran if its
// entry changed, not the others.
func TestSmallViewChanged(t *testing.T) {
	var x, y, z Obj
	e := NewExec(Config{})
	defer e.Close()
	c := &changedLog{}
	end := e.Run(c, func() {
		Current().Go(func() { store(&x, 1); store(&x, 2) })
		Current().Go(func() { store(&y, 1); store(&y, 2) })
		store(&z, 1)
		store(&z, 2)
	}, false)
	if end.Status != trace.Complete {
		t.Fatalf("%v %v: %s", end.Status, end.Kind, end.Message)
	}
	// A thread starts in its spawner's local code: the scheduling points
	// are the six stores, the threads in order. A thread's second store
	// has the entry of its first.
	want := [][]trace.ThreadID{{0, 1, 2}, {}, {0}, {}, {1}, {}}
	if len(c.changed) != len(want) {
		t.Fatalf("%d scheduling points, want %d", len(c.changed), len(want))
	}
	for i, st := range c.states {
		var differ []trace.ThreadID
		for p := range st {
			if i == 0 || p >= len(c.states[i-1]) || !sameThread(c.states[i-1][p], st[p]) {
				differ = append(differ, trace.ThreadID(p))
			}
		}
		if !slices.Equal(c.changed[i], want[i]) || !slices.Equal(differ, want[i]) {
			t.Errorf("step %d: changed %v, entries that differ %v, want %v", i, c.changed[i], differ, want[i])
		}
	}
}

// sameThread reports whether two entries of a view are equal.
func sameThread(a, b strategy.Thread) bool {
	return a.Alts == b.Alts && a.Done == b.Done && a.Op.Kind == b.Op.Kind && a.Op.Class == b.Op.Class &&
		a.Op.Obj == b.Op.Obj && a.Op.Arg == b.Op.Arg
}
