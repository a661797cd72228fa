// This file implements what the race analysis keeps of the accesses to each
// object, so that the candidates of a race with an event cost O(threads)
// rather than O(accesses to its objects): the last write and, since it, the
// maximal reads and shared updates (as Nidhugg and GenMC keep them), and the
// full log of accesses for the steps whose enabledness varies with the race.
//
// # Why dropping accesses loses no race
//
// scan considers the candidates e of a race with a step e' latest first; a
// candidate is skipped if it belongs to e''s threads or happens before
// their previous steps (the clock k0), if its races were analysed by an
// earlier execution (analysed), or if, for the alternative l of e' enabled
// in the state pre(E, e).notdep(e, E), it happens before a candidate kept
// for l (the clock k_l, which grows by the clock of each candidate kept).
// Skipping a candidate that would be skipped anyway at its turn changes
// nothing: skipping has no effect.
//
// Let r < d be accesses of one object that both conflict with e', with r
// happening before d (r -> d). d comes first. If d is skipped because
// k0 knows it, so does k0 know r; if d is analysed, every new event
// happens after d, hence after r, and r is analysed; otherwise d goes to
// reverseStep, and for each alternative l enabled at d, k_l knows d
// afterwards, and so r. So r is skipped at its turn for every alternative
// of e' that is enabled at d. Two kinds of steps have one alternative,
// whatever the state (its label: thread, step number, no partner):
//
//   - a step that never blocks and has one alternative (not a receive or a
//     select: model.MayBlock and multi), whose alternative reverseStep
//     keeps at every candidate it considers;
//   - a step that may block but has one alternative: kept at d if enabled
//     there; if not (d enabled it: a release before an acquire), earlier
//     candidates matter.
//
// For the first kind, every r with an r -> d among the candidates is
// dropped (frontier): since a write comes after every earlier access to its
// object (trace.ObjectClocks), the candidates of object o reduce to its last
// write and, since it, the reads and shared updates that e' conflicts with
// and that happen before no other of their kind since the write (at most
// one per thread: a thread's steps are ordered). d must be a step scan
// considers at all: a candidate conflicts with e' on the trace's objects,
// and nm.racing compares the same accesses under stable object numbers, so
// it is racing; frontier checks it and leaves the step to walk if not.
//
// For the other steps, walk goes through the object's log, latest first,
// and stops at a write w once every earlier access is known to be skipped:
// k0 knows w, or w is analysed, or the step has one alternative and k_l
// knows w. A receive or a select (several alternatives, which the model
// finds per state) stops only on the first two. The stop for one
// alternative skips the enabledness computations of candidates that k_l
// then skips: Stats.Unmodelled no longer counts these (they decided
// nothing); the races reversed are the same.
//
// SetVerify checks it: each scan is run again over every candidate, as
// before this file existed, and must reverse the same races (verifyScan).

package optimal

import (
	"fmt"
	"slices"
	"sort"

	"github.com/weft-go/weft/trace"
)

// objLog is what the analysis keeps of the accesses to one object by the
// events before the one it analyses.
type objLog struct {
	all []objAcc // every access, in order
	// lastW is the position in all of the last write, or -1.
	lastW int32
	// reads and shared are the reads and shared updates since the last
	// write that happen before no other of their kind since it (events).
	reads, shared []int32
	// unanalysed has bit 1<<m set for each mode m of an access in all by a
	// replayed event whose races were not all analysed before (analysed).
	unanalysed uint8
}

// objAcc is an access of event i to the object, in mode; nr and ns are the
// positions in the log of the latest access at or before it that is not a
// read (nr) or not a shared update (ns), or -1: the ones a read or a
// shared update conflicts with.
type objAcc struct {
	i      int32
	mode   trace.Mode
	nr, ns int32
}

// reset empties l, keeping its memory.
func (l *objLog) reset() {
	l.all, l.reads, l.shared, l.lastW, l.unanalysed = l.all[:0], l.reads[:0], l.shared[:0], -1, 0
}

// resetLogs returns n empty logs, reusing the memory of logs.
func resetLogs(logs []objLog, n int) []objLog {
	logs = growLogs(logs, n)[:n]
	for i := range logs {
		logs[i].reset()
	}
	return logs
}

// growLogs returns logs with at least n logs, those it adds empty: in one
// growth, as an execution of many objects would otherwise grow them by a
// quarter at a time.
func growLogs(logs []objLog, n int) []objLog {
	if k := len(logs); k < n {
		logs = slices.Grow(logs, n-k)[:n]
		for i := k; i < n; i++ {
			logs[i] = objLog{lastW: -1}
		}
	}
	return logs
}

// log adds the accesses of event j to the logs of their objects.
func (a *analysis) log(j int) {
	unanalysed := a.unanalysed(j)
	for _, x := range a.hb.steps.Accesses(j) {
		o := a.objIndex(x.Obj)
		if o < 0 {
			continue
		}
		l := &a.objs[o]
		if unanalysed {
			l.unanalysed |= 1 << x.Mode
		}
		pos := int32(len(l.all))
		acc := objAcc{i: int32(j), mode: x.Mode, nr: pos, ns: pos}
		if pos > 0 {
			prev := &l.all[pos-1]
			if x.Mode == trace.Read {
				acc.nr = prev.nr
			}
			if x.Mode == trace.Shared {
				acc.ns = prev.ns
			}
		} else {
			if x.Mode == trace.Read {
				acc.nr = -1
			}
			if x.Mode == trace.Shared {
				acc.ns = -1
			}
		}
		l.all = append(l.all, acc)
		switch x.Mode {
		case trace.Write:
			l.lastW = pos
			l.reads, l.shared = l.reads[:0], l.shared[:0]
		case trace.Read:
			l.reads = a.maximal(l.reads, j)
		case trace.Shared:
			l.shared = a.maximal(l.shared, j)
		}
	}
}

// unanalysed reports whether replayed event j's races were not all
// analysed before (analysed): some new event does not happen after it.
func (a *analysis) unanalysed(j int) bool {
	return j < a.fresh && !a.noNew && a.newMinV[a.tr.Events[j].Thread] <= uint32(j)
}

// mayReverse reports whether the scan of replayed step j may reverse a
// race: whether an event whose races were not all analysed before
// (analysed) has an access that j's accesses conflict with, the only
// candidates scan could reverse (the failing last event aside, which no
// replayed step but the last comes after).
func (a *analysis) mayReverse(j int) bool {
	if a.evs[j].fails {
		return true
	}
	for _, x := range a.hb.steps.Accesses(j) {
		o := a.objIndex(x.Obj)
		if o < 0 {
			continue
		}
		u := a.objs[o].unanalysed
		if x.Mode != trace.Write {
			u &^= 1 << x.Mode
		}
		if u != 0 {
			return true
		}
	}
	return false
}

// maximal adds event j to set, dropping the events that happen before it.
func (a *analysis) maximal(set []int32, j int) []int32 {
	out := set[:0]
	for _, r := range set {
		if !a.before(int(r), j) {
			out = append(out, r)
		}
	}
	return append(out, int32(j))
}

// frontier sets a.cands to the candidates of a race with a step that never
// blocks and has one alternative, latest first, whose accesses are acc
// (raw object numbers) and whose event, as scan sees it, is probe: for
// each object, its last write and the reads and shared updates since it
// that acc conflicts with and that happen before no other of their kind,
// plus the failing last event. It reports false, leaving the step to walk,
// if one of them is not racing with probe (see the file's comment).
func (a *analysis) frontier(limit int, acc []trace.Access, probe *event) bool {
	c := a.cands[:0]
	failing := false
	if n := len(a.evs); n > 0 && a.evs[n-1].fails && n-1 < limit {
		failing = true
	}
	if len(acc) == 1 && !failing {
		// One object (most steps): its candidates, latest first, without
		// a sort.
		if o := a.objIndex(acc[0].Obj); o >= 0 {
			c = a.objFrontier(c, &a.objs[o], acc[0].Mode)
		}
		a.cands = c
		return a.racingAll(c, probe)
	}
	for _, x := range acc {
		o := a.objIndex(x.Obj)
		if o < 0 {
			continue
		}
		l := &a.objs[o]
		if trace.ModesConflict(x.Mode, trace.Read) {
			c = append(c, l.reads...)
		}
		if trace.ModesConflict(x.Mode, trace.Shared) {
			c = append(c, l.shared...)
		}
		if l.lastW >= 0 {
			c = append(c, l.all[l.lastW].i)
		}
	}
	if failing {
		c = append(c, int32(len(a.evs)-1))
	}
	slices.Sort(c)
	c = slices.Compact(c)
	slices.Reverse(c)
	a.cands = c
	return a.racingAll(c, probe)
}

// objFrontier appends to c, latest first, the candidates in l of an access
// in mode m (see frontier): the reads and shared updates since the last
// write that m conflicts with, each list in order, merged, then the write.
func (a *analysis) objFrontier(c []int32, l *objLog, m trace.Mode) []int32 {
	var r, sh []int32
	if trace.ModesConflict(m, trace.Read) {
		r = l.reads
	}
	if trace.ModesConflict(m, trace.Shared) {
		sh = l.shared
	}
	i, j := len(r)-1, len(sh)-1
	for i >= 0 || j >= 0 {
		switch {
		case j < 0 || (i >= 0 && r[i] > sh[j]):
			c = append(c, r[i])
			i--
		case i < 0 || sh[j] > r[i]:
			c = append(c, sh[j])
			j--
		default: // one event in both
			c = append(c, r[i])
			i, j = i-1, j-1
		}
	}
	if l.lastW >= 0 {
		if w := l.all[l.lastW].i; len(c) == 0 || c[len(c)-1] != w {
			c = append(c, w)
		}
	}
	return c
}

// racingAll reports whether every candidate of c is racing with probe.
func (a *analysis) racingAll(c []int32, probe *event) bool {
	for _, i := range c {
		if !a.s.nm.racing(a.evs[i], probe) {
			return false
		}
	}
	return true
}

// cursor is walk's position in the log of one object: pos is the next
// access to consider, or -1 once done.
type cursor struct {
	log  *objLog
	mode trace.Mode // the mode of the step's access
	pos  int32
}

// next returns the position at or before pos of the latest access that
// mode conflicts with, or -1.
func (c *cursor) next(pos int32) int32 {
	if pos < 0 {
		return -1
	}
	switch c.mode {
	case trace.Read:
		return c.log.all[pos].nr
	case trace.Shared:
		return c.log.all[pos].ns
	}
	return pos
}

// walk considers the candidates of a race with the step of thread p whose
// operation is op (see scan), going through the logs of the objects of acc
// latest first and stopping in each at a write once every earlier access
// is known to be skipped (see the file's comment). single says the step
// has one alternative whatever the state.
func (a *analysis) walk(limit int, p trace.ThreadID, op trace.Op, own, probe *event, acc []trace.Access, single bool) {
	var buf [8]cursor
	cs := buf[:0]
	for _, x := range acc {
		if o := a.objIndex(x.Obj); o >= 0 {
			c := cursor{log: &a.objs[o], mode: x.Mode}
			c.pos = c.next(int32(len(c.log.all)) - 1)
			cs = append(cs, c)
		}
	}
	last := -1
	if n := len(a.evs); n > 0 && a.evs[n-1].fails && n-1 < limit {
		// The failing last event, dependent with every event, comes first.
		a.consider(n-1, limit, p, op, own, probe)
		last = n - 1
	}
	if len(cs) == 1 {
		// One object (most steps): its log alone.
		c := &cs[0]
		for ; c.pos >= 0; c.pos = c.next(c.pos - 1) {
			r := &c.log.all[c.pos]
			i := int(r.i)
			if i != last {
				a.consider(i, limit, p, op, own, probe)
				last = i
			}
			if r.mode == trace.Write && a.covered(i, single) {
				return
			}
		}
		return
	}
	for {
		// The latest access left among the cursors.
		i := int32(-1)
		for _, c := range cs {
			if c.pos >= 0 {
				i = max(i, c.log.all[c.pos].i)
			}
		}
		if i < 0 {
			return
		}
		if int(i) != last {
			a.consider(int(i), limit, p, op, own, probe)
			last = int(i)
		}
		stop := a.covered(int(i), single)
		for j := range cs {
			c := &cs[j]
			if c.pos < 0 || c.log.all[c.pos].i != i {
				continue
			}
			if stop && c.log.all[c.pos].mode == trace.Write {
				c.pos = -1
				continue
			}
			c.pos = c.next(c.pos - 1)
		}
	}
}

// covered reports whether every candidate happening before i is known to
// be skipped (see the file's comment): k0 knows i, or i is analysed, or the
// step has one alternative (single) and the clock of the candidates kept
// for it knows i.
func (a *analysis) covered(i int, single bool) bool {
	t := a.tr.Events[i].Thread
	return a.k.knows(i, t) || a.analysed(i) || (single && len(a.kept) == 1 && a.kept[0].k.knows(i, t))
}

// consider skips candidate i of a race with the step of thread p (see
// scan), or reverses its races with the step's alternatives.
func (a *analysis) consider(i, limit int, p trace.ThreadID, op trace.Op, own, probe *event) {
	if a.s.stop.Poll() {
		return // a bound of the exploration passed: it ends here
	}
	if !a.dry {
		a.s.stats.Candidates++
	}
	e := a.evs[i]
	if e.Thread == p || e.Partner == p || a.k.knows(i, e.Thread) || a.analysed(i) || !a.s.nm.racing(e, probe) {
		return
	}
	a.reverseStep(i, limit, p, op, own)
}

// allCandidates sets a.cands to every candidate of a race with a step whose
// accesses are acc, latest first: the accesses before limit that acc
// conflicts with, plus the failing last event. It is the analysis without
// this file's reductions, which verifyScan compares them with.
func (a *analysis) allCandidates(limit int, acc []trace.Access) {
	c := a.cands[:0]
	for _, x := range acc {
		o := a.objIndex(x.Obj)
		if o < 0 {
			continue
		}
		for _, r := range a.objs[o].all {
			if int(r.i) < limit && trace.ModesConflict(x.Mode, r.mode) {
				c = append(c, r.i)
			}
		}
	}
	if n := len(a.evs); n > 0 && a.evs[n-1].fails && n-1 < limit {
		c = append(c, int32(n-1))
	}
	slices.Sort(c)
	c = slices.Compact(c)
	slices.Reverse(c)
	a.cands = c
}

// raceRec is a race reverse was given: the earlier event and the label and
// outcome of the later one.
type raceRec struct {
	i     int
	l     label
	ok    bool
	fails bool
}

// verifyScan runs the scan that just ran again over every candidate, with
// reverse recording the races instead of inserting them, and panics if
// they differ from those the scan reversed (a.got).
func (a *analysis) verifyScan(limit int, p trace.ThreadID, op trace.Op, own, probe *event, acc []trace.Access) {
	unmodelled := a.s.stats.Unmodelled
	a.dry, a.want = true, a.want[:0]
	a.kept = a.kept[:0]
	a.allCandidates(limit, acc)
	for _, i := range a.cands {
		a.consider(int(i), limit, p, op, own, probe)
	}
	a.dry = false
	a.s.stats.Unmodelled = unmodelled
	if !slices.Equal(a.got, a.want) {
		panic(fmt.Sprintf("weft internal error: optimal: the races of %v (thread %v at %d) found from the reduced candidates differ from those of all candidates: %v, want %v",
			op, p, limit, a.got, a.want))
	}
}

// keepLogs readies the logs for the run of a trace whose first a.reuse
// events are those of the last run, of whose events the logs hold the
// first logN, and returns the number k of this trace's events they hold:
// the last run's logs, cut back to the events before some j <= k
// (cutLogs) when the first step is scanned. The time object's log moves
// to its place in this trace (numbered last, it changes with the number
// of objects), and the logs of the objects the last run did not have are
// emptied; those of objects the last run made after the prefix hold only
// accesses that cutLogs drops. Which objects unanalysed events accessed
// is this run's: every mark is cleared. With nothing kept (or keeping did
// not pay in the last run: keepWorth), every log is emptied.
func (a *analysis) keepLogs(logN int) int {
	nobj := len(a.tr.Objects) + 1
	k := min(a.reuse, logN)
	old := a.logObjs
	a.logObjs = nobj
	if k == 0 || old == 0 || !a.keepWorth {
		a.objs = resetLogs(a.objs, nobj)
		return 0
	}
	if old != nobj {
		a.objs = growLogs(a.objs, max(old, nobj))[:max(old, nobj)]
		a.objs[old-1], a.objs[nobj-1] = a.objs[nobj-1], a.objs[old-1]
		for o := old - 1; o < nobj-1; o++ {
			a.objs[o].reset()
		}
		a.objs = a.objs[:nobj]
	}
	for o := range a.objs {
		a.objs[o].unanalysed = 0
	}
	return k
}

// cutLogs drops from the logs the accesses of events from j on, which the
// last run's logs hold beyond this run's prefix (keepLogs): a log cut
// gets its last write and its maximal reads and shared updates since it
// again, from its accesses since that write, as log found them.
func (a *analysis) cutLogs(j int) {
	for o := range a.objs {
		l := &a.objs[o]
		if len(l.all) == 0 || int(l.all[len(l.all)-1].i) < j {
			continue
		}
		// The accesses are in the order of their events.
		k := sort.Search(len(l.all), func(x int) bool { return int(l.all[x].i) >= j })
		l.all = l.all[:k]
		w := k - 1
		for w >= 0 && l.all[w].mode != trace.Write {
			w--
		}
		l.lastW, l.reads, l.shared = int32(w), l.reads[:0], l.shared[:0]
		for _, x := range l.all[w+1:] {
			switch x.mode {
			case trace.Read:
				l.reads = a.maximal(l.reads, int(x.i))
			case trace.Shared:
				l.shared = a.maximal(l.shared, int(x.i))
			}
		}
	}
	if a.hb.verify {
		a.checkLogs(j)
	}
}

// logBits notes, in the logs of the objects event j accesses, the modes
// of its accesses if its races were not all analysed before (log's
// unanalysed), without logging the accesses: the logs hold them already
// (keepLogs).
func (a *analysis) logBits(j int) {
	if !a.unanalysed(j) {
		return
	}
	for _, x := range a.hb.steps.Accesses(j) {
		if o := a.objIndex(x.Obj); o >= 0 {
			a.objs[o].unanalysed |= 1 << x.Mode
		}
	}
}

// checkLogs panics if the logs, cut back to the events before j, differ
// from those log builds over the events before j.
func (a *analysis) checkLogs(j int) {
	kept := a.objs
	a.objs = resetLogs(nil, len(kept))
	for i := range j {
		a.log(i)
	}
	built := a.objs
	a.objs = kept
	for o := range built {
		x, y := &kept[o], &built[o]
		if !slices.Equal(x.all, y.all) || x.lastW != y.lastW || !slices.Equal(x.reads, y.reads) ||
			!slices.Equal(x.shared, y.shared) || x.unanalysed != y.unanalysed {
			panic(fmt.Sprintf("weft internal error: optimal: the log of object %d kept for the first %d events is %+v, want %+v", o, j, *x, *y))
		}
	}
}
