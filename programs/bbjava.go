// This file implements bbjava, the bounded buffer of Magee and Kramer's
// Concurrency: State Models & Java Programs as a Java monitor (Saarikivi et
// al. 2012, Fig. 8, Bounded Buffer).

package programs

import (
	"github.com/weft-go/weft"
)

func init() {
	register(&Program{
		Name:   "bbjava",
		Doc:    "Magee and Kramer's bounded buffer: put and get are synchronized methods that wait while the buffer is full (empty), update its slots, count and indices, then notifyAll; the fields are shared variables",
		Source: "Saarikivi et al. 2012, Fig. 8 (Bounded Buffer, the container of Magee and Kramer 1999, ch. 5); sizes ours, the paper gives none",
		Params: []Param{
			{Name: "producers", Default: 2, Min: 1, Max: 16, Doc: "producer threads"},
			{Name: "consumers", Default: 2, Min: 1, Max: 16, Doc: "consumer threads"},
			{Name: "size", Default: 2, Min: 1, Max: 64, Doc: "buffer slots"},
			{Name: "items", Default: 1, Min: 1, Max: 64, Doc: "items each producer puts"},
		},
		Body: bbjava,
	})
}

// bbjava: a Java object's monitor is a mutex and one wait set, so the port
// is a Mutex and one Cond: put waits while count == size, writes buf[in],
// advances in and count, and broadcasts (notifyAll); get is its mirror.
// Unlike bbmonitor, whose buffer is plain Go values, every field (the
// slots, in, out, count) is a shared variable, as the paper's Java
// program's fields are visible operations for its tool; every access is
// under the lock, which is why commuting reads gain nothing here (the
// paper's §6). Producer k puts k*items+1, ..., k*items+items; the
// consumers take the producers' items between them; the body joins
// everyone and asserts that the values taken add up to those put.
func bbjava(p Params) func(w *weft.T) {
	np, nc, size, items := p["producers"], p["consumers"], p["size"], p["items"]
	return func(w *weft.T) {
		mu := weft.NewMutex("buffer")
		cond := weft.NewCond(mu)
		cond.SetName("buffer.waitset")
		slots := make([]*weft.Var[int], size)
		for i := range slots {
			slots[i] = weft.NewVar[int]("buf")
			slots[i].Store(0)
		}
		in, out, count := weft.NewVar[int]("in"), weft.NewVar[int]("out"), weft.NewVar[int]("count")
		in.Store(0)
		out.Store(0)
		count.Store(0)
		put := func(v int) {
			mu.Lock()
			for count.Load() == size {
				cond.Wait()
			}
			i := in.Load()
			slots[i].Store(v)
			count.Store(count.Load() + 1)
			in.Store((i + 1) % size)
			cond.Broadcast()
			mu.Unlock()
		}
		get := func() int {
			mu.Lock()
			for count.Load() == 0 {
				cond.Wait()
			}
			o := out.Load()
			v := slots[o].Load()
			slots[o].Store(0)
			count.Store(count.Load() - 1)
			out.Store((o + 1) % size)
			cond.Broadcast()
			mu.Unlock()
			return v
		}
		handOff(w, np, nc, items, put, get)
	}
}
