// The paper's Table 2 counts of tests are means over 20 runs with random
// free parts: this file checks weft's means over seeds 1 to 20 on the
// paper's forms of Dining 1 and Filesystem 2, whose bodies do not join
// their threads.

package unfold_test

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy/unfold"
)

// diningUnjoined is the dining philosophers of weft's programs (n
// philosophers, each taking its left then its right fork, meals times)
// with a body that starts them and does not join them, as the paper's.
func diningUnjoined(n, meals int) func(w *weft.T) {
	return func(w *weft.T) {
		forks := make([]*weft.Mutex, n)
		for i := range forks {
			forks[i] = weft.NewMutex(fmt.Sprintf("fork%d", i))
		}
		for i := range n {
			w.Go(func() {
				first, second := i, (i+1)%n
				for range meals {
					forks[first].Lock()
					forks[second].Lock()
					forks[second].Unlock()
					forks[first].Unlock()
				}
			})
		}
	}
}

// filesystemUnjoined is weft's filesystem program (Flanagan and
// Godefroid's) with a body that does not join its threads.
func filesystemUnjoined(n int) func(w *weft.T) {
	const inodes, blocks = 32, 26
	inode := make([]*weft.Var[int], inodes)
	locki := make([]weft.Mutex, inodes)
	for i := range inode {
		inode[i] = weft.NewVar[int](fmt.Sprintf("inode[%d]", i))
	}
	busy := make([]*weft.Var[int], blocks)
	lockb := make([]weft.Mutex, blocks)
	for b := range busy {
		busy[b] = weft.NewVar[int](fmt.Sprintf("busy[%d]", b))
	}
	thread := func(tid int) {
		i := tid % inodes
		locki[i].Lock()
		if inode[i].Load() == 0 {
			b := (2 * i) % blocks
			for range 10 {
				lockb[b].Lock()
				if busy[b].Load() == 0 {
					busy[b].Store(1)
					inode[i].Store(b + 1)
					lockb[b].Unlock()
					break
				}
				lockb[b].Unlock()
				b = (b + 1) % blocks
			}
		}
		locki[i].Unlock()
	}
	return func(w *weft.T) {
		for tid := range n {
			w.Go(func() { thread(tid) })
		}
	}
}

// TestPaperMeans: with the paper's random scheduler (Options.Plain, seeds
// 1 to 20) and without the joins of weft's bodies, the tests (the
// executions less those run only to reach a deadlock the search found,
// which the paper does not run) are the paper's on average: Dining 1,
// 15983 tests over the 20 runs, 799.15 on average (the paper: 799), and
// 8044 events (the paper: 8049); Filesystem 2 (n = 16), 54 tests, 2.7 on
// average (the paper: 3), and 182 events (the paper: 226). With the
// joins, every seed gives 786 tests for Dining 1 and 8 for Filesystem 2
// (each join takes the joined thread's last condition, so the body's
// local states multiply with the orders of the threads that share a
// block). Slow: WEFT_LONG=1.
func TestPaperMeans(t *testing.T) {
	if !long.Enabled() {
		t.Skip("20 explorations of dining 4: WEFT_LONG=1")
	}
	for _, c := range []struct {
		name          string
		body          func(*weft.T)
		tests, events int
	}{
		{"Dining 1", diningUnjoined(4, 2), 15983, 8044},
		{"Filesystem 2", filesystemUnjoined(16), 54, 182},
	} {
		tests := 0
		var st unfold.Stats
		for seed := int64(1); seed <= 20; seed++ {
			s := unfold.New(unfold.Options{Seed: seed, Plain: true})
			if _, err := weft.Explore(c.body, weft.WithCustomStrategy(s), weft.KeepGoing(), weft.NoReplayFiles()); err != nil {
				t.Fatal(err)
			}
			st = s.Stats()
			tests += st.Tests - st.DeadlockTests
		}
		if tests != c.tests || st.Events != c.events {
			t.Errorf("%s: %d tests over 20 runs (%.2f on average), %d events; want %d, %d", c.name, tests, float64(tests)/20, st.Events, c.tests, c.events)
		}
	}
}
