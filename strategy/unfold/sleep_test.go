// Tests of virtual time that moves when every thread is blocked (sleeps):
// small programs against the unfolding of every interleaving, with their
// numbers of events and tests.

package unfold_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/unfold"
)

// sleepPrograms are small programs with sleeps, with their numbers of
// events and tests under the default options.
var sleepPrograms = []struct {
	name          string
	body          func(*weft.T)
	events, tests int
}{
	{"a sleeper and a writer", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		w.Go(func() { w.Sleep(1); x.Store(1) })
		_ = x.Load()
	}, 4, 1},
	{"a sleeper holding a lock", func(w *weft.T) {
		var mu weft.Mutex
		x := weft.NewVar[int]("x")
		w.Go(func() { mu.Lock(); w.Sleep(1); x.Store(1); mu.Unlock() })
		mu.Lock()
		_ = x.Load()
		mu.Unlock()
	}, 16, 2},
	{"two sleepers", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		w.Go(func() { w.Sleep(2); x.Store(2) })
		w.Go(func() { w.Sleep(1); x.Store(1) })
		_ = x.Load()
	}, 7, 1},
	{"a sleeper and a blocked receiver", func(w *weft.T) {
		ch := weft.MakeChan[int](0)
		x := weft.NewVar[int]("x")
		w.Go(func() {
			if x.Load() == 0 {
				ch.Recv()
			}
		})
		w.Go(func() { x.Store(1); w.Sleep(1); ch.Send(1) })
	}, 9, 2},
}

// TestSleeps runs sleepPrograms against exhaustive search, with the
// efficient, the naive and the random extensions.
func TestSleeps(t *testing.T) {
	for _, c := range sleepPrograms {
		st, _, ok := againstExhaustive(t, c.name, c.body, unfold.Options{}, unfold.Options{Naive: true}, unfold.Options{Seed: 3})
		if !ok {
			t.Fatalf("%s: too big for exhaustive search", c.name)
		}
		if st.Events != c.events || st.Tests != c.tests {
			t.Errorf("%s: %d events, %d tests (%d advance tests); want %d, %d", c.name, st.Events, st.Tests, st.AdvanceTests, c.events, c.tests)
		}
	}
}
