// This file implements the interference forest (Farzan et al. 2013, Def. 5.1): its
// nodes, interned by their whole causal past, and the scenarios they span.

package con2

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

// kind is the action of a node (Farzan et al. 2013, §4, Σ).
type kind uint8

const (
	kRead    kind = iota + 1 // rd(x, r): a load, a failed compare-and-swap
	kWrite                   // wt(x, val): a store
	kUpdate                  // both at once: a swap, an add, a successful compare-and-swap
	kAcquire                 // ac(l)
	kRelease                 // rel(l)
	kJoin                    // the join of a thread (not in the paper: see doc.go)
	kFork                    // tf(T)
	kBranch                  // br(ψ)
	kSync                    // a step of another primitive (not in the paper: see doc.go)
)

var kindNames = [...]string{kRead: "rd", kWrite: "wt", kUpdate: "rmw", kAcquire: "ac", kRelease: "rel", kJoin: "join", kFork: "tf", kBranch: "br", kSync: "sync"}

func (k kind) String() string { return kindNames[k] }

// reads reports whether k reads a variable; writes whether it writes one.
func (k kind) reads() bool  { return k == kRead || k == kUpdate }
func (k kind) writes() bool { return k == kWrite || k == kUpdate }

// event reports whether k is a step of the runtime (the others happen in
// the local code of a step).
func (k kind) event() bool { return k != kFork && k != kBranch }

// step reports whether node n is a step of the runtime of its own: an
// event that is not a read of an await before its last (label.part),
// which runs in the step of the await's last read.
func (f *forest) step(n int32) bool {
	l := &f.nodes[n].lab
	return l.kind.event() && !l.part
}

// label is the event a node stands for, as far as it is the thread's own:
// where a read reads from is the node's src, not its label.
type label struct {
	kind kind
	// op is the runtime's operation (a step's kind, to check that the
	// pending operation is the one the node stands for).
	op trace.Kind
	// obj is the object's key (a variable, a mutex); for a fork the stable
	// number of the thread started, for a join that of the thread joined.
	obj uint64
	// expr is the value written (a write, an update) or the branch's
	// condition, in terms of the positional symbols of reads (symbol),
	// or the zero Expr for a variable whose values carry none.
	expr  solver.Expr
	taken bool    // a branch's side
	pc    uintptr // a branch's call site
	// The outcome of a step of another primitive (kSync): the select
	// case taken (-1: none, or the default), the event's OK, and rdv for
	// the sender's side of a rendezvous on an unbuffered channel (a node
	// of the sender's thread that runs in the receiver's step).
	cas int32
	ok  bool
	rdv bool
	// part marks a read of an await (w.Await, op trace.KindAwait) but its
	// last: the await is one step, a read node per variable it waits on,
	// and the step is its last node's (doc.go, "Busy waits").
	part bool
	// lock is the lock a step takes or releases besides its object (the
	// mutex of a Cond's Wait and Relock), or 0.
	lock uint64
	// val is the length a channel's Len observed, or the time an advance
	// of the clock moved to (time at any step).
	val int64
}

// none is the node index of no node.
const none int32 = -1

// key identifies a node: its label, its thread, the node before it (the
// thread's previous node, or for a thread's first node the fork that
// started it) and, for a read that another thread's write interferes
// with, that write (for a join, the joined thread's last node). Nodes are
// interned by key, and a key's nodes exist before it, so a node's index
// names its whole causal past: two nodes are one exactly when their
// causal interference scenarios are isomorphic (Def. 5.3, 5.4).
type key struct {
	thread trace.ThreadID // stable (trace.ThreadNames)
	up     int32
	src    int32
	lab    label
}

// node is a node of the forest.
type node struct {
	key
	depth int32 // index in its thread
	// observed reports that an execution ran the node; the others are
	// hypothetical: dangling nodes (the other sides of branches), and the
	// nodes of scenarios Alg. 3 builds.
	observed bool
	degree   int32 // interferences of its causal past; -1 until computed
}

// forest holds every node made so far: the observed ones form the
// interference forest of Farzan et al. 2013, §5, the hypothetical ones the scenarios
// built from it.
type forest struct {
	nodes []node
	index map[key]int32
	// kids holds the observed nodes after each node: its successors in
	// its thread and the first nodes of the threads it forks.
	kids map[int32][]int32
	// writes holds the observed writes and updates, in the order observed.
	writes []int32
	// fails holds the nodes after which an execution failed in the
	// thread's local code (or in the node's own step).
	fails map[int32]bool
	// widths gives the width of each variable's values (0: boolean), -1
	// for a variable whose values carry no expression.
	widths map[uint64]int
	// objs numbers the objects of the steps seen, by key (sync.go):
	// objs[i] is object i, whose key is keys[i]; ops holds each step
	// node's operation in those numbers. syncs lists the nodes of other
	// primitives by object key, the observed ones and the pending
	// rendezvous senders of executions that ended blocked.
	objs  []trace.ObjectInfo
	objID map[uint64]trace.ObjectID
	ops   map[int32]trace.Op
	syncs map[uint64][]int32
	// keys[i] is the key of object i; syncObjs the keys of syncs in the
	// order first seen; pend the hypothetical nodes of pending steps;
	// tried the pairs of a step and a source alternatives tried.
	keys     []uint64
	syncObjs []uint64
	pend     []int32
	tried    map[[2]int32]bool
	// waits holds the step a thread was waiting at when an execution
	// ended, by its last node (or its fork) and the thread.
	waits map[[2]int32]trace.Op
	// receivers holds the receivers of each sender's side of a
	// rendezvous.
	receivers map[int32][]int32
	// lemmas holds, by the last read of an await, the values of its reads
	// with which its condition did not hold, excluded (busy.go).
	lemmas map[int32][]solver.Expr
	// advances lists the observed advances of the clock (time at any
	// step), whose cases are the timers they make due (busy.go).
	advances []int32
	// Scratch for closures: mark[i] == gen marks node i.
	mark []uint32
	gen  uint32
}

func newForest() *forest {
	return &forest{index: map[key]int32{}, kids: map[int32][]int32{}, fails: map[int32]bool{}, widths: map[uint64]int{},
		objID: map[uint64]trace.ObjectID{}, ops: map[int32]trace.Op{}, syncs: map[uint64][]int32{}, tried: map[[2]int32]bool{}, waits: map[[2]int32]trace.Op{}, receivers: map[int32][]int32{},
		lemmas: map[int32][]solver.Expr{}}
}

// intern returns the node of k, made if new (fresh).
func (f *forest) intern(k key) (id int32, fresh bool) {
	if id, ok := f.index[k]; ok {
		return id, false
	}
	d := int32(0)
	if k.up != none && f.nodes[k.up].thread == k.thread {
		d = f.nodes[k.up].depth + 1
	}
	id = int32(len(f.nodes))
	f.nodes = append(f.nodes, node{key: k, depth: d, degree: -1})
	f.mark = append(f.mark, 0)
	f.index[k] = id
	return id, true
}

// dual returns the key of the other side of branch node n.
func (f *forest) dual(n int32) key {
	k := f.nodes[n].key
	k.lab.taken = !k.lab.taken
	return k
}

// observe marks node n observed and reports whether it was not before.
func (f *forest) observe(n int32) bool {
	nd := &f.nodes[n]
	if nd.observed {
		return false
	}
	nd.observed = true
	if nd.up != none {
		f.kids[nd.up] = append(f.kids[nd.up], n)
	}
	if nd.lab.kind.writes() {
		f.writes = append(f.writes, n)
	}
	return true
}

// closure returns the causal past of the tips, the tips included, in
// increasing order (a topological order: a node's key names older ones).
func (f *forest) closure(tips ...int32) []int32 {
	f.gen++
	if f.gen == 0 {
		clear(f.mark)
		f.gen = 1
	}
	var out, stack []int32
	for _, t := range tips {
		if t != none && f.mark[t] != f.gen {
			f.mark[t] = f.gen
			stack = append(stack, t)
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, n)
		nd := &f.nodes[n]
		for _, m := range [2]int32{nd.up, nd.src} {
			if m != none && f.mark[m] != f.gen {
				f.mark[m] = f.gen
				stack = append(stack, m)
			}
		}
	}
	slices.Sort(out)
	return out
}

// interfered reports whether node n is a read another thread's write
// interferes with, or a step of another primitive that synchronises with
// another thread's step (doc.go).
func (f *forest) interfered(n int32) bool {
	nd := &f.nodes[n]
	return (nd.lab.kind.reads() || nd.lab.kind == kSync) && nd.src != none
}

// degreeOf returns the interferences of a set of nodes (Def. 5.1: |E_I|).
func (f *forest) degreeOf(ns []int32) int {
	d := 0
	for _, n := range ns {
		if f.interfered(n) {
			d++
		}
	}
	return d
}

// degree returns the interferences of node n's causal past.
func (f *forest) degree(n int32) int {
	nd := &f.nodes[n]
	if nd.degree < 0 {
		nd.degree = int32(f.degreeOf(f.closure(n)))
	}
	return int(nd.degree)
}

// locW returns the write a read at node r's place reads when no other
// thread interferes (Farzan et al. 2013, Fig. 5, LocW): the last write to obj before
// it in its thread or, before the thread's start, in the thread that
// started it (and so on up: a thread inherits the memory its parent wrote
// before the fork). none means the variable's initial value.
func (f *forest) locW(up int32, obj uint64) int32 {
	for n := up; n != none; n = f.nodes[n].up {
		if l := &f.nodes[n].lab; l.kind.writes() && l.obj == obj {
			return n
		}
	}
	return none
}

// source returns the write read at node r: its interference, or its
// local write (locW), or none for the initial value.
func (f *forest) source(r int32) int32 {
	nd := &f.nodes[r]
	if nd.src != none {
		return nd.src
	}
	return f.locW(nd.up, nd.lab.obj)
}

// symbol returns the positional variable of the read at node n: named by
// its thread and depth, which name one node in a scenario (one path per
// thread), and so the same variable in every scenario that shares the
// node's thread up to it. width is the variable's (0: boolean).
func symbol(thread trace.ThreadID, depth int32, width int) solver.Expr {
	name := fmt.Sprintf("r%d.%d", thread, depth)
	if width == 0 {
		return solver.BoolVar(name)
	}
	return solver.Var(name, width)
}

// stamp returns the timestamp variable of node n (Farzan et al. 2013, §6, t_n), of
// the given width.
func (f *forest) stamp(n int32, width int) solver.Expr {
	nd := &f.nodes[n]
	return solver.Var(fmt.Sprintf("t%d.%d", nd.thread, nd.depth), width)
}

// stampBits returns the width of the timestamps of a scenario of n nodes:
// enough for n distinct values. Narrow bit-vectors keep the ordering
// problem small for the solver, which bit-blasts them.
func stampBits(n int) int { return bits.Len(uint(n)) + 1 }

// chains groups nodes by thread, each in increasing depth. ok is false if
// some thread's nodes do not form one path (two nodes at one depth): the
// nodes are then no scenario (Def. 5.2), their parts incompatible (Def.
// 5.4).
func (f *forest) chains(ns []int32) (map[trace.ThreadID][]int32, bool) {
	by := map[trace.ThreadID][]int32{}
	for _, n := range ns {
		t := f.nodes[n].thread
		by[t] = append(by[t], n)
	}
	for _, c := range by {
		slices.SortFunc(c, func(a, b int32) int { return int(f.nodes[a].depth - f.nodes[b].depth) })
		for i, n := range c {
			if f.nodes[n].depth != int32(i) {
				return nil, false
			}
		}
	}
	return by, true
}

// next returns the observed nodes of thread th right after node n: n's
// successors if n is th's, the thread's first nodes if n is its fork.
func (f *forest) next(n int32, th trace.ThreadID) []int32 {
	var out []int32
	for _, k := range f.kids[n] {
		if f.nodes[k].thread == th {
			out = append(out, k)
		}
	}
	return out
}

// held returns the locks a thread holds after the nodes of its chain c,
// in the order it acquired them.
func (f *forest) held(c []int32) []uint64 {
	var h []uint64
	for _, n := range c {
		h = lockStep(h, &f.nodes[n].lab)
	}
	return h
}

// lockStep returns held, the locks a thread holds, after the step of
// label l: an acquire, a release, or a step of another primitive that
// takes or releases a lock (sync.go, lockEffect). held is not changed.
func lockStep(held []uint64, l *label) []uint64 {
	obj, d := lockEffect(l)
	switch {
	case d > 0:
		return append(slices.Clone(held), obj)
	case d < 0:
		if i := slices.Index(held, obj); i >= 0 {
			return slices.Delete(slices.Clone(held), i, i+1)
		}
	}
	return held
}

// String describes node n for debugging.
func (f *forest) String(n int32) string {
	nd := &f.nodes[n]
	s := fmt.Sprintf("#%d T%d.%d %v", n, nd.thread, nd.depth, nd.lab.kind)
	switch nd.lab.kind {
	case kBranch:
		s += fmt.Sprintf("(%v=%v)", nd.lab.expr, nd.lab.taken)
	case kWrite, kUpdate:
		s += fmt.Sprintf("(o%d, %v)", nd.lab.obj, nd.lab.expr)
	default:
		s += fmt.Sprintf("(%d)", nd.lab.obj)
	}
	if nd.src != none {
		s += fmt.Sprintf("<-#%d", nd.src)
	}
	return s
}
