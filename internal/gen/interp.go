// This file turns a Program into a test body.

package gen

import "github.com/weft-go/weft"

// objects are the shared objects of a program.
type objects struct {
	vars  []*weft.Int[int]
	mus   []*weft.Mutex
	rws   []*weft.RWMutex
	chans []*weft.Chan[int]
	wgs   []*weft.WaitGroup
}

// alloc allocates p's objects, named for reports and final states.
func (p *Program) alloc() *objects {
	o := &objects{}
	for i := range p.Vars {
		o.vars = append(o.vars, &weft.Int[int]{Var: *weft.NewVar[int](name("v", i))})
	}
	for i := range p.Mutexes {
		m := &weft.Mutex{}
		m.SetName(name("m", i))
		o.mus = append(o.mus, m)
	}
	for i := range p.RWMutexes {
		m := &weft.RWMutex{}
		m.SetName(name("rw", i))
		o.rws = append(o.rws, m)
	}
	for i, c := range p.Chans {
		ch := weft.MakeChan[int](c)
		ch.SetName(name("c", i))
		o.chans = append(o.chans, ch)
	}
	for range p.WaitGroups {
		o.wgs = append(o.wgs, &weft.WaitGroup{})
	}
	return o
}

func name(prefix string, i int) string { return prefix + string(rune('0'+i)) }

// Body returns p as a test body. Its objects live across executions, or,
// if p.Local, are allocated by each execution.
func (p *Program) Body() func(w *weft.T) {
	var shared *objects
	if !p.Local {
		shared = p.alloc()
	}
	return func(w *weft.T) {
		o := shared
		if o == nil {
			o = p.alloc()
		}
		for _, wg := range o.wgs {
			wg.Add(p.WGAdd)
		}
		threads := make([]*weft.Thread, len(p.Threads))
		for i, th := range p.Threads {
			threads[i] = w.Go(func() { o.run(w, threads, th) })
		}
		o.run(w, threads, p.Main)
	}
}

// run runs statements ss.
func (o *objects) run(w *weft.T, threads []*weft.Thread, ss []Stmt) {
	for _, s := range ss {
		o.stmt(w, threads, s)
	}
}

// stmt runs one statement.
func (o *objects) stmt(w *weft.T, threads []*weft.Thread, s Stmt) {
	switch s.Kind {
	case Load:
		v := o.vars[s.Obj].Load()
		if s.Assert {
			w.Assert(v != s.Val, "v%d == %d", s.Obj, v)
		}
	case Store:
		o.vars[s.Obj].Store(s.Val)
	case Add:
		o.vars[s.Obj].Add(s.Val)
	case CAS:
		o.vars[s.Obj].CompareAndSwap(s.Val, s.Val2)
	case Lock:
		o.mus[s.Obj].Lock()
		o.run(w, threads, s.Body)
		o.mus[s.Obj].Unlock()
	case RLock:
		o.rws[s.Obj].RLock()
		o.run(w, threads, s.Body)
		o.rws[s.Obj].RUnlock()
	case WLock:
		o.rws[s.Obj].Lock()
		o.run(w, threads, s.Body)
		o.rws[s.Obj].Unlock()
	case Send:
		o.chans[s.Obj].Send(s.Val)
	case Recv:
		v, _ := o.chans[s.Obj].RecvOK()
		if s.Assert {
			w.Assert(v != s.Val, "<-c%d == %d", s.Obj, v)
		}
	case Close:
		o.chans[s.Obj].Close()
	case Select:
		var cs []weft.SelectCase
		for _, c := range s.Cases {
			if c.Send {
				cs = append(cs, weft.OnSend(o.chans[c.Chan], c.Val, nil))
			} else {
				cs = append(cs, weft.OnRecv(o.chans[c.Chan], nil))
			}
		}
		if s.Default {
			cs = append(cs, weft.OnDefault(nil))
		}
		weft.Select(cs...)
	case Done:
		o.wgs[s.Obj].Done()
	case Wait:
		o.wgs[s.Obj].Wait()
	case Join:
		threads[s.Obj].Join()
	}
}
