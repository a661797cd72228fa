package src

import (
	"testing"

	"github.com/weft-go/weft"
)

// TestOwnCheck runs an exploration of its own: it runs plainly.
func TestOwnCheck(t *testing.T) {
	t.Parallel()
	ready := make(chan int, 1)
	ready <- 1
	<-ready
	weft.Check(t, func(w *weft.T) {
		ch := make(chan int)
		go func() { ch <- 1 }()
		<-ch
	})
}

// checkCounter runs an exploration for its callers.
func checkCounter(t *testing.T) {
	weft.Check(t, func(w *weft.T) {})
}

// TestHelperCheck runs one through a helper of the package, and its
// subtests, one each.
func TestHelperCheck(t *testing.T) {
	t.Run("literal", func(t *testing.T) { checkCounter(t) })
	t.Run("value", checkCounter)
	t.Run("explored", func(t *testing.T) {
		ch := make(chan int, 1)
		ch <- 1
	})
}
