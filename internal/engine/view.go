// This file keeps the strategy's view of the threads (strategy.State) up to
// date from one scheduling point to the next at a cost that does not grow
// with the number of threads: only the threads whose alternatives may have
// changed are recomputed.
//
// A thread's alternatives (enabled.go) are a function of its own pending
// operation and of the state of the objects that operation reads: its
// object, a Cond waiter's mutex, a select's channels, an await's
// variables, a joined thread; of other threads' pending operations on
// those channels; and of virtual time. Between two scheduling points that
// state changes only through
//
//   - the events recorded since: their threads (and partners) ran, and the
//     objects they name (Op.Obj, the cases of a select on either side, a
//     Cond's mutex) changed;
//   - the threads that announced a new operation (begin), whose objects
//     may have changed with the announce (a pending send joins its
//     channel's senders), and the threads started or ended (a Join waits
//     for the end);
//   - a move of virtual time, and the rare change of other threads'
//     pending operations (unbalance), after which every thread is
//     recomputed.
//
// So every thread that announces an operation registers, on the objects
// and thread it reads, as a watcher valid while it keeps that operation
// (its count of announces); an event or an announce marks the watchers of
// the objects it names for recomputation, and each recomputed thread whose
// operation changed registers anew. Stale registrations are dropped when
// their object is next visited. Tests can set CheckView to compare the
// view with a full recomputation at every scheduling point.
//
// An execution with at most smallView threads keeps no watchers: each
// scheduling point recomputes every thread whose pending operation may
// block, which costs less than the bookkeeping, and those that took a
// step or announced an operation since the last one. When it starts
// more, every thread registers.

package engine

import (
	"fmt"
	"math/bits"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// CheckView makes every scheduling point compare the incrementally kept
// view with a full recomputation of every thread's alternatives, and panic
// on a difference. It is for tests: it costs a pass over every thread per
// step.
var CheckView bool

// smallView is the number of threads up to which the view keeps no
// watchers (fillSmall). It is at most 64: the threads of a small view are
// the bits of one word.
const smallView = 8

// watch registers thread tid as reading an object or a thread while its
// count of announces is ann.
type watch struct {
	tid trace.ThreadID
	ann uint32
}

// resetView empties the view's bookkeeping for a new execution, keeping
// its memory.
func (e *Exec) resetView() {
	e.view.Threads = e.view.Threads[:0]
	e.dirty = e.dirty[:0]
	for i := range e.watchObj {
		e.watchObj[i] = e.watchObj[i][:0]
	}
	for i := range e.watchThr {
		e.watchThr[i] = e.watchThr[i][:0]
	}
	clear(e.bits)
	e.hiddenTh = e.hiddenTh[:0]
	e.changed = e.changed[:0]
	e.viewSeen, e.viewNow, e.viewFull, e.enabledN = 0, 0, true, 0
	e.viewSmall, e.smallDirty, e.smallVolatile = true, 0, 0
}

// markDirty marks t for recomputation at the next scheduling point (in a
// small view, every thread is).
func (e *Exec) markDirty(t *Thread) {
	if e.viewSmall {
		// A thread past the small view's bits is recomputed anyway: the
		// view is then no longer small.
		e.smallDirty |= 1 << (uint(t.id) & 63)
		return
	}
	if !t.dirty {
		t.dirty = true
		e.dirty = append(e.dirty, t)
	}
}

// clearDirty empties the list of recomputed threads.
func (e *Exec) clearDirty() {
	for _, t := range e.dirty {
		t.dirty = false
	}
	e.dirty = e.dirty[:0]
}

// fillView brings the pending operation and alternatives of every thread
// up to date and returns how many threads are enabled. The threads it
// recomputed stay listed in e.dirty for fairView, which empties the list
// (in a small view, every thread was), when the fairness rule is at work;
// otherwise fillView empties it.
func (e *Exec) fillView() int {
	v := &e.view
	v.Step = len(e.tr.Events)
	n, old := len(e.threads), len(v.Threads)
	if n > old {
		if cap(v.Threads) < n {
			grown := make([]strategy.Thread, old, 2*n)
			copy(grown, v.Threads)
			v.Threads = grown
		}
		v.Threads = v.Threads[:n]
		clear(v.Threads[old:])
	}
	if w := (n + 63) / 64; w > len(e.bits) {
		e.bits = append(e.bits, make([]uint64, w-len(e.bits))...)
	}
	// What fairness hid at the last scheduling point shows again; it
	// decides anew (fairView).
	if len(e.hiddenTh) > 0 {
		for _, t := range e.hiddenTh {
			e.showAlts(t.id, t.vAlts)
			e.changed = append(e.changed, t.id)
		}
		e.hiddenTh = e.hiddenTh[:0]
	}
	if e.now != e.viewNow {
		e.viewNow, e.viewFull = e.now, true
	}
	if n <= smallView {
		e.fillSmall(old)
		return e.enabledN
	}
	if e.clock != nil {
		// Its pending advance is computed from every deadline (clockAlts).
		e.markDirty(e.clock)
	}
	evs := e.tr.Events
	if e.viewSmall {
		// The threads outgrew the small view: each registers as a watcher.
		e.viewSmall, e.viewFull = false, true
		for _, t := range e.threads {
			t.watched = false
		}
	}
	for i := e.viewSeen; i < len(evs); i++ {
		e.touchEvent(&evs[i])
	}
	e.viewSeen = len(evs)
	if e.viewFull {
		e.viewFull = false
		for _, t := range e.threads {
			e.markDirty(t)
		}
	}
	// The list grows while it is walked: a thread whose operation changed
	// marks the watchers of its objects.
	for k := 0; k < len(e.dirty); k++ {
		e.refresh(e.dirty[k])
	}
	// Without fairness at work (no yield yet, no clock thread), fairView
	// would only empty the list: it is emptied here, in the same pass.
	quiet := !e.fair.on && e.clock == nil
	for _, t := range e.dirty {
		e.changed = append(e.changed, t.id)
		if quiet {
			t.dirty = false
		}
	}
	if quiet {
		e.dirty = e.dirty[:0]
	}
	v.EnabledSet = e.bits[:(n+63)/64]
	if CheckView {
		e.checkView()
	}
	return e.enabledN
}

// fillSmall is fillView for a small view, whose threads from old on are
// new. It recomputes the threads whose entry may have changed: those new,
// those that announced an operation or ended (markDirty) or took part in
// an event since the last scheduling point, and those whose pending
// operation may block or has cases (smallVolatile), whose alternatives
// depend on objects and other threads; every thread when the view is full (time
// moved, another thread's pending operation changed). The others have an
// operation that never blocks, unchanged since their last recomputation,
// so that their entry is too. A recomputed thread is listed as changed if
// it is new or its entry differs (a select's, whose cases may have changed
// in place, always).
func (e *Exec) fillSmall(old int) {
	n := len(e.threads)
	all := uint64(1)<<uint(n) - 1
	redo := e.smallDirty | e.smallVolatile | all&^(uint64(1)<<uint(old)-1)
	e.smallDirty = 0
	if e.viewFull {
		e.viewFull = false
		redo = all
	}
	evs := e.tr.Events
	for i := e.viewSeen; i < len(evs); i++ {
		ev := &evs[i]
		redo |= 1 << (uint(ev.Thread) & 63)
		if ev.Partner != trace.NoThread {
			redo |= 1 << (uint(ev.Partner) & 63)
		}
	}
	if e.clock != nil {
		redo |= 1 << (uint(e.clock.id) & 63)
	}
	redo &= all
	e.viewSeen = len(evs)
	// Thread i is e.threads[i]: its bit is known before its memory is
	// read.
	threads, vts := e.threads[:n], e.view.Threads[:n]
	for r := redo; r != 0; r &= r - 1 {
		i := bits.TrailingZeros64(r)
		t, bit := threads[i], uint64(1)<<uint(i)
		var a int32
		f := altsTable[t.op.Class][t.op.Kind]
		switch {
		case t.done:
		case f != nil:
			a = f(e, t)
		default:
			a = b2i(t.op.Kind != trace.KindNone)
		}
		if f != nil || len(t.op.Cases) > 0 {
			e.smallVolatile |= bit
		} else {
			e.smallVolatile &^= bit
		}
		e.enabledN += int(b2i(a > 0) - b2i(t.vAlts > 0))
		t.vAlts = a
		vt := &vts[i]
		if i >= old || !sameEntry(vt, &t.op, a, t.done) {
			setOp(&vt.Op, &t.op)
			vt.Done = t.done
			vt.Alts = a
			if a > 0 {
				e.bits[0] |= bit
			} else {
				e.bits[0] &^= bit
			}
			e.changed = append(e.changed, trace.ThreadID(i))
		}
	}
	if len(e.view.EnabledSet) != 1 || n > old {
		// Set when the threads grow: the words may have moved.
		e.view.EnabledSet = e.bits[:(n+63)/64]
	}
	if CheckView {
		e.checkView()
	}
}

// sameEntry reports whether view entry vt shows pending operation op
// with a alternatives, done or not. A select is never the same: its
// cases may have changed in place.
func sameEntry(vt *strategy.Thread, op *trace.Op, a int32, done bool) bool {
	return vt.Alts == a && vt.Done == done && vt.Op.Kind == op.Kind && vt.Op.Class == op.Class &&
		vt.Op.Obj == op.Obj && vt.Op.Arg == op.Arg && len(vt.Op.Cases) == 0 && len(op.Cases) == 0
}

// touchEvent marks what event ev changed: its threads, and the watchers of
// the objects it names.
func (e *Exec) touchEvent(ev *trace.Event) {
	e.markDirty(e.threads[ev.Thread])
	e.wakeOp(&ev.Op)
	if ev.Partner != trace.NoThread {
		e.markDirty(e.threads[ev.Partner])
		e.wakeOp(&ev.PartnerOp)
	}
}

// wakeOp marks the watchers of the objects op names.
func (e *Exec) wakeOp(op *trace.Op) {
	e.wakeObj(op.Obj)
	for _, c := range op.Cases {
		e.wakeObj(c.Obj)
	}
	if m := trace.ArgObject(op); m != trace.NoObject {
		e.wakeObj(m) // a second object, as a Cond's mutex
	}
}

// wakeObj marks the watchers of object id.
func (e *Exec) wakeObj(id trace.ObjectID) {
	if id >= 0 && int(id) < len(e.watchObj) {
		e.wake(&e.watchObj[id])
	}
}

// wake marks the watchers in *l that are still valid and drops the others.
func (e *Exec) wake(l *[]watch) {
	ws := *l
	k := 0
	for _, w := range ws {
		if t := e.threads[w.tid]; t.announces == w.ann && !t.done {
			ws[k] = w
			k++
			e.markDirty(t)
		}
	}
	*l = ws[:k]
}

// refresh recomputes thread t's entry in the view.
func (e *Exec) refresh(t *Thread) {
	var a int32
	if t.done {
		e.wake(e.threadWatchers(t.id))
	} else {
		a = e.alts(t)
		if !t.watched || t.watchAnn != t.announces {
			t.watched, t.watchAnn = true, t.announces
			e.watchOps(t)
		}
	}
	if (a > 0) != (t.vAlts > 0) {
		if a > 0 {
			e.enabledN++
		} else {
			e.enabledN--
		}
	}
	t.vAlts = a
	vt := &e.view.Threads[t.id]
	setOp(&vt.Op, &t.op)
	vt.Done = t.done
	e.showAlts(t.id, a)
}

// showAlts sets thread p's alternatives in the view and its bit in the
// enabled set.
func (e *Exec) showAlts(p trace.ThreadID, a int32) {
	e.view.Threads[p].Alts = a
	if a > 0 {
		e.bits[uint(p)/64] |= 1 << (uint(p) % 64)
	} else {
		e.bits[uint(p)/64] &^= 1 << (uint(p) % 64)
	}
}

// watchOps registers t on the objects and the thread its pending
// operation reads, and marks their other watchers: the announce may have
// changed them (a pending send joins its channel's senders).
func (e *Exec) watchOps(t *Thread) {
	e.watchOn(t, t.obj)
	e.watchOn(t, t.obj2)
	for _, c := range t.sel {
		e.watchOn(t, c.obj)
	}
	for _, r := range t.await {
		e.watchOn(t, r.o)
	}
	if t.op.Kind == trace.KindJoin && t.op.Arg >= 0 && int(t.op.Arg) < len(e.threads) {
		l := e.threadWatchers(trace.ThreadID(t.op.Arg))
		*l = append(*l, watch{t.id, t.announces})
	}
}

// watchOn registers t as a watcher of object o (nil: none) and marks o's
// other watchers.
func (e *Exec) watchOn(t *Thread, o *Obj) {
	if o == nil || o.serial != e.serial {
		return
	}
	id := int(o.id)
	for id >= len(e.watchObj) {
		e.watchObj = append(room(e.watchObj), nil)
	}
	l := &e.watchObj[id]
	e.wake(l)
	*l = append(*l, watch{t.id, t.announces})
}

// addWatch registers t as a watcher of object o (nil: none), as watchOn
// does, without marking o's other watchers: the condition of a pending
// w.Await loaded o (await.go).
func (e *Exec) addWatch(t *Thread, o *Obj) {
	if e.viewSmall || o == nil || o.serial != e.serial {
		return
	}
	id := int(o.id)
	for id >= len(e.watchObj) {
		e.watchObj = append(room(e.watchObj), nil)
	}
	l := &e.watchObj[id]
	for _, w := range *l {
		if w.tid == t.id && w.ann == t.announces {
			return
		}
	}
	*l = append(*l, watch{t.id, t.announces})
}

// threadWatchers returns the list of the threads that wait for thread p's
// end.
func (e *Exec) threadWatchers(p trace.ThreadID) *[]watch {
	for int(p) >= len(e.watchThr) {
		e.watchThr = append(room(e.watchThr), nil)
	}
	return &e.watchThr[p]
}

// checkView compares the view with a full recomputation (CheckView).
func (e *Exec) checkView() {
	enabled := 0
	for _, t := range e.threads {
		var a int32
		if !t.done {
			a = e.alts(t)
		}
		if a > 0 {
			enabled++
		}
		vt := &e.view.Threads[t.id]
		bit := e.bits[t.id/64]&(1<<(t.id%64)) != 0
		if a != t.vAlts || a != vt.Alts || bit != (a > 0) || vt.Done != t.done || vt.Op.Kind != t.op.Kind || vt.Op.Obj != t.op.Obj || vt.Op.Arg != t.op.Arg || len(vt.Op.Cases) != len(t.op.Cases) {
			panic(fmt.Sprintf("weft internal error: step %d: the view of %v is %v with %d alternatives (kept %d, bit %t, done %t), but it has %v with %d (done %t)",
				len(e.tr.Events), t.id, vt.Op, vt.Alts, t.vAlts, bit, vt.Done, t.op, a, t.done))
		}
	}
	if enabled != e.enabledN {
		panic(fmt.Sprintf("weft internal error: step %d: the view counts %d enabled threads, but %d are", len(e.tr.Events), e.enabledN, enabled))
	}
}

// checkChanged panics if a thread left out of the view's Changed list has
// an entry that differs from the one of the previous Choose, and keeps the
// view for the next check (CheckView).
func (e *Exec) checkChanged() {
	v := &e.view
	listed := make(map[trace.ThreadID]bool, len(v.Changed))
	for _, p := range v.Changed {
		listed[p] = true
	}
	if len(e.tr.Events) == 0 {
		e.lastView = e.lastView[:0]
	}
	for p := range v.Threads {
		if listed[trace.ThreadID(p)] {
			continue
		}
		vt := &v.Threads[p]
		if p >= len(e.lastView) {
			panic(fmt.Sprintf("weft internal error: step %d: %v is new, but the view does not list it as changed", len(e.tr.Events), p))
		}
		old := &e.lastView[p]
		if old.Alts != vt.Alts || old.Done != vt.Done || old.Op.Kind != vt.Op.Kind || old.Op.Obj != vt.Op.Obj || old.Op.Arg != vt.Op.Arg {
			panic(fmt.Sprintf("weft internal error: step %d: %v changed from %v with %d alternatives to %v with %d, but the view does not list it as changed",
				len(e.tr.Events), p, old.Op, old.Alts, vt.Op, vt.Alts))
		}
	}
	e.lastView = append(e.lastView[:0], v.Threads...)
}

// checkRecorded panics if the enabled set the trace recorded for the next
// step differs from the view's (CheckView).
func (e *Exec) checkRecorded() {
	i := len(e.tr.Events)
	for _, t := range e.threads {
		bit := e.bits[t.id/64]&(1<<(t.id%64)) != 0
		if got := e.tr.EnabledAt(i, t.id); got != bit {
			panic(fmt.Sprintf("weft internal error: step %d: the trace records %v as enabled %t, but the view has %t", i, t.id, got, bit))
		}
	}
}
