// This file generates programs of event loops (Options.Loops): tickers
// and bounded loops of timeouts in selects with channel and stop cases,
// timers with tiny periods, selects with several ready cases, and
// producers that hold a mutex across a channel send.

package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// firstLoopKind is the first kind of the loop statements, apart from the
// other kinds so that statements added elsewhere do not renumber them.
const firstLoopKind Kind = 64

// The statements of event loops (Options.Loops). Every loop runs a fixed
// number of iterations.
const (
	// Repeat runs Body Val times.
	Repeat Kind = firstLoopKind + iota
	// TickLoop is a ticker: a timer of period Val, re-armed after each
	// tick, read by Val2 iterations of a select over it and Cases; on a
	// tick the select runs Body, a receive of a case stores the value
	// into v0, a Stop case ends the loop. The timer is re-armed with
	// Reset(Val) if Obj is 0, at its last deadline plus Val (ResetAt, as
	// a ticker keeps its phase) if Obj is 1. It is stopped after the
	// loop.
	TickLoop
	// AfterLoop is Val2 iterations of a select over Cases and After(Val),
	// whose case runs Body.
	AfterLoop
	// TinyTimer makes a timer of Val (0 or 1), runs Body, then, by Val2:
	// 0 receives from the timer; 1 polls it (a select with a default),
	// storing 7 into vars[Obj] if it fired; 2 resets it to Val and then
	// receives from it.
	TinyTimer
)

var loopKindNames = [...]string{"repeat", "tickloop", "afterloop", "tinytimer"}

// isLoop reports whether k is a statement of Options.Loops.
func (k Kind) isLoop() bool { return k >= firstLoopKind }

// loopString prints a statement of Options.Loops, the header of its body.
func (s Stmt) loopString() string {
	switch s.Kind {
	case Repeat:
		return fmt.Sprintf("for range %d {", s.Val)
	case TickLoop:
		return fmt.Sprintf("tk := newTimer(%d); for range %d { select { case <-tk.C: {", s.Val, s.Val2)
	case AfterLoop:
		return fmt.Sprintf("for range %d { select { case <-after(%d): {", s.Val2, s.Val)
	case TinyTimer:
		return fmt.Sprintf("tm := newTimer(%d) {", s.Val)
	}
	return "loop ?"
}

// casesString prints the channel cases of a loop's select.
func casesString(cs []Case) string {
	var b strings.Builder
	for _, c := range cs {
		switch {
		case c.Stop:
			fmt.Fprintf(&b, " case <-c%d: break loop;", c.Chan)
		case c.Send:
			fmt.Fprintf(&b, " case c%d <- %d;", c.Chan, c.Val)
		default:
			fmt.Fprintf(&b, " case x := <-c%d: v0.Store(x);", c.Chan)
		}
	}
	return b.String()
}

// loopClosing names what ends a loop statement's body.
func (s Stmt) loopClosing() string {
	switch s.Kind {
	case TickLoop:
		if s.Obj == 1 {
			return fmt.Sprintf("tk.ResetAt(tk.Deadline() + %d) };%s } }; tk.Stop()", s.Val, casesString(s.Cases))
		}
		return fmt.Sprintf("tk.Reset(%d) };%s } }; tk.Stop()", s.Val, casesString(s.Cases))
	case Repeat:
		return "// for"
	case AfterLoop:
		return fmt.Sprintf("};%s } }", casesString(s.Cases))
	case TinyTimer:
		switch s.Val2 {
		case 0:
			return "<-tm.C"
		case 1:
			return fmt.Sprintf("select { case <-tm.C: v%d.Store(7); default: }", s.Obj)
		}
		return fmt.Sprintf("tm.Reset(%d); <-tm.C", s.Val)
	}
	return ""
}

// loopSteps bounds the steps of a loop statement, without the clock's.
func loopSteps(s Stmt) int {
	switch s.Kind {
	case Repeat:
		return s.Val * steps(s.Body)
	case TickLoop:
		return 2 + s.Val2*(2+steps(s.Body)) // make, stop; select and reset
	case AfterLoop:
		return s.Val2 * (2 + steps(s.Body)) // the timer and the select
	case TinyTimer:
		return 3 + steps(s.Body) // make, receive or poll (or reset and receive)
	}
	return 1
}

// loops is the state of one draw of Options.Loops.
type loops struct {
	*gen
	stop int // the channel a stop case receives from, or -1
}

// drawLoops draws a program of Options.Loops: 1 to 3 threads beside the
// body, over 1 or 2 variables, 1 or 2 mutexes and 1 to 3 channels, one of
// which may be a stop channel that the loops' stop cases receive from.
func drawLoops(r *rand.Rand) *Program {
	p := &Program{Vars: 1 + r.IntN(2), Mutexes: 1 + r.IntN(2), Fill: r.IntN(3) == 0}
	for range 1 + r.IntN(3) {
		p.Chans = append(p.Chans, r.IntN(3))
	}
	l := &loops{gen: &gen{r: r, p: p, version: 2}, stop: -1}
	if r.IntN(2) == 0 {
		l.stop = r.IntN(len(p.Chans))
	}
	threads := 1 + r.IntN(3)
	for range threads {
		var th []Stmt
		for range 1 + r.IntN(2) {
			th = append(th, l.stmt(true))
		}
		p.Threads = append(p.Threads, th)
	}
	for range r.IntN(2) {
		p.Main = append(p.Main, l.stmt(true))
	}
	if l.stop >= 0 {
		switch r.IntN(3) {
		case 0:
			p.Main = append(p.Main, Stmt{Kind: Close, Obj: l.stop})
		case 1:
			p.Main = append(p.Main, Stmt{Kind: Send, Obj: l.stop, Val: l.val()})
		}
	}
	for i := range threads {
		if r.IntN(2) == 0 {
			p.Main = append(p.Main, Stmt{Kind: Join, Obj: i})
		}
	}
	return p
}

// ch returns a random channel.
func (l *loops) ch() int { return l.r.IntN(len(l.p.Chans)) }

// stmt draws a statement; loops and critical sections only if outer.
func (l *loops) stmt(outer bool) Stmt {
	r, p := l.r, l.p
	for {
		switch r.IntN(12) {
		case 0:
			if outer { // a producer
				return Stmt{Kind: Repeat, Val: 1 + r.IntN(2), Body: []Stmt{l.lockedSend()}}
			}
		case 1:
			if outer {
				return l.locked()
			}
		case 2, 11:
			if outer {
				return Stmt{Kind: TickLoop, Obj: r.IntN(2), Val: 1 + r.IntN(2), Val2: 1 + r.IntN(2), Body: []Stmt{l.simple()}, Cases: l.loopCases()}
			}
		case 3:
			if outer {
				return Stmt{Kind: AfterLoop, Val: r.IntN(3), Val2: 1 + r.IntN(2), Body: []Stmt{l.simple()}, Cases: l.loopCases()}
			}
		case 4:
			s := Stmt{Kind: TinyTimer, Val: r.IntN(2), Val2: r.IntN(3), Obj: r.IntN(p.Vars)}
			if outer && r.IntN(2) == 0 {
				s.Body = []Stmt{l.simple()}
			}
			return s
		case 5:
			return l.selectStmt()
		case 6:
			return Stmt{Kind: Sleep, Val: r.IntN(3)}
		case 7:
			if r.IntN(3) == 0 {
				return Stmt{Kind: Close, Obj: l.ch()}
			}
		default:
			return l.simple()
		}
	}
}

// simple draws a statement without a body or a loop.
func (l *loops) simple() Stmt {
	r, p := l.r, l.p
	switch r.IntN(5) {
	case 0:
		return Stmt{Kind: Send, Obj: l.ch(), Val: l.val()}
	case 1:
		return Stmt{Kind: Recv, Obj: l.ch(), Val: r.IntN(4), Assert: r.IntN(3) == 0}
	case 2:
		return Stmt{Kind: Load, Obj: r.IntN(p.Vars), Val: r.IntN(4), Assert: r.IntN(2) == 0}
	case 3:
		return Stmt{Kind: Add, Obj: r.IntN(p.Vars), Val: l.val()}
	}
	return Stmt{Kind: Store, Obj: r.IntN(p.Vars), Val: l.val()}
}

// lockedSend draws a send on a channel inside a critical section.
func (l *loops) lockedSend() Stmt {
	return Stmt{Kind: Lock, Obj: l.r.IntN(l.p.Mutexes), Body: []Stmt{{Kind: Send, Obj: l.ch(), Val: l.val()}}}
}

// locked draws a critical section around a channel operation.
func (l *loops) locked() Stmt {
	r := l.r
	var op Stmt
	switch r.IntN(3) {
	case 0:
		op = Stmt{Kind: Send, Obj: l.ch(), Val: l.val()}
	case 1:
		op = Stmt{Kind: Recv, Obj: l.ch()}
	default:
		op = l.selectStmt()
	}
	return Stmt{Kind: Lock, Obj: r.IntN(l.p.Mutexes), Body: []Stmt{op}}
}

// selectStmt draws a select of 2 or 3 cases, with a default one time in
// three.
func (l *loops) selectStmt() Stmt {
	r := l.r
	s := Stmt{Kind: Select, Default: r.IntN(3) == 0}
	for range 2 + r.IntN(2) {
		s.Cases = append(s.Cases, Case{Send: r.IntN(3) == 0, Chan: l.ch(), Val: l.val()})
	}
	return s
}

// loopCases draws the channel cases of a loop's select: one or two
// receives or sends, and a stop case if the program has a stop channel.
func (l *loops) loopCases() []Case {
	r := l.r
	var cs []Case
	for range 1 + r.IntN(2) {
		cs = append(cs, Case{Send: r.IntN(3) == 0, Chan: l.ch(), Val: l.val()})
	}
	if l.stop >= 0 {
		cs = append(cs, Case{Stop: true, Chan: l.stop})
	}
	return cs
}
