// This file runs the statements on semaphores, condition variables,
// monitors and awaits (gen.Options.Sync).

package genweft

import (
	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
)

// syncObjects are the semaphores, condition variables and monitors of a
// program. A semaphore is counting or binary.
type syncObjects struct {
	sems     []semaphore
	conds    []*weft.Cond
	monitors []*weft.Monitor
}

// semaphore is a counting or a binary semaphore.
type semaphore interface {
	P()
	V()
}

// allocSync allocates p's semaphores, condition variables (Cond i on
// mutex i) and monitors.
func (o *objects) allocSync(p *gen.Program) {
	for i, v := range p.Sems {
		if p.Binary[i] {
			s := weft.NewBinarySemaphore(v)
			s.SetName(name("s", i))
			o.sync.sems = append(o.sync.sems, s)
			continue
		}
		s := weft.NewSemaphore(v)
		s.SetName(name("s", i))
		o.sync.sems = append(o.sync.sems, s)
	}
	for i := range p.Conds {
		c := weft.NewCond(o.mus[i])
		c.SetName(name("cond", i))
		o.sync.conds = append(o.sync.conds, c)
	}
	for i, su := range p.SU {
		d := weft.SC
		if su {
			d = weft.SU
		}
		m := weft.NewMonitor(d)
		m.SetName(name("mon", i))
		o.sync.monitors = append(o.sync.monitors, m)
	}
}

// syncStmt runs a statement of gen.Options.Sync; it reports false if s is
// not one.
func (o *objects) syncStmt(w *weft.T, threads []*weft.Thread, sc *scope, s gen.Stmt) bool {
	switch s.Kind {
	case gen.SemP:
		o.sync.sems[s.Obj].P()
	case gen.SemV:
		o.sync.sems[s.Obj].V()
	case gen.CondWait:
		o.mus[s.Obj].Lock()
		if o.load(o.vars[s.Val]) == 0 {
			o.sync.conds[s.Obj].Wait()
		}
		o.mus[s.Obj].Unlock()
	case gen.CondSignal:
		o.mus[s.Obj].Lock()
		o.store(o.vars[s.Val], 1)
		if s.Val2 == 1 {
			o.sync.conds[s.Obj].Broadcast()
		} else {
			o.sync.conds[s.Obj].Signal()
		}
		o.mus[s.Obj].Unlock()
	case gen.Monitor:
		o.sync.monitors[s.Obj].Enter()
		o.run(w, threads, sc, s.Body)
		o.sync.monitors[s.Obj].Exit()
	case gen.MonWait:
		if o.load(o.vars[s.Val]) == 0 {
			o.sync.monitors[s.Obj].Cond(s.Val2).Wait()
		}
	case gen.MonSignal:
		o.store(o.vars[s.Val], 1)
		if s.Assert {
			o.sync.monitors[s.Obj].Cond(s.Val2).SignalAll()
		} else {
			o.sync.monitors[s.Obj].Cond(s.Val2).Signal()
		}
	case gen.Await:
		v := o.vars[s.Obj]
		if s.Val2 == 1 {
			for o.load(v) == 0 {
				w.Yield()
			}
		} else {
			w.Await(func() bool { return o.load(v) != 0 })
		}
	default:
		return false
	}
	return true
}
