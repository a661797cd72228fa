// This file implements the strategy: Reachability-Testing (Lei and Carver 2006
// Fig. 9) with GenerateVariants (Fig. 10), over a stack of the nodes whose
// variants are still to run, and nothing of the sequences already run.

package reach

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Options configure the strategy.
type Options struct {
	// Seed, if not zero, randomises the free part of each run (Lei and Carver 2006
	// runs it nondeterministically; by default reach takes the first
	// enabled thread).
	Seed int64
	// PV applies the P/V reduction (§7): the completion of a V on a
	// counting semaphore races with nothing.
	PV bool
	// Symmetric lists groups of threads that run the same code, named by
	// their ranks among the threads the test body starts (0 for the
	// first): a race between two of them for the same operation (the
	// same call of theirs, with the same partner) is ignored (§8, the
	// symmetry reduction).
	Symmetric [][]int
	// NewSolver makes the solver of the path constraints of a program that
	// branches on inputs (w.Input, w.If): Z3's, which importing package
	// github.com/weft-go/weft/concolic gives weft.WithStrategy("reach").
	// Without one, such a program is refused (ErrNoSolver).
	NewSolver func() (solver.Solver, error)
}

// Stats counts what the strategy did.
type Stats struct {
	// Runs is the number of executions; Partial those cut because an
	// unmatched receiving event could only synchronise with an old sending
	// event (§7.3: a partial run is not a deadlock).
	Runs, Partial int
	// Variants is the number of race variants run (rows of race tables).
	Variants int
	// Depth is the largest number of nodes on the stack: the depth of the
	// spanning tree explored (§7.3: the space is O(D)); StackBytes the
	// largest memory they held (an estimate: their slices' sizes).
	Depth      int
	StackBytes int64
	// Events is the number of receiving events analysed, Races the sum of
	// the sizes of their race sets.
	Events, Races int64
	// Restarts counts the explorations begun again because a select joined
	// two objects of the model that earlier runs had kept apart;
	// PhaseStart is the number of runs before the last beginning (the
	// runs of the exploration proper are those after it).
	Restarts, PhaseStart int
	// Unreplayed counts the receiving events of variants, with their
	// partners specified, that their run did not reach.
	Unreplayed int
	// Retries counts the runs that failed while other threads could still
	// move, each run again with the failing call postponed (failures.go);
	// Infeasible the variants whose run could not replay one of their
	// black events, because two of their events fail (failures.go).
	Retries, Infeasible int
	// Stranded counts the runs that left a receive of their variant
	// unfilled because the send or close it takes was not in the variant
	// and never came (spec.Open). They are analysed like the others, and
	// their variants explored; their sequence can be one that another run
	// exercised too (doc.go).
	Stranded int
	// Unsat counts the race variants not run because their path
	// constraint (the sides of their branches on inputs) is
	// unsatisfiable: no run extends them. Mismatched counts the runs in
	// which a branch of the variant took the other side than the
	// variant's (not analysed; their inputs satisfied its path
	// constraint, so a branch's condition depended on what the variant
	// does not fix).
	Unsat, Mismatched int
	// Relaxed counts the runs of relaxed variants (sym.go, feasible) in
	// which a white branch took its other side, and of the variants
	// derived from their nodes that keep such a branch (variant.Must):
	// their sequence is one of a sibling's subtree, not counted; their
	// node's rows that remove such a branch are its variants, the others
	// keep it to remove.
	Relaxed int
	// UnsatSides counts the sides of branches left out of race sets
	// because the path constraint of their control structure does not
	// allow them.
	UnsatSides int
	// Hidden counts the postponed calls whose failure came after a branch
	// on an input, left pending at the end of a run analysed because
	// another thread's failure ended it first, that could not be
	// appended to it as events after its end (ends.go): the other side
	// of such a branch may never be explored, and the exploration is not
	// called exhaustive (Strategy.Incomplete).
	Hidden int
	// Probes counts the probe runs of end races (ends.go), each of which
	// takes a postponed call hidden behind another thread's failure; not
	// analysed.
	Probes int
	// Behind counts the runs analysed but not counted because a black
	// event of their variant came only in the tail of an end race: the
	// run ended at another thread's failure before it, so its sequence
	// does not extend the variant (ends.go).
	Behind int
	// Diverted counts the runs that could not replay a black event of
	// their variant because a thread failed first, after a branch on an
	// input that is not the variant's (the solver's inputs took its
	// failing side): not counted as sequences, but analysed, their nodes
	// explore the rows that flip or remove that branch (sym.go).
	Diverted int
}

// Strategy is the reachability testing strategy. Use New.
type Strategy struct {
	opts  Options
	rnd   *rand.Rand
	gs    groups
	names trace.ThreadNames
	stack []*frame
	v     *variant // the variant of the current run
	// started: the first run was prepared; restart: a select joined two
	// objects of the model, the exploration begins again; analysed counts
	// the runs analysed since it began.
	started, restart bool
	analysed         int
	// resumed marks a strategy resumed from a unit (unit.go).
	resumed bool
	err     error
	stats   Stats
	// The current run: completions per group, and each thread's next call
	// (by ThreadID of the run).
	count map[int32]int32
	k     []int32
	cut   bool
	// early reports that, when the run took its last step, another step
	// the variant allows (not postponed) was possible; retry is the
	// variant to run next, with a failing call postponed.
	early bool
	retry *variant
	// defaults are the variant's selects' defaults not taken yet.
	defaults []*spec
	// divert is the branch event (of the run's trace with its branches)
	// after which a thread failed before the run replayed a black event
	// of its variant, or -1 (sym.go, diverted).
	divert int32
	// The end races of failing runs (ends.go): the run's choices (trail),
	// the choices it is to take (force) and whether it could not
	// (diverged); the deferred alternatives of the last state (defs); the
	// chain of runs under way, the trace with its probes' tails, the
	// threads that failed in them, and whether a black event of the
	// variant came only in a tail.
	trail, force []strategy.Choice
	diverged     bool
	defs         []deferredAlt
	ch           *chain
	tailed       trace.Trace
	tailThreads  []trace.ThreadID
	behind       bool
	onLast       []onLast
	an           analysis
	rc           racer
	races        []outcome
	stop         *strategy.Stop
	sym          symbolic
}

// SetStop implements strategy.Stoppable: the analysis of a run and the
// choice of the next variant stop once stop reports a bound passed.
func (s *Strategy) SetStop(stop *strategy.Stop) { s.stop = stop }

var _ strategy.Stoppable = (*Strategy)(nil)

var (
	_ strategy.Strategy = (*Strategy)(nil)
	_ strategy.Failer   = (*Strategy)(nil)
	_ strategy.Counting = (*Strategy)(nil)
)

// New returns a reachability testing strategy.
func New(o Options) *Strategy {
	s := &Strategy{opts: o, count: make(map[int32]int32)}
	s.sym.newSolver = o.NewSolver
	if o.Seed != 0 {
		s.rnd = rand.New(rand.NewPCG(uint64(o.Seed), 0x9e3779b97f4a7c15))
	}
	return s
}

// Stats returns what the strategy did so far.
func (s *Strategy) Stats() Stats { return s.stats }

// Counters implements strategy.Counting.
func (s *Strategy) Counters() []strategy.Counter {
	st := s.stats
	return []strategy.Counter{
		{Name: "reach partial runs", Value: int64(st.Partial)},
		{Name: "reach variants", Value: int64(st.Variants)},
		{Name: "reach depth", Value: int64(st.Depth)},
		{Name: "reach stack KiB", Value: (st.StackBytes + 1023) / 1024},
		{Name: "reach receiving events", Value: st.Events},
		{Name: "reach restarts", Value: int64(st.Restarts)},
		// Variants whose run could not replay them: their subtrees are
		// not explored, so the exploration may have missed sequences
		// (doc.go); TestTable4 pins 0 for the Table 4 programs.
		{Name: "reach variants lost", Value: int64(st.Infeasible)},
		{Name: "reach stranded runs", Value: int64(st.Stranded)},
		{Name: "reach variants unsat", Value: int64(st.Unsat)},
	}
}

// Incomplete implements strategy.Incomplete: an exploration in which a
// thread's failure after a branch on an input stayed hidden behind
// another thread's failure in a run analysed (Stats.Hidden: its step
// could not be appended after the end of the run) may have missed the
// sequences of that branch's other side (doc.go), and is not called
// exhaustive.
func (s *Strategy) Incomplete() string {
	if s.stats.Hidden > 0 {
		return fmt.Sprintf("%d times a thread's failure after a branch on an input was hidden by another thread's failure, and reach may have missed the other side of that branch; explore with concolic-optimal to cover every trace", s.stats.Hidden)
	}
	return ""
}

var _ strategy.Incomplete = (*Strategy)(nil)

// Err implements strategy.Failer: why the strategy cannot explore the
// program (a primitive outside its model, wrapping ErrUnmodelled), or nil.
func (s *Strategy) Err() error { return s.err }

// ErrMergedObjects is wrapped by the error of a program in which two
// threads reached one object apart and the runtime found them to be one
// (trace.Trace.Merged): reach names objects by their keys.
var ErrMergedObjects = errors.New("objects reached under two names")

// Next implements strategy.Strategy: the first run is free (the empty
// variant, Fig. 9 line 3); each next one takes a variant from the stack.
func (s *Strategy) Next() bool {
	if s.err != nil {
		return false
	}
	if !s.started || s.restart {
		if s.restart {
			s.stats.Restarts++
			s.stats.PhaseStart = s.stats.Runs
		}
		s.started, s.restart, s.analysed = true, false, 0
		s.stack, s.retry = s.stack[:0], nil
		s.abandon()
		s.begin(&variant{})
		return true
	}
	if s.ch != nil {
		s.begin(s.v) // the next run of an end race's chain (ends.go)
		return true
	}
	if v := s.retry; v != nil {
		s.retry = nil
		s.begin(v)
		return true
	}
	for len(s.stack) > 0 {
		if s.stop.Poll() {
			return false // a bound of the exploration passed: it ends here
		}
		v, ok := s.nextVariant()
		if !ok {
			continue
		}
		s.begin(v)
		return true
	}
	return false
}

// nextVariant returns the variant of the next row of the node on top of
// the stack, or false if the node has none left (it is popped) or the
// variant's path constraint is unsatisfiable (Stats.Unsat).
func (s *Strategy) nextVariant() (*variant, bool) {
	f := s.stack[len(s.stack)-1]
	row, ok := f.ctr.next()
	if !ok {
		s.stack[len(s.stack)-1] = nil
		s.stack = s.stack[:len(s.stack)-1]
		return nil, false
	}
	must, ok := f.keptMust(row)
	if !ok {
		return nil, false
	}
	v := f.derive(row)
	v.Must = must
	if f.divert >= 0 && !f.changesDivert(row) {
		v.Divert = [][2]int32{f.stableCall(f.divert)}
	}
	ok, err := s.feasible(v)
	if err != nil {
		s.err = err
		s.stack = s.stack[:0]
		return nil, false
	}
	if !ok {
		s.stats.Unsat++
		return nil, false
	}
	s.stats.Variants++
	return v, true
}

// begin prepares a run with variant v.
func (s *Strategy) begin(v *variant) {
	s.v = v
	clear(s.count)
	s.k = s.k[:0]
	s.cut = false
	s.trail, s.diverged = s.trail[:0], false
	s.tailThreads, s.behind, s.onLast = s.tailThreads[:0], false, s.onLast[:0]
	s.names.Reset()
	s.sym.resetRun()
}

// Finish implements strategy.Strategy: it reads the run's SYN-sequence and
// pushes the node of its variants (GenerateVariants, Fig. 10).
func (s *Strategy) Finish(tr *trace.Trace, end trace.End) {
	if s.err != nil {
		return
	}
	s.stats.Runs++
	if end.Status == trace.Cut && s.cut {
		s.stats.Partial++
	}
	if len(tr.Merged) > 0 {
		s.err = fmt.Errorf("reach: the run found two names for one object (%w)", ErrMergedObjects)
		return
	}
	if end.Status == trace.Assumed && end.InStep() {
		// Lei and Carver 2006's runs end when no thread can move; one that an
		// assumption cut short is no SYN-sequence of the program's.
		s.err = fmt.Errorf("reach does not model assumptions (w.Assume ended the run in %v); use optimal or dpor+sleep (%w)", end.Thread, ErrUnmodelled)
		return
	}
	merged := false
	for i := range tr.Events {
		e := &tr.Events[i]
		if joins(e.Op) {
			merged = s.gs.join(e.Op, tr.Objects) || merged
		}
		if e.Partner != trace.NoThread && joins(e.PartnerOp) {
			merged = s.gs.join(e.PartnerOp, tr.Objects) || merged
		}
	}
	for _, op := range tr.Final {
		if err := refusal(op, tr.Objects); err != nil {
			s.err = err
			return
		}
		if joins(op) {
			merged = s.gs.join(op, tr.Objects) || merged
		}
	}
	if s.restart || (merged && s.analysed > 0) {
		s.restart = true
		return
	}
	s.names.Sync(tr.Threads)
	s.countBranches(tr)
	if s.postpone(tr, end) {
		s.abandon()
		return
	}
	if s.sym.mismatch && !s.v.Relaxed {
		s.abandon()
		s.stats.Mismatched++
		return
	}
	tr, probe := s.chainRun(tr, end)
	if probe {
		return
	}
	if s.sym.mismatch || len(s.v.Must) > 0 {
		s.stats.Relaxed++
	}
	aug := s.augment(tr)
	s.divert = -1
	if s.unreplayed() {
		// A black event of the variant did not run (two of its events
		// failed, and each failure ends a run): the sequence does not
		// extend the variant, and its variants could undo what the
		// variant fixed (§7.3, C1). Unless a thread failed after a
		// branch on an input that is not the variant's (sym.go,
		// diverted), whose other side may let them run.
		if s.divert = s.diverted(aug, end); s.divert < 0 {
			s.stats.Infeasible++
			s.stats.Hidden += len(s.onLast)
			return
		}
		s.stats.Diverted++
	}
	if s.behind {
		s.stats.Behind++
	}
	if s.stranded() {
		s.stats.Stranded++
	}
	s.analysed++
	s.generate(aug, end)
}

// unreplayed counts the receiving events of the run's variant with their
// partners specified that the run did not reach, and reports whether one
// of them is black.
func (s *Strategy) unreplayed() (black bool) {
	for g, specs := range s.v.Pos {
		for p := int(s.count[g]); p < len(specs); p++ {
			if !specs[p].unfillable() {
				s.stats.Unreplayed++
				black = black || specs[p].Black
			}
		}
	}
	return black
}

// stranded reports whether the run left an open receive of its variant
// (spec.Open) unfilled.
func (s *Strategy) stranded() bool {
	for g, specs := range s.v.Pos {
		if p := int(s.count[g]); p < len(specs) && specs[p].Open {
			return true
		}
	}
	return false
}

// generate is GenerateVariants (Fig. 10) for the SYN-sequence of tr,
// collected with variant s.v: the colours of its receiving events (those
// of the variant, white for the new ones), their race sets without the
// variant's sending events, and the race table of the white ones.
func (s *Strategy) generate(tr *trace.Trace, end trace.End) {
	a := &s.an
	a.ofStep = nil
	if tr == &s.sym.aug {
		a.ofStep = s.sym.ofStep
	}
	a.reset(tr, &s.gs)
	s.rc.reset(a, &s.gs)
	f := &frame{stable: make([]int32, a.n), black: make([]bool, len(tr.Events)), divert: s.divert, old: s.v.Old}
	if stops(end) {
		f.fails = s.failedSteps(tr, end.Thread)
	}
	if len(s.sym.cond) > 0 && tr == &s.sym.aug {
		f.conds = maps.Clone(s.sym.cond)
	}
	if (s.v.Relaxed && s.sym.mismatch) || len(s.v.Must) > 0 {
		for j := range tr.Events {
			x := a.exec[j]
			c := [2]int32{int32(s.names.Stable(trace.ThreadID(x.t))), x.k}
			if tr.Events[j].Op.Kind == trace.KindBranch && (slices.Contains(s.sym.missed, c) || slices.Contains(s.v.Must, c)) {
				f.must = append(f.must, int32(j))
			}
		}
	}
	f.nonBlocking = make([][]bool, a.n)
	for t := range f.stable {
		f.stable[t] = int32(s.names.Stable(trace.ThreadID(t)))
		f.nonBlocking[t] = make([]bool, a.calls(int32(t)))
		for k := range f.nonBlocking[t] {
			f.nonBlocking[t][k] = model.NonBlocking(a.callOp(int32(t), int32(k)))
		}
	}
	f.inherit = make(map[int32][]sout)
	f.colOf = make(map[int32]int)
	// addColumn makes white event c a column if its race set, pruned of
	// what its old spec (if V has it) says, is not empty.
	addColumn := func(c int32, old *spec) {
		if old != nil {
			f.inherit[c] = old.Races
			s.races = s.prune(f, s.races, old)
		}
		if len(s.races) == 0 {
			return
		}
		f.colOf[c] = len(f.cols)
		s.stats.Races += int64(len(s.races))
		f.cols = append(f.cols, c)
		f.races = append(f.races, append([]outcome(nil), s.races...))
	}
	for i := range tr.Events {
		if s.stop.Poll() {
			return // a bound of the exploration passed: it ends here
		}
		g := a.grp[i]
		if g < 0 {
			continue
		}
		s.stats.Events++
		var old *spec
		if specs := s.v.Pos[g]; int(a.pos[i]) < len(specs) {
			old = &specs[a.pos[i]]
			f.black[i] = old.Black
		}
		if f.black[i] {
			s.raced(i, true, nil)
			continue
		}
		if tr.Events[i].Op.Kind == trace.KindBranch {
			var err error
			if s.races, err = s.branchRaces(i, s.races[:0]); err != nil {
				s.err = err
				return
			}
		} else {
			s.races = s.rc.reduce(s.opts, i, s.rc.raceSet(i, s.races[:0]))
			s.raced(i, false, s.races)
		}
		addColumn(int32(i), old)
	}
	s.unfilled(f)
	for j := range f.virtual {
		if s.stop.Poll() {
			return
		}
		u := &f.virtual[j]
		c := int32(len(tr.Events) + j)
		f.inherit[c] = u.spec.Races
		if u.spec.Black || !u.first {
			continue
		}
		pre := vc(slices.Clone(u.cs))
		if u.src >= 0 {
			pre.join(a.tsOf(int(u.src)))
		}
		// The variants that leave the column alone keep the event's
		// calls that are set, filled or not: an open receive keeps its
		// receiver (only its value's source is free), so that receiver
		// is no race outcome of the position (it ran a sequence twice
		// when it was one: the child that left the receive open and the
		// one that fixed it both filled it with the same call).
		own := f.localOutcome(&u.spec)
		s.races = s.rc.raceSetUnfilled(u.g, pre, u.cs, own, s.races[:0])
		addColumn(c, &u.spec)
	}
	if len(f.cols) == 0 {
		return
	}
	f.a = a.clone()
	f.ctr = newCounter(f)
	s.stack = append(s.stack, f)
	s.stats.Depth = max(s.stats.Depth, len(s.stack))
	var bytes int64
	for _, f := range s.stack {
		bytes += f.bytes()
	}
	s.stats.StackBytes = max(s.stats.StackBytes, bytes)
}

// unfilled adds to f the receiving events of the run's variant that the
// run did not fill: the unmatched ones that no call outside the variant
// came to, and those it did not reach at all, because it ended first (a
// failure ends a run, and two of the variant's threads may fail) or cut
// short (after an unfilled one, or when a white branch took its other
// side in a relaxed variant's run). The SYN-sequence of a partial run
// includes them (§7.3), and the variants derived from it keep them, with
// their partners, while they keep their control structures: an event of
// the variant stays fixed in its subtree (C1 and C2, §7.2) whether or not
// a run reached it, so no later run takes it with another outcome, and
// the sides of its branches stay in the path constraints. The first
// event not filled on each object gets a race set (the calls pending at
// the end), unless it is a branch.
func (s *Strategy) unfilled(f *frame) {
	a := &s.an
	last := make(map[int32]int)
	for i, g := range a.grp {
		if g >= 0 {
			last[g] = i
		}
	}
	// The calls that a branch of the run removed by taking the other side
	// than the variant's (a relaxed variant's run): each thread's first.
	removed := make(map[int32]int32)
	for _, m := range s.sym.missed {
		if k, ok := removed[m[0]]; !ok || m[1]+1 < k {
			removed[m[0]] = m[1] + 1
		}
	}
	for g, specs := range s.v.Pos {
		r, only := s.gs.only(g)
		branch := only && r.half == branchHalf
		for p := s.count[g]; int(p) < len(specs); p++ {
			u := virtual{g: g, p: p, spec: specs[p], cs: make([]uint32, a.n), src: -1, first: p == s.count[g], branch: branch}
			u.kept = !(u.first && u.spec.unfillable())
			if u.kept {
				for _, x := range []*vside{&u.spec.Exec, &u.spec.Par} {
					if k, ok := removed[x.T]; ok && !x.Unset && x.K >= k && (x == &u.spec.Exec || u.spec.HasPar) {
						x.Unset = true
					}
				}
				if branch && u.spec.Exec.Unset {
					break // a branch its thread no longer reaches
				}
				u.first = u.first && !branch
			}
			if i, ok := last[g]; ok {
				copy(u.cs, a.tsOf(i))
			}
			if branch {
				// A branch's control structure is its thread's past.
				if t := f.thread(u.spec.Exec.T); t >= 0 {
					u.cs.join(a.callClock(t, min(u.spec.Exec.K, int32(len(a.steps[t])))))
				}
			} else if only {
				u.src = a.source(a.tr.Objects, r, p)
			}
			f.virtual = append(f.virtual, u)
		}
	}
	// In the order of the run the variant came from: a thread's events,
	// and an object's, in their order.
	slices.SortFunc(f.virtual, func(x, y virtual) int {
		if x.spec.Hint != y.spec.Hint {
			return int(x.spec.Hint - y.spec.Hint)
		}
		if x.g != y.g {
			return int(x.g - y.g)
		}
		return int(x.p - y.p)
	})
}

// prune removes from the race set of an old receiving event the outcomes
// that the nodes its variant came from could have given it: race_set(r,
// Q) - race_set(r, V) (Fig. 10, lines 1-2). The race set of r in V is
// taken to be what its spec carries: the outcomes of r's column in the
// race table of V's node that the row of V could have had besides its own
// changes (a valid row), and what that node pruned itself. It is what C2
// needs (§7.2: a difference an edge could reconcile and did not is never
// reconciled afterwards); the races of r in V as a sequence of its own can
// be more, since a change V makes can enable an outcome (a receive made
// room in a buffer earlier), and an outcome the row could not have had
// with its changes (one that needs a step the row removes) is no
// difference the edge could reconcile.
func (s *Strategy) prune(f *frame, races []outcome, sp *spec) []outcome {
	out := races[:0]
	for _, o := range races {
		x := f.stableOutcome(o)
		// A call of the node that V removed and a new call of the run
		// can have the same label: only V's own calls are old.
		old := s.v.old(x.E.T, x.E.K) && (x.P.T < 0 || s.v.old(x.P.T, x.P.K))
		if !old || !slices.Contains(sp.Races, x) {
			out = append(out, o)
		}
	}
	return out
}

// failedAfterBranch returns, for a run whose thread p failed and whose
// last event is last, the step to mark as failing and the branch event
// whose side failed (-1 if none): if p's last event is a branch, p's step
// before it (the failure comes in the local code after that step, as long
// as the branch keeps its side) and the branch.
func failedAfterBranch(tr *trace.Trace, p trace.ThreadID, last int32) (int32, int32) {
	for i := int(last); i >= 0; i-- {
		e := &tr.Events[i]
		if e.Thread != p && e.Partner != p {
			continue
		}
		if e.Op.Kind != trace.KindBranch {
			return last, -1
		}
		for j := i - 1; j >= 0; j-- {
			if f := &tr.Events[j]; f.Op.Kind != trace.KindBranch && (f.Thread == p || f.Partner == p) {
				return int32(j), int32(i)
			}
		}
		return -1, int32(i)
	}
	return last, -1
}
