package rt_test

import (
	"runtime"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/std/rt"
)

// TestNumGoroutine counts the goroutines inside an execution: two (the
// test binary's main goroutine and the body's) before three goroutines
// start, five while they wait, four once one has finished, and two again
// when all have, in every execution; a timer's goroutine, weft's own, is
// not counted. As in allegro/bigcache's TestClosing, counts taken before
// and after compare, where Go's count of weft's goroutines did not.
// Outside an execution it is runtime.NumGoroutine.
func TestNumGoroutine(t *testing.T) {
	var got [4]int
	r, err := weft.Explore(func(w *weft.T) {
		num := func() int { return rt.NumGoroutine(runtime.NumGoroutine) }
		got[0] = num()
		release := rt.MakeChan(make(chan int))
		done := rt.MakeChan(make(chan int, 3))
		w.After(1) // a timer, whose goroutine is weft's
		for range 3 {
			rt.Go(func() {
				rt.Of("", release).Recv()
				rt.Of("", done).Send(1)
			})
		}
		got[1] = num()
		rt.Of("", release).Send(1)
		rt.Of("", done).Recv()
		w.Sleep(1) // the goroutine that sent on done finishes meanwhile
		got[2] = num()
		rt.Of("", release).Close()
		rt.Of("", done).Recv()
		rt.Of("", done).Recv()
		w.Sleep(2)
		got[3] = num()
		w.Assert(got == [4]int{2, 5, 4, 2}, "counts %v", got)
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() {
		t.Errorf("failures %v: %s", r.FailureCounts, r.Failures[0].Report(""))
	}
	if n := rt.NumGoroutine(func() int { return -1 }); n != -1 {
		t.Errorf("outside an execution: %d, want runtime.NumGoroutine's", n)
	}
}
