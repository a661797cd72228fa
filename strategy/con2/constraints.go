// This file builds the constraint systems of a scenario (Farzan et al. 2013, §6,
// Fig. 5): the data constraints DC over the inputs and the read symbols,
// and the temporal-consistency constraints TC over the nodes' timestamps.

package con2

import (
	"slices"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

// part is the part of Fig. 5 a constraint belongs to.
type part uint8

const (
	dcRange     part = iota // an input's declared range (weft's; the paper has none)
	dcBranch                // DC_branch
	dcInterfere             // DC_interfere
	dcLocal                 // DC_local
	tcOrder                 // PO_Ti
	tcFork                  // FC
	tcJoin                  // a join after the joined thread's last node (weft's)
	tcLock                  // LC1, LC2
	tcInterfere             // WRC_interfere
	tcLocal                 // WRC_local
	// dcConstant: a branch whose condition is a constant (a plain
	// w.Assert): which side it takes depends on values con2 does not see,
	// so any interference in its causal past may change it (weft's).
	dcConstant
	// dcAwait: values with which an await's condition does not hold
	// are excluded (busy.go, learnAwait); what its condition is, is not in
	// the constraints, so any interference before it may change it.
	dcAwait
)

// local reports whether a constraint of part p goes away when its read is
// interfered: the parts unsat-core guidance looks for (§7.5).
func (p part) local() bool { return p == dcLocal || p == tcLocal }

// constant reports whether e is a constant: a branch condition that
// carries no expression.
func constant(e solver.Expr) bool {
	_, ok := e.Const()
	return ok
}

// system is a constraint system: its constraints, each with its part and,
// for the couplings of reads, the read it couples.
type system struct {
	cs   []solver.Expr
	part []part
	read []int32
}

func (s *system) add(c solver.Expr, p part, read int32) {
	s.cs = append(s.cs, c)
	s.part = append(s.part, p)
	s.read = append(s.read, read)
}

// data returns DC(C) for the nodes of a scenario (Fig. 5), with the
// declared ranges of the inputs it mentions. A read reads its
// interference's value (DC_interfere), or its local write's, or the
// variable's initial zero (DC_local). A read of a variable whose values
// carry no expression, or whose write has none, is unconstrained.
func (f *forest) data(ns []int32, ranges map[string]solver.Expr) *system {
	s := &system{}
	for _, n := range ns {
		nd := &f.nodes[n]
		for _, l := range f.lemmas[n] {
			s.add(l, dcAwait, none)
		}
		switch {
		case nd.lab.kind == kBranch:
			c := nd.lab.expr
			if !nd.lab.taken {
				c = solver.Not(c)
			}
			p := dcBranch
			if constant(c) {
				p = dcConstant
			}
			s.add(c, p, none)
		case nd.lab.kind.reads():
			w, ok := f.widths[nd.lab.obj]
			if !ok || w < 0 {
				continue
			}
			val := zero(w)
			if src := f.source(n); src != none {
				val = f.nodes[src].lab.expr
			}
			if !val.IsValid() || val.Width() != w {
				continue
			}
			p := dcLocal
			if nd.src != none {
				p = dcInterfere
			}
			s.add(solver.Eq(symbol(nd.thread, nd.depth, w), val), p, n)
		}
	}
	for _, v := range solver.Vars(s.cs...) {
		if r, ok := ranges[v]; ok {
			s.add(r, dcRange, none)
		}
	}
	return s
}

// zero returns the zero value of width w (0: false), a variable's initial
// value in weft.
func zero(w int) solver.Expr {
	if w == 0 {
		return solver.False
	}
	return solver.Const(0, w)
}

// block is a lock block [aq, rl] of a thread (rl none: no release in the
// scenario, NoRel).
type block struct {
	thread trace.ThreadID
	lock   uint64
	aq, rl int32
}

// time returns TC(C) for the nodes of a scenario grouped in chains (Fig.
// 5), with LC1 as the paper means it (its text reads t_rl < t_aq' ∨ t_rl
// < t_aq, a misprint: mutual exclusion is t_rl < t_aq' ∨ t_rl' < t_aq),
// with two never-released blocks of one lock in two threads unsatisfiable
// (which neither LC1 nor LC2 says), with joins after the joined thread's
// last node, and with a read that reads the initial value coupled with no
// write: every write to its variable comes after it (LocW undefined; the
// reading of the notes).
func (f *forest) time(ns []int32, chains map[trace.ThreadID][]int32) *system {
	s := &system{}
	w := stampBits(len(ns))
	t := func(n int32) solver.Expr { return f.stamp(n, w) }
	lt := func(a, b int32) solver.Expr { return solver.Ult(t(a), t(b)) }
	threads := sortedThreads(chains)
	var blocks []block
	for _, th := range threads {
		c := chains[th]
		open := map[uint64]int32{}
		for i, n := range c {
			if i > 0 {
				s.add(lt(c[i-1], n), tcOrder, none)
			}
			switch l := &f.nodes[n].lab; l.kind {
			case kAcquire:
				open[l.obj] = n
			case kRelease:
				if aq, ok := open[l.obj]; ok {
					blocks = append(blocks, block{th, l.obj, aq, n})
					delete(open, l.obj)
				}
			}
		}
		for _, n := range c {
			if l := &f.nodes[n].lab; l.kind == kAcquire {
				if aq, ok := open[l.obj]; ok && aq == n {
					blocks = append(blocks, block{th, l.obj, aq, none})
				}
			}
		}
		if first := f.nodes[c[0]].up; first != none {
			s.add(lt(first, c[0]), tcFork, none)
		}
	}
	for _, n := range ns {
		if nd := &f.nodes[n]; nd.lab.kind == kJoin && nd.src != none {
			s.add(lt(nd.src, n), tcJoin, none)
		}
	}
	for i, b := range blocks {
		for _, b2 := range blocks[i+1:] {
			if b.lock != b2.lock || b.thread == b2.thread {
				continue
			}
			switch {
			case b.rl != none && b2.rl != none:
				s.add(solver.Or(lt(b.rl, b2.aq), lt(b2.rl, b.aq)), tcLock, none)
			case b.rl != none:
				s.add(lt(b.rl, b2.aq), tcLock, none)
			case b2.rl != none:
				s.add(lt(b2.rl, b.aq), tcLock, none)
			default:
				s.add(solver.False, tcLock, none)
			}
		}
	}
	writes := map[uint64][]int32{}
	for _, n := range ns {
		if l := &f.nodes[n].lab; l.kind.writes() {
			writes[l.obj] = append(writes[l.obj], n)
		}
	}
	for _, v := range ns {
		nd := &f.nodes[v]
		if !nd.lab.kind.reads() {
			continue
		}
		p := tcLocal
		if nd.src != none {
			p = tcInterfere
		}
		// The reads of an await happen at once, in the step of its last.
		at := f.stepOf(v, chains[nd.thread])
		u := f.source(v)
		if u != none {
			s.add(lt(u, at), p, v)
		}
		for _, w := range writes[nd.lab.obj] {
			switch {
			case w == v || w == u:
			case u == none:
				s.add(lt(at, w), p, v)
			default:
				s.add(solver.Or(lt(w, u), lt(at, w)), p, v)
			}
		}
	}
	return s
}

// sortedThreads returns the threads of chains in increasing order.
func sortedThreads(chains map[trace.ThreadID][]int32) []trace.ThreadID {
	ts := make([]trace.ThreadID, 0, len(chains))
	for t := range chains {
		ts = append(ts, t)
	}
	slices.Sort(ts)
	return ts
}
