// This file defines the unfolding: places, conditions and events with their
// presets and postsets (Kähkönen et al. 2014, §2.4, §3).

package unfold

import (
	"slices"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// placeKind is what a place of the program's net stands for.
type placeKind uint8

const (
	threadPlace placeKind = iota // a thread's program locations
	copyPlace                    // one thread's copy of a variable (or of a WaitGroup's counter)
	mutexPlace                   // a mutex: free or held
	statePlace                   // an RWMutex or a Once: its state (state.go)
)

// place is a place of the program's net, of which conditions are copies.
type place struct {
	kind   placeKind
	thread int32   // the stable thread of a thread or copy place, -1 for a mutex
	obj    int32   // the stable object of a copy or mutex place, -1 for a thread
	init   int32   // its initial condition, -1 for a thread started by an event
	conds  []int32 // its conditions, in creation order
}

// The states of conditions: a thread condition's thread has a next
// operation (pending), has finished (done) or failed there (stopped); a
// mutex condition is free or held.
const (
	pending uint8 = iota
	done
	stopped
	free
	held
	// unknown is the state of a thread condition whose thread's local
	// code another thread's failure cut short in the execution that made
	// it: its next action is not known until an execution completes that
	// local code (interrupt.go).
	unknown
)

// condition is a condition of the unfolding.
type condition struct {
	place    int32
	producer int32 // the event that produced it, -1 if initial
	// consumers are the events of the unfolding and the possible
	// extensions with the condition in their presets.
	consumers []int32
	state     uint8
	op        opKey // a thread condition's next operation
	value     int64 // a WaitGroup copy's counter
	// depth is the number of conditions of the place before it in the
	// tree of the place's conditions; parent is the one before (the
	// condition of the place its producer took), -1 if none.
	depth, parent int32
}

// event is an event of the unfolding, or a possible extension.
type event struct {
	thread int32 // stable thread
	op     opKey
	// pre is the preset: pre[0] is the thread condition, pre[1:] the
	// conditions of the resources, in the order of their places (a write's
	// copies in the order the copies were made).
	pre []int32
	// post is the postset, once the event is in the unfolding: post[i] is
	// the successor of pre[i]; spawned are the initial conditions of the
	// threads its step started.
	post, spawned []int32
	// order is the event's rank of insertion into the unfolding, its label
	// in the paper (a topological order); -1 for a possible extension.
	order int32
	fatal bool // its step failed: the execution ends there
	// side is the side of a branch event (falseSide, trueSide), noSide
	// for the event of an operation.
	side uint8
	// alt tells the events of one preset apart by the cases they took: a
	// select's case, the case of the select a receive met (altCode).
	alt int32
	// value and ok are what the step observed (a load's value, whether a
	// CompareAndSwap or TryLock succeeded), the same in every execution
	// that runs the event: its local configuration decides them.
	value uint64
	ok    bool
	// symVal reports that a write wrote a value that depends on inputs
	// (trace.Event.SymValue): what it wrote is a function of the inputs.
	symVal bool
	// front is the cut of the event's local configuration, as far as its
	// events changed it: for each place they touched, the condition they
	// left, sorted by place (co.go). pastFatal reports that a failed step
	// is in the local configuration.
	front     []frontier
	pastFatal bool
}

// in reports whether e is in the unfolding (not just a possible extension).
func (e *event) in() bool { return e.order >= 0 }

// object is what the unfolding knows of a shared object.
type object struct {
	class  trace.Class
	copies []int32 // copy places (variables, WaitGroups), in the order they were made
	mutex  int32   // the place of a mutex, or of an RWMutex's or a Once's state; -1 otherwise
	writes []int32 // write events (unfolding and extensions), in creation order
	// deficit reports that an RWMutex has a condition with a deficit
	// (state.go): a holder's RUnlock may take every copy.
	deficit bool
	users   []int32 // thread conditions whose next operation takes a condition of the object
	// lockers are the thread conditions whose next operation locks the
	// mutex and which had no event when their extensions were computed
	// (Kähkönen et al. 2014, §5.4.1's list).
	lockers []int32
	// condUsers are the thread conditions whose next operation is a
	// Cond's Wait or Relock with this mutex (condAccess); awaiters those
	// whose next operation is an await on this variable.
	condUsers, awaiters []int32
}

// net is the unfolding built so far, with its possible extensions.
type net struct {
	places  []place
	conds   []condition
	events  []event
	size    int32              // events in the unfolding
	threads map[int32]int32    // stable thread -> its place
	copies  map[[2]int32]int32 // (stable object, stable thread) -> copy place
	objects map[int32]*object
	joiners map[int32][]int32 // stable thread -> conditions whose next operation joins it
	dones   map[int32][]int32 // stable thread -> its conditions where it has finished
	// The indexes of the blocking operations that are no mutex's (a Join,
	// a Wait): waitAt maps a condition u to the thread conditions t that
	// want to take a condition of u's place and whose local configuration
	// leaves u in that place (every condition concurrent with t in the
	// place is u or below it); unplaced lists, per joined thread, the
	// joiners whose local configuration does not start it; doneUnder maps
	// a condition of a thread's place to the conditions below it (itself
	// included) where the thread has finished.
	waitAt    map[int32][]int32
	unplaced  map[int32][]int32
	doneUnder map[int32][]int32
	// exts are the possible extensions not in the unfolding, in the order
	// they were found (some may have joined the unfolding since: skip them).
	exts []int32
	// naive selects the naive possible extensions (Fig. 10); observe
	// computes none (the unfolding of the executions alone, for tests).
	naive, observe bool
	scratch        coScratch
	// ints and fronts are the arenas of the events' presets, postsets
	// and fronts.
	ints     arena[int32]
	psBuf    []int32 // fromThread's places
	tupleBuf []int32 // fromThread's and rwWriterFrom's first tuple
	fronts   arena[frontier]
	// byPreset indexes the events by the hash of their presets and cases
	// (presetHash): a power of two of buckets, each the first event of a
	// chain that samePreset, by event, continues (-1 ends it).
	byPreset   []int32
	samePreset []int32
	// joined lists the stable threads some thread condition joins: only
	// theirs are indexed in doneUnder.
	joined map[int32]bool
	stats  Stats
	sym    symbolic
	// caseLists are the lists of cases of the selects, numbered by
	// caseIDs (select.go).
	caseLists [][]selCase
	caseIDs   map[string]int32
	// qs interns the states of Conds and monitors (sync.go).
	qs qtable
	// nilBlocked reports that a thread condition sends or receives on a
	// nil channel: it blocks forever (stuck.go).
	nilBlocked bool
	// stop ends a long search (deadlocks, a solver call) when a bound of
	// the exploration passes (Strategy.SetStop).
	stop *strategy.Stop
	// awaits holds, per thread condition of a w.Await, what the
	// evaluations of its condition showed; initVals the initial values of
	// variables they read; probes the choices of copies no evaluation
	// says anything of and the paths of conditions no evaluation took,
	// to run (probed: each once; condawait.go); paths the paths of the
	// evaluations, their branches on inputs (awaitpath.go).
	awaits   map[int32]*awaitKnown
	initVals map[int32]uint64
	probes   []probe
	probed   map[string]bool
	paths    awaitPaths
	// now is the virtual time at each condition where it is not 0
	// (sleep.go); sleeps reports that a thread condition sleeps, advances
	// lists the markings of blocked threads, one sleeping, that the last
	// search found (their advances to run).
	now      map[int32]int64
	sleeps   bool
	advances [][]int32
	// timerOf maps the stable thread of each timer (the runtime's
	// daemon) to the stable object of its channel, timerThread back
	// (timer.go).
	timerOf, timerThread map[int32]int32
	// tickers are the stable objects of tickers' channels, whose
	// deadlines no longer move time once the body has returned
	// (advanceTo).
	tickers map[int32]bool
	// clk is the clock when time moves at any step (clock.go).
	clk clockNet
	// defaultSels are the thread conditions whose next operation is a
	// select whose default depends on other threads (needsThreads;
	// offer.go).
	defaultSels []int32
}

// newNet returns an empty unfolding.
func newNet() *net {
	return &net{now: map[int32]int64{}, tickers: map[int32]bool{}, timerOf: map[int32]int32{}, timerThread: map[int32]int32{}, awaits: map[int32]*awaitKnown{}, initVals: map[int32]uint64{}, probed: map[string]bool{}, threads: map[int32]int32{}, copies: map[[2]int32]int32{}, objects: map[int32]*object{}, joiners: map[int32][]int32{}, dones: map[int32][]int32{}, joined: map[int32]bool{},
		waitAt: map[int32][]int32{}, unplaced: map[int32][]int32{}, doneUnder: map[int32][]int32{},
		sym:     symbolic{cond: map[int32]solver.Expr{}, cons: map[int32]solver.Expr{}, ranges: map[string]solver.Expr{}},
		caseIDs: map[string]int32{}, clk: clockNet{obj: -1}}
}

// newCond adds a condition of place p produced by event producer (-1:
// initial).
func (n *net) newCond(p, producer int32) int32 {
	id := int32(len(n.conds))
	n.conds = append(grow(n.conds), condition{place: p, producer: producer, parent: -1})
	n.places[p].conds = append(n.places[p].conds, id)
	return id
}

// grow returns xs with room for one more element, growing it by half
// when it is full: append grows a large slice by a quarter, which copies
// the unfolding's millions of conditions and events five times over as
// they come.
func grow[T any](xs []T) []T {
	if len(xs) < cap(xs) {
		return xs
	}
	return slices.Grow(xs, len(xs)/2+64)
}

// newPlace adds a place, with an initial condition if initial.
func (n *net) newPlace(kind placeKind, thread, obj int32, initial bool) int32 {
	p := int32(len(n.places))
	n.places = append(n.places, place{kind: kind, thread: thread, obj: obj, init: -1})
	if initial {
		n.places[p].init = n.newCond(p, -1)
	}
	return p
}

// object returns the object of stable number o, of class class, making it
// if it is new.
func (n *net) object(o int32, class trace.Class) *object {
	ob := n.objects[o]
	if ob == nil {
		ob = &object{class: class, mutex: -1}
		n.objects[o] = ob
	}
	return ob
}

// find returns the event (of the unfolding or an extension) with preset
// pre and cases alt (event.alt), the first made if there are several (the
// two sides of a branch), or -1.
func (n *net) find(pre []int32, alt int32) int32 {
	if len(n.byPreset) == 0 {
		return -1
	}
	found := int32(-1)
	for e := n.byPreset[presetHash(pre, alt)&uint64(len(n.byPreset)-1)]; e >= 0; e = n.samePreset[e] {
		if ev := &n.events[e]; ev.alt == alt && slices.Equal(ev.pre, pre) && (found < 0 || e < found) {
			found = e
		}
	}
	return found
}

// presetHash hashes a preset and cases for the index of events by preset.
func presetHash(pre []int32, alt int32) uint64 {
	h := uint64(uint32(alt))*0x9e3779b97f4a7c15 ^ uint64(len(pre))
	for _, c := range pre {
		h = (h ^ uint64(uint32(c))) * 0xff51afd7ed558ccd
		h ^= h >> 32
	}
	return h
}

// index adds event e to the index of events by preset, doubling its
// buckets when it holds as many events as buckets; unindex takes it out
// (before its preset changes: a new copy of a variable).
func (n *net) index(e int32) {
	for len(n.samePreset) <= int(e) {
		n.samePreset = append(n.samePreset, -1)
	}
	if int(e) >= len(n.byPreset) {
		n.byPreset = make([]int32, max(1024, 2*len(n.byPreset)))
		for i := range n.byPreset {
			n.byPreset[i] = -1
		}
		for x := range e {
			n.link(x)
		}
	}
	n.link(e)
}

// link puts event e at the head of its bucket's chain.
func (n *net) link(e int32) {
	b := presetHash(n.events[e].pre, n.events[e].alt) & uint64(len(n.byPreset)-1)
	n.samePreset[e], n.byPreset[b] = n.byPreset[b], e
}

func (n *net) unindex(e int32) {
	b := presetHash(n.events[e].pre, n.events[e].alt) & uint64(len(n.byPreset)-1)
	if n.byPreset[b] == e {
		n.byPreset[b] = n.samePreset[e]
		return
	}
	for x := n.byPreset[b]; x >= 0; x = n.samePreset[x] {
		if n.samePreset[x] == e {
			n.samePreset[x] = n.samePreset[e]
			return
		}
	}
}

// extension returns the event with preset pre, making it a possible
// extension if there is none; isNew reports that it made one. pre is
// copied.
func (n *net) extension(pre []int32) (id int32, isNew bool) {
	return n.extensionAlt(pre, 0)
}

// extensionAlt is extension for an event of cases alt (event.alt).
func (n *net) extensionAlt(pre []int32, alt int32) (id int32, isNew bool) {
	if e := n.find(pre, alt); e >= 0 {
		return e, false
	}
	return n.newExtension(pre, alt), true
}

// newExtension makes a possible extension with preset pre (copied) and
// cases alt.
func (n *net) newExtension(pre []int32, alt int32) (id int32) {
	t := &n.conds[pre[0]]
	id = int32(len(n.events))
	op := n.rwForm(t.op, pre)
	if condAwait(op) {
		op = n.awaitForm(op, pre)
		if p := awaitPathOf(alt); p != 0 {
			n.sym.cons[id] = n.paths.conjunction(p) // the evaluation's path
		}
	}
	if op.kind == trace.KindAdvance {
		op.arg = n.clockTarget(pre) // the deadline it moves to (clock.go)
	}
	n.events = append(grow(n.events), event{thread: n.places[t.place].thread, op: op, pre: n.ints.clone(pre), order: -1, alt: alt})
	n.index(id)
	for _, c := range pre {
		n.conds[c].consumers = append(n.conds[c].consumers, id)
	}
	if accessOf(op) == writeAccess || accessOf(op) == advanceAccess {
		ob := n.objects[op.obj]
		ob.writes = append(ob.writes, id)
	}
	n.exts = append(n.exts, id)
	n.stats.Extensions++
	return id
}

// resources returns the places the event of op at a thread condition of
// stable thread th takes conditions from, in preset order, appended to buf.
func (n *net) resources(buf []int32, th int32, k opKey) []int32 {
	switch accessOf(k) {
	case readAccess:
		return append(buf, n.copies[[2]int32{k.obj, th}])
	case writeAccess:
		return append(buf, n.objects[k.obj].copies...)
	case mutexAccess, stateAccess:
		return append(buf, n.objects[k.obj].mutex)
	case condAccess:
		return append(buf, n.objects[k.obj].mutex, n.objects[condMutex(k)].mutex)
	case awaitAccess:
		for _, c := range n.awaitCases(k) {
			buf = append(buf, n.copies[[2]int32{c.obj, th}])
		}
		return buf
	case selectAccess:
		return buf // by case: Strategy.preOf
	case joinAccess:
		return append(buf, n.threads[k.obj])
	case timerAccess:
		return append(buf, n.timerPlace(k.obj))
	case clockTimerAccess:
		return append(buf, n.timerPlace(k.obj), n.copies[[2]int32{n.clk.obj, th}])
	case advanceAccess:
		return n.daemonPlaces(append(buf, n.objects[k.obj].copies...))
	}
	return buf
}

// add adds event e, a possible extension, to the unfolding: it makes its
// postset. next gives the state and next operation of the thread after the
// step, partner those of the sender a receive met (a rendezvous on an
// unbuffered channel); kids lists the threads the step started, with
// theirs; value is a WaitGroup's counter after an Add.
func (n *net) add(e int32, next, partner threadStart, kids []threadStart, value int64) {
	ev := &n.events[e]
	ev.order = n.size
	n.size++
	ev.post = n.ints.alloc(len(ev.pre))
	rw := ev.op.class == trace.ClassRWMutex
	var sum int64 // an RWMutex writer's: the readers of every copy, and the writers' state
	if rw && accessOf(ev.op) == writeAccess {
		sum = n.rwSum(ev.pre[1:])
	}
	for i, c := range ev.pre {
		p := n.conds[c].place
		d := n.newCond(p, e)
		ev = &n.events[e] // newCond does not move events; keep the pointer fresh anyway
		ev.post[i] = d
		pc, dc := &n.conds[c], &n.conds[d]
		switch {
		case isAdvance(ev.op):
			// Every thread stays where it was: blocked, one sleeping,
			// or finished; a timer as it was.
			dc.state, dc.op, dc.value = pc.state, pc.op, pc.value
			if dc.state == done {
				dc.parent = c
				n.markDone(d)
			}
		case i == 0:
			dc.state, dc.op = next.state, next.op
			n.setCond(d, next)
		case n.places[p].kind == mutexPlace:
			dc.state = mutexAfter(ev.op)
		case rw && n.places[p].kind == copyPlace:
			dc.value = rwCopyAfter(ev.op, pc.value, sum, accessOf(ev.op) == writeAccess, n.places[p].thread == ev.thread)
			if rwDeficitOf(dc.value) != 0 {
				n.objects[ev.op.obj].deficit = true
			}
		case n.places[p].kind == statePlace && queued(ev.op):
			dc.value = n.qAfter(ev.op, pc.value)
		case n.places[p].kind == statePlace || (n.places[p].kind == copyPlace && n.objects[n.places[p].obj].class == trace.ClassChan):
			dc.value = stateAfter(n.caseOp(ev), pc.value)
		case n.places[p].kind == copyPlace && n.objects[n.places[p].obj].class == trace.ClassClock:
			dc.value = n.clockAfter(ev, pc.value, next) // clock.go
		case i > 0 && n.daemonPlace(p):
			// A timer's thread: the same send offered, the timer's
			// state as the event leaves it (timer.go).
			dc.state, dc.op = pc.state, pc.op
			dc.value = n.timerAfter(ev, pc.value)
		case n.places[p].kind == threadPlace && isDefault(ev):
			// Another thread, which the default found offering no
			// send it meets: it stays where it was (offer.go).
			dc.state, dc.op, dc.value = pc.state, pc.op, pc.value
			if x, ok := n.sym.cond[c]; ok {
				n.sym.cond[d] = x
			}
		case n.places[p].kind == threadPlace && ev.op.kind != trace.KindJoin:
			dc.state, dc.op = partner.state, partner.op
			n.setCond(d, partner)
		case n.places[p].kind == threadPlace:
			// A join leaves the joined thread as it was: finished.
			dc.state, dc.op = pc.state, pc.op
			dc.parent = c
			n.markDone(d)
		case ev.op.kind == trace.KindWGAdd:
			dc.value = value
		case ev.op.class == trace.ClassVar && accessOf(ev.op) == writeAccess:
			dc.value = value // the value written (a failed CompareAndSwap's: the one it read)
		default:
			dc.value = pc.value
		}
	}
	for _, k := range kids {
		p := n.threadPlace(k.thread)
		d := n.newCond(p, e)
		n.conds[d].state, n.conds[d].op, n.conds[d].value = k.state, k.op, k.value
		n.setCond(d, k)
		ev = &n.events[e]
		ev.spawned = append(ev.spawned, d)
	}
	for i, c := range ev.pre {
		d := &n.conds[ev.post[i]]
		d.parent, d.depth = c, n.conds[c].depth+1
	}
	if len(n.now) > 0 || isAdvance(ev.op) || ev.op.kind == trace.KindAdvance {
		n.setTime(e, n.timeAfter(e)) // time has moved in some execution
	}
	n.front(e)
}

// threadStart is a thread's state at a thread condition: its stable
// number, its next action (an operation or a branch), and whether it has
// one, has finished or failed.
type threadStart struct {
	thread int32
	op     opKey
	state  uint8
	cond   solver.Expr // the condition of a next action that is a branch
	value  int64       // a timer's thread's: the timer's state (timer.go)
}

// setCond records the condition of the branch that is the next action at
// thread condition d, if it is one.
func (n *net) setCond(d int32, st threadStart) {
	if st.op.kind == kindBranch {
		n.sym.cond[d] = st.cond
	}
}

// threadPlace returns the place of stable thread th, making it if needed.
func (n *net) threadPlace(th int32) int32 {
	if p, ok := n.threads[th]; ok {
		return p
	}
	p := n.newPlace(threadPlace, th, -1, false)
	n.threads[th] = p
	return p
}

// markDone records d, a condition where its thread has finished, in the
// list of the thread's finished conditions and, if a thread condition
// joins the thread, in those of the finished conditions below each
// condition above it.
func (n *net) markDone(d int32) {
	th := n.places[n.conds[d].place].thread
	n.dones[th] = append(n.dones[th], d)
	if n.joined[th] {
		n.indexDone(d)
	}
}

// indexDone records d, a finished condition, in doneUnder.
func (n *net) indexDone(d int32) {
	for a := d; a >= 0; a = n.conds[a].parent {
		n.doneUnder[a] = append(n.doneUnder[a], d)
	}
}

// joining notes that a thread condition joins stable thread th: from now
// on its finished conditions are indexed in doneUnder, those it has
// already too.
func (n *net) joining(th int32) {
	if n.joined[th] {
		return
	}
	n.joined[th] = true
	for _, d := range n.dones[th] {
		n.indexDone(d)
	}
}

// frontOf returns the condition of place p in the cut of thread condition
// t's local configuration: the last its events left, or p's initial
// condition; -1 if none (a thread that t's past does not start).
func (n *net) frontOf(t, p int32) int32 {
	if e := n.conds[t].producer; e >= 0 {
		f := n.events[e].front
		i, ok := slices.BinarySearchFunc(f, p, func(x frontier, p int32) int { return int(x.place - p) })
		if ok {
			return f[i].cond
		}
	}
	return n.places[p].init
}
