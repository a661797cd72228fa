// This file implements dining, the dining philosophers (Kähkönen et al. 2014, Table 2,
// Dining; Lei and Carver 2006, Fig. 13 and Table 4, DP).

package programs

import (
	"fmt"

	"github.com/weft-go/weft"
)

func init() {
	register(&Program{
		Name:   "dining",
		Doc:    "n philosophers each take the left then the right fork (deadlocks); fixed=1 takes the lower-numbered fork first (does not)",
		Source: "Kähkönen et al. 2014, Table 2 (Dining); Lei and Carver 2006, Fig. 13",
		Params: []Param{
			{Name: "n", Default: 3, Min: 2, Max: 32, Doc: "philosophers"},
			{Name: "meals", Default: 1, Min: 1, Max: 16, Doc: "meals per philosopher"},
			{Name: "fixed", Default: 0, Min: 0, Max: 1, Doc: "1: take forks in a global order"},
		},
		Body: dining,
	})
}

// dining: forks are mutexes; philosopher i's left fork is fork i and its
// right fork is fork (i+1) mod n. Each meal is lock(first); lock(second);
// unlock(second); unlock(first), where first is the left fork, or with
// fixed=1 the lower-numbered of the two. The body starts every philosopher
// (named phil0 to phil<n-1> in reports: philosopher i is thread T<i+1>) and
// joins them, unless Params holds NoJoin = 1.
func dining(p Params) func(w *weft.T) {
	n, meals, fixed := p["n"], p["meals"], p["fixed"] == 1
	return func(w *weft.T) {
		forks := make([]*weft.Mutex, n)
		for i := range forks {
			forks[i] = weft.NewMutex(fmt.Sprintf("fork%d", i))
		}
		philosopher := func(i int) {
			first, second := i, (i+1)%n
			if fixed && second < first {
				first, second = second, first
			}
			for range meals {
				forks[first].Lock()
				forks[second].Lock()
				forks[second].Unlock()
				forks[first].Unlock()
			}
		}
		ths := make([]*weft.Thread, n)
		for i := range ths {
			ths[i] = w.GoNamed(fmt.Sprintf("phil%d", i), func() { philosopher(i) })
		}
		for _, th := range joined(ths, p) {
			th.Join()
		}
	}
}

// joined returns the threads that a body with parameters p joins: all of
// ths, or none if p holds NoJoin = 1.
func joined(ths []*weft.Thread, p Params) []*weft.Thread {
	if p[NoJoin] == 1 {
		return nil
	}
	return ths
}
