// This file implements the harness of the bounded buffers and queues:
// producers put items, consumers take them, and the body checks that the
// values taken are those put.

package programs

import "github.com/weft-go/weft"

// handOff runs np producers, producer k putting k*items+1, ...,
// k*items+items with put, then nc consumers taking the np*items items
// between them with get (the first np*items mod nc take one more); the
// body joins them all and asserts that the values taken add up to those
// put.
func handOff(w *weft.T, np, nc, items int, put func(int), get func() int) {
	total := np * items
	want := total * (total + 1) / 2
	sums := make([]int, nc)
	var ths []*weft.Thread
	for k := range np {
		ths = append(ths, w.Go(func() {
			for m := 1; m <= items; m++ {
				put(k*items + m)
			}
		}))
	}
	for j := range nc {
		share := total / nc
		if j < total%nc {
			share++
		}
		ths = append(ths, w.Go(func() {
			for range share {
				sums[j] += get()
			}
		}))
	}
	for _, t := range ths {
		t.Join()
	}
	got := 0
	for _, s := range sums {
		got += s
	}
	w.Assert(got == want, "the consumers took %d in all, the producers put %d", got, want)
}
