// Package good has a weft test body weft sees all of, for weft vet's test.
package good

import "github.com/weft-go/weft"

// Body increments a weft counter in a thread.
func Body(w *weft.T) {
	var mu weft.Mutex
	n := weft.NewVar[int]("n")
	t := w.Go(func() {
		mu.Lock()
		n.Store(n.Load() + 1)
		mu.Unlock()
	})
	t.Join()
	w.Assert(n.Load() == 1, "n = %d", n.Load())
}
