package rt_test

import (
	"reflect"
	"runtime"
	"testing"

	"github.com/weft-go/weft/internal/stdtest"
	"github.com/weft-go/weft/std/rt"
)

// TestReflectLen checks reflect.Value.Len of a channel inside an
// execution, as testify's assert.Len reads it: the values in the weft
// channel's buffer, in the execution's order, where the Go channel's is
// empty: a goroutine's send before the length is read (1 execution) or
// after it, before or after the receive, which it does not commute with
// (2); a channel not used yet, and other kinds, as Go has them.
func TestReflectLen(t *testing.T) {
	seen := map[[3]int]int{}
	r := stdtest.Explore(t, func() {
		ch := rt.MakeChan(make(chan int, 3))
		fresh := rt.MakeChan(make(chan int, 1))
		rt.Of("", ch).Send(1)
		rt.Go(func() { rt.Of("", ch).Send(2) })
		n := rt.ReflectLen(reflect.ValueOf(ch))
		rt.Of("", ch).Recv()
		seen[[3]int{n, rt.ReflectLen(reflect.ValueOf(fresh)), rt.ReflectLen(reflect.ValueOf([]int{1, 2}))}]++
	})
	want := map[[3]int]int{{1, 0, 2}: 2, {2, 0, 2}: 1}
	if r.Failed() || r.Executions != 3 || !reflect.DeepEqual(seen, want) {
		t.Errorf("%d executions, failures %v, lengths (buffer, fresh channel, slice) %v; want %v", r.Executions, r.Failures, seen, want)
	}
	outside := rt.MakeChan(make(chan int, 2))
	outside <- 1
	if n := rt.ReflectLen(reflect.ValueOf(outside)); n != 1 {
		t.Errorf("outside an execution: length %d, want the Go channel's 1", n)
	}
}

// TestMemoryProbeOutside checks that MemoryProbe outside an execution
// returns the function, which measures as Go does.
func TestMemoryProbeOutside(t *testing.T) {
	var m runtime.MemStats
	rt.MemoryProbe("runtime.ReadMemStats", runtime.ReadMemStats)(&m)
	if m.Mallocs == 0 {
		t.Error("ReadMemStats read no allocation")
	}
	if n := rt.MemoryProbe("testing.AllocsPerRun", testing.AllocsPerRun)(5, func() {}); n != 0 {
		t.Errorf("AllocsPerRun of an empty function = %v, want 0", n)
	}
}

// TestMemoryProbeAllocates checks that MemoryProbe outside an execution
// allocates nothing: a test that counts allocations around a measured
// function, as jellydator/ttlcache's does outside its subtests, counts the
// function's alone.
func TestMemoryProbeAllocates(t *testing.T) {
	var m runtime.MemStats
	if n := testing.AllocsPerRun(10, func() { rt.MemoryProbe("runtime.ReadMemStats", runtime.ReadMemStats)(&m) }); n != 0 {
		t.Errorf("MemoryProbe and ReadMemStats allocate %v times, want 0", n)
	}
}

// TestCheapRand checks that CheapRand and CheapRand64 inside an execution
// give the same numbers in every execution (a body of two goroutines
// racing on a channel, 2 executions), and different ones from one draw to
// the next.
func TestCheapRand(t *testing.T) {
	seen := map[[3]uint64]int{}
	r := stdtest.Explore(t, func() {
		stdtest.TwoExecutions()
		seen[[3]uint64{uint64(rt.CheapRand()), uint64(rt.CheapRand()), rt.CheapRand64()}]++
	})
	if r.Failed() || r.Executions != 2 || len(seen) != 1 {
		t.Fatalf("%d executions, failures %v, draws %v; want 2, none, the same in both", r.Executions, r.Failures, seen)
	}
	for d := range seen {
		if d[0] == d[1] || uint64(uint32(d[2])) == d[1] {
			t.Errorf("draws %v: want each its own", d)
		}
	}
}
