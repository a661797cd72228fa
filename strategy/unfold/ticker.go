// This file models the state a Ticker keeps outside the shared objects:
// weft's Ticker re-arms its timer in the local code of the receive of a
// tick unless the ticker was stopped or the test body returned, and it
// sets that state in the local code of the step before a Stop or Reset
// and of the body's last step. The events whose local code writes the
// state (the writers) take the condition of the ticker's timer thread, as
// the tick and the re-arming do, so that the net orders them; which
// events write it is learnt from the executions, and the unfolding is
// rebuilt from them when a new writer shows.

package unfold

import (
	"fmt"
	"slices"

	"github.com/weft-go/weft/trace"
)

// tickKey names the events of a thread condition across unfoldings: its
// stable thread, the number of the thread's own events (steps and
// branches, not advances of time) before it, and its next operation.
type tickKey struct {
	thread, steps int32
	op            opKey
}

// tickerWatch holds, for each ticker (stable object of its channel), the
// events of the unfolding whose local code reads or writes the state the
// Ticker keeps outside the net, and the events after which the body has
// returned.
type tickerWatch struct {
	// readers are the ticks (receives that met the ticker's thread) and
	// the re-armings that follow them; writers the events after which
	// their thread has a Stop or a Reset of the ticker pending (the
	// Ticker sets its state in the local code before that step).
	readers, writers map[int32][]int32
	// returns are the events after which the body (stable thread 0) has
	// finished.
	returns []int32
	err     error // the first pair found concurrent that no writer key can order
	// keys are, per ticker, the keys of the thread conditions whose
	// events write its state (learnt); users those thread conditions of
	// the unfolding, pending. learnt reports keys learnt since the
	// unfolding was built: it must be built again.
	keys   map[int32]map[tickKey]bool
	users  map[int32][]int32
	learnt bool
}

// bodyThread is the stable number of the test body's thread.
const bodyThread = 0

// watchTicker records event e, just added, if its local code reads or
// writes a ticker's hidden state, and checks it against the events of
// the other side recorded before: a reader concurrent with a writer, or
// with the body's return, is a tick whose next operation the net does not
// decide (either event may come first), and the writer's key is learnt.
func (n *net) watchTicker(e int32) {
	if len(n.tickers) == 0 || n.tick.err != nil {
		return
	}
	w := &n.tick
	if w.readers == nil {
		w.readers, w.writers = map[int32][]int32{}, map[int32][]int32{}
	}
	ev := &n.events[e]
	if o, ok := n.tickRead(e); ok {
		w.readers[o] = append(w.readers[o], e)
		for _, x := range w.writers[o] {
			n.checkTicker(e, x, o, "a Stop or Reset of the ticker by another thread")
		}
		if ev.thread != bodyThread {
			for _, x := range w.returns {
				n.checkTicker(e, x, o, "the return of the test body")
			}
		}
	}
	for _, d := range append([]int32{ev.post[0]}, ev.spawned...) {
		c := &n.conds[d]
		if c.state == pending && c.op.kind == trace.KindTimerStop && n.tickers[c.op.obj] {
			w.writers[c.op.obj] = append(w.writers[c.op.obj], e)
			for _, x := range w.readers[c.op.obj] {
				n.checkTicker(x, e, c.op.obj, "a Stop or Reset of the ticker by another thread")
			}
		}
	}
	if ev.thread == bodyThread && n.conds[ev.post[0]].state == done {
		w.returns = append(w.returns, e)
		for o, rs := range w.readers {
			for _, x := range rs {
				if n.events[x].thread != bodyThread {
					n.checkTicker(x, e, o, "the return of the test body")
				}
			}
		}
	}
}

// tickRead reports whether event e reads a ticker's hidden state in its
// local code, and the ticker's stable object: e is a receive that met
// the ticker's thread (a tick), or a Stop or Reset of the ticker that
// follows a tick in its thread (the re-arming, which looks at whether the
// ticker changed while it waited).
func (n *net) tickRead(e int32) (int32, bool) {
	ev := &n.events[e]
	if n.rendezvous(ev) {
		d := ev.pre[len(ev.pre)-1]
		if !n.daemon(d) {
			return 0, false
		}
		o := n.timerOf[n.threadOf(d)]
		return o, n.tickers[o]
	}
	if ev.op.kind != trace.KindTimerStop || !n.tickers[ev.op.obj] {
		return 0, false
	}
	p := n.conds[ev.pre[0]].producer
	if p < 0 {
		return 0, false
	}
	o, ok := n.tickRead(p)
	return o, ok && o == ev.op.obj && n.events[p].thread == ev.thread
}

// checkTicker handles reader r and event x (a writer of ticker o's hidden
// state, or the body's return, what) if they are concurrent: some
// reachable marking enables both, so either may come first, and r's
// thread goes on differently after r in the two orders. x's key is learnt
// (its events take the condition of o's thread from now on), or, if x's
// operation cannot take it (tickWritable), the program is refused.
func (n *net) checkTicker(r, x, o int32, what string) {
	if r == x || n.tick.err != nil {
		return
	}
	a, b := n.events[r].pre, n.events[x].pre
	for _, c := range a {
		if slices.Contains(b, c) {
			return // in conflict: never both
		}
	}
	ok, fatal := n.co(append(slices.Clone(a), b...)...)
	if !ok || fatal {
		return
	}
	t := n.events[x].pre[0]
	k := n.keyOf(t)
	if n.tick.learnt && n.tick.keys[o][k] {
		return // learnt in this execution: the unfolding is built again after it
	}
	if n.tickWritable(n.events[x]) && !n.tick.keys[o][k] {
		if n.tick.keys == nil {
			n.tick.keys = map[int32]map[tickKey]bool{}
		}
		if n.tick.keys[o] == nil {
			n.tick.keys[o] = map[tickKey]bool{}
		}
		n.tick.keys[o][k] = true
		n.tick.learnt = true
		return
	}
	n.tick.err = fmt.Errorf("unfold does not model a Ticker whose re-arming after a tick another thread's Stop or the body's return decides after %v (a tick by stable thread %d may come before or after %s): the ticker keeps that state outside the shared objects; use optimal or dpor+sleep (%w)", n.events[x].op, n.events[r].thread, what, ErrUnmodelled)
}

// tickWritable reports whether the event of writer ev's operation can
// take the condition of a ticker's thread besides its own: an operation
// whose possible extensions the naive way finds (Fig. 10), from its
// thread condition and from each place it takes, and whose preset has
// no partner's condition last.
func (n *net) tickWritable(ev event) bool {
	k := ev.op
	if ev.side != noSide || isAdvance(k) || k.kind == kindBranch || k.class == trace.ClassChan || k.class == trace.ClassRWMutex {
		return false
	}
	switch accessOf(k) {
	case readAccess, writeAccess, mutexAccess, joinAccess, noAccess:
		return true
	}
	return false
}

// keyOf returns the key of thread condition t.
func (n *net) keyOf(t int32) tickKey {
	c := &n.conds[t]
	k := tickKey{thread: n.places[c.place].thread, op: c.op}
	for d := t; n.conds[d].parent >= 0; d = n.conds[d].parent {
		ev := &n.events[n.conds[d].producer]
		if !isAdvance(ev.op) && (ev.thread == k.thread || ev.op.kind != trace.KindJoin) {
			k.steps++ // its own step, or a send a receive met
		}
	}
	return k
}

// tickExtra appends to buf the places of the timer threads of the
// tickers whose hidden state the events of thread condition t write
// (learnt keys), but for those its operation takes anyway.
func (n *net) tickExtra(buf []int32, t int32) []int32 {
	if len(n.tick.keys) == 0 || n.conds[t].state != pending {
		return buf
	}
	k := n.keyOf(t)
	for _, o := range sortedKeys(n.tick.keys) {
		if !n.tick.keys[o][k] {
			continue
		}
		if p := n.timerPlace(o); p >= 0 && !(accessOf(k.op) == timerAccess && k.op.obj == o) {
			buf = append(buf, p)
		}
	}
	return buf
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[int32]V) []int32 {
	ks := make([]int32, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// noteTickWriter registers thread condition t, new, among the writers of
// the tickers whose state its events write, so that the new conditions
// of their threads are tried with it (tickWriters).
func (n *net) noteTickWriter(t int32) {
	for _, p := range n.tickExtra(nil, t) {
		o := n.timerOf[n.places[p].thread]
		if n.tick.users == nil {
			n.tick.users = map[int32][]int32{}
		}
		n.tick.users[o] = append(n.tick.users[o], t)
	}
}

// tickWriters adds the extensions of the writers of ticker o's state
// that take d, a new condition of o's timer thread (the naive way).
func (n *net) tickWriters(o, d int32) {
	for _, t := range n.tick.users[o] {
		if n.conds[t].state == pending {
			n.naiveFrom(t, n.conds[d].place, d)
		}
	}
}

// keepExec keeps tr, which ended so, to build the unfolding again from
// (rebuild), unless the executions kept pass maxLogEvents or read inputs
// (their branches' expressions are not kept), or the strategy was resumed
// from a unit (it has not the executions before it). x, if not nil, is
// the copy of tr that the log of units holds.
func (s *Strategy) keepExec(x *wireExec, tr *trace.Trace, end trace.End) {
	k := &s.kept
	if k.off != "" || k.building {
		return
	}
	switch {
	case len(tr.Inputs) > 0 || len(tr.Branches) > 0:
		k.off = "the program reads inputs"
	case s.u.resumed:
		k.off = "the strategy was resumed from a unit"
	case k.events+len(tr.Events) > maxLogEvents:
		k.off = fmt.Sprintf("its executions passed %d events", maxLogEvents)
	}
	if k.off != "" {
		k.execs = nil
		return
	}
	k.events += len(tr.Events)
	if x == nil {
		x = wireOf(tr, end)
	}
	k.execs = append(k.execs, x)
}

// keptExecs are the executions a strategy keeps to build its unfolding
// again when it learns a writer of a ticker's hidden state.
type keptExecs struct {
	execs    []*wireExec
	events   int
	off      string // why none are kept, if so
	building bool   // the strategy is being built from them
}

// rebuild builds the unfolding again from the executions kept, with the
// writers of tickers' hidden state learnt so far (their events take the
// conditions of the tickers' threads), and goes on from it: every
// possible extension of the new unfolding not in it is a target, in
// order. Building may learn more writers: it starts again then. The
// possible extensions are computed the naive way from then on (Fig. 10):
// the efficient searches of §5 know nothing of the writers' extra
// conditions.
func (s *Strategy) rebuild() {
	if s.kept.off != "" {
		s.diverge(fmt.Errorf("unfold does not model a Ticker whose re-arming after a tick another thread's Stop or the body's return decides here: it needs the unfolding built again from the executions, which it does not keep (%s); use optimal or dpor+sleep (%w)", s.kept.off, ErrUnmodelled))
		return
	}
	keys := s.n.tick.keys
	var r *Strategy
	for {
		r = New(s.opts)
		r.n.naive, r.n.observe = true, s.n.observe
		r.n.tick.keys = keys
		r.n.stop = s.n.stop
		r.n.sym.slv = s.n.sym.slv
		r.u.noLog = "built again"
		r.kept.building = true
		r.started = true
		for _, x := range s.kept.execs {
			r.reset(-1, nil)
			r.finish(x.trace(), x.End, 'f')
			if r.err != nil || r.n.stop.Fired() {
				break
			}
		}
		if !r.n.tick.learnt || r.err != nil || r.n.stop.Fired() {
			break
		}
		keys = r.n.tick.keys
	}
	r.n.stats.Rebuilds = s.n.stats.Rebuilds + 1
	if r.err != nil {
		s.err, s.failed = r.err, r.failed
		return
	}
	old := s.n.stats
	st := &r.n.stats
	st.Targets, st.Infeasible, st.Retried = old.Targets, old.Infeasible, old.Retried
	st.DeadlockTests, st.AdvanceTests, st.Probes = old.DeadlockTests, old.AdvanceTests, old.Probes
	st.DeadlockTime += old.DeadlockTime
	r.opts, r.rnd, r.pcg = s.opts, s.rnd, s.pcg
	r.u = s.u
	// Its log no longer builds its unfolding: it hands out no units.
	r.u.noLog, r.u.log = "the unfolding was built again when it learnt a writer of a ticker's hidden state", nil
	r.kept = s.kept
	*s = *r
}
