// This file implements readloop, a long execution (the cost of the race analysis per event): one
// thread reads a variable m times while another writes it once.

package programs

import "github.com/weft-go/weft"

func init() {
	register(&Program{
		Name:   "readloop",
		Doc:    "T1 loads x m times, T2 stores x once: m+1 interleavings, each its own trace (executions of m+1 steps)",
		Source: "weft (long executions: the race analysis per event)",
		Params: []Param{{Name: "m", Default: 4, Min: 1, Max: 90_000, Doc: "loads of T1"}},
		Body:   readLoop,
	})
}

// readLoop: T1 loads x m times and T2 stores 1 into x; the body does not
// join them. The store conflicts with every load, so each of its m+1
// places among the loads is a trace of its own.
func readLoop(p Params) func(w *weft.T) {
	m := p["m"]
	return func(w *weft.T) {
		x := weft.NewVar[int]("x")
		w.Go(func() {
			for range m {
				_ = x.Load()
			}
		})
		w.Go(func() { x.Store(1) })
	}
}
