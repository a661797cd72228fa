// This file draws and prints the statements on semaphores, condition
// variables, monitors and awaits (Options.Sync).

package gen

import (
	"fmt"
	"strings"
)

// drawSyncObjects draws the semaphores, condition variables and monitors
// of a program of Options.Sync.
func (g *gen) drawSyncObjects() {
	r, p := g.r, g.p
	for range r.IntN(3) {
		p.Sems = append(p.Sems, r.IntN(2))
		p.Binary = append(p.Binary, r.IntN(3) == 0)
	}
	if p.Mutexes > 0 {
		p.Conds = 1 + r.IntN(p.Mutexes)
	}
	for range 1 + r.IntN(2) {
		p.SU = append(p.SU, r.IntN(2) == 0)
	}
}

// syncStmt draws a statement of Options.Sync, or reports false to draw
// another statement.
func (g *gen) syncStmt(outer bool) (Stmt, bool) {
	r, p := g.r, g.p
	switch r.IntN(8) {
	case 0:
		if len(p.Sems) > 0 {
			k := SemP
			if r.IntN(2) == 0 {
				k = SemV
			}
			return Stmt{Kind: k, Obj: r.IntN(len(p.Sems))}, true
		}
	case 1, 5:
		if outer && p.Conds > 0 {
			return Stmt{Kind: CondWait, Obj: r.IntN(p.Conds), Val: r.IntN(p.Vars)}, true
		}
	case 2, 6:
		if outer && p.Conds > 0 {
			return Stmt{Kind: CondSignal, Obj: r.IntN(p.Conds), Val: r.IntN(p.Vars), Val2: r.IntN(2)}, true
		}
	case 3, 7:
		if outer && len(p.SU) > 0 {
			m := r.IntN(len(p.SU))
			s := Stmt{Kind: Monitor, Obj: m}
			for range 1 + r.IntN(2) {
				switch r.IntN(5) {
				case 0, 3:
					s.Body = append(s.Body, Stmt{Kind: MonWait, Obj: m, Val: r.IntN(p.Vars), Val2: r.IntN(2)})
				case 1, 2:
					s.Body = append(s.Body, Stmt{Kind: MonSignal, Obj: m, Val: r.IntN(p.Vars), Val2: r.IntN(2), Assert: !p.SU[m] && r.IntN(2) == 0})
				default:
					s.Body = append(s.Body, Stmt{Kind: Store, Obj: r.IntN(p.Vars), Val: g.val()})
				}
			}
			return s, true
		}
	case 4:
		return Stmt{Kind: Await, Obj: r.IntN(p.Vars), Val2: r.IntN(2)}, true
	}
	return Stmt{}, false
}

// syncHeader prints the objects of Options.Sync.
func (p *Program) syncHeader(b *strings.Builder) {
	if len(p.Sems) == 0 && p.Conds == 0 && len(p.SU) == 0 {
		return
	}
	var ss []string
	for i, v := range p.Sems {
		kind := "semaphore"
		if p.Binary[i] {
			kind = "binary semaphore"
		}
		ss = append(ss, fmt.Sprintf("s%d: %s(%d)", i, kind, v))
	}
	for i := range p.Conds {
		ss = append(ss, fmt.Sprintf("cond%d: on m%d", i, i))
	}
	for i, su := range p.SU {
		d := "SC"
		if su {
			d = "SU"
		}
		ss = append(ss, fmt.Sprintf("mon%d: %s monitor", i, d))
	}
	b.WriteString(strings.Join(ss, ", ") + "\n")
}

// syncString prints a statement of Options.Sync.
func (s Stmt) syncString() (string, bool) {
	switch s.Kind {
	case SemP:
		return fmt.Sprintf("s%d.P()", s.Obj), true
	case SemV:
		return fmt.Sprintf("s%d.V()", s.Obj), true
	case CondWait:
		return fmt.Sprintf("m%d.Lock(); if v%d.Load() == 0 { cond%d.Wait() }; m%d.Unlock()", s.Obj, s.Val, s.Obj, s.Obj), true
	case CondSignal:
		op := "Signal"
		if s.Val2 == 1 {
			op = "Broadcast"
		}
		return fmt.Sprintf("m%d.Lock(); v%d.Store(1); cond%d.%s(); m%d.Unlock()", s.Obj, s.Val, s.Obj, op, s.Obj), true
	case Monitor:
		return fmt.Sprintf("mon%d.Enter() {", s.Obj), true
	case MonWait:
		return fmt.Sprintf("if v%d.Load() == 0 { mon%d.Cond(%d).Wait() }", s.Val, s.Obj, s.Val2), true
	case MonSignal:
		op := "Signal"
		if s.Assert {
			op = "SignalAll"
		}
		return fmt.Sprintf("v%d.Store(1); mon%d.Cond(%d).%s()", s.Val, s.Obj, s.Val2, op), true
	case Await:
		if s.Val2 == 1 {
			return fmt.Sprintf("for v%d.Load() == 0 { yield() }", s.Obj), true
		}
		return fmt.Sprintf("await(v%d.Load() != 0)", s.Obj), true
	}
	return "", false
}
