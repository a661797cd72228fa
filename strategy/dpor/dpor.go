// This file implements the DPOR strategy: its options, the choice of the
// next execution, and the backtracking points of a finished one.

package dpor

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Algorithm selects how races are found (Saarikivi et al. 2012, §II).
type Algorithm uint8

// The algorithms.
const (
	// VectorClocks is Fig. 1: for each pending operation, the last
	// dependent event that may be co-enabled with it and does not happen
	// before its thread, found by a traversal of the execution.
	VectorClocks Algorithm = iota
	// ObjectClocks is Fig. 2: the last access to the operation's object, no
	// traversal; every two operations on one object are dependent, and
	// co-enabledness is not used.
	ObjectClocks
	// CommutingReads is Fig. 3 (DPOR-CR): the last write and the reads
	// since it; two reads commute.
	CommutingReads
)

var algorithmNames = [...]string{"vector-clocks", "object-clocks", "commuting-reads"}

func (a Algorithm) String() string {
	if int(a) < len(algorithmNames) {
		return algorithmNames[a]
	}
	return "algorithm?"
}

// Rule says what a race between event i and the pending operation v of
// thread p adds to the backtracking set of pre(E, i).
type Rule uint8

// The rules.
const (
	// Operation is Saarikivi et al. 2012, Fig. 1, lines 6-10, as printed: p if v itself
	// is enabled in pre(E, i) (p took no step since), else every thread
	// enabled there.
	Operation Rule = iota
	// Process is Flanagan and Godefroid's process rule, the heuristic of
	// Kähkönen et al. 2014, §6.1 ("a transition belonging to the thread the transition
	// causing the race belongs to"): p if p is enabled in pre(E, i), even
	// with an earlier operation than v, else every enabled thread. It
	// backtracks less, but with sleep sets it needs DPOR-1 or DPOR-2.
	Process
	// Initials is source-DPOR's race reversal (Abdulla et al., POPL 2014;
	// Reversal.Initials): nothing if a thread that can start the reversal
	// is in the backtracking or done set of pre(E, i) already, else one
	// such thread that is not asleep, else nothing (the reversal is
	// covered). Neither Fig. 1's rule nor the process rule stays complete
	// once sleep sets skip threads (random programs show traces missed);
	// this one does.
	Initials
)

var ruleNames = [...]string{"operation", "process", "initials"}

func (r Rule) String() string {
	if int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return "rule?"
}

// Asleep says what a backtracking point does when the thread DPOR wants to
// run there is in the point's sleep set (Kähkönen et al. 2014, §6.1).
type Asleep uint8

// The choices.
const (
	// Skip leaves it: the reversal is covered. This is complete only under
	// the Initials rule, where a sleeping initial means it; under the
	// other rules the thread's sleeping transition is not necessarily where
	// the reversal starts, and traces are missed (random programs show it).
	// New therefore uses the Initials rule with Skip.
	Skip Asleep = iota
	// DPOR1 ignores the sleep set and runs the thread anyway.
	DPOR1
	// DPOR2 adds every enabled thread that is not asleep instead.
	DPOR2
)

var asleepNames = [...]string{"skip", "dpor-1", "dpor-2"}

func (a Asleep) String() string {
	if int(a) < len(asleepNames) {
		return asleepNames[a]
	}
	return "asleep?"
}

// Options configure a DPOR strategy. The zero value is Fig. 1 under CR
// without sleep sets, in thread order.
type Options struct {
	Algorithm Algorithm
	// Relation is the dependency relation of VectorClocks (trace.Plain is
	// Saarikivi et al. 2012's Fig. 1). ObjectClocks always uses trace.Plain and
	// CommutingReads trace.CR.
	Relation trace.Relation
	// Rule is the backtracking rule.
	Rule Rule
	// Sleep adds sleep sets (Saarikivi et al. 2012, §IV-D, Fig. 7); Asleep applies then.
	Sleep  bool
	Asleep Asleep
	// Seed, if not zero, randomises the order of exploration: the first
	// choice in each new state and the order of backtracking points.
	Seed int64
	// IgnoreCoEnabled drops the co-enabledness filter (trace.MayBeCoEnabled:
	// an acquire and a successful release of one lock are never enabled
	// together). Fig. 1 has the filter; Figs. 2 and 3 leave it out "for
	// simplicity" and mention Flanagan and Godefroid's optimisation, which
	// the strategy applies unless this is set: without it every acquire
	// races with the last release and backtracks to every enabled thread.
	IgnoreCoEnabled bool
}

// Strategy is a DPOR strategy. Use New.
type Strategy struct {
	opt Options
	rel trace.Relation
	walk
	hb trace.HB
	sw Sweep

	cand  []int     // VectorClocks: each thread's race candidate
	races [][]int32 // Initials: each thread's race candidates in its current interval
	rev   Reversal
	last  []int32        // ObjectClocks: last access; CommutingReads: last write
	prev  []int32        // the same, not counting successful releases
	reads [][]int32      // CommutingReads: the reads and shared updates since the last write, by object, mode and thread
	fp    []trace.Access // the footprint of the pending operation analysed
	// extended says whether fp has more than the operation's own accesses.
	extended bool
	tr       *trace.Trace
}

// walk is Walk as a strategy embeds it, out of its API.
type walk = Walk

// New returns a DPOR strategy with options o.
func New(o Options) *Strategy {
	if o.Sleep && o.Asleep == Skip {
		o.Rule = Initials
	}
	s := &Strategy{opt: o, rel: o.Relation}
	s.Tag = fmt.Sprintf("dpor%+v", o)
	switch o.Algorithm {
	case ObjectClocks:
		s.rel = trace.Plain
	case CommutingReads:
		s.rel = trace.CR
	}
	s.Tree.Sleep, s.Tree.Rel = o.Sleep, s.rel
	if o.Seed != 0 {
		s.Tree.Rand = rand.New(rand.NewPCG(uint64(o.Seed), 0x9e3779b97f4a7c15))
	}
	return s
}

var (
	_ strategy.Stoppable = (*Strategy)(nil)
	_ strategy.Diverger  = (*Strategy)(nil)
)

// Options returns the strategy's options.
func (s *Strategy) Options() Options { return s.opt }

// Next implements strategy.Strategy: it backtracks to the deepest state with
// an alternative or a thread of its backtracking set left to explore.
func (s *Strategy) Next() bool {
	if next, decided := s.Begin(); decided {
		return next
	}
	for s.Tree.Nodes.Len() > s.Tree.Floor {
		k := s.Tree.Nodes.Len() - 1
		if s.advance(s.Tree.Nodes.At(k)) {
			s.Tree.Start = k
			return true
		}
		s.Tree.Nodes.Truncate(k)
	}
	return false
}

// advance moves node n, whose branch is explored, to its next branch: the
// current thread's next alternative, or a thread of its backtracking set
// not explored (nor asleep, with sleep sets). It reports false if none is
// left.
func (s *Strategy) advance(n *Node) bool {
	if n.Alt+1 < n.Alts {
		n.Alt++
		return true
	}
	n.Done.Add(n.Thread)
	p, ok := s.Tree.PickFrom(n, func(t trace.ThreadID) bool {
		return n.Backtrack.Has(t) && !n.Done.Has(t) && (!s.opt.Sleep || n.Force.Has(t) || !n.Asleep(t))
	})
	if ok {
		n.Thread, n.Alt, n.Alts = p, 0, n.AltsOf(p)
	}
	return ok
}

// Finish implements strategy.Strategy: it finds the races of the states the
// execution reached for the first time, s_{Start+1} ... s_n, and adds
// backtracking points for them (Saarikivi et al. 2012, Fig. 5: the client's part).
func (s *Strategy) Finish(tr *trace.Trace, end trace.End) {
	if s.Tree.Diverged != nil {
		return
	}
	n := len(tr.Events)
	s.Tree.Truncate(n)
	s.Tree.AfterFailure(n, end)
	s.tr = tr
	s.hb.Reset(tr, s.rel)
	s.sw.Reset(tr)
	s.rev.Reset(tr, s.hb.Steps())
	s.resetObjects(tr)
	if cap(s.cand) < len(tr.Threads) {
		s.cand = make([]int, len(tr.Threads))
	}
	s.cand = s.cand[:len(tr.Threads)]
	s.Tree.Learn(tr, s.hb.Steps())
	s.Tree.Partners(tr)
	if s.opt.Rule == Initials {
		if cap(s.races) < len(tr.Threads) {
			s.races = append(s.races[:cap(s.races)], make([][]int32, len(tr.Threads)-cap(s.races))...)
		}
		s.races = s.races[:len(tr.Threads)]
		for i := range s.races {
			s.races[i] = s.races[i][:0]
		}
	}
	first := s.Tree.Start + 1
	for k := 0; ; k++ {
		if s.Stop.Poll() {
			break // a bound of the exploration passed: it ends here
		}
		if s.opt.Rule != Initials {
			s.analyse(k, k == first, k < first)
		}
		if k == n {
			for p := range tr.Threads {
				if s.opt.Rule == Initials {
					s.reverse(k, trace.ThreadID(p))
				}
			}
			break
		}
		if e := &tr.Events[k]; s.opt.Rule == Initials && k >= s.Tree.Start {
			s.reverse(k, e.Thread)
			if e.Partner != trace.NoThread {
				s.reverse(k, e.Partner)
			}
		}
		s.record(k)
		s.hb.Step()
		s.sw.Advance()
	}
	s.tr = nil
}

// analyse finds, in state s_k, the race of each thread's pending operation
// and adds its backtracking point.
//
// A state of the replayed prefix (prefix: k <= Start) was analysed by the
// execution that first reached it, but with the footprints that execution
// showed: a thread's step is known whole only once the thread has run it
// (what it announces in its local code, the other side of its rendezvous).
// Fig. 5 analyses a state only when it is first reached (lines 6-21; a
// replayed choice, line 4, is not analysed again), which is enough when
// next(s, p) is known in s, as the paper's visible operations are. So the
// prefix states are analysed again for the threads whose step there is run
// by this execution for the first time on the path (at event Start or
// later) and has more accesses than its operation alone: the races of the
// whole step are found once, before the path moves past it.
func (s *Strategy) analyse(k int, first, prefix bool) {
	for p := range s.tr.Threads {
		if s.Stop.Poll() {
			return // with many threads, one state is a long analysis
		}
		t := trace.ThreadID(p)
		v, ok := s.sw.Pending(t)
		if !ok {
			continue
		}
		if prefix && s.sw.NextEvent(t) < s.Tree.Start {
			continue
		}
		s.footprint(t, v)
		if prefix && !s.extended {
			continue
		}
		var i int
		switch s.opt.Algorithm {
		case ObjectClocks:
			i = s.lastAccess(t, v)
		case CommutingReads:
			i = s.lastConflict(t, v)
		default:
			i = s.lastDependent(k, t, v, first || s.sw.Started(t))
		}
		switch {
		case i < 0:
		default:
			s.backtrack(i, t, s.sw.Since(t) <= i && !Alternating(v, s.tr.Objects))
		}
	}
}

// reverse adds, under the Initials rule, the backtracking points of the
// races of thread t's pending operation, when it runs (at event k, from Start
// on) or the execution ends (k = n): then the whole of what must run before
// it is known. Races are found from the index of the execution's accesses
// (candidates), every race and not only the last: Figs. 1-3 differ only by
// their relation here.
func (s *Strategy) reverse(k int, t trace.ThreadID) {
	v, ok := s.sw.Pending(t)
	if !ok {
		return
	}
	s.footprint(t, v)
	// Every race of v, not only the last (source-DPOR's races): with sleep
	// sets, an earlier race is not necessarily found again later.
	s.races[t] = s.races[t][:0]
	if cs, ok := s.candidates(k, t, v); ok {
		for _, i := range cs {
			if s.race(int(i), t, v) {
				s.races[t] = append(s.races[t], i)
			}
		}
	} else {
		for i := k - 1; i >= 0; i-- {
			if s.Stop.Poll() {
				return
			}
			if s.race(i, t, v) {
				s.races[t] = append(s.races[t], int32(i))
			}
		}
	}
	for _, i := range s.races[t] {
		if s.Stop.Poll() {
			return
		}
		n := s.Tree.Nodes.At(int(i))
		init := s.rev.Initials(s.tr, &s.hb, int(i), k, t, v, s.fp)
		if x := slices.Index(init, t); x >= 0 && s.rev.StepDepends(s.hb.Steps(), n, t) {
			init = slices.Delete(init, x, x+1)
		}
		covered := false
		for _, q := range init {
			if n.Backtrack.Has(q) || n.Done.Has(q) {
				covered = true
				break
			}
		}
		if covered {
			continue
		}
		if q, ok := s.Tree.PickFrom(n, func(q trace.ThreadID) bool {
			return (q == t || !slices.Contains(init, t)) && slices.Contains(init, q) && !n.Asleep(q)
		}); ok {
			n.Backtrack.Add(q)
		} else if !slices.ContainsFunc(init, func(q trace.ThreadID) bool { return n.AltsOf(q) > 0 }) {
			// No initial is enabled there (the relation did not foresee
			// an enabling): every enabled thread.
			for e := range n.Enabled.All() {
				n.Backtrack.Add(e.Thread)
			}
		}
	}
	s.races[t] = s.races[t][:0]
}

// lastDependent is Fig. 1, line 5: the last event before s_k dependent with
// v, maybe co-enabled with it, that does not happen before t. While t does
// not move its clock and v stay the same, so the answer only moves forward:
// it is searched afresh when t's pending operation is new.
func (s *Strategy) lastDependent(k int, t trace.ThreadID, v trace.Op, fresh bool) int {
	if fresh {
		s.cand[t] = -1
		if cs, ok := s.candidates(k, t, v); ok {
			for _, i := range cs {
				if s.race(int(i), t, v) {
					s.cand[t] = int(i)
					break
				}
			}
			return s.cand[t]
		}
		for i := k - 1; i >= 0; i-- {
			if s.Stop.Poll() {
				return -1
			}
			if s.race(i, t, v) {
				s.cand[t] = i
				break
			}
		}
	} else if s.race(k-1, t, v) {
		s.cand[t] = k - 1
	}
	return s.cand[t]
}

// candidates returns, latest first, the events before k that may race
// with thread t's pending operation v (footprint s.fp), found in the index
// of s.rev (if v joins a thread, its races are with that thread's events
// too, whatever they access); it reports false when the index cannot tell,
// and the scan of every event before k must find them.
func (s *Strategy) candidates(k int, t trace.ThreadID, v trace.Op) ([]int32, bool) {
	u := trace.NoThread
	if v.Kind == trace.KindJoin {
		u = trace.ThreadID(v.Arg)
	}
	return s.rev.JoinCandidates(&s.hb, k, t, u, s.fp)
}

// footprint sets s.fp to the accesses of thread t's pending operation v:
// v's own, as a pending operation, and, as seen where t runs v later in the
// trace, those of what t announces in the local code after it (trace.Steps:
// a send on an unbuffered channel offers a partner to its receivers) and of
// the other side of the rendezvous, if it is one.
func (s *Strategy) footprint(t trace.ThreadID, v trace.Op) {
	s.fp = s.rel.AppendOpAccesses(s.fp[:0], v, false, false)
	own := len(s.fp)
	if j := s.sw.NextEvent(t); j >= 0 {
		s.fp = append(s.fp, s.hb.Steps().Announced(j)...)
		s.fp = appendOther(s.rel, s.fp, &s.tr.Events[j], t)
	}
	s.extended = len(s.fp) > own
}

// appendOther appends to fp the accesses of the other side of rendezvous e,
// seen from thread t (a pending operation, as the joint step will run it).
func appendOther(rel trace.Relation, fp []trace.Access, e *trace.Event, t trace.ThreadID) []trace.Access {
	switch {
	case e.Partner == trace.NoThread:
		return fp
	case e.Thread == t:
		return rel.AppendOpAccesses(fp, e.PartnerOp, false, false)
	}
	return rel.AppendOpAccesses(fp, e.Op, false, false)
}

// race reports whether event i and pending operation v of thread t (with
// footprint s.fp) race: dependent, maybe co-enabled, concurrent.
func (s *Strategy) race(i int, t trace.ThreadID, v trace.Op) bool {
	e := &s.tr.Events[i]
	if e.Thread == t || e.Partner == t {
		return false
	}
	joins := v.Kind == trace.KindJoin && (e.Thread == trace.ThreadID(v.Arg) || e.Partner == trace.ThreadID(v.Arg))
	return (joins || trace.Conflicts(s.hb.Steps().Accesses(i), s.fp)) &&
		s.coEnabled(i, v) && !s.hb.BeforeThread(i, t)
}

// coEnabled reports whether event i may be co-enabled with v, unless the
// filter is off.
func (s *Strategy) coEnabled(i int, v trace.Op) bool {
	return s.opt.IgnoreCoEnabled || trace.MayBeCoEnabled(&s.tr.Events[i], v)
}

// lastOf returns the last access (last write, for CommutingReads) to object
// o that may be co-enabled with v: the last one, or if that is a successful
// release v cannot be co-enabled with, the last one before it that is not a
// release (Flanagan and Godefroid's optimisation for locks).
func (s *Strategy) lastOf(o int, v trace.Op) int32 {
	i := s.last[o]
	if i >= 0 && !s.coEnabled(int(i), v) {
		i = s.prev[o]
		if i >= 0 && !s.coEnabled(int(i), v) {
			return -1
		}
	}
	return i
}

// release reports whether e is a successful release of a lock, after which
// the operations that wait for the release were not enabled
// (trace.MayBeCoEnabled): an Unlock, an RUnlock, a Cond Wait that released
// its mutex, a Once's Done (no Do of it was enabled while its function ran;
// gen v2 seed 1134: dpor-cr took Done for the race partner of the other
// thread's Do and never reversed the two Dos).
func release(e *trace.Event) bool {
	if !e.OK || e.Partner != trace.NoThread {
		return false
	}
	switch e.Op.Kind {
	case trace.KindUnlock, trace.KindRUnlock, trace.KindOnceDone:
		return true
	}
	// An operation that releases a second object, a mutex (a Cond's Wait).
	s, _ := trace.SyncOf(e.Op.Class, e.Op.Kind, e.Op.Arg)
	return s.Release&trace.SyncArg != 0 && trace.ArgObject(&e.Op) != trace.NoObject
}

// concurrent reports whether event i (a valid index) does not happen before
// thread t.
func (s *Strategy) concurrent(i int32, t trace.ThreadID) bool {
	return i >= 0 && !s.hb.BeforeThread(int(i), t)
}

// lastAccess is Fig. 2, lines 5-6: the last access to v's object, if it does
// not happen before t; for a select (or a footprint with announcements), the
// latest over its objects.
func (s *Strategy) lastAccess(t trace.ThreadID, v trace.Op) int {
	best := -1
	for _, a := range s.fp {
		if i := s.lastOf(s.obj(a.Obj), v); s.concurrent(i, t) {
			best = max(best, int(i))
		}
	}
	return best
}

// lastConflict is Fig. 3, lines 5-9: for a write, the last read since the
// last write that does not happen before t, else the last write; for a read,
// the last write. Shared updates (trace.Shared) extend it: a read also
// races with the last shared update since the last write, and a shared
// update with the last read.
//
// The reads and shared updates since the last write are kept by object,
// mode and thread: what t knows of a thread's events is a prefix of them,
// so in each list the latest that does not happen before t is found from
// its end without a scan of those that do.
func (s *Strategy) lastConflict(t trace.ThreadID, v trace.Op) int {
	best := -1
	n := len(s.tr.Threads)
	for _, a := range s.fp {
		o := s.obj(a.Obj)
		found := false
		for m := range modes {
			if !trace.ModesConflict(a.Mode, trace.Mode(m)) {
				continue
			}
			for _, rs := range s.reads[(o*modes+m)*n : (o*modes+m+1)*n] {
				for j := len(rs) - 1; j >= 0 && s.concurrent(rs[j], t); j-- {
					if s.coEnabled(int(rs[j]), v) {
						best, found = max(best, int(rs[j])), true
						break
					}
				}
			}
		}
		if i := s.lastOf(o, v); !found && s.concurrent(i, t) {
			best = max(best, int(i))
		}
	}
	return best
}

// readMode returns the list of the per-object tables that holds accesses
// in mode m: the modes of package trace, anything else with the zero mode,
// which conflicts with every mode but itself as they do.
func readMode(m trace.Mode) int {
	if int(m) >= modes {
		return 0
	}
	return int(m)
}

// backtrack adds the backtracking point of a race between event i and thread
// t's pending operation v (Fig. 1, lines 6-10): under the Operation rule, t
// if v is enabled in pre(E, i) (pending says v was pending there already and
// is not Alternating: the same transition);
// under the Process rule, t if t is enabled there; else every enabled
// thread.
func (s *Strategy) backtrack(i int, t trace.ThreadID, pending bool) {
	n := s.Tree.Nodes.At(i)
	if n.AltsOf(t) == 0 || (s.opt.Rule == Operation && !pending) {
		for e := range n.Enabled.All() {
			n.Backtrack.Add(e.Thread)
		}
		return
	}
	if !s.opt.Sleep || !n.Asleep(t) || n.Force.Has(t) {
		n.Backtrack.Add(t)
		return
	}
	switch s.opt.Asleep {
	case DPOR1:
		n.Backtrack.Add(t)
		n.Force.Add(t)
	case DPOR2:
		for e := range n.Enabled.All() {
			if !n.Asleep(e.Thread) {
				n.Backtrack.Add(e.Thread)
			}
		}
	}
}

// Alternating reports whether the transition pending operation v stands for
// depends on the state beyond v being enabled: a select takes a case (or its
// default) among those ready, a receive on an unbuffered channel meets one of
// the senders there. Such a v enabled in an earlier state is not necessarily
// the transition that raced.
func Alternating(v trace.Op, objs []trace.ObjectInfo) bool {
	switch {
	case v.Kind == trace.KindSelect:
		return true
	case v.Kind == trace.KindRecv && v.Class == trace.ClassChan:
		return v.Obj < 0 || int(v.Obj) >= len(objs) || objs[v.Obj].Cap == 0
	}
	return false
}

// obj returns the index of object o in the per-object tables.
func (s *Strategy) obj(o trace.ObjectID) int {
	if o == trace.TimeObject {
		return len(s.tr.Objects)
	}
	return int(o)
}

// resetObjects empties the per-object tables for tr.
func (s *Strategy) resetObjects(tr *trace.Trace) {
	n := len(tr.Objects) + 1
	if cap(s.last) < n {
		s.last = make([]int32, n)
	}
	s.last = s.last[:n]
	for i := range s.last {
		s.last[i] = -1
	}
	if cap(s.prev) < n {
		s.prev = make([]int32, n)
	}
	s.prev = s.prev[:n]
	copy(s.prev, s.last)
	if s.opt.Algorithm != CommutingReads {
		return
	}
	s.reads = resetLists(s.reads, n*modes*len(tr.Threads))
}

// record updates the per-object tables with event i (Fig. 2, line 25; Fig.
// 3, lines 31, 32 and 39).
func (s *Strategy) record(i int) {
	if s.opt.Algorithm == VectorClocks {
		return
	}
	rel := release(&s.tr.Events[i])
	n := len(s.tr.Threads)
	for _, a := range s.hb.Steps().Accesses(i) {
		o := s.obj(a.Obj)
		switch {
		case s.opt.Algorithm == ObjectClocks || a.Mode == trace.Write:
			s.last[o] = int32(i)
			if !rel {
				s.prev[o] = int32(i)
			}
			if s.opt.Algorithm == CommutingReads {
				for j := range s.reads[o*modes*n : (o+1)*modes*n] {
					s.reads[o*modes*n+j] = s.reads[o*modes*n+j][:0]
				}
			}
		default:
			l := &s.reads[(o*modes+readMode(a.Mode))*n+int(s.tr.Events[i].Thread)]
			*l = append(*l, int32(i))
		}
	}
}
