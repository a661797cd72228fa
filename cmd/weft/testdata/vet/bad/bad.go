// Package bad has a weft test body with code weft cannot see, for weft
// vet's test.
package bad

import (
	"sync"

	"github.com/weft-go/weft"
)

// Body starts a goroutine, locks a real mutex and shares a plain counter.
func Body(w *weft.T) {
	var mu sync.Mutex
	n := 0
	go func() {}()
	t := w.Go(func() {
		mu.Lock()
		n++
		mu.Unlock()
	})
	t.Join()
	w.Assert(n == 1, "n = %d", n)
}
