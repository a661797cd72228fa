// This file implements race detection and flipping with postponed sets.

package flip

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/dpor"
	"github.com/weft-go/weft/trace"
)

// Options configure the strategy. The zero value is jCUTE's algorithm in
// thread order.
type Options struct {
	// Sleep delays the postponed threads of a state in the states below it
	// until an event dependent with their operation runs (the CS294-32 DPOR slides, slides
	// 38-50: the delayed sets), and cuts an execution in which every enabled
	// thread is delayed.
	Sleep bool
	// Seed, if not zero, randomises the order of exploration.
	Seed int64
}

// Strategy is race detection and flipping. Use New.
type Strategy struct {
	opt Options
	walk
	hb  trace.HB
	sw  dpor.Sweep
	tr  *trace.Trace
	fp  []trace.Access
	rev dpor.Reversal
}

// walk is dpor.Walk as the strategy embeds it, out of its API.
type walk = dpor.Walk

var (
	_ strategy.Stoppable = (*Strategy)(nil)
	_ strategy.Diverger  = (*Strategy)(nil)
)

// New returns a race-detection-and-flipping strategy with options o.
func New(o Options) *Strategy {
	s := &Strategy{opt: o}
	s.Tag = fmt.Sprintf("flip%+v", o)
	s.Tree.Sleep, s.Tree.Rel = o.Sleep, trace.CR
	if o.Seed != 0 {
		s.Tree.Rand = rand.New(rand.NewPCG(uint64(o.Seed), 0x2545f4914f6cdd1d))
	}
	return s
}

// Next implements strategy.Strategy: it flips the deepest race flagged: the
// thread that ran first in it is postponed, and another runs in its place.
func (s *Strategy) Next() bool {
	if next, decided := s.Begin(); decided {
		return next
	}
	for s.Tree.Nodes.Len() > s.Tree.Floor {
		k := s.Tree.Nodes.Len() - 1
		n := s.Tree.Nodes.At(k)
		if n.Alt+1 < n.Alts {
			n.Alt++
			s.Tree.Start = k
			s.Tree.Avoid = append(s.Tree.Avoid[:0], n.Done...)
			return true
		}
		if n.Race || n.Backtrack.Len() > 0 {
			// The racing threads flagged here stay flagged until run
			// here; the flag of a race whose thread was not enabled here
			// is used by one flip.
			n.Done.Add(n.Thread) // postponed
			free := func(t trace.ThreadID) bool {
				return !n.Done.Has(t) && (!s.opt.Sleep || !n.Asleep(t))
			}
			// A racing thread first; for a race whose thread was not
			// enabled here, any thread not postponed.
			p, ok := s.Tree.PickFrom(n, func(t trace.ThreadID) bool { return n.Backtrack.Has(t) && free(t) })
			if !ok && n.Race {
				p, ok = s.Tree.PickFrom(n, free)
			}
			n.Race = n.Race && ok && n.Backtrack.Has(p)
			if ok {
				n.Thread, n.Alt, n.Alts = p, 0, n.AltsOf(p)
				s.Tree.Start = k
				// Postponed as much as possible: in the states below,
				// the postponed threads run only when nothing else can.
				s.Tree.Avoid = append(s.Tree.Avoid[:0], n.Done...)
				return true
			}
		}
		s.Tree.Nodes.Truncate(k)
	}
	return false
}

// Finish implements strategy.Strategy: for each event the execution ran for
// the first time (from Start on), and for each operation still pending at
// the end, it finds the event it races with and flags the state before it.
func (s *Strategy) Finish(tr *trace.Trace, end trace.End) {
	if s.Tree.Diverged != nil {
		return
	}
	n := len(tr.Events)
	s.Tree.Truncate(n)
	s.Tree.AfterFailure(n, end)
	s.tr = tr
	s.hb.Reset(tr, trace.CR)
	s.sw.Reset(tr)
	s.Tree.Learn(tr, s.hb.Steps())
	s.Tree.Partners(tr)
	s.rev.Reset(tr, s.hb.Steps())
	for k := 0; ; k++ {
		if s.Stop.Poll() {
			break // a bound of the exploration passed: it ends here
		}
		if k == n {
			for p := range tr.Threads {
				if v, ok := s.sw.Pending(trace.ThreadID(p)); ok {
					s.flag(k, trace.ThreadID(p), v)
				}
			}
			break
		}
		if k >= s.Tree.Start {
			e := &tr.Events[k]
			s.flag(k, e.Thread, e.Op)
			if e.Partner != trace.NoThread {
				s.flag(k, e.Partner, e.PartnerOp)
			}
		}
		s.hb.Step()
		s.sw.Advance()
	}
	s.tr = nil
}

// flipDelayed flags, with delayed sets, the race of event i with thread t's
// operation v pending in s_k.
func (s *Strategy) flipDelayed(n *dpor.Node, i, k int, t trace.ThreadID, v trace.Op) {
	init := s.initials(n, i, k, t, v)
	for _, q := range init {
		if n.Backtrack.Has(q) || n.Done.Has(q) {
			return
		}
	}
	q, ok := s.Tree.PickFrom(n, func(q trace.ThreadID) bool {
		return (q == t || !slices.Contains(init, t)) && slices.Contains(init, q) && !n.Asleep(q)
	})
	switch {
	case ok:
		n.Backtrack.Add(q)
	case !slices.ContainsFunc(init, func(q trace.ThreadID) bool { return n.AltsOf(q) > 0 }):
		n.Race = true
	}
}

// initials returns the threads that can start the reversal of the race of
// event i with thread t's operation v pending in s_k (dpor.Reversal), node n
// being the state before i: t is not one if its step there, as the
// exploration knows it, depends on the reversal by more than its operation
// (Reversal.StepDepends), as in package dpor.
func (s *Strategy) initials(n *dpor.Node, i, k int, t trace.ThreadID, v trace.Op) []trace.ThreadID {
	init := s.rev.Initials(s.tr, &s.hb, i, k, t, v, s.fp)
	if x := slices.Index(init, t); x >= 0 && s.rev.StepDepends(s.hb.Steps(), n, t) {
		init = slices.Delete(init, x, x+1)
	}
	return init
}

// flag finds the event that races with operation v of thread t in state s_k
// (the CS294-32 DPOR slides, slide 14: dependent, not ordered by another path of
// happens-before; acquires and successful releases of one lock are never
// enabled together, so the race of a Lock is with the previous acquire) and
// flags the state before it.
func (s *Strategy) flag(k int, t trace.ThreadID, v trace.Op) {
	// v's footprint: its accesses as a pending operation, and what t
	// announces after it (trace.Steps).
	s.fp = trace.CR.AppendOpAccesses(s.fp[:0], v, false, false)
	own, annEnd := len(s.fp), len(s.fp)
	if k < len(s.tr.Events) {
		s.fp = append(s.fp, s.hb.Steps().Announced(k)...)
		annEnd = len(s.fp)
		e := &s.tr.Events[k]
		switch {
		case e.Partner == trace.NoThread:
		case e.Thread == t:
			s.fp = trace.CR.AppendOpAccesses(s.fp, e.PartnerOp, false, false)
		default:
			s.fp = trace.CR.AppendOpAccesses(s.fp, e.Op, false, false)
		}
	}
	announced := s.fp[own:annEnd]
	// flipped: the last race is flipped (or was already); the earlier
	// races of what the step announces are flipped too (see the package
	// doc, "Races of a step's announcement").
	flipped := false
	// The events that may race with v, latest first: from the index of
	// the trace's accesses (those that conflict with the footprint, which
	// holds the announcements, and, for a Join, the joined thread's, that
	// t does not know), or every event if the index cannot tell.
	joined := trace.NoThread
	if v.Kind == trace.KindJoin {
		joined = trace.ThreadID(v.Arg)
	}
	cands, indexed := s.rev.JoinCandidates(&s.hb, k, t, joined, s.fp)
	count := k
	if indexed {
		count = len(cands)
	}
	for x := range count {
		if s.Stop.Poll() {
			return
		}
		i := k - 1 - x
		if indexed {
			i = int(cands[x])
		}
		e := &s.tr.Events[i]
		if e.Thread == t || e.Partner == t || !trace.MayBeCoEnabled(e, v) {
			continue
		}
		if flipped {
			if len(announced) == 0 {
				return
			}
			if !trace.Conflicts(s.hb.Steps().Accesses(i), announced) {
				continue
			}
		} else {
			joins := v.Kind == trace.KindJoin && (e.Thread == trace.ThreadID(v.Arg) || e.Partner == trace.ThreadID(v.Arg))
			if !joins && !trace.Conflicts(s.hb.Steps().Accesses(i), s.fp) {
				continue
			}
		}
		if s.hb.BeforeThread(i, t) {
			continue // ordered; under CR an earlier read may still race
		}
		n := s.Tree.Nodes.At(i)
		if s.opt.Sleep {
			// With delayed sets, the thread to run first is one that can
			// start the race's reversal (dpor.Reversal) and is not
			// delayed; none is needed if one was run here already or all
			// are delayed (the reversal is covered). Every race counts,
			// not only the last.
			s.flipDelayed(n, i, k, t, v)
			continue
		}
		// The thread to run first is one that can start the race's
		// reversal (dpor.Reversal): t itself if it can run here. If one
		// was run here already (postponed) or is flagged, the race is
		// flipped.
		init := s.initials(n, i, k, t, v)
		if slices.ContainsFunc(init, func(q trace.ThreadID) bool { return n.Backtrack.Has(q) || n.Done.Has(q) }) {
			flipped = true
			continue
		}
		if q, ok := s.Tree.PickFrom(n, func(q trace.ThreadID) bool {
			return (q == t || !slices.Contains(init, t)) && slices.Contains(init, q)
		}); ok {
			n.Backtrack.Add(q)
			flipped = true
			continue
		}
		// t is an initial but cannot run here, or no initial can: try
		// another thread here, and look further back for a state where
		// one can.
		n.Race = true
	}
}
