// This file generates random programs from a seed.

package gen

import "math/rand/v2"

// Options bounds the programs New generates.
type Options struct {
	// MaxEvents bounds Program.Events: the generator draws again until the
	// program is that small.
	MaxEvents int
	// Version selects the statements drawn: 1, the first generator's
	// (variables, mutexes, reader/writer mutexes, channels, selects,
	// WaitGroups: a seed gives the program it always gave, which the
	// regression tests name); 2 adds try-operations, Len and Cap, Once
	// (whose function may panic), threads started by threads, and
	// objects made by a thread and shared with a thread it starts; 3
	// draws half of version 2's adds as AddOnly (an add whose result is
	// unused, which commutes with other AddOnlys).
	Version int
	// MessagePassing draws programs without shared variables: channels
	// (buffered and unbuffered, send, receive, close), selects with and
	// without default, mutexes, a WaitGroup, threads started by threads
	// and joins (the primitives of Lei and Carver 2006's reachability testing).
	// Version is then ignored.
	MessagePassing bool
	// Timed adds statements on virtual time to the statements of
	// Version: sleeps, reads of the clock stored into a variable, and
	// selects between a channel and a timeout (After). Without it a seed
	// gives the program it always gave.
	Timed bool
	// Loops draws programs of event loops, on virtual time: tickers (a
	// timer re-armed with Reset) and bounded loops of After, each in a
	// select with channel cases and a case that receives from a stop
	// channel, timers of period 0 or 1, selects of several cases (on
	// buffered channels, which the body may fill first), and producers
	// that hold a mutex across a send. Every loop runs a fixed number of
	// iterations. Version and Timed are then ignored.
	Loops bool
	// Sync adds statements on counting and binary semaphores, condition
	// variables (a Wait guarded by a variable, under its mutex; Signal or
	// Broadcast after setting it), SC and SU monitors (Enter and Exit
	// around guarded Waits and Signals) and awaits (w.Await and loops of
	// w.Yield) to the statements of Version. Without it a seed gives the
	// program it always gave.
	Sync bool
	// Selects draws programs around selects with a default: polls of
	// unbuffered channels racing the threads that send on them, selects
	// of several cases facing each other (some with defaults), closes,
	// nil channels (capacity -1) and threads started after a select.
	// Version, Timed and Sync are then ignored.
	Selects bool
}

// DefaultOptions keeps programs small enough for exhaustive search to
// finish in milliseconds, with every statement.
var DefaultOptions = Options{MaxEvents: 11, Version: 2}

// V1 are the options of the first generator, under which the regression
// seeds of the differential tests were found.
var V1 = Options{MaxEvents: 11, Version: 1}

// V3 are DefaultOptions with version 3's statements (AddOnly).
var V3 = Options{MaxEvents: 11, Version: 3}

// Timed are DefaultOptions with statements on virtual time, in programs
// small enough for exhaustive search when time moves at any step (each
// sleep and read of the clock is two steps there, and the clock's own
// steps come on top).
var Timed = Options{MaxEvents: 10, Version: 2, Timed: true}

// Sync are DefaultOptions with statements on semaphores, condition
// variables, monitors and awaits.
var Sync = Options{MaxEvents: 14, Version: 2, Sync: true}

// Loops are the options of programs of event loops (Options.Loops), small
// enough for exhaustive search in both time modes.
var Loops = Options{MaxEvents: 13, Loops: true}

// SelectDefaults are the options of programs around selects with a
// default (Options.Selects), small enough for exhaustive search.
var SelectDefaults = Options{MaxEvents: 11, Selects: true}

// New returns the program of the given seed, under DefaultOptions.
func New(seed uint64) *Program { return NewWith(seed, DefaultOptions) }

// NewWith returns the program of the given seed under o. The same seed and
// options give the same program.
func NewWith(seed uint64, o Options) *Program {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	for {
		var p *Program
		switch {
		case o.Loops:
			p = drawLoops(r)
		case o.MessagePassing:
			p = drawMessages(r)
		case o.Selects:
			p = drawSelects(r)
		default:
			p = draw(r, o.Version, o.Timed, o.Sync)
		}
		p.Seed = seed
		if p.Events() <= o.MaxEvents {
			return p
		}
	}
}

// gen is the state of one draw.
type gen struct {
	r       *rand.Rand
	p       *Program
	version int
	timed   bool // Options.Timed
	sync    bool // Options.Sync
	scopes  int  // Scope statements drawn, which number them
}

// draw draws one program with the statements of the given version, and
// of Options.Timed if timed, of Options.Sync if sync.
func draw(r *rand.Rand, version int, timed, sync bool) *Program {
	p := &Program{
		Vars:      1 + r.IntN(3),
		Mutexes:   r.IntN(3),
		RWMutexes: r.IntN(2),
		Local:     r.IntN(3) == 0,
	}
	for range r.IntN(3) {
		p.Chans = append(p.Chans, r.IntN(3))
	}
	if r.IntN(4) == 0 {
		p.WaitGroups = 1
	}
	if version >= 2 {
		p.Onces = r.IntN(2)
	}
	g := &gen{r: r, p: p, version: version, timed: timed, sync: sync}
	if sync {
		g.drawSyncObjects()
	}
	threads := 2 + r.IntN(2)
	if p.WaitGroups > 0 {
		p.WGAdd = threads
		if r.IntN(4) == 0 {
			p.WGAdd = threads - 1 // a Done too many: a negative counter
		}
	}
	for range threads {
		var th []Stmt
		for range 1 + r.IntN(3) {
			th = append(th, g.stmt(true))
		}
		if p.WaitGroups > 0 {
			th = append(th, Stmt{Kind: Done})
		}
		p.Threads = append(p.Threads, th)
	}
	for range r.IntN(3) {
		p.Main = append(p.Main, g.stmt(false))
	}
	if p.WaitGroups > 0 && r.IntN(2) == 0 {
		p.Main = append(p.Main, Stmt{Kind: Wait})
	}
	if r.IntN(2) == 0 {
		for i := range threads {
			if r.IntN(2) == 0 {
				p.Main = append(p.Main, Stmt{Kind: Join, Obj: i})
			}
		}
	}
	return p
}

// add returns the kind of an add: Add, or under version 3 AddOnly half
// of the time (an earlier version draws nothing here, so that its seeds
// keep their programs).
func (g *gen) add() Kind {
	if g.version >= 3 && g.r.IntN(2) == 0 {
		return AddOnly
	}
	return Add
}

// val returns a small value.
func (g *gen) val() int { return 1 + g.r.IntN(3) }

// stmt draws one statement; statements with bodies only if outer.
func (g *gen) stmt(outer bool) Stmt {
	r, p := g.r, g.p
	kinds := 12
	if g.version >= 2 {
		kinds = 20
	}
	for {
		if g.timed && r.IntN(3) == 0 {
			return g.timedStmt()
		}
		if g.sync && r.IntN(3) != 0 {
			if s, ok := g.syncStmt(outer); ok {
				return s
			}
		}
		switch r.IntN(kinds) {
		case 0, 1:
			return Stmt{Kind: Load, Obj: r.IntN(p.Vars), Val: r.IntN(4), Assert: r.IntN(3) == 0}
		case 2:
			return Stmt{Kind: Store, Obj: r.IntN(p.Vars), Val: g.val()}
		case 3:
			return Stmt{Kind: g.add(), Obj: r.IntN(p.Vars), Val: g.val()}
		case 4:
			return Stmt{Kind: CAS, Obj: r.IntN(p.Vars), Val: r.IntN(2), Val2: g.val()}
		case 5:
			if outer && p.Mutexes > 0 {
				return Stmt{Kind: Lock, Obj: r.IntN(p.Mutexes), Body: []Stmt{g.stmt(false)}}
			}
		case 6:
			if outer && p.RWMutexes > 0 {
				if r.IntN(2) == 0 {
					return Stmt{Kind: RLock, Obj: r.IntN(p.RWMutexes), Body: []Stmt{{Kind: Load, Obj: r.IntN(p.Vars)}}}
				}
				return Stmt{Kind: WLock, Obj: r.IntN(p.RWMutexes), Body: []Stmt{g.stmt(false)}}
			}
		case 7:
			if len(p.Chans) > 0 {
				return Stmt{Kind: Send, Obj: r.IntN(len(p.Chans)), Val: g.val()}
			}
		case 8:
			if len(p.Chans) > 0 {
				return Stmt{Kind: Recv, Obj: r.IntN(len(p.Chans)), Val: r.IntN(4), Assert: r.IntN(3) == 0}
			}
		case 9:
			if len(p.Chans) > 0 && r.IntN(3) == 0 {
				return Stmt{Kind: Close, Obj: r.IntN(len(p.Chans))}
			}
		case 10:
			if len(p.Chans) > 0 {
				s := Stmt{Kind: Select, Default: r.IntN(2) == 0}
				for range 1 + r.IntN(2) {
					s.Cases = append(s.Cases, Case{Send: r.IntN(2) == 0, Chan: r.IntN(len(p.Chans)), Val: g.val()})
				}
				return s
			}
		case 11:
			if p.WaitGroups > 0 && !outer {
				return Stmt{Kind: Wait}
			}
		default:
			if s, ok := g.stmt2(outer); ok {
				return s
			}
		}
	}
}

// stmt2 draws a statement of version 2, or reports false to draw again.
func (g *gen) stmt2(outer bool) (Stmt, bool) {
	r, p := g.r, g.p
	v := r.IntN(p.Vars)
	switch r.IntN(8) {
	case 0:
		if outer && p.Mutexes > 0 {
			return Stmt{Kind: TryLock, Obj: r.IntN(p.Mutexes), Val: v, Body: []Stmt{g.stmt(false)}}, true
		}
	case 1:
		if outer && p.RWMutexes > 0 {
			return Stmt{Kind: TryRLock, Obj: r.IntN(p.RWMutexes), Val: v, Body: []Stmt{{Kind: Load, Obj: r.IntN(p.Vars)}}}, true
		}
	case 2:
		if outer && p.RWMutexes > 0 {
			return Stmt{Kind: TryWLock, Obj: r.IntN(p.RWMutexes), Val: v, Body: []Stmt{g.stmt(false)}}, true
		}
	case 3:
		if len(p.Chans) > 0 {
			return Stmt{Kind: Len, Obj: r.IntN(len(p.Chans)), Val: v}, true
		}
	case 4:
		if len(p.Chans) > 0 && r.IntN(3) == 0 {
			return Stmt{Kind: Cap, Obj: r.IntN(len(p.Chans)), Val: v}, true
		}
	case 5:
		if outer && p.Onces > 0 {
			return Stmt{Kind: OnceDo, Obj: r.IntN(p.Onces), Body: []Stmt{g.stmt(false)}, Panic: r.IntN(4) == 0}, true
		}
	case 6:
		if outer {
			s := Stmt{Kind: Spawn, Joined: r.IntN(2) == 0}
			for range 1 + r.IntN(2) {
				s.Body = append(s.Body, g.stmt(false))
			}
			return s, true
		}
	case 7:
		if outer {
			s := Stmt{Kind: Scope, Obj: g.scopes, Val: r.IntN(2)}
			g.scopes++
			for range 1 + r.IntN(2) {
				s.Child = append(s.Child, g.local())
			}
			for range 1 + r.IntN(2) {
				s.Body = append(s.Body, g.local())
			}
			return s, true
		}
	}
	return Stmt{}, false
}

// timedStmt draws a statement on virtual time (Options.Timed).
func (g *gen) timedStmt() Stmt {
	r, p := g.r, g.p
	switch r.IntN(3) {
	case 0:
		return Stmt{Kind: Sleep, Val: g.val()}
	case 1:
		if len(p.Chans) > 0 {
			return Stmt{Kind: Timeout, Obj: r.IntN(len(p.Chans)), Val: g.val(), Val2: r.IntN(p.Vars)}
		}
	}
	return Stmt{Kind: Now, Obj: r.IntN(p.Vars)}
}

// local draws a statement on the objects of a scope.
func (g *gen) local() Stmt {
	r := g.r
	switch r.IntN(9) {
	case 0:
		return Stmt{Kind: Load, Local: true, Val: r.IntN(4), Assert: r.IntN(3) == 0}
	case 1:
		return Stmt{Kind: Store, Local: true, Val: g.val()}
	case 2:
		return Stmt{Kind: g.add(), Local: true, Val: g.val()}
	case 3:
		return Stmt{Kind: Lock, Local: true, Body: []Stmt{{Kind: Store, Local: true, Val: g.val()}}}
	case 4:
		return Stmt{Kind: TryLock, Local: true, Val: r.IntN(g.p.Vars), Body: []Stmt{{Kind: Load, Local: true}}}
	case 5:
		return Stmt{Kind: Send, Local: true, Val: g.val()}
	case 6:
		return Stmt{Kind: Recv, Local: true, Val: r.IntN(4), Assert: r.IntN(3) == 0}
	case 7:
		if r.IntN(3) == 0 {
			return Stmt{Kind: Close, Local: true}
		}
		return Stmt{Kind: Recv, Local: true}
	}
	return Stmt{Kind: Len, Local: true, Val: r.IntN(g.p.Vars)}
}

// drawMessages draws a program of MessagePassing.
func drawMessages(r *rand.Rand) *Program {
	p := &Program{Mutexes: r.IntN(2)}
	for range 1 + r.IntN(3) {
		p.Chans = append(p.Chans, r.IntN(3))
	}
	if r.IntN(4) == 0 {
		p.WaitGroups = 1
	}
	g := &gen{r: r, p: p, version: 2}
	threads := 2 + r.IntN(2)
	if p.WaitGroups > 0 {
		p.WGAdd = threads
	}
	for range threads {
		var th []Stmt
		for range 1 + r.IntN(3) {
			th = append(th, g.message(true))
		}
		if p.WaitGroups > 0 {
			th = append(th, Stmt{Kind: Done})
		}
		p.Threads = append(p.Threads, th)
	}
	for range r.IntN(3) {
		p.Main = append(p.Main, g.message(false))
	}
	if p.WaitGroups > 0 && r.IntN(2) == 0 {
		p.Main = append(p.Main, Stmt{Kind: Wait})
	}
	for i := range threads {
		if r.IntN(3) == 0 {
			p.Main = append(p.Main, Stmt{Kind: Join, Obj: i})
		}
	}
	return p
}

// message draws a statement of MessagePassing; statements with bodies
// only if outer.
func (g *gen) message(outer bool) Stmt {
	r, p := g.r, g.p
	for {
		switch r.IntN(10) {
		case 0, 1, 2:
			return Stmt{Kind: Send, Obj: r.IntN(len(p.Chans)), Val: g.val()}
		case 3, 4, 5:
			return Stmt{Kind: Recv, Obj: r.IntN(len(p.Chans)), Val: r.IntN(4), Assert: r.IntN(3) == 0}
		case 6:
			if r.IntN(3) == 0 {
				return Stmt{Kind: Close, Obj: r.IntN(len(p.Chans))}
			}
		case 7:
			s := Stmt{Kind: Select, Default: r.IntN(2) == 0}
			for range 1 + r.IntN(2) {
				s.Cases = append(s.Cases, Case{Send: r.IntN(2) == 0, Chan: r.IntN(len(p.Chans)), Val: g.val()})
			}
			return s
		case 8:
			if outer && p.Mutexes > 0 {
				return Stmt{Kind: Lock, Obj: r.IntN(p.Mutexes), Body: []Stmt{g.message(false)}}
			}
		case 9:
			if outer {
				s := Stmt{Kind: Spawn, Joined: r.IntN(2) == 0}
				for range 1 + r.IntN(2) {
					s.Body = append(s.Body, g.message(false))
				}
				return s
			}
		}
	}
}
