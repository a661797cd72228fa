// This file implements timeout, a timeout race that needs timers to fire at any step: workers
// answer at once, but the caller's timeout may fire first when virtual
// time moves at any step.

package programs

import (
	"strconv"
	"time"

	"github.com/weft-go/weft"
)

func init() {
	register(&Program{
		Name:   "timeout",
		Doc:    "the body waits for each of n workers' answer with a timeout (time.After); each worker stores, then sends its answer on a channel of its own (unbuffered; fixed=1: room for one): with -time any the timeout may fire before the worker sends, which then blocks for ever (a leak); with -time blocked it never does",
		Source: "weft (timers that fire at any step: weft run -time any)",
		Params: []Param{
			{Name: "n", Default: 2, Min: 1, Max: 8, Doc: "workers"},
			{Name: "fixed", Default: 0, Min: 0, Max: 1, Doc: "1: each answer channel has room for the answer"},
		},
		Body: timeoutRace,
	})
}

// timeoutRace: worker i stores i+1 into x_i, then sends it on c_i; the
// body receives from each c_i in turn, or takes After(1s), and sums what it
// received into total. The body does not join the workers: a worker whose
// answer nobody takes leaks.
func timeoutRace(p Params) func(w *weft.T) {
	n, capacity := p["n"], p["fixed"]
	return func(w *weft.T) {
		total := weft.NewVar[int]("total")
		cs := make([]*weft.Chan[int], n)
		for i := range n {
			x := weft.NewVar[int]("x" + strconv.Itoa(i))
			c := weft.MakeChan[int](capacity)
			cs[i] = c
			w.Go(func() {
				x.Store(i + 1)
				c.Send(i + 1)
			})
		}
		for _, c := range cs {
			weft.Select(weft.OnRecv(c, func(v int, _ bool) { total.Store(total.Load() + v) }), weft.OnRecv(w.After(time.Second), nil))
		}
	}
}
