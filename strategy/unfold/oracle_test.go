// This file holds the oracles of the tests: the unfolding of every
// execution of exhaustive search (Kähkönen et al. 2014, §4.6: the complete unfolding,
// built from all interleavings), and a signature of each event that does
// not depend on the order the unfolding was built in.

package unfold

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/trace"
)

// observer runs an inner strategy and models its executions in an
// unfolding, without possible extensions.
type observer struct {
	u     *Strategy
	inner strategy.Strategy
	// values, if not empty, are vectors of inputs: one exhaustive
	// search for each, in order (vi is the current one's index), whose
	// k-th input reads the vector's k-th value (0 past its end).
	values [][]uint64
	vi     int
}

// newObserver returns an observer of exhaustive search.
func newObserver() *observer {
	u := New(Options{})
	u.n.observe = true
	return &observer{u: u, inner: exhaustive.New()}
}

func (o *observer) Next() bool {
	for !o.inner.Next() {
		if o.vi+1 >= len(o.values) {
			return false
		}
		o.vi++
		o.inner = exhaustive.New()
	}
	o.u.reset(-1, nil)
	return true
}

func (o *observer) Choose(st *strategy.State) strategy.Choice {
	now := func(id trace.ThreadID) (trace.Op, bool) { return st.Threads[id].Op, st.Threads[id].Done }
	o.u.sync(st.Trace, st.Step, now, false)
	return o.inner.Choose(st)
}

func (o *observer) Input(st *strategy.State, in strategy.InputRequest) uint64 {
	if len(o.values) > 0 {
		if v := o.values[o.vi]; len(st.Trace.Inputs) < len(v) {
			return v[len(st.Trace.Inputs)]
		}
		return 0
	}
	return o.inner.Input(st, in)
}

func (o *observer) Finish(tr *trace.Trace, end trace.End) {
	now := func(id trace.ThreadID) (trace.Op, bool) {
		op := tr.Final[id]
		return op, op.Kind == trace.KindNone
	}
	fatal := o.u.endFatal(tr, end)
	o.u.cutShort(tr)
	o.u.sync(tr, len(tr.Events), now, fatal)
	clear(o.u.cut)
	o.u.n.stats.Tests++
	o.u.recordStuck(end)
	o.inner.Finish(tr, end)
}

// signatures returns the signature of every event of s's unfolding: a
// hash of its thread, its operation and, for each condition of its
// preset, the condition's place and the signature of the event that
// produced it. Threads are named by their paths of spawns and objects by
// their keys, so the signatures do not depend on the order of discovery.
func (s *Strategy) signatures() map[uint64]string {
	m, _ := s.sigs(false)
	return m
}

// sigs returns the signatures of s's events. With anon, objects are named
// by their classes alone (the keys of objects a body makes differ from one
// exploration to the next); two events may then share a signature, which
// the result counts with suffixes "#2", "#3"...
//
// condSig returns the signature of a condition: its place and the
// signature of its producer.
func (s *Strategy) sigs(anon bool) (events map[uint64]string, condSig func(int32) uint64) {
	n := s.n
	path := threadPaths(&s.tn)
	// Objects are named by the names the program gave them, or by their
	// keys (which differ from one exploration to the next).
	objKey := map[int32]string{}
	for k, id := range s.on.ids {
		objKey[id] = fmt.Sprint(k)
		if name := s.on.names[id]; name != "" {
			objKey[id] = name
		}
		if anon {
			objKey[id] = "?"
		}
	}
	placeName := func(p int32) string {
		pl := &n.places[p]
		switch pl.kind {
		case threadPlace:
			return "t" + path(pl.thread)
		case copyPlace:
			return fmt.Sprintf("x%s@%s", objKey[pl.obj], path(pl.thread))
		}
		return fmt.Sprintf("m%s", objKey[pl.obj])
	}
	opName := func(k opKey) string {
		switch k.kind {
		case trace.KindJoin:
			return "join " + path(k.obj)
		case kindBranch:
			return "branch" // the sides are told apart by evName
		case kindAdvance:
			return fmt.Sprintf("advance to %d", k.arg)
		case trace.KindAwait:
			var cs []string
			for _, c := range n.awaitCases(k) {
				cs = append(cs, objKey[c.obj])
			}
			return fmt.Sprintf("await %v %d", cs, k.arg)
		case trace.KindSelect:
			// Its obj numbers its list of cases (select.go), in the
			// order the lists were met: name the cases.
			var cs []string
			for _, c := range n.casesOf(k) {
				o := "nil"
				if c.obj >= 0 {
					o = objKey[c.obj]
				}
				cs = append(cs, fmt.Sprintf("%v %s %d", c.kind, o, c.cap))
			}
			return fmt.Sprintf("select %v %d", cs, k.arg)
		}
		switch k.class {
		case trace.ClassCond:
			// The arguments name the mutex and the thread (sync.go).
			m := "-"
			if condMutex(k) >= 0 {
				m = objKey[condMutex(k)]
			}
			return fmt.Sprintf("%v %s %s %s", k.kind, objKey[k.obj], m, path(keyThread(k)))
		case trace.ClassMonitor:
			c, su := monitorCond(k)
			return fmt.Sprintf("%v %s %d %v %s", k.kind, objKey[k.obj], c, su, path(keyThread(k)))
		}
		return fmt.Sprintf("%v %s %d", k.kind, objKey[k.obj], k.arg)
	}
	evName := func(ev *event) string {
		switch ev.side {
		case falseSide:
			return opName(ev.op) + " false"
		case trueSide:
			return opName(ev.op) + " true"
		}
		if p := awaitPathOf(ev.alt); condAwait(ev.op) && p != 0 {
			return opName(ev.op) + fmt.Sprint(" path ", n.paths.constraints(p)) // awaitpath.go
		}
		return opName(ev.op)
	}
	memo := map[int32]uint64{}
	var sig func(e int32) uint64
	sig = func(e int32) uint64 {
		if h, ok := memo[e]; ok {
			return h
		}
		ev := &n.events[e]
		parts := []string{path(ev.thread), evName(ev)}
		for _, c := range ev.pre {
			pc := &n.conds[c]
			from := "init"
			if pc.producer >= 0 {
				from = fmt.Sprint(sig(pc.producer))
			}
			parts = append(parts, placeName(pc.place)+"<"+from)
		}
		// The order of the copies in a write's preset is the order they
		// were made in: sort the resource conditions. An advance of time
		// has no thread of its own and takes every thread's condition,
		// in the order they were made: sort them all.
		if isAdvance(ev.op) {
			parts[0] = "clock"
			slices.Sort(parts[2:])
		} else {
			slices.Sort(parts[3:])
		}
		h := fnv.New64a()
		h.Write([]byte(strings.Join(parts, "|")))
		memo[e] = h.Sum64()
		return memo[e]
	}
	condSig = func(c int32) uint64 {
		pc := &n.conds[c]
		from := "init"
		if pc.producer >= 0 {
			from = fmt.Sprint(sig(pc.producer))
		}
		h := fnv.New64a()
		h.Write([]byte(placeName(pc.place) + "<" + from))
		return h.Sum64()
	}
	out := map[uint64]string{}
	count := map[uint64]int{}
	for e := range n.events {
		if n.events[e].in() {
			h := sig(int32(e))
			count[h]++
			d := fmt.Sprintf("%s %s", path(n.events[e].thread), evName(&n.events[e]))
			if isAdvance(n.events[e].op) {
				d = "clock " + evName(&n.events[e])
			}
			if c := count[h]; c > 1 {
				h2 := fnv.New64a()
				fmt.Fprintf(h2, "%d#%d", h, c)
				h = h2.Sum64()
				d += fmt.Sprintf(" #%d", c)
			}
			out[h] = d
		}
	}
	return out, condSig
}

// diff describes the events one set of signatures has and the other not.
func diff(a, b map[uint64]string, an, bn string) string {
	var out []string
	for h, d := range a {
		if _, ok := b[h]; !ok {
			out = append(out, fmt.Sprintf("only in %s: %s", an, d))
		}
	}
	for h, d := range b {
		if _, ok := a[h]; !ok {
			out = append(out, fmt.Sprintf("only in %s: %s", bn, d))
		}
	}
	slices.Sort(out)
	if len(out) > 10 {
		out = append(out[:10], fmt.Sprintf("... %d more", len(out)-10))
	}
	return strings.Join(out, "\n")
}

// deadlockSigs returns, as sets of condition signatures, the blocked
// thread conditions of the deadlocks s's search found and the thread
// conditions of s's executions that ended with threads blocked.
func (s *Strategy) deadlockSigs(anon bool) [][]uint64 {
	var sets [][]int32
	for _, d := range s.n.deadlocks() {
		sets = append(sets, s.n.blockedOf(d))
	}
	return s.setSigs(append(sets, s.stuck...), anon)
}

// stuckSigs returns the signatures of the sets of thread conditions where
// the executions were blocked.
func (s *Strategy) stuckSigs(anon bool) [][]uint64 { return s.setSigs(s.stuck, anon) }

// setSigs returns the signatures of sets of conditions.
func (s *Strategy) setSigs(sets [][]int32, anon bool) [][]uint64 {
	_, condSig := s.sigs(anon)
	var out [][]uint64
	for _, d := range sets {
		var ss []uint64
		for _, c := range d {
			ss = append(ss, condSig(c))
		}
		out = append(out, ss)
	}
	return out
}

// covers reports whether every set of want holds some set of got.
func covers(got, want [][]uint64) (missed []uint64, ok bool) {
	for _, w := range want {
		found := false
		for _, g := range got {
			all := true
			for _, x := range g {
				all = all && slices.Contains(w, x)
			}
			found = found || all
		}
		if !found {
			return w, false
		}
	}
	return nil, true
}
