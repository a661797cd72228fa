// This file draws programs around selects with a default (Options.Selects):
// polls of unbuffered channels racing the threads that send on them,
// selects of several cases facing each other, closes and nil channels.

package gen

import "math/rand/v2"

// drawSelects draws a program of Options.Selects: one or two channels,
// mostly unbuffered (now and then buffered, or nil: capacity -1), one to
// three threads and a body of sends, receives, selects with and without a
// default, closes, stores and loads, threads started by threads (after a
// select of their parent's, or before it) and locks.
func drawSelects(r *rand.Rand) *Program {
	p := &Program{Vars: 1 + r.IntN(2), Mutexes: r.IntN(2)}
	for range 1 + r.IntN(2) {
		c := 0
		switch r.IntN(6) {
		case 0:
			c = 1
		case 1:
			c = -1
		}
		p.Chans = append(p.Chans, c)
	}
	p.Chans[r.IntN(len(p.Chans))] = 0
	g := &gen{r: r, p: p, version: 2}
	threads := 1 + r.IntN(3)
	for range threads {
		var th []Stmt
		for range 1 + r.IntN(3) {
			th = append(th, g.selectStmt(true))
		}
		p.Threads = append(p.Threads, th)
	}
	for range 1 + r.IntN(2) {
		p.Main = append(p.Main, g.selectStmt(true))
	}
	for i := range threads {
		if r.IntN(3) == 0 {
			p.Main = append(p.Main, Stmt{Kind: Join, Obj: i})
		}
	}
	return p
}

// selectStmt draws a statement of Options.Selects; statements with
// bodies only if outer.
func (g *gen) selectStmt(outer bool) Stmt {
	r, p := g.r, g.p
	ch := func() int { return r.IntN(len(p.Chans)) }
	for {
		switch r.IntN(12) {
		case 0, 1:
			return Stmt{Kind: Send, Obj: ch(), Val: g.val()}
		case 2:
			return Stmt{Kind: Recv, Obj: ch(), Val: r.IntN(4), Assert: r.IntN(3) == 0}
		case 3, 4, 5, 6:
			s := Stmt{Kind: Select, Default: r.IntN(4) != 0}
			for j := range 1 + r.IntN(2) {
				// The first case receives, mostly: a poll.
				send := r.IntN(3) == 0
				if j > 0 {
					send = r.IntN(2) == 0
				}
				s.Cases = append(s.Cases, Case{Send: send, Chan: ch(), Val: g.val()})
			}
			return s
		case 7:
			if r.IntN(2) == 0 {
				return Stmt{Kind: Close, Obj: ch()}
			}
		case 8:
			return Stmt{Kind: Store, Obj: r.IntN(p.Vars), Val: g.val()}
		case 9:
			return Stmt{Kind: Load, Obj: r.IntN(p.Vars), Val: r.IntN(4), Assert: r.IntN(3) == 0}
		case 10:
			if outer {
				s := Stmt{Kind: Spawn, Joined: r.IntN(3) == 0}
				for range 1 + r.IntN(2) {
					s.Body = append(s.Body, g.selectStmt(false))
				}
				return s
			}
		case 11:
			if outer && p.Mutexes > 0 {
				return Stmt{Kind: Lock, Obj: r.IntN(p.Mutexes), Body: []Stmt{g.selectStmt(false)}}
			}
		}
	}
}
