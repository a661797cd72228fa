// This file implements the description of a failing execution: its
// steps with their values and source positions, the threads it left
// blocked, its data race and the step at which a timer outran a thread.

package explore

import (
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/races"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// described is what describeSteps tells of an execution.
type described struct {
	steps   []Step
	blocked []Blocked
	names   []string // the threads' names, by ThreadID; nil if none has one
	log     []string // Failure's Log
	threads []ThreadStart
	// race describes the execution's data race with the places of both
	// accesses, with race checking (WithRaces), or is "" if it has none.
	race      string
	raceSteps [2]int
	// slowStep and slowThread are Failure's SlowStep and SlowThread.
	slowStep   int
	slowThread trace.ThreadID
}

// describeSteps re-runs the execution of rec with source capture on and
// describes its steps. A deterministic body takes the same steps; if the
// replay diverges from rec, the error says where, and the steps stop there.
// Bounds b interrupt the replay: ok is then false, and nothing is
// described.
func describeSteps(body func(), rec replay.Record, c *Config, b bounds) (d described, ok bool, err error) {
	e := b.exec(c)
	defer e.Close()
	s := replay.New(rec)
	s.Next()
	end := e.Run(s, body, true)
	if e.Interrupted() {
		return described{}, false, nil
	}
	tr := e.Trace()
	d = describeTrace(e, tr, c)
	s.Finish(tr, end)
	return d, true, s.Diverged()
}

// describeTrace describes the steps of tr, the last execution of runtime
// e: with the values it noted and the sites of the blocked threads' calls
// if it ran with source capture on.
func describeTrace(e *engine.Exec, tr *trace.Trace, c *Config) described {
	var names []string
	for p := range tr.Threads {
		if n := e.ThreadName(trace.ThreadID(p)); n != "" {
			if names == nil {
				names = make([]string, len(tr.Threads))
			}
			names[p] = n
		}
	}
	label := func(p trace.ThreadID) string { return engine.ThreadLabel(p, e.ThreadName(p)) }
	// A long execution repeats its call sites: each is looked up once.
	frames := map[uintptr]runtime.Frame{}
	steps := make([]Step, len(tr.Events))
	for i, ev := range tr.Events {
		st := Step{Thread: ev.Thread, Op: describeOp(tr, ev, label), Partner: ev.Partner, Value: ev.Value,
			Kind: ev.Op.Kind, Object: objectOf(tr, ev), Sync: ev.Source() + 1}
		if e.Daemon(ev.Partner) {
			// A timer's value: its thread is weft's, not the program's.
			st.Partner = trace.NoThread
		}
		if v, ok := e.StepValue(i); ok {
			st.Op += " = " + fmt.Sprint(v)
		}
		if ev.PC != 0 {
			f, ok := frames[ev.PC]
			if !ok {
				f = engine.UserFrame(ev.PC)
				frames[ev.PC] = f
			}
			st.File, st.Line = f.File, f.Line
		}
		steps[i] = st
	}
	d := described{steps: steps, blocked: describeBlocked(e, tr, label), names: names, threads: make([]ThreadStart, len(tr.Threads))}
	for p, th := range tr.Threads {
		d.threads[p] = ThreadStart{Parent: th.Parent, Step: int(th.Step) + 1}
	}
	if c.Log != nil {
		d.log = c.Log(e)
	}
	d.slowStep, d.slowThread = slowAdvance(e, tr)
	if c.Races {
		var det races.Detector
		if r, ok := det.Find(tr); ok {
			d.race = r.Message(tr, func(i int) string { return place(steps[i].File, steps[i].Line) })
			d.raceSteps = [2]int{r.First.Event + 1, r.Second.Event + 1}
		}
	}
	foldCalls(e, &d)
	return d
}

// slowAdvance returns the first step (from 1) of tr, run by e, at which
// the clock advanced while a thread of the program could still move, and
// that thread; 0 and trace.NoThread if there is none. Time that moves only
// when every thread is blocked never advances so.
func slowAdvance(e *engine.Exec, tr *trace.Trace) (int, trace.ThreadID) {
	en := tr.EnabledWalk()
	for i, ev := range tr.Events {
		if ev.Op.Kind != trace.KindAdvance {
			continue
		}
		for p := range tr.Threads {
			if q := trace.ThreadID(p); q != ev.Thread && !e.Daemon(q) && en.At(i, q) {
				return i + 1, q
			}
		}
	}
	return 0, trace.NoThread
}

// describeOp describes an executed operation with object names, and
// threads named by label.
func describeOp(tr *trace.Trace, ev trace.Event, label func(trace.ThreadID) string) string {
	op := ev.Op
	name := tr.ObjectName
	switch op.Kind {
	case trace.KindSelect:
		if ev.Case < 0 {
			return "select: default"
		}
		c := op.Cases[ev.Case]
		return fmt.Sprintf("select: %v %s", c.Kind, name(c.Obj))
	case trace.KindJoin:
		return "join " + label(trace.ThreadID(op.Arg))
	case trace.KindWGAdd:
		return fmt.Sprintf("wg.add(%d) %s", op.Arg, name(op.Obj))
	case trace.KindAwait:
		// w.Await, or a busy-wait loop's w.Yield, waiting for a write of
		// the variables it read.
		s := "await"
		if op.Arg == trace.AwaitYield {
			s = "yield"
		}
		for i, c := range op.Cases {
			sep := ", "
			if i == 0 {
				sep = " "
			}
			s += sep + name(c.Obj)
		}
		return s
	case trace.KindAdvance:
		// weft's clock, with time at any step (WithTime).
		return op.Text(name)
	}
	if op.Obj == trace.NoObject {
		return op.Kind.String()
	}
	if trace.AddOnly(op) {
		return "addonly " + name(op.Obj)
	}
	return op.Kind.String() + " " + name(op.Obj)
}

// place is where a report shows a source position: the file's base name
// and the line, or "" for none (package weft's reports show them so).
func place(file string, line int) string {
	if file == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", filepath.Base(file), line)
}

// objectOf names the object of event ev of tr for a report: that of its
// operation, a select's taken case's, or "" for none.
func objectOf(tr *trace.Trace, ev trace.Event) string {
	o := ev.Op.Obj
	if ev.Op.Kind == trace.KindSelect {
		o = trace.NoObject
		if ev.Case >= 0 && int(ev.Case) < len(ev.Op.Cases) {
			o = ev.Op.Cases[ev.Case].Obj
		}
	}
	if o == trace.NoObject {
		return ""
	}
	return tr.ObjectName(o)
}
