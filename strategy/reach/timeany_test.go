// Tests of virtual time that moves at any step (weft.TimeAnyStep): the
// clock a shared variable, each against exhaustive search.

package reach_test

import (
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/reach"
)

var anyStep = weft.WithTime(weft.TimeAnyStep)

// TestTimeAny compares reach with exhaustive search, time at any step, on
// small programs of sleeps, timers and tickers; want is the number of
// SYN-sequences.
func TestTimeAny(t *testing.T) {
	for _, c := range []struct {
		name string
		want int
		body func(*weft.T)
	}{
		{"sleep-write", 0, func(w *weft.T) {
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1) })
			w.Sleep(time.Millisecond)
			_ = x.Load()
		}},
		{"timeout", 0, body("timeout", nil)},
		{"timer stop", 0, func(w *weft.T) {
			tm := weft.NewTimer(time.Millisecond)
			done := weft.MakeChan[int](1)
			w.Go(func() { tm.C.Recv(); done.Send(1) })
			if tm.Stop() {
				done.Send(2)
			}
			done.Recv()
		}},
		{"ticker", 0, func(w *weft.T) {
			tk := weft.NewTicker(time.Millisecond)
			x := weft.NewVar[int]("x")
			w.Go(func() { x.Store(1) })
			tk.C.Recv()
			tk.C.Recv()
			tk.Stop()
			_ = x.Load()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, ok := compare(t, c.body, reach.Options{}, 20000, anyStep)
			if !ok {
				t.Fatal("exhaustive search did not finish")
			}
			if !r.ok() || r.want != c.want || r.got != c.want {
				t.Errorf("want %d sequences: %v", c.want, r)
			}
			t.Logf("%s: %d sequences, %d runs, %d not analysed", c.name, r.got, r.runs, r.skipped)
		})
	}
}
