// This file implements a walk over the states of a finished trace that knows
// each thread's pending operation, next(s, p) (Saarikivi et al. 2012, §II-A).

package dpor

import "github.com/weft-go/weft/trace"

// Sweep walks the states s_0 ... s_n of a trace (s_k is the state before
// event k; s_n the final one) and gives, in the state reached, the pending
// operation of every thread. Its memory is reused across Resets.
type Sweep struct {
	tr   *trace.Trace
	k    int
	evs  [][]int32 // for each thread, the events it takes part in
	next []int32   // for each thread, the position in evs of its next event
}

// Reset starts a walk of tr at s_0.
func (w *Sweep) Reset(tr *trace.Trace) {
	w.tr, w.k = tr, 0
	n := len(tr.Threads)
	if cap(w.evs) < n {
		w.evs = append(w.evs[:cap(w.evs)], make([][]int32, n-cap(w.evs))...)
	}
	w.evs = w.evs[:n]
	for i := range w.evs {
		w.evs[i] = w.evs[i][:0]
	}
	if cap(w.next) < n {
		w.next = make([]int32, n)
	}
	w.next = w.next[:n]
	clear(w.next)
	for i := range tr.Events {
		e := &tr.Events[i]
		w.evs[e.Thread] = append(w.evs[e.Thread], int32(i))
		if e.Partner != trace.NoThread {
			w.evs[e.Partner] = append(w.evs[e.Partner], int32(i))
		}
	}
}

// State returns k: the walk is in state s_k.
func (w *Sweep) State() int { return w.k }

// Advance moves from s_k to s_{k+1}, past event k.
func (w *Sweep) Advance() {
	e := &w.tr.Events[w.k]
	w.next[e.Thread]++
	if e.Partner != trace.NoThread {
		w.next[e.Partner]++
	}
	w.k++
}

// Pending returns next(s_k, p): thread p's pending operation in the state
// reached. ok is false if p does not exist yet or has finished.
func (w *Sweep) Pending(p trace.ThreadID) (op trace.Op, ok bool) {
	if int(w.tr.Threads[p].Step) >= w.k {
		return trace.Op{}, false
	}
	if i := w.next[p]; int(i) < len(w.evs[p]) {
		e := &w.tr.Events[w.evs[p][i]]
		if e.Thread == p {
			return e.Op, true
		}
		return e.PartnerOp, true
	}
	op = w.tr.Final[p]
	return op, op.Kind != trace.KindNone
}

// NextEvent returns the index of p's next event at or after s_k, or -1 if it
// takes no further step.
func (w *Sweep) NextEvent(p trace.ThreadID) int {
	if i := w.next[p]; int(i) < len(w.evs[p]) {
		return int(w.evs[p][i])
	}
	return -1
}

// Since returns the state from which p's pending operation in s_k has been
// pending: the state after p's last event, or after the event that started
// p.
func (w *Sweep) Since(p trace.ThreadID) int {
	if i := w.next[p]; i > 0 {
		return int(w.evs[p][i-1]) + 1
	}
	return int(w.tr.Threads[p].Step) + 1
}

// Started reports whether p's pending operation in s_k is new: p took part
// in event k-1, or was started in its local code.
func (w *Sweep) Started(p trace.ThreadID) bool {
	if w.k == 0 {
		return true
	}
	e := &w.tr.Events[w.k-1]
	return e.Thread == p || e.Partner == p || int(w.tr.Threads[p].Step) == w.k-1
}
