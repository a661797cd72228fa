// This file implements bbchan, a bounded buffer made of a buffered channel
// (Lei and Carver 2006, Table 4, BB; Saarikivi et al. 2012, Fig. 8, Bounded Buffer).

package programs

import (
	"github.com/weft-go/weft"
)

func init() {
	register(&Program{
		Name:   "bbchan",
		Doc:    "producers send items into a channel with a buffer of the given capacity, consumers share them out; checks FIFO order and the total",
		Source: "Lei and Carver 2006, Table 4 (BB: 3 producers, 3 consumers, 2 slots)",
		Params: []Param{
			{Name: "producers", Default: 3, Min: 1, Max: 16, Doc: "producer threads"},
			{Name: "consumers", Default: 3, Min: 1, Max: 16, Doc: "consumer threads"},
			{Name: "capacity", Default: 2, Min: 0, Max: 64, Doc: "buffer slots (0: unbuffered)"},
			{Name: "items", Default: 1, Min: 1, Max: 64, Doc: "items each producer sends"},
		},
		Body: bbchan,
	})
}

// bbchan: producer k sends k*items+1, ..., k*items+items on one channel;
// consumer j receives its share of the producers*items values (the first
// total mod consumers consumers take one more). Each consumer asserts that it
// sees each producer's values in increasing order (the channel is FIFO); the
// body joins everyone and asserts that the values received add up to those
// sent.
func bbchan(p Params) func(w *weft.T) {
	np, nc, capacity, items := p["producers"], p["consumers"], p["capacity"], p["items"]
	total := np * items
	want := total * (total + 1) / 2
	return func(w *weft.T) {
		ch := weft.MakeChan[int](capacity)
		ch.SetName("buffer")
		sums := make([]int, nc)
		var ths []*weft.Thread
		for k := range np {
			ths = append(ths, w.Go(func() {
				for m := 1; m <= items; m++ {
					ch.Send(k*items + m)
				}
			}))
		}
		for j := range nc {
			share := total / nc
			if j < total%nc {
				share++
			}
			ths = append(ths, w.Go(func() {
				last := make([]int, np)
				for range share {
					v := ch.Recv()
					k := (v - 1) / items
					w.Assert(v > last[k], "consumer %d received %d after %d from producer %d: not FIFO", j, v, last[k], k)
					last[k] = v
					sums[j] += v
				}
			}))
		}
		for _, th := range ths {
			th.Join()
		}
		got := 0
		for _, s := range sums {
			got += s
		}
		w.Assert(got == want, "the consumers received values adding up to %d, want %d", got, want)
	}
}
