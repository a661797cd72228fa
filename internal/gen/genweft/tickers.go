// This file generates small programs with tickers, as weft test bodies:
// readers of ticks (in a receive or a select), other threads that sleep and
// then stop or reset a ticker (some only if they load a value), and a body
// that may sleep, stop or reset a ticker, close a channel and join a thread
// before it returns, often while a reader still waits for a tick.

package genweft

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/weft-go/weft"
)

// TickKind is a statement of a ticker program.
type TickKind uint8

// The statements of ticker programs.
const (
	TickNone    TickKind = iota // nothing
	TickStore                   // x.Store(val)
	TickLoad                    // x.Load()
	TickLock                    // mu.Lock(); mu.Unlock()
	TickSleep                   // w.Sleep(val)
	TickStop                    // tk.Stop()
	TickReset                   // tk.Reset(val)
	TickStopIf                  // if x.Load() == val { tk.Stop() }
	TickResetIf                 // if x.Load() == 0 { tk.Reset(val) }
)

// TickStmt is a statement on ticker Ticker, with its value.
type TickStmt struct {
	Kind   TickKind
	Ticker int
	Val    int
}

func (s TickStmt) String() string {
	switch s.Kind {
	case TickStore:
		return fmt.Sprintf("x.Store(%d)", s.Val)
	case TickLoad:
		return "x.Load()"
	case TickLock:
		return "mu.Lock(); mu.Unlock()"
	case TickSleep:
		return fmt.Sprintf("w.Sleep(%d)", s.Val)
	case TickStop:
		return fmt.Sprintf("tk%d.Stop()", s.Ticker)
	case TickReset:
		return fmt.Sprintf("tk%d.Reset(%d)", s.Ticker, s.Val)
	case TickStopIf:
		return fmt.Sprintf("if x.Load() == %d { tk%d.Stop() }", s.Val, s.Ticker)
	case TickResetIf:
		return fmt.Sprintf("if x.Load() == 0 { tk%d.Reset(%d) }", s.Ticker, s.Val)
	}
	return ""
}

// Changes reports whether s stops or resets a ticker: stop, reset.
func (s TickStmt) Changes() (stop, reset bool) {
	return s.Kind == TickStop || s.Kind == TickStopIf, s.Kind == TickReset || s.Kind == TickResetIf
}

// TickReader is a thread that receives Ticks ticks of ticker Ticker (in a
// select with a receive from done if Select), running Each after each,
// and then fails if Fail.
type TickReader struct {
	Ticker, Ticks int
	Select        bool
	Each          TickStmt
	Fail          bool
}

// TickProgram is a program of NewTickers: the body makes the tickers,
// starts the readers and the other threads, runs Main, closes done if
// CloseDone, joins the first other thread if Join and the first reader if
// JoinReader (the body waits, and the ticker moves time, until the reader
// has its ticks), and returns.
type TickProgram struct {
	Seed       uint64
	Periods    []int
	Readers    []TickReader
	Others     [][]TickStmt
	Main       []TickStmt
	CloseDone  bool
	Join       bool
	JoinReader bool
}

func (p TickProgram) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d: tickers of periods %v\n", p.Seed, p.Periods)
	for i, r := range p.Readers {
		recv := fmt.Sprintf("<-tk%d.C", r.Ticker)
		if r.Select {
			recv = fmt.Sprintf("select { case <-tk%d.C: case <-done: }", r.Ticker)
		}
		fmt.Fprintf(&b, "reader %d: for range %d { %s; %v }", i, r.Ticks, recv, r.Each)
		if r.Fail {
			b.WriteString("; w.Fail()")
		}
		b.WriteString("\n")
	}
	for i, o := range p.Others {
		fmt.Fprintf(&b, "thread %d: %v\n", i, o)
	}
	fmt.Fprintf(&b, "body: %v", p.Main)
	if p.CloseDone {
		b.WriteString("; close(done)")
	}
	if p.Join {
		b.WriteString("; join thread 0")
	}
	if p.JoinReader {
		b.WriteString("; join reader 0")
	}
	return b.String()
}

// NewTickers returns the ticker program of seed: one or two tickers of
// period 1 to 3, one or two readers of one to three ticks, zero to two
// other threads that sleep and then stop or reset a ticker (some after a
// store, a load, a lock or a sleep, some only if they load a value), and
// a body that may sleep, stop or reset a ticker, close done, and join
// another thread or a reader before it returns.
func NewTickers(seed uint64) TickProgram {
	r := rand.New(rand.NewPCG(seed, 0x7469636b67656e))
	p := TickProgram{Seed: seed}
	for range 1 + r.IntN(2) {
		p.Periods = append(p.Periods, 1+r.IntN(3))
	}
	tk := func() int { return r.IntN(len(p.Periods)) }
	plain := func() TickStmt {
		switch r.IntN(5) {
		case 0:
			return TickStmt{Kind: TickStore, Val: 1 + r.IntN(2)}
		case 1:
			return TickStmt{Kind: TickLoad}
		case 2:
			return TickStmt{Kind: TickLock}
		case 3:
			return TickStmt{Kind: TickSleep, Val: 1 + r.IntN(2)} // a slow reader misses ticks
		}
		return TickStmt{}
	}
	change := func() TickStmt {
		switch r.IntN(4) {
		case 0:
			return TickStmt{Kind: TickStop, Ticker: tk()}
		case 1:
			return TickStmt{Kind: TickReset, Ticker: tk(), Val: 1 + r.IntN(3)}
		case 2:
			return TickStmt{Kind: TickStopIf, Ticker: tk(), Val: r.IntN(2)}
		}
		return TickStmt{Kind: TickResetIf, Ticker: tk(), Val: 1 + r.IntN(3)}
	}
	for range 1 + r.IntN(2) {
		p.Readers = append(p.Readers, TickReader{Ticker: tk(), Ticks: 1 + r.IntN(3), Select: r.IntN(4) == 0, Each: plain(), Fail: r.IntN(2) == 0})
	}
	for range r.IntN(3) {
		var o []TickStmt
		if r.IntN(4) != 0 {
			o = append(o, TickStmt{Kind: TickSleep, Val: 1 + r.IntN(3)})
		}
		if r.IntN(3) == 0 {
			o = append(o, plain())
		}
		o = append(o, change())
		p.Others = append(p.Others, o)
	}
	if r.IntN(2) == 0 {
		p.Main = append(p.Main, TickStmt{Kind: TickSleep, Val: 1 + r.IntN(3)})
	}
	if r.IntN(3) == 0 {
		p.Main = append(p.Main, change())
	}
	p.CloseDone = r.IntN(3) == 0
	switch r.IntN(4) {
	case 0:
		p.Join = len(p.Others) > 0
	case 1:
		p.JoinReader = true
	}
	return p
}

// Body returns the program's body.
func (p TickProgram) Body() func(*weft.T) {
	return func(w *weft.T) {
		x := weft.NewVar[int]("x")
		mu := weft.NewMutex("mu") // named by the body: no two threads reach it apart
		done := weft.MakeChan[int](0)
		tks := make([]*weft.Ticker, len(p.Periods))
		for i, d := range p.Periods {
			tks[i] = weft.NewTicker(time.Duration(d))
		}
		run := func(s TickStmt) {
			switch s.Kind {
			case TickStore:
				x.Store(s.Val)
			case TickLoad:
				x.Load()
			case TickLock:
				mu.Lock()
				mu.Unlock()
			case TickSleep:
				w.Sleep(time.Duration(s.Val))
			case TickStop:
				tks[s.Ticker].Stop()
			case TickReset:
				tks[s.Ticker].Reset(time.Duration(s.Val))
			case TickStopIf:
				if x.Load() == s.Val {
					tks[s.Ticker].Stop()
				}
			case TickResetIf:
				if x.Load() == 0 {
					tks[s.Ticker].Reset(time.Duration(s.Val))
				}
			}
		}
		var readers []*weft.Thread
		for _, rd := range p.Readers {
			readers = append(readers, w.Go(func() {
				for range rd.Ticks {
					if rd.Select {
						weft.Select(weft.OnRecv(tks[rd.Ticker].C, nil), weft.OnRecv(done, nil))
					} else {
						tks[rd.Ticker].C.Recv()
					}
					run(rd.Each)
				}
				if rd.Fail {
					w.Fail("ticks")
				}
			}))
		}
		var others []*weft.Thread
		for _, o := range p.Others {
			others = append(others, w.Go(func() {
				for _, s := range o {
					run(s)
				}
			}))
		}
		for _, s := range p.Main {
			run(s)
		}
		if p.CloseDone {
			done.Close()
		}
		if p.Join {
			others[0].Join()
		}
		if p.JoinReader {
			readers[0].Join()
		}
	}
}

// Small returns p with one ticker (the first), at most one reader of at
// most two ticks, at most one other thread, and no sleeps: a program that
// exhaustive search explores in a few thousand executions even when time
// moves at any step (where every sleep lets the ticker tick again).
func (p TickProgram) Small() TickProgram {
	p.Periods = p.Periods[:1]
	p.Readers = append([]TickReader(nil), p.Readers[:1]...)
	p.Readers[0].Ticker = 0
	p.Readers[0].Ticks = min(p.Readers[0].Ticks, 2)
	if p.Readers[0].Each.Kind == TickSleep {
		p.Readers[0].Each = TickStmt{}
	}
	p.Others = p.Others[:min(len(p.Others), 1)]
	p.Others = append([][]TickStmt(nil), p.Others...)
	for i, o := range p.Others {
		p.Others[i] = firstTicker(o)
	}
	p.Main = firstTicker(p.Main)
	return p
}

// firstTicker returns a copy of stmts on the first ticker only, without
// their sleeps.
func firstTicker(stmts []TickStmt) []TickStmt {
	var out []TickStmt
	for _, s := range stmts {
		if s.Kind != TickSleep {
			s.Ticker = 0
			out = append(out, s)
		}
	}
	return out
}
