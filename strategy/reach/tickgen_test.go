// A generator of small programs with tickers (readers of ticks, in a
// receive or a select; other threads that sleep and then stop or reset a
// ticker, some only if they load a value; a body that may sleep, stop or
// reset a ticker, close a channel and join a thread before it returns),
// the same as unfold's tests use, for reach's differential test with time
// at any step.

package reach_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/weft-go/weft"
)

// tkKind is a statement of a ticker program.
type tkKind uint8

const (
	tkNone    tkKind = iota // nothing
	tkStore                 // x.Store(val)
	tkLoad                  // x.Load()
	tkLock                  // mu.Lock(); mu.Unlock()
	tkSleep                 // w.Sleep(val)
	tkStop                  // tk.Stop()
	tkReset                 // tk.Reset(val)
	tkStopIf                // if x.Load() == val { tk.Stop() }
	tkResetIf               // if x.Load() == 0 { tk.Reset(val) }
)

// tkStmt is a statement on ticker tk, with its value.
type tkStmt struct {
	kind tkKind
	tk   int
	val  int
}

func (s tkStmt) String() string {
	switch s.kind {
	case tkStore:
		return fmt.Sprintf("x.Store(%d)", s.val)
	case tkLoad:
		return "x.Load()"
	case tkLock:
		return "mu.Lock(); mu.Unlock()"
	case tkSleep:
		return fmt.Sprintf("w.Sleep(%d)", s.val)
	case tkStop:
		return fmt.Sprintf("tk%d.Stop()", s.tk)
	case tkReset:
		return fmt.Sprintf("tk%d.Reset(%d)", s.tk, s.val)
	case tkStopIf:
		return fmt.Sprintf("if x.Load() == %d { tk%d.Stop() }", s.val, s.tk)
	case tkResetIf:
		return fmt.Sprintf("if x.Load() == 0 { tk%d.Reset(%d) }", s.tk, s.val)
	}
	return ""
}

// tkReader is a thread that receives ticks ticks of ticker tk (in a
// select with a receive from done if sel), running each after each, and
// then fails if fail.
type tkReader struct {
	tk, ticks int
	sel       bool
	each      tkStmt
	fail      bool
}

// tkProgram is a program of tickGen: the body makes the tickers, starts
// the readers and the other threads, runs main, closes done if
// closeDone, joins the first other thread if join and the first reader if
// joinReader (the body waits, and the ticker moves time, until the reader
// has its ticks), and returns.
type tkProgram struct {
	seed       uint64
	periods    []int
	readers    []tkReader
	others     [][]tkStmt
	main       []tkStmt
	closeDone  bool
	join       bool
	joinReader bool
}

func (p tkProgram) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d: tickers of periods %v\n", p.seed, p.periods)
	for i, r := range p.readers {
		recv := fmt.Sprintf("<-tk%d.C", r.tk)
		if r.sel {
			recv = fmt.Sprintf("select { case <-tk%d.C: case <-done: }", r.tk)
		}
		fmt.Fprintf(&b, "reader %d: for range %d { %s; %v }", i, r.ticks, recv, r.each)
		if r.fail {
			b.WriteString("; w.Fail()")
		}
		b.WriteString("\n")
	}
	for i, o := range p.others {
		fmt.Fprintf(&b, "thread %d: %v\n", i, o)
	}
	fmt.Fprintf(&b, "body: %v", p.main)
	if p.closeDone {
		b.WriteString("; close(done)")
	}
	if p.join {
		b.WriteString("; join thread 0")
	}
	if p.joinReader {
		b.WriteString("; join reader 0")
	}
	return b.String()
}

// tickGen returns the ticker program of seed: one or two tickers of
// period 1 to 3, one or two readers of one to three ticks, zero to two
// other threads that sleep and then stop or reset a ticker (some after a
// store, a load, a lock or a sleep, some only if they load a value), and
// a body that may sleep, stop or reset a ticker, close done, and join
// another thread or a reader before it returns.
func tickGen(seed uint64) tkProgram {
	r := rand.New(rand.NewPCG(seed, 0x7469636b67656e))
	p := tkProgram{seed: seed}
	for range 1 + r.IntN(2) {
		p.periods = append(p.periods, 1+r.IntN(3))
	}
	tk := func() int { return r.IntN(len(p.periods)) }
	plain := func() tkStmt {
		switch r.IntN(5) {
		case 0:
			return tkStmt{kind: tkStore, val: 1 + r.IntN(2)}
		case 1:
			return tkStmt{kind: tkLoad}
		case 2:
			return tkStmt{kind: tkLock}
		case 3:
			return tkStmt{kind: tkSleep, val: 1 + r.IntN(2)} // a slow reader misses ticks
		}
		return tkStmt{}
	}
	change := func() tkStmt {
		switch r.IntN(4) {
		case 0:
			return tkStmt{kind: tkStop, tk: tk()}
		case 1:
			return tkStmt{kind: tkReset, tk: tk(), val: 1 + r.IntN(3)}
		case 2:
			return tkStmt{kind: tkStopIf, tk: tk(), val: r.IntN(2)}
		}
		return tkStmt{kind: tkResetIf, tk: tk(), val: 1 + r.IntN(3)}
	}
	for range 1 + r.IntN(2) {
		p.readers = append(p.readers, tkReader{tk: tk(), ticks: 1 + r.IntN(3), sel: r.IntN(4) == 0, each: plain(), fail: r.IntN(2) == 0})
	}
	for range r.IntN(3) {
		var o []tkStmt
		if r.IntN(4) != 0 {
			o = append(o, tkStmt{kind: tkSleep, val: 1 + r.IntN(3)})
		}
		if r.IntN(3) == 0 {
			o = append(o, plain())
		}
		o = append(o, change())
		p.others = append(p.others, o)
	}
	if r.IntN(2) == 0 {
		p.main = append(p.main, tkStmt{kind: tkSleep, val: 1 + r.IntN(3)})
	}
	if r.IntN(3) == 0 {
		p.main = append(p.main, change())
	}
	p.closeDone = r.IntN(3) == 0
	switch r.IntN(4) {
	case 0:
		p.join = len(p.others) > 0
	case 1:
		p.joinReader = true
	}
	return p
}

// body returns the program's body.
func (p tkProgram) body() func(*weft.T) {
	return func(w *weft.T) {
		x := weft.NewVar[int]("x")
		mu := weft.NewMutex("mu") // named by the body: no two threads reach it apart
		done := weft.MakeChan[int](0)
		tks := make([]*weft.Ticker, len(p.periods))
		for i, d := range p.periods {
			tks[i] = weft.NewTicker(time.Duration(d))
		}
		run := func(s tkStmt) {
			switch s.kind {
			case tkStore:
				x.Store(s.val)
			case tkLoad:
				x.Load()
			case tkLock:
				mu.Lock()
				mu.Unlock()
			case tkSleep:
				w.Sleep(time.Duration(s.val))
			case tkStop:
				tks[s.tk].Stop()
			case tkReset:
				tks[s.tk].Reset(time.Duration(s.val))
			case tkStopIf:
				if x.Load() == s.val {
					tks[s.tk].Stop()
				}
			case tkResetIf:
				if x.Load() == 0 {
					tks[s.tk].Reset(time.Duration(s.val))
				}
			}
		}
		var readers []*weft.Thread
		for _, rd := range p.readers {
			readers = append(readers, w.Go(func() {
				for range rd.ticks {
					if rd.sel {
						weft.Select(weft.OnRecv(tks[rd.tk].C, nil), weft.OnRecv(done, nil))
					} else {
						tks[rd.tk].C.Recv()
					}
					run(rd.each)
				}
				if rd.fail {
					w.Fail("ticks")
				}
			}))
		}
		var hs []*weft.Thread
		for _, o := range p.others {
			hs = append(hs, w.Go(func() {
				for _, s := range o {
					run(s)
				}
			}))
		}
		for _, s := range p.main {
			run(s)
		}
		if p.closeDone {
			done.Close()
		}
		if p.join {
			hs[0].Join()
		}
		if p.joinReader {
			readers[0].Join()
		}
	}
}
