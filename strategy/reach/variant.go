// This file implements race variants (Lei and Carver 2006, §6.1, Definition 7) and
// the nodes of the exploration: a SYN-sequence with its race table, whose
// rows become variants one at a time (§7.3: "we can encode the variants of
// a SYN-sequence efficiently using the race table of the sequence").

package reach

import (
	"slices"

	"github.com/weft-go/weft/solver"
)

// vside is one call of a variant's receiving event, its thread named
// stably across executions. unset marks a call removed from the variant
// (Definition 7, condition 3: its control structure held a receiving event
// whose partner changed): the event is unmatched there, and only a call
// that is not in the variant may take its place (§7.3, Fig. 11).
type vside struct {
	T, K, Case int32
	Unset      bool
}

// spec is a receiving event of a variant: the position of its object
// that it is, and what it synchronises with.
type spec struct {
	Exec vside
	Par  vside
	// HasPar reports that the event has a partner call (a rendezvous).
	HasPar bool
	// Black marks a receiving event whose partner may not be changed
	// explicitly any more (§7.3, Fig. 10: colours).
	Black bool
	// Hint is the event's step in the execution the variant was derived
	// from, the order in which the replay prefers to run events.
	Hint int32
	// Fails marks the event that failed at the end of the run the variant
	// comes from, kept with the same partners: it fails again, and the
	// replay runs it last (failures.go).
	Fails bool
	// Races is the race set the event had in the node the variant comes
	// from (all of it, not pruned): a run of the variant prunes the
	// outcomes of old calls it finds there (reach.go, prune).
	Races []sout
	// Open marks a receive from a buffered channel whose value's source
	// (the send or close at the same position of the channel's input) is
	// not fixed by the variant: removed from it, or an unmatched event of
	// it. The receive stays in the variant (its control structure holds
	// no changed event), but whether it can complete depends on a call
	// not in the variant, as for an unmatched event: a run that never
	// fills its source leaves it unfilled, and the run is still analysed.
	Open bool
	// cond is a branch event's condition (sym.go), the zero Expr for
	// other events.
	cond solver.Expr
	// Past is set for a select's default: for each thread (stably
	// numbered), how many of its calls completed in what the default
	// needs to have happened before it (its control structure and the
	// select's past). The default is possible only while no case is
	// ready, which the steps outside this past may change: the replay
	// holds them back until the default is taken (replay.go).
	Past []int32
}

// sout is an outcome with its threads named stably (P.T -1: no partner).
type sout struct{ E, P vside }

// unmatched reports whether some call of s is unset.
func (s *spec) unmatched() bool { return s.Exec.Unset || (s.HasPar && s.Par.Unset) }

// unfillable reports whether a run of the variant may leave s unfilled
// and still be analysed: s waits for a call that is not in the variant
// (unmatched), or for a value that only such a call can give (Open).
func (s *spec) unfillable() bool { return s.unmatched() || s.Open }

// variant is a race variant: for each object of the model (group), the
// receiving events at its first positions; and for each thread (stably
// named), the number of its calls that are in the variant (its old calls:
// §7.3, an event is old if it is in the variant). The empty variant (the
// first, nondeterministic run) has none.
type variant struct {
	Pos map[int32][]spec
	Old []int32
	// Postponed lists calls that failed in an earlier run of the variant
	// before the other threads could move: the run takes them, with the
	// same source, only when nothing else can move (failures.go).
	Postponed []postponement
	// Inputs are the values of the inputs, by stable name (inputName),
	// that the solver gave the path constraint of the variant (nil: the
	// defaults); pc is that constraint, the sides of its branch events.
	Inputs map[string]uint64
	pc     []solver.Expr
	// black is the part of pc of the black branch events; Relaxed marks
	// a variant whose pc is unsatisfiable and black not: its inputs
	// satisfy black only (sym.go, feasible).
	black   []solver.Expr
	Relaxed bool
	// Must lists the branches (stable thread, call) of the relaxed
	// variant's run above that the variant keeps with the side that run
	// gave them: its run is not counted, and its node's rows must still
	// remove them (frame.must). Divert holds the branch after which a
	// thread failed before a run above replayed its variant (sym.go,
	// diverted), if this variant keeps it: its run may be diverted there
	// again.
	Must, Divert [][2]int32
}

// A postponement is a call (stable thread, call index) that failed, and
// the call whose value it took when it failed (Src: stable thread and
// call index, {-1, -1} for none: the sending partner of a rendezvous, the
// send whose value a buffered receive took, the close a receive found).
// A receive that fails on one value may not fail on another: it is
// postponed only when it would take its value from the same call.
type postponement struct {
	T, K int32
	Src  [2]int32
	// Branch marks a failure that came after a branch on an input, in the
	// call's local code.
	Branch bool
}

// noSource is the source of a call that takes no value.
var noSource = [2]int32{-1, -1}

// postponed reports whether call k of thread t (stable) is postponed;
// src returns the source it would take its value from, asked only if a
// postponement of the call exists.
func (v *variant) postponed(t, k int32, src func() [2]int32) bool {
	return v.postponement(t, k, src) != nil
}

// postponement returns the postponement of call k of thread t (stable),
// or nil; src is as for postponed.
func (v *variant) postponement(t, k int32, src func() [2]int32) *postponement {
	for i := range v.Postponed {
		if p := &v.Postponed[i]; p.T == t && p.K == k && p.Src == src() {
			return p
		}
	}
	return nil
}

// old reports whether call k of thread t (stable) is in v.
func (v *variant) old(t, k int32) bool { return int(t) < len(v.Old) && k < v.Old[t] }

// frame is a node of the exploration: a SYN-sequence Q, the variant V it
// was collected with, the race sets of Q's white receiving events (those
// of V pruned of V's sending events: Fig. 10, lines 1-2) and its race
// table, whose rows are Q's variants still to explore.
type frame struct {
	a      *analysis
	stable []int32 // each thread's stable number
	black  []bool  // per step: the colour of its receiving event
	cols   []int32 // the heading: steps
	races  [][]outcome
	ctr    *counter
	// nonBlocking marks, per thread and call, the selects with a default.
	nonBlocking [][]bool
	// fails lists the steps of Q after which a thread failed in its local
	// code, each with the branch whose side failed there (-1 if none):
	// Q's last step if the run failed so, and the steps of the end race
	// appended after the end (ends.go).
	fails [][2]int32
	// virtual are the unmatched events of V that Q did not fill; old is
	// V's number of calls of each thread (variant.Old).
	virtual []virtual
	old     []int32
	// inherit is, for each white event that V has, the outcomes its spec
	// pruned from its race set; colOf the column of each column event.
	inherit map[int32][]sout
	colOf   map[int32]int
	// conds is the condition of each branch event (sym.go).
	conds map[int32]solver.Expr
	// must lists the branch events of Q that took the other side than
	// the relaxed variant Q was run with: a row of Q's table is a variant
	// of that variant's subtree only if it removes each of them (a row
	// that keeps one is in the subtree of the sibling that flipped it).
	must []int32
	// divert is the branch event after which a thread failed before Q's
	// run replayed a black event of V (sym.go, diverted), or -1: a row of
	// Q's table is explored only if it flips or removes it.
	divert int32
}

// vOld returns the number of calls of thread st (stable) in the variant
// Q was run with.
func (f *frame) vOld(st int32) int32 {
	if int(st) < len(f.old) {
		return f.old[st]
	}
	return 0
}

// failing reports whether step i is one after which a thread failed at
// the end of Q (f.fails), and a variant that changes the events changed
// keeps the branch whose side failed there.
func (f *frame) failing(i int32, changed []int32) bool {
	for _, x := range f.fails {
		if x[0] == i && !slices.Contains(changed, x[1]) {
			return true
		}
	}
	return false
}

// changesDivert reports whether row t changes f.divert or an event of its
// control structure.
func (f *frame) changesDivert(t []int) bool {
	w := f.divert
	for i, x := range t {
		if x > 0 && (f.cols[i] == w || f.colBefore(f.cols[i], f.a.csOf(int(w)))) {
			return true
		}
	}
	return false
}

// keptMust returns the events of f.must that row t keeps (it changes no
// event of their control structures), named stably, and ok false if t
// flips one of them. A row that flips one is in the subtree of the
// sibling that flipped it; one that removes each of them is a variant of
// the relaxed variant's subtree; one that keeps some has its run
// analysed but not counted, its sequence being in the sibling's subtree,
// and its node keeps them in f.must, for later rows to remove.
func (f *frame) keptMust(t []int) (kept [][2]int32, ok bool) {
	for _, w := range f.must {
		removed := false
		for i, x := range t {
			if x > 0 && f.cols[i] == w {
				return nil, false
			}
			if x > 0 && f.colBefore(f.cols[i], f.a.csOf(int(w))) {
				removed = true
			}
		}
		if !removed {
			kept = append(kept, f.stableCall(w))
		}
	}
	return kept, true
}

// stableCall names the call of step i's executor stably.
func (f *frame) stableCall(i int32) [2]int32 {
	x := f.a.exec[i]
	return [2]int32{f.stable[x.t], x.k}
}

// prunable returns the outcomes a variant's run prunes from the race set
// of white event c, kept by row t unchanged: what c's spec in V pruned,
// and the outcomes of c's column that row t could have had as well.
func (f *frame) prunable(c int32, t []int) []sout {
	out := f.inherit[c]
	i, ok := f.colOf[c]
	if !ok || t[i] != 0 {
		return out
	}
	out = slices.Clone(out)
	u := make([]int, len(t))
	for v := 1; v <= f.size(i); v++ {
		copy(u, t)
		u[i] = v
		ok := true
		for k := i + 1; k < len(u) && ok; k++ {
			if f.inCS(i, k) {
				ok = u[k] <= 0
				u[k] = -1
			}
		}
		if ok && valid(f, u) {
			out = append(out, f.stableOutcome(f.races[i][v-1]))
		}
	}
	return out
}

// bytes estimates the memory f holds: its slices and maps.
func (f *frame) bytes() int64 {
	a := f.a
	n := 4 * int64(len(a.ts)+len(a.cs)+len(a.start)+len(a.grp)+len(a.pos)+len(a.slot)+len(a.ncalls)+2*len(a.cross))
	n += 12 * int64(len(a.exec)+len(a.par))
	for _, s := range a.steps {
		n += 4 * int64(len(s))
	}
	n += int64(len(f.black)) + 4*int64(len(f.stable)+len(f.cols))
	for _, r := range f.races {
		n += 24 * int64(len(r))
	}
	for _, r := range f.inherit {
		n += 24 * int64(len(r))
	}
	for _, u := range f.virtual {
		n += 4*int64(len(u.cs)) + 64
	}
	for _, nb := range f.nonBlocking {
		n += int64(len(nb))
	}
	return n
}

// stableOutcome returns o with its threads named stably.
func (f *frame) stableOutcome(o outcome) sout {
	x := sout{E: vside{T: f.stable[o.exec.t], K: o.exec.k, Case: o.exec.cas}, P: vside{T: -1}}
	if o.par.t >= 0 {
		x.P = vside{T: f.stable[o.par.t], K: o.par.k, Case: o.par.cas}
	}
	return x
}

// virtual is an unmatched receiving event of a variant that its run did
// not fill: position p of group g, the clock of its control structure
// (the step before it there), and its spec in the variant.
type virtual struct {
	g, p int32
	cs   vc
	spec spec
	// kept marks an event of V that the run did not reach (not an
	// unmatched one it did not fill); first the first event not filled on
	// its object, which gets a race set; branch a branch event.
	kept, first, branch bool
	// src is the step a receive there would take its value from (or a
	// send there its room), or -1.
	src int32
}

var _ racetab = (*frame)(nil)

func (f *frame) columns() int   { return len(f.cols) }
func (f *frame) size(i int) int { return len(f.races[i]) }

// The columns of a race table are Q's steps (their indices) and, after
// them, the unfilled unmatched events of V (f.virtual), which happened
// before nothing.

func (f *frame) nsteps() int32 { return int32(len(f.a.grp)) }

// colCS returns the clock of column event c's control structure.
func (f *frame) colCS(c int32) vc {
	if c >= f.nsteps() {
		return f.virtual[c-f.nsteps()].cs
	}
	return f.a.csOf(int(c))
}

// colBefore reports whether column event c happened before clock k.
func (f *frame) colBefore(c int32, k vc) bool {
	return c < f.nsteps() && f.a.before(c, k)
}

// colCross returns the steps column event c synchronises with besides its
// calls (none for an unfilled event).
func (f *frame) colCross(c int32) [2]int32 {
	if c >= f.nsteps() {
		return [2]int32{f.virtual[c-f.nsteps()].src, -1}
	}
	return f.a.cross[c]
}

func (f *frame) inCS(j, i int) bool {
	return f.colBefore(f.cols[j], f.colCS(f.cols[i]))
}

func (f *frame) inPartner(j, i, v int) bool {
	a, r := f.a, f.cols[j]
	o := f.races[i][v-1]
	for _, s := range [2]side{o.exec, o.par} {
		if s.t >= 0 && f.colBefore(r, a.callClock(s.t, s.k)) {
			return true
		}
	}
	return false
}

// beforeIn reports whether step i is one that column event r and its new
// partners o need in a variant, which Fig. 10 (lines 8-9) colours black
// so that they stay: it is in r's control structure or in the past of a
// call of o, or in the control structure of a step r needs besides (the
// send whose value a receive takes: that one may take another partner
// later, as long as it is there; the value is then another, which
// removes what r's thread did after it, but not r).
func (f *frame) beforeIn(i, r int32, o outcome) bool {
	a := f.a
	if a.before(i, f.colCS(r)) {
		return true
	}
	for _, s := range [2]side{o.exec, o.par} {
		if s.t >= 0 && a.before(i, a.callClock(s.t, s.k)) {
			return true
		}
	}
	for _, x := range f.colCross(r) {
		if x >= 0 && x != i && a.before(i, a.csOf(int(x))) {
			return true
		}
	}
	return false
}

// thread returns the thread of Q whose stable number is st, or -1.
func (f *frame) thread(st int32) int32 {
	for t, x := range f.stable {
		if x == st {
			return int32(t)
		}
	}
	return -1
}

// crossChanged reports whether a step that step i synchronises with (the
// send whose value it takes) has a changed event in its past.
func (f *frame) crossChanged(i int32, changed []int32) bool {
	for _, x := range f.a.cross[i] {
		if x < 0 {
			continue
		}
		for _, r := range changed {
			if f.colBefore(r, f.a.tsOf(int(x))) {
				return true
			}
		}
	}
	return false
}

// sourceLost reports whether step x, the send or close whose value (or
// closing) a receive takes, is not fixed by a variant: its control
// structure holds a changed event (hit), or one of its calls is removed.
func (f *frame) sourceLost(x int32, hit func(vc) bool, removedCall func(side) bool) bool {
	a := f.a
	if hit(a.csOf(int(x))) || removedCall(a.exec[x]) {
		return true
	}
	return a.par[x].t >= 0 && removedCall(a.par[x])
}

// changedSpec returns the spec of an event whose partner changes to o: its
// calls all specified, black (Fig. 10, line 7), and for a select's default
// what it needs to have happened before it (cs and the select's past).
func (f *frame) changedSpec(o outcome, cs vc, hint int32) spec {
	sp := spec{Black: true, Hint: hint,
		Exec: vside{T: f.stable[o.exec.t], K: o.exec.k, Case: o.exec.cas}}
	if o.par.t >= 0 {
		sp.HasPar = true
		sp.Par = vside{T: f.stable[o.par.t], K: o.par.k, Case: o.par.cas}
	}
	f.defaultPast(&sp, o, cs)
	return sp
}

// defaultPast sets sp.Past if sp is a select's default (outcome o, the
// clock of its control structure cs).
func (f *frame) defaultPast(sp *spec, o outcome, cs vc) {
	if sp.Exec.Unset || sp.Exec.Case >= 0 || !f.nonBlocking[o.exec.t][o.exec.k] {
		return
	}
	a := f.a
	k := vc(make([]uint32, a.n))
	copy(k, cs)
	k.join(a.callClock(o.exec.t, o.exec.k))
	sp.Past = make([]int32, slices.Max(f.stable)+1)
	for t, x := range k {
		sp.Past[f.stable[t]] = int32(x)
	}
}

// derive returns the variant of row t of f's race table (Definition 7):
// the receiving events of Q whose control structure holds no changed event,
// with their partners (the new ones for the changed, none for a call
// removed), and the colours of Fig. 10, lines 5-12: a changed event is
// black, and so is every event that happened before it.
func (f *frame) derive(t []int) *variant {
	a := f.a
	var changed []int32
	newOut := make(map[int32]outcome)
	for i, x := range t {
		if x > 0 {
			changed = append(changed, f.cols[i])
			newOut[f.cols[i]] = f.races[i][x-1]
		}
	}
	hit := func(c vc) bool {
		for _, r := range changed {
			if f.colBefore(r, c) {
				return true
			}
		}
		return false
	}
	removedCall := func(s side) bool { return hit(a.callClock(s.t, s.k)) }
	v := &variant{Pos: make(map[int32][]spec), Old: make([]int32, 0, len(f.stable))}
	for i := range a.grp {
		g := a.grp[i]
		if g < 0 || hit(a.csOf(i)) {
			continue
		}
		var sp spec
		if o, ok := newOut[int32(i)]; ok {
			sp = f.changedSpec(o, a.csOf(i), int32(i))
		} else {
			o := outcome{a.exec[i], a.par[i]}
			sp = spec{Black: f.black[i], Hint: int32(i),
				Exec: vside{T: f.stable[o.exec.t], K: o.exec.k, Case: o.exec.cas, Unset: removedCall(o.exec)}}
			if o.par.t >= 0 {
				sp.HasPar = true
				sp.Par = vside{T: f.stable[o.par.t], K: o.par.k, Case: o.par.cas, Unset: removedCall(o.par)}
			}
			// It failed at the end of Q: kept with the same partners and
			// values, it fails again.
			sp.Fails = f.failing(int32(i), changed) && !sp.unmatched() && !f.crossChanged(int32(i), changed)
			f.defaultPast(&sp, o, a.csOf(i))
			sp.Races = f.prunable(int32(i), t)
			for _, r := range changed {
				if !sp.Black && f.beforeIn(int32(i), r, newOut[r]) {
					sp.Black = true
				}
			}
		}
		if x := a.cross[i][0]; x >= 0 && !sp.unmatched() && f.sourceLost(x, hit, removedCall) {
			sp.Open = true
		}
		if int(a.pos[i]) != len(v.Pos[g]) {
			panic("weft internal error: reach: a variant's events on an object are not a prefix of its positions")
		}
		if c, ok := f.conds[int32(i)]; ok {
			sp.cond = c
			v.addCond(&sp)
		}
		v.Pos[g] = append(v.Pos[g], sp)
	}
	// The events of V its run did not fill, kept while their control
	// structures are: lost holds the threads (stable) a kept event of
	// which was left out, whose later calls are left out too; keep the
	// number of calls of each thread that kept events hold.
	lost := make(map[int32]bool)
	keep := make(map[int32]int32)
	for j, u := range f.virtual {
		c := f.nsteps() + int32(j)
		if hit(u.cs) || len(v.Pos[u.g]) != int(u.p) || (u.kept && !u.spec.Exec.Unset && lost[u.spec.Exec.T]) {
			if u.kept {
				for _, x := range u.spec.sides() {
					lost[x.T] = true
				}
			}
			continue
		}
		if o, ok := newOut[c]; ok {
			v.Pos[u.g] = append(v.Pos[u.g], f.changedSpec(o, u.cs, f.nsteps()))
			if u.kept {
				// Its calls complete elsewhere, if at all: what their
				// threads did after them is not the variant's.
				for _, x := range u.spec.sides() {
					lost[x.T] = true
				}
			}
			continue
		}
		sp := u.spec
		for _, x := range []*vside{&sp.Exec, &sp.Par} {
			if x.Unset || (x == &sp.Par && !sp.HasPar) {
				continue
			}
			t := f.thread(x.T)
			switch {
			case t < 0 || lost[x.T] || (x.K >= a.calls(t) && !u.kept):
				x.Unset = true
			case removedCall(side{t, min(x.K, int32(len(a.steps[t]))), -1}):
				x.Unset = true
			}
			if x.Unset && u.kept {
				lost[x.T] = true
			}
		}
		if u.branch && sp.Exec.Unset {
			continue // a branch whose thread's past changed is removed
		}
		for _, x := range sp.sides() {
			keep[x.T] = max(keep[x.T], x.K+1)
			if u.kept {
				// The call after it is V's too, if V had it: its
				// control structure is this event and its past.
				keep[x.T] = max(keep[x.T], min(x.K+2, f.vOld(x.T)))
			}
		}
		if !u.kept {
			sp.Fails, sp.Past = false, nil
		}
		sp.Hint = f.nsteps() + int32(j)
		sp.Races = f.prunable(c, t)
		if sp.cond.IsValid() {
			v.addCond(&sp)
		}
		v.Pos[u.g] = append(v.Pos[u.g], sp)
	}
	for t := range int32(a.n) {
		st := f.stable[t]
		for int(st) >= len(v.Old) {
			v.Old = append(v.Old, 0)
		}
		k := int32(0)
		for k < a.calls(t) && !removedCall(side{t, k, -1}) {
			k++
		}
		v.Old[st] = k
	}
	for st, k := range keep {
		for int(st) >= len(v.Old) {
			v.Old = append(v.Old, 0)
		}
		v.Old[st] = max(v.Old[st], k)
	}
	return v
}

// addCond adds the side of branch event sp to v's path constraint.
func (v *variant) addCond(sp *spec) {
	v.pc = append(v.pc, sideExpr(sp.cond, sp.Exec.Case == trueSide))
	if sp.Black {
		v.black = append(v.black, v.pc[len(v.pc)-1])
	}
}

// sides returns the calls of s that are specified.
func (s *spec) sides() []vside {
	var out []vside
	if !s.Exec.Unset {
		out = append(out, s.Exec)
	}
	if s.HasPar && !s.Par.Unset {
		out = append(out, s.Par)
	}
	return out
}

// localOutcome returns the outcome of spec sp with the threads of f's
// run (noSide for a call whose thread it does not have).
func (f *frame) localOutcome(sp *spec) outcome {
	o := outcome{noSide, noSide}
	if t := f.thread(sp.Exec.T); t >= 0 && !sp.Exec.Unset {
		o.exec = side{t, sp.Exec.K, sp.Exec.Case}
	}
	if t := f.thread(sp.Par.T); sp.HasPar && t >= 0 && !sp.Par.Unset {
		o.par = side{t, sp.Par.K, sp.Par.Case}
	}
	return o
}
