// Package genweft turns the random programs of package gen into weft test
// bodies, run by weft's runtime (package gen itself knows nothing of the
// runtime, so that strategy tests can use its programs without it).
//
//	p := gen.New(42)
//	r, err := weft.Explore(genweft.Body(p), weft.KeepGoing())
package genweft

import (
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
)

// objects are the shared objects of a program.
type objects struct {
	// plain makes the Loads and Stores of variables plain accesses (the
	// embedded Var's), which race checking checks (BodyPlain).
	plain bool
	vars  []*weft.Int[int]
	mus   []*weft.Mutex
	rws   []*weft.RWMutex
	chans []*weft.Chan[int]
	wgs   []*weft.WaitGroup
	onces []*weft.Once
	sync  syncObjects
}

// scope holds the objects of a Scope statement, made by the thread that
// runs it.
type scope struct {
	v *weft.Int[int]
	m *weft.Mutex
	c *weft.Chan[int]
}

// panicValue is what the function of a panicking OnceDo panics with.
const panicValue = "gen: the Once's function panics"

// alloc allocates p's objects, named for reports and final states.
func alloc(p *gen.Program) *objects {
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
		if c < 0 {
			o.chans = append(o.chans, nil) // a nil channel (Options.Selects)
			continue
		}
		ch := weft.MakeChan[int](c)
		ch.SetName(name("c", i))
		o.chans = append(o.chans, ch)
	}
	for range p.WaitGroups {
		o.wgs = append(o.wgs, &weft.WaitGroup{})
	}
	for i := range p.Onces {
		once := &weft.Once{}
		once.SetName(name("once", i))
		o.onces = append(o.onces, once)
	}
	o.allocSync(p)
	return o
}

func name(prefix string, i int) string { return prefix + string(rune('0'+i)) }

// Body returns p as a test body. Its objects live across executions, or,
// if p.Local, are allocated by each execution.
func Body(p *gen.Program) func(w *weft.T) { return body(p, false) }

// BodyPlain is Body with the Loads and Stores of variables plain accesses,
// as of Go variables, for race checking (weft.WithRaces): a variable
// that an execution also adds to or compares-and-swaps is atomic in that
// execution all the same (Int's other operations mark it).
func BodyPlain(p *gen.Program) func(w *weft.T) { return body(p, true) }

func body(p *gen.Program, plain bool) func(w *weft.T) {
	var shared *objects
	if !p.Local {
		shared = alloc(p)
		shared.plain = plain
	}
	return func(w *weft.T) {
		o := shared
		if o == nil {
			o = alloc(p)
			o.plain = plain
		}
		for _, wg := range o.wgs {
			if p.WGAdd != 0 {
				wg.Add(p.WGAdd)
			}
		}
		if p.Fill {
			o.fill(p)
		}
		threads := make([]*weft.Thread, len(p.Threads))
		for i, th := range p.Threads {
			threads[i] = w.Go(func() { o.run(w, threads, nil, th) })
		}
		o.run(w, threads, nil, p.Main)
	}
}

// run runs statements ss, in scope sc (nil outside a Scope), and then
// joins the threads they started to be joined.
func (o *objects) run(w *weft.T, threads []*weft.Thread, sc *scope, ss []gen.Stmt) {
	var joins []*weft.Thread
	for _, s := range ss {
		if t := o.stmt(w, threads, sc, s); t != nil {
			joins = append(joins, t)
		}
	}
	for _, t := range joins {
		t.Join()
	}
}

// stmt runs one statement; it returns a thread it started for run to join.
func (o *objects) stmt(w *weft.T, threads []*weft.Thread, sc *scope, s gen.Stmt) *weft.Thread {
	if s.Local {
		o.local(w, threads, sc, s)
		return nil
	}
	switch s.Kind {
	case gen.Load:
		v := o.load(o.vars[s.Obj])
		if s.Assert {
			w.Assert(v != s.Val, "v%d == %d", s.Obj, v)
		}
	case gen.Store:
		o.store(o.vars[s.Obj], s.Val)
	case gen.Add:
		o.vars[s.Obj].Add(s.Val)
	case gen.AddOnly:
		o.vars[s.Obj].AddOnly(s.Val)
	case gen.CAS:
		o.vars[s.Obj].CompareAndSwap(s.Val, s.Val2)
	case gen.Lock:
		o.mus[s.Obj].Lock()
		o.run(w, threads, sc, s.Body)
		o.mus[s.Obj].Unlock()
	case gen.RLock:
		o.rws[s.Obj].RLock()
		o.run(w, threads, sc, s.Body)
		o.rws[s.Obj].RUnlock()
	case gen.WLock:
		o.rws[s.Obj].Lock()
		o.run(w, threads, sc, s.Body)
		o.rws[s.Obj].Unlock()
	case gen.Send:
		o.chans[s.Obj].Send(s.Val)
	case gen.Recv:
		v, _ := o.chans[s.Obj].RecvOK()
		if s.Assert {
			w.Assert(v != s.Val, "<-c%d == %d", s.Obj, v)
		}
	case gen.Close:
		o.chans[s.Obj].Close()
	case gen.Select:
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
	case gen.Done:
		o.wgs[s.Obj].Done()
	case gen.Wait:
		o.wgs[s.Obj].Wait()
	case gen.Join:
		threads[s.Obj].Join()
	case gen.TryLock:
		if o.mus[s.Obj].TryLock() {
			o.run(w, threads, sc, s.Body)
			o.mus[s.Obj].Unlock()
		} else {
			o.store(o.vars[s.Val], 9)
		}
	case gen.TryRLock:
		if o.rws[s.Obj].TryRLock() {
			o.run(w, threads, sc, s.Body)
			o.rws[s.Obj].RUnlock()
		} else {
			o.store(o.vars[s.Val], 9)
		}
	case gen.TryWLock:
		if o.rws[s.Obj].TryLock() {
			o.run(w, threads, sc, s.Body)
			o.rws[s.Obj].Unlock()
		} else {
			o.store(o.vars[s.Val], 9)
		}
	case gen.Len:
		o.store(o.vars[s.Val], o.chans[s.Obj].Len())
	case gen.Cap:
		o.store(o.vars[s.Val], o.chans[s.Obj].Cap())
	case gen.OnceDo:
		o.onces[s.Obj].Do(func() {
			o.run(w, threads, sc, s.Body)
			if s.Panic {
				panic(panicValue)
			}
		})
	case gen.Spawn:
		t := w.Go(func() { o.run(w, threads, sc, s.Body) })
		if s.Joined {
			return t
		}
	case gen.Inc:
		v := o.vars[s.Obj]
		o.store(v, o.load(v)+1)
	case gen.Acquire:
		o.mus[s.Obj].Lock()
	case gen.Release:
		o.mus[s.Obj].Unlock()
	case gen.Scope:
		inner := &scope{v: &weft.Int[int]{Var: *weft.NewVar[int](name("lv", s.Obj))}, m: &weft.Mutex{}, c: weft.MakeChan[int](s.Val)}
		inner.m.SetName(name("lm", s.Obj))
		inner.c.SetName(name("lc", s.Obj))
		t := w.Go(func() { o.run(w, threads, inner, s.Child) })
		o.run(w, threads, inner, s.Body)
		t.Join()
	case gen.Sleep:
		w.Sleep(time.Duration(s.Val))
	case gen.Now:
		o.store(o.vars[s.Obj], int(w.Now()))
	case gen.Timeout:
		weft.Select(weft.OnRecv(o.chans[s.Obj], nil), weft.OnRecv(w.After(time.Duration(s.Val)), func(time.Duration, bool) { o.store(o.vars[s.Val2], 7) }))
	default:
		if !o.syncStmt(w, threads, sc, s) {
			o.loop(w, threads, sc, s)
		}
	}
	return nil
}

// local runs a statement on the objects of scope sc.
func (o *objects) local(w *weft.T, threads []*weft.Thread, sc *scope, s gen.Stmt) {
	switch s.Kind {
	case gen.Load:
		v := o.load(sc.v)
		if s.Assert {
			w.Assert(v != s.Val, "lv == %d", v)
		}
	case gen.Store:
		o.store(sc.v, s.Val)
	case gen.Add:
		sc.v.Add(s.Val)
	case gen.AddOnly:
		sc.v.AddOnly(s.Val)
	case gen.Lock:
		sc.m.Lock()
		o.run(w, threads, sc, s.Body)
		sc.m.Unlock()
	case gen.TryLock:
		if sc.m.TryLock() {
			o.run(w, threads, sc, s.Body)
			sc.m.Unlock()
		} else {
			o.store(o.vars[s.Val], 9)
		}
	case gen.Send:
		sc.c.Send(s.Val)
	case gen.Recv:
		v, _ := sc.c.RecvOK()
		if s.Assert {
			w.Assert(v != s.Val, "<-lc == %d", v)
		}
	case gen.Close:
		sc.c.Close()
	case gen.Len:
		o.store(o.vars[s.Val], sc.c.Len())
	}
}

// load loads v, plainly if o.plain.
func (o *objects) load(v *weft.Int[int]) int {
	if o.plain {
		return v.Var.Load()
	}
	return v.Load()
}

// store stores x in v, plainly if o.plain.
func (o *objects) store(v *weft.Int[int], x int) {
	if o.plain {
		v.Var.Store(x)
		return
	}
	v.Store(x)
}
