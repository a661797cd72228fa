package rt_test

import (
	"runtime"
	"testing"

	"github.com/weft-go/weft/std/rt"
)

// TestSub checks that Sub runs a subtest's function as an exploration: its
// body runs once per execution, with channels that are weft's.
func TestSub(t *testing.T) {
	calls := 0
	t.Run("sends", rt.Sub(func(t *testing.T) {
		calls++
		ch := rt.MakeChan(make(chan int))
		for i := range 2 {
			rt.Go(func() { rt.Of("", ch).Send(i) })
		}
		rt.Of("", ch).Recv()
		rt.Of("", ch).Recv()
	}))
	if calls != 2 {
		t.Errorf("the body ran %d times, want 2 (the first receive gets one sender's value or the other's)", calls)
	}
}

// TestRefusedInsideExecution checks that t.Run and t.Parallel called
// inside an execution (through a helper the rewriting could not follow,
// as a suite of tests in another package), and a measurement of the
// memory allocated, refuse the test: it is skipped
// (with the refusal's message, which weft test prints), not failed. They
// failed it before. A test of its own refuses each, as weft test runs
// them.
func TestRefusedInsideExecution(t *testing.T) {
	for _, c := range []struct {
		name string
		call func(t *testing.T)
	}{
		{"Run", func(t *testing.T) { rt.Run(t, "inner", func(*testing.T) {}) }},
		{"Parallel", func(t *testing.T) { rt.Parallel(t) }},
		{"ReadMemStats", func(*testing.T) {
			var m runtime.MemStats
			rt.MemoryProbe("runtime.ReadMemStats", runtime.ReadMemStats)(&m)
		}},
		{"AllocsPerRun", func(*testing.T) { rt.MemoryProbe("testing.AllocsPerRun", testing.AllocsPerRun)(1, func() {}) }},
	} {
		var skipped, failed bool
		t.Run(c.name, func(st *testing.T) {
			defer func() { skipped, failed = st.Skipped(), st.Failed() }()
			rt.Test(st, func() { c.call(st) })
		})
		if !skipped || failed {
			t.Errorf("%s: skipped %t, failed %t; want the test refused (skipped), not failed", c.name, skipped, failed)
		}
	}
}
