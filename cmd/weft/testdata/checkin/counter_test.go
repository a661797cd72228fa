package checkin

import (
	"sync"
	"testing"

	"github.com/weft-go/weft"
)

// count runs two increments at once and checks the count.
func count(safe bool, fail func(format string, args ...any)) {
	c := &Counter{Safe: safe}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	if c.N() != 2 {
		fail("count %d, want 2", c.N())
	}
}

// TestExplored is an ordinary test: weft test explores it.
func TestExplored(t *testing.T) {
	count(true, t.Errorf)
}

// TestOwnCheck explores with weft.Check itself.
func TestOwnCheck(t *testing.T) {
	weft.Check(t, func(w *weft.T) { count(true, w.Fail) })
}

// TestOwnCheckBug finds the lost update with weft.Check.
func TestOwnCheckBug(t *testing.T) {
	weft.Check(t, func(w *weft.T) { count(false, w.Fail) })
}

// checkSafe explores for its callers.
func checkSafe(t *testing.T) {
	weft.Check(t, func(w *weft.T) { count(true, w.Fail) })
}

// TestHelpers explores through a helper, in subtests.
func TestHelpers(t *testing.T) {
	t.Run("literal", func(t *testing.T) { checkSafe(t) })
	t.Run("value", checkSafe)
	t.Run("explored", func(t *testing.T) { count(true, t.Errorf) })
}
