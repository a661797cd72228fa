// This file models virtual time that moves at any step (weft's
// TimeAnyStep): the clock is a variable with a copy per thread that reads
// it, whose conditions carry the time and the deadlines of the sleepers;
// its advance is an event of weft's clock thread that takes every copy and
// the condition of every timer's thread started; a read of the clock
// (KindNow) takes its thread's copy, a step that arms a deadline
// (KindNow with trace.NowArms) every copy; a Sleep's wake-up is an await
// on its thread's copy, enabled where the copy's time has reached its
// deadline; a timer's Stop and Reset take its thread's copy and the
// timer's thread's condition.

package unfold

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/weft-go/weft/trace"
)

// clockNet is what the unfolding knows of the clock that moves at any
// step.
type clockNet struct {
	on  bool  // an execution had an operation of trace.ClassClock
	obj int32 // the stable object of the clock variable, -1 if none yet
	// threads are the stable threads of weft's clock thread: the child
	// of the thread whose step armed the first deadline, which differs
	// between executions (those steps write the clock: their events are
	// in conflict).
	threads map[int32]bool
	// states interns the values of the clock's copies (clockState), ids
	// back by their encodings; value 0 is time 0 without deadlines.
	states []clockState
	ids    map[string]int64
}

// clockState is the value of a condition of a copy of the clock: the
// time, and the deadlines of the sleepers that lie ahead of it (sorted),
// which each step that armed one added.
type clockState struct {
	now    int64
	sleeps []int64
}

// clockKey is the object key the clock variable is named by (no object of
// the program has it: keys are hashes of the objects' names and places).
const clockKey uint64 = 0x636c6f636b616e79

// clockObject returns the stable number of the clock variable, giving it
// one the first time.
func (o *objectNames) clockObject() int32 {
	if o.ids == nil {
		o.ids = make(map[uint64]int32)
	}
	if id, ok := o.ids[clockKey]; ok {
		return id
	}
	id := o.n
	o.n++
	o.ids[clockKey] = id
	o.names = append(o.names, "clock")
	o.caps = append(o.caps, 0)
	o.classes = append(o.classes, trace.ClassClock)
	return id
}

// clockKeyOf returns the key of op, an operation of trace.ClassClock of
// thread th (stable), in k: every operation on the clock but a timer's
// Stop and Reset has the clock variable as its object; the deadline a
// clock thread's advance moves to and the one a Reset arms depend on the
// time of their step, which their thread's condition does not know: their
// events hold them (newExtension, Strategy.step), their conditions a 0.
func (s *Strategy) clockKeyOf(k opKey, op trace.Op, th int32) opKey {
	n := s.n
	n.clk.on = true
	if n.clk.obj < 0 {
		n.clk.obj = s.on.clockObject()
	}
	switch op.Kind {
	case trace.KindAdvance:
		if n.clk.threads == nil {
			n.clk.threads = map[int32]bool{}
		}
		n.clk.threads[th] = true
		k.obj, k.arg = n.clk.obj, 0
	case trace.KindNow, trace.KindSleep:
		k.obj = n.clk.obj
	case trace.KindTimerStop:
		if k.arg >= 0 {
			k.arg = 0 // a Reset
		}
	}
	return k
}

// clockState returns the state that the value v of a copy of the clock
// stands for.
func (n *net) clockState(v int64) clockState {
	if int(v) < len(n.clk.states) {
		return n.clk.states[v]
	}
	return clockState{}
}

// internClock returns the value of a copy of the clock in state st.
func (n *net) internClock(st clockState) int64 {
	if n.clk.ids == nil {
		n.clk.ids = map[string]int64{}
		n.clk.states = append(n.clk.states, clockState{})
		n.clk.ids[string(binary.AppendVarint(nil, 0))] = 0
	}
	key := binary.AppendVarint(nil, st.now)
	for _, d := range st.sleeps {
		key = binary.AppendVarint(key, d)
	}
	if v, ok := n.clk.ids[string(key)]; ok {
		return v
	}
	v := int64(len(n.clk.states))
	n.clk.states = append(n.clk.states, clockState{now: st.now, sleeps: slices.Clone(st.sleeps)})
	n.clk.ids[string(key)] = v
	return v
}

// clockAfter returns the value of a copy of the clock, of value v, after
// event ev took it, its thread going on to next: an advance moves the
// time to its deadline and drops the sleepers' deadlines it reached; a
// step that arms a Sleep's deadline adds it; anything else reads it.
func (n *net) clockAfter(ev *event, v int64, next threadStart) int64 {
	st := n.clockState(v)
	switch {
	case ev.op.kind == trace.KindAdvance:
		t := ev.op.arg
		var sleeps []int64
		for _, d := range st.sleeps {
			if d > t {
				sleeps = append(sleeps, d)
			}
		}
		return n.internClock(clockState{now: t, sleeps: sleeps})
	case ev.op.kind == trace.KindNow && ev.op.arg == trace.NowArms &&
		next.op.kind == trace.KindSleep && next.op.class == trace.ClassClock && next.op.arg > st.now:
		sleeps := append(slices.Clone(st.sleeps), next.op.arg)
		slices.Sort(sleeps)
		return n.internClock(clockState{now: st.now, sleeps: sleeps})
	}
	return v
}

// clockAccepts reports whether an operation k on the clock can take a
// copy's condition of value v: a Sleep's wake-up only once its deadline
// has come, anything else always.
func (n *net) clockAccepts(k opKey, v int64) bool {
	if k.kind == trace.KindSleep {
		return n.clockState(v).now >= k.arg
	}
	return true
}

// isClockThread reports whether thread condition c is the clock thread's.
func (n *net) isClockThread(c int32) bool {
	return n.clockThreadPlace(n.conds[c].place)
}

// clockThreadPlace reports whether place p is the clock thread's.
func (n *net) clockThreadPlace(p int32) bool {
	return n.clk.on && n.places[p].kind == threadPlace && n.clk.threads[n.places[p].thread]
}

// daemonPlaces appends to buf the places of the timers' threads, sorted.
func (n *net) daemonPlaces(buf []int32) []int32 {
	lo := len(buf)
	for th := range n.timerOf {
		if p, ok := n.threads[th]; ok {
			buf = append(buf, p)
		}
	}
	slices.Sort(buf[lo:])
	return buf
}

// clockTarget returns the deadline an advance of preset pre (the clock
// thread's condition, every copy of the clock, the condition of every
// timer's thread started) moves to: the earliest deadline after the time
// of a sleeper (in the copies) or of a timer, armed or not (a stopped
// timer's deadline still moves the clock, as the runtime's does), or -1
// if none lies ahead: the advance is not enabled.
func (n *net) clockTarget(pre []int32) int64 {
	var st clockState
	found := false
	t := int64(-1)
	for _, c := range pre[1:] {
		p := n.conds[c].place
		if n.places[p].kind == copyPlace && !found {
			st, found = n.clockState(n.conds[c].value), true
		}
	}
	if !found {
		return -1
	}
	for _, d := range st.sleeps {
		if d > st.now && (t < 0 || d < t) {
			t = d
		}
	}
	for _, c := range pre[1:] {
		if n.daemonPlace(n.conds[c].place) {
			if when, _ := timerWhen(n.conds[c].value); when > st.now && (t < 0 || when < t) {
				t = when
			}
		}
	}
	return t
}

// advanceExts adds the advances of clock thread condition t whose presets
// hold condition fixed of place fp (any, if fp is -1), the naive way
// (Kähkönen et al. 2014, Fig. 10): every choice of a condition per copy of
// the clock, concurrent with t and each other, and then of a condition per
// timer's thread started in their local configuration, each an extension
// if a deadline lies ahead in it.
func (n *net) advanceExts(t, fp, fixed int32) {
	cd := &n.conds[t]
	ob := n.objects[n.clk.obj]
	if ob == nil || cd.state != pending || cd.op.kind != trace.KindAdvance || len(ob.copies) == 0 {
		return
	}
	copies := ob.copies
	pre := []int32{t}
	// A fixed timer's condition is checked with the copies as they are
	// chosen, before its own turn: most choices are not concurrent with
	// it.
	extra := int32(-1)
	if fp >= 0 && fixed != t {
		if ok, fatal := n.co(t, fixed); !ok || fatal {
			return
		}
		if n.daemonPlace(fp) {
			extra = fixed
		}
	}
	var buf []int32
	coCopies := func() bool {
		xs := pre
		if extra >= 0 {
			buf = append(append(buf[:0], pre...), extra)
			xs = buf
		}
		ok, fatal := n.co(xs...)
		return ok && !fatal
	}
	var daemons []int32
	var tryDaemons func(j int)
	tryDaemons = func(j int) {
		if ok, fatal := n.co(pre...); !ok || fatal {
			return
		}
		if j == len(daemons) {
			if n.clockTarget(pre) >= 0 {
				n.extension(pre)
			}
			return
		}
		cands := n.places[daemons[j]].conds
		if daemons[j] == fp {
			cands = []int32{fixed}
		}
		for _, c := range cands {
			pre = append(pre, c)
			tryDaemons(j + 1)
			pre = pre[:len(pre)-1]
		}
	}
	var tryCopies func(i int)
	tryCopies = func(i int) {
		if !coCopies() {
			return
		}
		if i == len(copies) {
			daemons = daemons[:0]
			for _, p := range n.daemonPlaces(nil) {
				if n.frontOf(pre[1], p) >= 0 {
					daemons = append(daemons, p)
				}
			}
			if fp >= 0 && n.daemonPlace(fp) && !slices.Contains(daemons, fp) {
				return // that timer is not started there
			}
			tryDaemons(0)
			return
		}
		cands := n.places[copies[i]].conds
		if copies[i] == fp {
			cands = []int32{fixed}
		}
		for _, c := range cands {
			pre = append(pre, c)
			tryCopies(i + 1)
			pre = pre[:len(pre)-1]
		}
	}
	tryCopies(0)
}

// clockCopyNew adds the extensions that d, a new condition of a copy of
// the clock, enables and cases 6 and 7 do not find (fromResources): the
// wake-ups of the copy's thread whose deadline d's time has reached, and
// the advances that take d.
func (n *net) clockCopyNew(d int32) {
	pl := &n.places[n.conds[d].place]
	ob := n.objects[pl.obj]
	for _, t := range ob.users {
		switch k := n.conds[t].op; {
		case n.conds[t].state != pending:
		case k.kind == trace.KindAdvance:
			n.advanceExts(t, n.conds[d].place, d)
		case k.kind == trace.KindSleep && n.threadOf(t) == pl.thread && n.clockAccepts(k, n.conds[d].value):
			n.tryPair(t, d)
		}
	}
}

// clockDaemonNew adds the advances that take d, a new condition of a
// timer's thread (timerChanged).
func (n *net) clockDaemonNew(d int32) {
	if !n.clk.on || n.objects[n.clk.obj] == nil {
		return
	}
	for _, t := range n.objects[n.clk.obj].users {
		if n.conds[t].op.kind == trace.KindAdvance {
			n.advanceExts(t, n.conds[d].place, d)
		}
	}
}

// advanceAt reports whether the clock thread's condition t can advance in
// the marking at gives the conditions of (the search of stuck markings):
// a deadline lies ahead of the time of its copies of the clock.
func (n *net) advanceAt(t int32, at func(p int32) int32) bool {
	ob := n.objects[n.clk.obj]
	if ob == nil {
		return false
	}
	pre := []int32{t}
	for _, p := range ob.copies {
		c := at(p)
		if c < 0 {
			return false
		}
		pre = append(pre, c)
	}
	for _, p := range n.daemonPlaces(nil) {
		if c := at(p); c >= 0 {
			pre = append(pre, c)
		}
	}
	return n.clockTarget(pre) >= 0
}

// setClockArg gives x, the event of step ev about to join the unfolding,
// the deadline a Reset of ev arms when time moves at any step: its
// thread's condition does not know it (clockKeyOf), its preset does (the
// time, in its copy of the clock), and the step says it.
func setClockArg(x *event, ev *trace.Event) {
	if x.op.kind == trace.KindTimerStop && x.op.class == trace.ClassClock && x.op.arg >= 0 {
		x.op.arg = ev.Op.Arg
	}
}

// clockDiffers returns an error if step ev, which ran event x, moved the
// clock to another time than x's, or armed a Reset at another deadline:
// the event's preset decides both.
func clockDiffers(x *event, ev *trace.Event) error {
	switch {
	case x.op.class != trace.ClassClock:
	case x.op.kind == trace.KindAdvance && int64(ev.Value) != x.op.arg:
		return fmt.Errorf("the clock moved to %d, where the unfolding's advance moves it to %d", ev.Value, x.op.arg)
	case x.op.kind == trace.KindTimerStop && x.op.arg >= 0 && ev.Op.Arg != x.op.arg:
		return fmt.Errorf("a Reset armed its timer at %d, where an earlier execution of the same event armed it at %d", ev.Op.Arg, x.op.arg)
	}
	return nil
}

// The accesses of the operations on the clock that are neither a read
// nor a write of it.
const (
	clockTimerAccess access = timerAccess + 1 + iota // a timer's Stop or Reset when time moves at any step: the timer's thread's condition and the thread's copy of the clock
	advanceAccess                                    // the clock thread's advance: every copy of the clock and the condition of every timer's thread started
)

// clockHidden returns the error of a test whose schedule advances the
// clock (thread id) at step d (from 0) where the runtime does not let it:
// weft's fair scheduling hides the clock once it has advanced past a
// thread that could move 5 times, until that thread steps. That rule is on
// the history of a schedule, not on the conditions an event takes: the
// net has the advances it forbids, and the strategy stops there.
func clockHidden(d int, id trace.ThreadID) error {
	return fmt.Errorf("%w: step %d: the schedule to the target advances the clock (thread %v), which weft's fair scheduling hides there (the clock advanced past a thread that could move too often), a rule on the history of a schedule that no event's preset holds", ErrUnmodelled, d+1, id)
}
