// This file implements parallelpi and singlelock, lock-based programs of
// Saarikivi et al. 2012 (Fig. 8, Parallel Pi) and Kähkönen et al. 2014 (Table 2, Parallel Pi, Single
// lock).

package programs

import (
	"math"

	"github.com/weft-go/weft"
)

func init() {
	register(&Program{
		Name:   "parallelpi",
		Doc:    "threads integrate 4/(1+x²) over their share of [0,1] and add their partial sums into pi under a lock; locked=0 drops the lock (lost updates)",
		Source: "Saarikivi et al. 2012, Fig. 8 (Parallel Pi); Kähkönen et al. 2014, Table 2 (Parallel Pi: 5 and 6 threads, 120 and 720 traces)",
		Params: []Param{
			{Name: "threads", Default: 3, Min: 1, Max: 16, Doc: "worker threads"},
			{Name: "intervals", Default: 1000, Min: 1, Max: 1 << 20, Doc: "integration intervals in all"},
			{Name: "locked", Default: 1, Min: 0, Max: 1, Doc: "0: merge without the lock"},
		},
		Body: parallelPi,
	})
	register(&Program{
		Name:   "singlelock",
		Doc:    "threads each increment a shared counter rounds times, every access under one lock: (threads*rounds)!/(rounds!)^threads lock orders (short threads of one round more: (threads*rounds+short)!/(rounds!)^threads)",
		Source: "Kähkönen et al. 2014, Table 2 (Single lock 1: 2520 tests = 8!/(2!)^4, 4 threads of 2 rounds; Single lock 2: 22680 = 9!/(2!)^4, one short thread more)",
		Params: []Param{
			{Name: "threads", Default: 4, Min: 1, Max: 16, Doc: "threads"},
			{Name: "rounds", Default: 2, Min: 1, Max: 16, Doc: "critical sections per thread"},
			{Name: "short", Default: 0, Min: 0, Max: 16, Doc: "threads of one critical section, started after the others"},
		},
		Body: singleLock,
	})
}

// piScale is the fixed-point scale of the partial sums: integers add up the
// same in every order, so the result does not depend on the schedule.
const piScale = 1e12

// piPartial is thread k of threads' share of the midpoint-rule integral of
// 4/(1+x²) over [0,1] with the given intervals, in fixed point.
func piPartial(k, threads, intervals int) int64 {
	h := 1 / float64(intervals)
	var s float64
	for i := k; i < intervals; i += threads {
		x := (float64(i) + 0.5) * h
		s += 4 / (1 + x*x)
	}
	return int64(math.Round(s * h * piScale))
}

// parallelPi: each thread computes its partial sum locally, then does
// lock(mu); load pi; store pi+partial; unlock(mu) (with locked=0, just the
// load and store). The body joins every thread, loads pi and asserts that it
// is the sum of the partial sums.
func parallelPi(p Params) func(w *weft.T) {
	threads, intervals, locked := p["threads"], p["intervals"], p["locked"] == 1
	parts := make([]int64, threads)
	var want int64
	for k := range parts {
		parts[k] = piPartial(k, threads, intervals)
		want += parts[k]
	}
	return func(w *weft.T) {
		pi := weft.NewVar[int64]("pi")
		mu := weft.NewMutex("mu")
		ths := make([]*weft.Thread, threads)
		for k := range ths {
			ths[k] = w.Go(func() {
				if locked {
					mu.Lock()
				}
				pi.Store(pi.Load() + parts[k])
				if locked {
					mu.Unlock()
				}
			})
		}
		for _, th := range ths {
			th.Join()
		}
		got := pi.Load()
		w.Assert(got == want, "pi = %.9f, want %.9f: a partial sum was lost", float64(got)/piScale, float64(want)/piScale)
	}
}

// singleLock: each thread repeats rounds times lock(mu); load c; store c+1;
// unlock(mu), each of the short threads after them once. The body joins
// every thread and asserts c = threads*rounds + short.
func singleLock(p Params) func(w *weft.T) {
	threads, rounds, short := p["threads"], p["rounds"], p["short"]
	return func(w *weft.T) {
		c := weft.NewVar[int]("c")
		mu := weft.NewMutex("mu")
		ths := make([]*weft.Thread, threads+short)
		for k := range ths {
			n := rounds
			if k >= threads {
				n = 1
			}
			ths[k] = w.Go(func() {
				for range n {
					mu.Lock()
					c.Store(c.Load() + 1)
					mu.Unlock()
				}
			})
		}
		for _, th := range ths {
			th.Join()
		}
		want := threads*rounds + short
		w.Assert(c.Load() == want, "c = %d after %d increments under the lock", c.Load(), want)
	}
}
