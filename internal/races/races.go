// This file implements the detector: vector clocks over a finished
// execution and the check of each variable access against the latest
// accesses of the other threads.

package races

import (
	"fmt"

	"github.com/weft-go/weft/trace"
)

// Access is one side of a race: an event of the execution that accessed a
// variable.
type Access struct {
	Event  int // its index in the trace's events
	Thread trace.ThreadID
	Write  bool
	Atomic bool
}

// Race is a pair of accesses to one variable, at least one a write and at
// least one plain, that no synchronisation orders. First comes before
// Second in the execution.
type Race struct {
	Object        trace.ObjectID
	First, Second Access
}

// The sorts of access kept per variable and thread.
const (
	plainRead = iota
	plainWrite
	atomicRead
	atomicWrite
	numSorts
)

// entry is the latest access of one sort by one thread to one variable:
// its epoch (the thread's clock at it; 0: none) and its event.
type entry struct {
	epoch uint32
	event int32
}

// object is what the detector keeps of one object of the execution.
type object struct {
	// rel joins the clocks of the object's releases (a mutex's Unlocks,
	// a WaitGroup's Adds, a channel's close, ...); rrel those of an
	// RWMutex's RUnlocks. atomic is the clock of a variable's last write
	// if it was atomic, nil if it was plain or there is none.
	rel, rrel, atomic clock
	// sent and recvd are rings of the clocks of a buffered channel's
	// last sends and receives, by their number modulo the capacity;
	// sends and recvs count them.
	sent, recvd  []clock
	sends, recvs int
	// last holds a variable's latest accesses, numSorts per thread.
	last []entry
}

// clock is a vector clock, one component per thread; nil is all zeros.
type clock []uint32

// join sets c to the componentwise maximum of c and d, allocating c if
// needed, and returns it.
func join(c, d clock, n int) clock {
	if d == nil {
		return c
	}
	if c == nil {
		c = make(clock, n)
	}
	for i, x := range d {
		c[i] = max(c[i], x)
	}
	return c
}

// Detector finds races in executions, one at a time.
type Detector struct {
	n       int
	threads []clock
	objects []object
	started [][]trace.ThreadID // threads started by each step's local code
}

// reset prepares d for tr.
func (d *Detector) reset(tr *trace.Trace) {
	d.n = len(tr.Threads)
	d.threads = d.threads[:0]
	for range d.n {
		d.threads = append(d.threads, make(clock, d.n)) // joins may hand a clock to another thread: no reuse
	}
	d.objects = d.objects[:0]
	for range tr.Objects {
		d.objects = append(d.objects, object{})
	}
	d.started = d.started[:0]
	for range tr.Events {
		d.started = append(d.started, nil)
	}
	for u, ti := range tr.Threads {
		if ti.Step >= 0 && int(ti.Step) < len(d.started) {
			d.started[ti.Step] = append(d.started[ti.Step], trace.ThreadID(u))
		}
	}
}

// Find returns the first race of tr: the one whose second access comes
// first, and of those the one whose first access comes first.
func (d *Detector) Find(tr *trace.Trace) (Race, bool) {
	d.reset(tr)
	for i := range tr.Events {
		ev := &tr.Events[i]
		t := ev.Thread
		c := d.threads[t]
		c[t]++
		if r, ok := d.step(tr, i, ev, c); ok {
			return r, true
		}
		for _, u := range d.started[i] {
			d.threads[u] = join(d.threads[u], d.threads[t], d.n)
		}
	}
	return Race{}, false
}

// step orders event i after what it synchronises with, as the table of
// package trace says (trace.SyncOf), and, for a variable, checks it
// against the others' accesses.
func (d *Detector) step(tr *trace.Trace, i int, ev *trace.Event, c clock) (Race, bool) {
	op := ev.Op
	class, kind, obj := op.Class, op.Kind, op.Obj
	sync, ok := trace.SyncOf(class, kind, op.Arg)
	if ok && sync.Acquire&trace.SyncCases != 0 {
		if ev.Case < 0 || int(ev.Case) >= len(op.Cases) {
			return Race{}, false // the default case
		}
		kind, obj = op.Cases[ev.Case].Kind, op.Cases[ev.Case].Obj
		sync, ok = trace.SyncOf(class, kind, op.Arg)
	}
	if !ok {
		return Race{}, false
	}
	if sync.Acquire&trace.SyncThread != 0 {
		if u := int(op.Arg); u >= 0 && u < d.n {
			join(c, d.threads[u], d.n)
		}
	}
	if obj < 0 || int(obj) >= len(d.objects) {
		return Race{}, false
	}
	switch sync.Finer {
	case trace.ReadsFrom:
		return d.access(tr, i, ev, kind, obj, c)
	case trace.FIFO:
		d.channel(tr, ev, kind, obj, c)
		return Race{}, false
	}
	o := &d.objects[obj]
	var m *object // the object Op.Arg names (a Cond's mutex)
	if a := op.Arg; a >= 0 && a < int64(len(d.objects)) {
		m = &d.objects[a]
	}
	if !sync.IfOK || ev.OK {
		if sync.Acquire&trace.SyncObj != 0 {
			join(c, o.rel, d.n)
		}
		if sync.Acquire&trace.SyncAux != 0 {
			join(c, o.rrel, d.n)
		}
		if sync.Acquire&trace.SyncArg != 0 && m != nil {
			join(c, m.rel, d.n)
		}
	}
	if sync.Release&trace.SyncObj != 0 {
		o.rel = join(o.rel, c, d.n)
	}
	if sync.Release&trace.SyncAux != 0 {
		o.rrel = join(o.rrel, c, d.n)
	}
	if sync.Release&trace.SyncArg != 0 && m != nil {
		m.rel = join(m.rel, c, d.n)
	}
	return Race{}, false
}

// channel orders an operation on a channel (or a timer's): a rendezvous
// joins both threads; a buffered send and receive pass clocks through
// rings as long as the buffer.
func (d *Detector) channel(tr *trace.Trace, ev *trace.Event, kind trace.Kind, obj trace.ObjectID, c clock) {
	o := &d.objects[obj]
	capacity := int(tr.Objects[obj].Cap)
	switch kind {
	case trace.KindSend:
		if capacity <= 0 {
			return // a send on an unbuffered channel completes in its receive's rendezvous
		}
		if o.sent == nil {
			o.sent, o.recvd = make([]clock, capacity), make([]clock, capacity)
		}
		slot := o.sends % capacity
		if o.sends >= capacity {
			join(c, o.recvd[slot], d.n) // the receive that made room
		}
		o.sent[slot] = append(o.sent[slot][:0], c...)
		o.sends++
	case trace.KindRecv:
		switch {
		case ev.Partner != trace.NoThread && int(ev.Partner) < d.n:
			p := d.threads[ev.Partner]
			p[ev.Partner]++ // the sender's step completes here
			join(c, p, d.n)
			copy(p, c)
		case !ev.OK:
			join(c, o.rel, d.n) // the close
		case capacity > 0 && o.sent != nil && o.recvs < o.sends:
			slot := o.recvs % capacity
			join(c, o.sent[slot], d.n)
			o.recvd[slot] = append(o.recvd[slot][:0], c...)
			o.recvs++
		}
	case trace.KindClose:
		o.rel = join(o.rel, c, d.n)
	}
}

// access checks event i, an access of variable obj, against the latest
// accesses of the other threads, then records it.
func (d *Detector) access(tr *trace.Trace, i int, ev *trace.Event, kind trace.Kind, obj trace.ObjectID, c clock) (Race, bool) {
	o := &d.objects[obj]
	write := kind == trace.KindStore || kind == trace.KindAdd || kind == trace.KindSwap || (kind == trace.KindCAS && ev.OK)
	atomic := kind == trace.KindAdd || kind == trace.KindSwap || kind == trace.KindCAS || tr.Objects[obj].Atomic
	if kind != trace.KindLoad && kind != trace.KindStore && !atomic {
		return Race{}, false
	}
	// An AddOnly commutes with the others of its variable (the strategies
	// explore one order of them), so what it synchronises with must not
	// depend on their order: it reads from none of them, and a later
	// atomic read is ordered after all of them.
	addOnly := trace.AddOnly(ev.Op)
	if atomic && !addOnly {
		join(c, o.atomic, d.n) // the atomic write it read, if atomic
	}
	if o.last == nil {
		o.last = make([]entry, d.n*numSorts)
	}
	t := ev.Thread
	best := -1
	var first Access
	for u := range d.n {
		if u == int(t) {
			continue
		}
		for s := range numSorts {
			e := o.last[u*numSorts+s]
			sWrite, sAtomic := s == plainWrite || s == atomicWrite, s >= atomicRead
			if e.epoch == 0 || e.epoch <= c[u] || (!write && !sWrite) || (atomic && sAtomic) {
				continue
			}
			if best < 0 || int(e.event) < best {
				best = int(e.event)
				first = Access{Event: int(e.event), Thread: trace.ThreadID(u), Write: sWrite, Atomic: sAtomic}
			}
		}
	}
	if best >= 0 {
		return Race{Object: obj, First: first, Second: Access{Event: i, Thread: t, Write: write, Atomic: atomic}}, true
	}
	s := plainRead
	switch {
	case atomic && write:
		s = atomicWrite
	case atomic:
		s = atomicRead
	case write:
		s = plainWrite
	}
	o.last[int(t)*numSorts+s] = entry{epoch: c[t], event: int32(i)}
	if write {
		switch {
		case addOnly:
			o.atomic = join(o.atomic, c, d.n)
		case atomic:
			o.atomic = append(o.atomic[:0], c...)
		default:
			o.atomic = nil // later reads read a plain write
		}
	}
	return Race{}, false
}

// End returns the failure r makes of its execution: a trace.DataRace of
// the thread of its second access, whose message names the variable and
// both accesses by step (Message without locations).
func (r Race) End(tr *trace.Trace) trace.End {
	return trace.End{Status: trace.Failed, Kind: trace.DataRace, Thread: r.Second.Thread, Message: r.Message(tr, nil)}
}

// Message describes r: the variable and both accesses, each by thread,
// sort, operation and step, and where(event) after it if where is not
// nil and says something (a file:line).
func (r Race) Message(tr *trace.Trace, where func(event int) string) string {
	name := fmt.Sprintf("variable %v", r.Object)
	if int(r.Object) < len(tr.Objects) && tr.Objects[r.Object].Name != "" {
		name = tr.Objects[r.Object].Name
	}
	return fmt.Sprintf("data race on %s: %s and %s, which no synchronisation orders",
		name, r.describe(tr, r.Second, where), r.describe(tr, r.First, where))
}

// describe names an access: its thread, what it did, its step and where.
func (r Race) describe(tr *trace.Trace, a Access, where func(int) string) string {
	what := "read"
	if a.Write {
		what = "write"
	}
	if a.Atomic {
		what = "atomic " + what
	}
	s := fmt.Sprintf("%v's %s (%s, step %d)", a.Thread, what, tr.Events[a.Event].Op.Kind, a.Event+1)
	if where != nil {
		if w := where(a.Event); w != "" {
			s += " at " + w
		}
	}
	return s
}
