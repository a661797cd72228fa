// This file implements failure reports: the interleaving step by step with
// source positions.

package weft

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// Failure is a failing execution: its kind, message and a replay token.
type Failure struct {
	Kind      trace.FailureKind
	Message   string
	Thread    trace.ThreadID
	Execution int // the execution's number in the exploration, from 1
	Token     string
	Record    replay.Record
	// Steps is the interleaving, step by step.
	Steps []Step
	// Inputs are the inputs the execution read, in order (input.go).
	Inputs []InputValue
	// Objects names the objects of the execution, by ObjectID.
	Objects []trace.ObjectInfo
}

// Step is one step of a failing interleaving.
type Step struct {
	Thread  trace.ThreadID
	Op      string
	Partner trace.ThreadID
	Value   uint64
	File    string
	Line    int
}

// describeSteps re-runs the execution of rec with source capture on and
// describes its steps. A deterministic body takes the same steps; if the
// replay diverges from rec, the error says where, and the steps stop there.
func describeSteps(body func(w *T), rec replay.Record, c *config) ([]Step, error) {
	e := engine.NewExec(engine.Config{MaxSteps: c.maxSteps, Watchdog: c.watchdog})
	defer e.Close()
	s := replay.New(rec)
	s.Next()
	w := &T{}
	end := e.Run(s, func() { body(w) }, true)
	tr := e.Trace()
	steps := make([]Step, len(tr.Events))
	for i, ev := range tr.Events {
		st := Step{Thread: ev.Thread, Op: describeOp(tr, ev), Partner: ev.Partner, Value: ev.Value}
		if ev.PC != 0 {
			f := engine.UserFrame(ev.PC)
			st.File, st.Line = f.File, f.Line
		}
		steps[i] = st
	}
	s.Finish(tr, end)
	return steps, s.Diverged()
}

// describeOp describes an executed operation with object names.
func describeOp(tr *trace.Trace, ev trace.Event) string {
	op := ev.Op
	name := func(id trace.ObjectID) string {
		if id < 0 || int(id) >= len(tr.Objects) {
			return "nil"
		}
		o := tr.Objects[id]
		if o.Name != "" {
			return o.Name
		}
		return fmt.Sprintf("%v#%d", o.Class, id)
	}
	switch op.Kind {
	case trace.KindSelect:
		if ev.Case < 0 {
			return "select: default"
		}
		c := op.Cases[ev.Case]
		return fmt.Sprintf("select: %v %s", c.Kind, name(c.Obj))
	case trace.KindJoin:
		return fmt.Sprintf("join T%d", op.Arg)
	case trace.KindWGAdd:
		return fmt.Sprintf("wg.add(%d) %s", op.Arg, name(op.Obj))
	}
	if op.Obj == trace.NoObject {
		return op.Kind.String()
	}
	return op.Kind.String() + " " + name(op.Obj)
}

// Report formats f for a person: kind, message, the interleaving step by
// step and how to replay it.
func (f *Failure) Report(replayCmd string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "weft: %v", f.Kind)
	if f.Thread != trace.NoThread {
		fmt.Fprintf(&b, " in %v", f.Thread)
	}
	fmt.Fprintf(&b, " (execution %d, %d steps)\n", f.Execution, len(f.Record.Steps))
	for _, line := range strings.Split(strings.TrimRight(f.Message, "\n"), "\n") {
		fmt.Fprintf(&b, "    %s\n", line)
	}
	if len(f.Inputs) > 0 {
		b.WriteString("inputs:")
		for _, in := range f.Inputs {
			fmt.Fprintf(&b, " %v", in)
		}
		b.WriteString("\n")
	}
	if len(f.Steps) > 0 {
		b.WriteString("interleaving:\n")
		for i, s := range f.Steps {
			fmt.Fprintf(&b, "  %4d  %-4v %-32s", i+1, s.Thread, s.Op)
			if s.Partner != trace.NoThread {
				fmt.Fprintf(&b, " with %v", s.Partner)
			}
			if s.File != "" {
				fmt.Fprintf(&b, "  %s:%d", filepath.Base(s.File), s.Line)
			}
			b.WriteString("\n")
		}
	}
	if f.Token == "" {
		return b.String() // no execution to replay
	}
	fmt.Fprintf(&b, "replay token: %s\n", f.Token)
	if replayCmd != "" {
		fmt.Fprintf(&b, "replay: %s\n", replayCmd)
	}
	return b.String()
}
