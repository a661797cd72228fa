// This file implements the initials of a race's reversal (Abdulla, Aronis,
// Jonsson and Sagonas, "Optimal dynamic partial order reduction", POPL 2014:
// source sets), the backtracking rule that stays complete with sleep sets.

package dpor

import "github.com/weft-go/weft/trace"

// Reversal computes the initials of race reversals; its memory is reused.
type Reversal struct {
	notdep []int32
	seen   ThreadSet
	out    []trace.ThreadID
}

// Initials returns the threads that can start the reversal of the race
// between event i and thread p's operation v, pending in state s_k (run at
// event k, or never if k is the length of the trace), whose footprint is fp.
// The reversal runs notdep(i).v from pre(E, i): the events between i and k
// that do not happen after i, then v; an initial is a thread whose first
// event there has no predecessor there in happens-before (for p, v's
// predecessors are the events p's clock knows and those dependent with fp).
// Running an initial first from pre(E, i) starts an execution equivalent to
// the reversal, and if an initial sleeps there, that execution is covered.
// hb must have processed the events before k, and no more. The result
// aliases the Reversal's memory.
func (r *Reversal) Initials(tr *trace.Trace, hb *trace.HB, i, k int, p trace.ThreadID, fp []trace.Access) []trace.ThreadID {
	r.notdep, r.out = r.notdep[:0], r.out[:0]
	r.seen.Clear()
	for j := i + 1; j < k; j++ {
		if !hb.Before(i, j) {
			r.notdep = append(r.notdep, int32(j))
		}
	}
	steps := hb.Steps()
	for x, j := range r.notdep {
		e := &tr.Events[j]
		q := e.Thread
		first := !r.seen.Has(q)
		r.seen.Add(q)
		if e.Partner != trace.NoThread {
			r.seen.Add(e.Partner) // a sender does not choose its rendezvous
		}
		if !first {
			continue
		}
		initial := true
		for _, j2 := range r.notdep[:x] {
			if hb.Before(int(j2), int(j)) {
				initial = false
				break
			}
		}
		if initial {
			r.out = append(r.out, q)
		}
	}
	if !r.seen.Has(p) {
		for _, j := range r.notdep {
			if hb.BeforeThread(int(j), p) || trace.Conflicts(steps.Accesses(int(j)), fp) {
				return r.out
			}
		}
		r.out = append(r.out, p)
	}
	return r.out
}
