// This file implements the reductions of Lei and Carver 2006, §7 (end) and §8, each an
// option: the P/V reduction for counting semaphores and the symmetry
// reduction for threads that run the same code. Both remove outcomes from
// race sets, as the paper does ("by removing sending events from the race
// sets of receiving events"), so they explore fewer sequences than there
// are, one of each class the reduction deems equivalent.

package reach

import "github.com/weft-go/weft/trace"

// reduce removes from races, the race set of step i, the outcomes the
// reductions of o ignore.
func (r *racer) reduce(o Options, i int, races []outcome) []outcome {
	a := r.a
	own := a.outcomeOf(i)
	// P/V: the completion of a V on a counting semaphore races with no V
	// called concurrently (two V's commute) nor with a P (a V that
	// completed before a concurrent P commutes with it: the P could
	// complete anyway). Races at P completions stay. A binary semaphore
	// is not concerned: its P's and V's enable and disable each other.
	if o.PV {
		if op := a.callOp(own.exec.t, own.exec.k); op.Kind == trace.KindV && op.Class == trace.ClassSemaphore {
			return races[:0]
		}
	}
	if len(o.Symmetric) == 0 {
		return races
	}
	out := races[:0]
	for _, x := range races {
		if !r.swap(o, own.exec, x.exec) || own.par != x.par {
			if !(own.exec == x.exec && r.swap(o, own.par, x.par)) {
				out = append(out, x)
			}
		}
	}
	return out
}

// swap reports whether calls x and y are the same call (index and case)
// of two threads that o.Symmetric says run the same code.
func (r *racer) swap(o Options, x, y side) bool {
	if x.t < 0 || y.t < 0 || x.t == y.t || x.k != y.k || x.cas != y.cas {
		return false
	}
	rx, ry := r.rank(x.t), r.rank(y.t)
	if rx < 0 || ry < 0 {
		return false
	}
	for _, g := range o.Symmetric {
		in := func(k int) bool {
			for _, x := range g {
				if x == k {
					return true
				}
			}
			return false
		}
		if in(rx) && in(ry) {
			return true
		}
	}
	return false
}

// rank returns the rank of thread t among the threads the test body
// started (0 for the first), or -1 for another thread.
func (r *racer) rank(t int32) int {
	ts := r.a.tr.Threads
	if ts[t].Parent != 0 {
		return -1
	}
	k := 0
	for u := range t {
		if ts[u].Parent == 0 {
			k++
		}
	}
	return k
}
