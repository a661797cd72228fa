// This file implements bbmonitor, a bounded buffer protected by a monitor
// with SU or SC signalling (Lei and Carver 2006, §2 and Table 4, BB with an SU and an SC
// monitor).

package programs

import (
	"github.com/weft-go/weft"
)

func init() {
	register(&Program{
		Name:   "bbmonitor",
		Doc:    "producers deposit items into a bounded buffer guarded by a monitor (conditions notFull and notEmpty), consumers withdraw them; su=1 signals and urgent-waits, su=0 signals and continues",
		Source: "Lei and Carver 2006, §2 and Table 4 (BB with SU and SC monitors: 3 producers, 3 consumers, 2 slots)",
		Params: []Param{
			{Name: "producers", Default: 3, Min: 1, Max: 16, Doc: "producer threads"},
			{Name: "consumers", Default: 3, Min: 1, Max: 16, Doc: "consumer threads"},
			{Name: "slots", Default: 2, Min: 1, Max: 64, Doc: "buffer slots"},
			{Name: "items", Default: 1, Min: 1, Max: 64, Doc: "items each producer deposits"},
			{Name: "su", Default: 1, Min: 0, Max: 1, Doc: "1: signal-and-urgent-wait (SU), 0: signal-and-continue (SC)"},
		},
		Body: bbmonitor,
	})
}

// bbmonitor: the classic monitor solution. deposit waits on notFull while
// the buffer is full, withdraw on notEmpty while it is empty; each signals
// the other condition. The buffer's contents are plain Go values: the
// monitor's mutual exclusion protects them, and only the monitor's events
// are visible operations (Lei and Carver 2006 models monitors this way). The body
// joins everyone and asserts that the values withdrawn add up to those
// deposited.
func bbmonitor(p Params) func(w *weft.T) {
	np, nc, slots, items := p["producers"], p["consumers"], p["slots"], p["items"]
	signalling := weft.SC
	if p["su"] == 1 {
		signalling = weft.SU
	}
	return func(w *weft.T) {
		m := weft.NewMonitor(signalling)
		m.SetName("buffer")
		notFull, notEmpty := m.Cond(0), m.Cond(1)
		buf := make([]int, slots)
		in, out, count := 0, 0, 0
		deposit := func(v int) {
			m.Enter()
			for count == slots {
				notFull.Wait()
			}
			buf[in] = v
			in = (in + 1) % slots
			count++
			notEmpty.Signal()
			m.Exit()
		}
		withdraw := func() int {
			m.Enter()
			for count == 0 {
				notEmpty.Wait()
			}
			v := buf[out]
			out = (out + 1) % slots
			count--
			notFull.Signal()
			m.Exit()
			return v
		}
		handOff(w, np, nc, items, deposit, withdraw)
	}
}
