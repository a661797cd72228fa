// This file generates random programs from a seed.

package gen

import "math/rand/v2"

// Options bounds the programs New generates.
type Options struct {
	// MaxEvents bounds Program.Events: the generator draws again until the
	// program is that small.
	MaxEvents int
}

// DefaultOptions keeps programs small enough for exhaustive search to
// finish in milliseconds.
var DefaultOptions = Options{MaxEvents: 11}

// New returns the program of the given seed, under DefaultOptions.
func New(seed uint64) *Program { return NewWith(seed, DefaultOptions) }

// NewWith returns the program of the given seed under o. The same seed and
// options give the same program.
func NewWith(seed uint64, o Options) *Program {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	for {
		p := draw(r)
		p.Seed = seed
		if p.Events() <= o.MaxEvents {
			return p
		}
	}
}

// gen is the state of one draw.
type gen struct {
	r *rand.Rand
	p *Program
}

// draw draws one program.
func draw(r *rand.Rand) *Program {
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
	g := &gen{r: r, p: p}
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

// val returns a small value.
func (g *gen) val() int { return 1 + g.r.IntN(3) }

// stmt draws one statement; lock sections only if outer.
func (g *gen) stmt(outer bool) Stmt {
	r, p := g.r, g.p
	for {
		switch r.IntN(12) {
		case 0, 1:
			return Stmt{Kind: Load, Obj: r.IntN(p.Vars), Val: r.IntN(4), Assert: r.IntN(3) == 0}
		case 2:
			return Stmt{Kind: Store, Obj: r.IntN(p.Vars), Val: g.val()}
		case 3:
			return Stmt{Kind: Add, Obj: r.IntN(p.Vars), Val: g.val()}
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
		}
	}
}
