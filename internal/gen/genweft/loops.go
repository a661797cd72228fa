// This file runs the statements of event loops (gen.Options.Loops):
// tickers, loops of After, timers of tiny periods and bounded repeats.

package genweft

import (
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
)

// fill sends 9 on each buffered channel of p (gen.Program.Fill).
func (o *objects) fill(p *gen.Program) {
	for i, c := range p.Chans {
		if c > 0 {
			o.chans[i].Send(9)
		}
	}
}

// loop runs a statement of event loops.
func (o *objects) loop(w *weft.T, threads []*weft.Thread, sc *scope, s gen.Stmt) {
	switch s.Kind {
	case gen.Repeat:
		for range s.Val {
			o.run(w, threads, sc, s.Body)
		}
	case gen.TickLoop:
		tk := weft.NewTimer(time.Duration(s.Val))
		tick := weft.OnRecv(tk.C, func(time.Duration, bool) {
			o.run(w, threads, sc, s.Body)
			if s.Obj == 1 {
				tk.ResetAt(tk.Deadline() + time.Duration(s.Val))
			} else {
				tk.Reset(time.Duration(s.Val))
			}
		})
		o.selectLoop(s, func() weft.SelectCase { return tick })
		tk.Stop()
	case gen.AfterLoop:
		o.selectLoop(s, func() weft.SelectCase {
			return weft.OnRecv(w.After(time.Duration(s.Val)), func(time.Duration, bool) { o.run(w, threads, sc, s.Body) })
		})
	case gen.TinyTimer:
		tm := weft.NewTimer(time.Duration(s.Val))
		o.run(w, threads, sc, s.Body)
		switch s.Val2 {
		case 0:
			tm.C.Recv()
		case 1:
			weft.Select(weft.OnRecv(tm.C, func(time.Duration, bool) { o.store(o.vars[s.Obj], 7) }), weft.OnDefault(nil))
		default:
			tm.Reset(time.Duration(s.Val))
			tm.C.Recv()
		}
	}
}

// selectLoop runs s.Val2 iterations of a select over the timer's case
// that timer returns in each iteration and s.Cases, until a stop case is
// taken.
func (o *objects) selectLoop(s gen.Stmt, timer func() weft.SelectCase) {
	stop := false
	for range s.Val2 {
		cs := []weft.SelectCase{timer()}
		for _, k := range s.Cases {
			switch {
			case k.Stop:
				cs = append(cs, weft.OnRecv(o.chans[k.Chan], func(int, bool) { stop = true }))
			case k.Send:
				cs = append(cs, weft.OnSend(o.chans[k.Chan], k.Val, nil))
			default:
				cs = append(cs, weft.OnRecv(o.chans[k.Chan], func(x int, _ bool) { o.store(o.vars[0], x) }))
			}
		}
		weft.Select(cs...)
		if stop {
			return
		}
	}
}
