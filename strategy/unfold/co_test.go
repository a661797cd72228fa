// Tests of the concurrency check: the fronts against the paper's walk.

package unfold

import (
	"math/rand/v2"
	"testing"

	"github.com/weft-go/weft/strategy/strategytest"
)

// TestCoAgainstWalk checks co against coWalk on random sets of two and
// three conditions of the unfoldings of generated programs.
func TestCoAgainstWalk(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	checked, agree := 0, map[bool]int{}
	for seed := uint64(0); checked < 40; seed++ {
		p, ok := strategytest.Generate(seed)
		if !ok {
			continue
		}
		s := New(Options{})
		if r, err := strategytest.Run(s, p, 2000); err != nil || !r.Exhausted || s.Err() != nil {
			continue
		}
		checked++
		n := s.n
		for range 2000 {
			xs := make([]int32, 2+rnd.IntN(2))
			for i := range xs {
				xs[i] = int32(rnd.IntN(len(n.conds)))
			}
			ok1, f1 := n.co(xs...)
			ok2, f2 := n.coWalk(xs...)
			if ok1 != ok2 || (ok1 && f1 != f2) {
				t.Fatalf("seed %d: co(%v) = %v %v, coWalk = %v %v", seed, xs, ok1, f1, ok2, f2)
			}
			agree[ok1]++
		}
	}
	if agree[true] < 1000 || agree[false] < 1000 {
		t.Errorf("too few cases of each answer: %v", agree)
	}
}
