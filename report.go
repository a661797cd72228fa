// This file implements failure reports: the interleaving step by step with
// source positions.

package weft

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/races"
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
	// Blocked lists, for a deadlock or a leak, the threads left blocked,
	// with where each waits and for whom; Cycle is a cycle of threads each
	// waiting for a mutex the next one holds, if there is one.
	Blocked []Blocked
	Cycle   []trace.ThreadID
	// Switches is the number of context switches of the interleaving (steps
	// whose thread is not the previous step's). FoundSteps and
	// FoundSwitches, if FoundSteps is not 0, are those of the interleaving
	// as the exploration found it, before weft shortened it (WithShorten);
	// Execution is still that execution's number.
	Switches                  int
	FoundSteps, FoundSwitches int
	// ThreadNames holds the names the program gave its threads (GoNamed),
	// by ThreadID, "" for a thread without one; nil if none has one.
	ThreadNames []string
	// SlowStep is, with time at any step (WithTime), the step (from 1) at
	// which the clock advanced while another thread could still move,
	// SlowThread that thread: the failure needs it to be slower than a
	// timer. 0 if the clock never advanced so.
	SlowStep   int
	SlowThread trace.ThreadID
	// tokenFile, if not "", says where Token, a token longer than
	// LongToken, is ("the file X"): the report says so in its place.
	tokenFile string
}

// ThreadLabel names thread p for a person, as reports do: "T1", or, for a
// thread started with GoNamed, "T1(producer)".
func (f *Failure) ThreadLabel(p trace.ThreadID) string {
	if int(p) < 0 || int(p) >= len(f.ThreadNames) {
		return p.String()
	}
	return engine.ThreadLabel(p, f.ThreadNames[p])
}

// Blocked is a thread left blocked at the end of a deadlock or a leak.
type Blocked struct {
	Thread trace.ThreadID
	Op     string // its pending operation
	File   string // where it calls it
	Line   int
	// Holder is the thread holding the mutex it waits to lock, or
	// trace.NoThread. For an RWMutex it is, for a read lock, the writer
	// that holds it or waits for it (Go's waiting writer blocks new
	// readers), and for a write lock, the writer that holds it, else the
	// lowest reader that does. HolderWaits says that Holder does not hold
	// the lock but waits for it: a writer that new readers wait behind.
	Holder      trace.ThreadID
	HolderWaits bool
}

// Step is one step of a failing interleaving.
type Step struct {
	Thread trace.ThreadID
	// Op describes the operation, with the value a variable's operation
	// read or wrote ("load x = 1", "store y = 2"; after a Swap,
	// CompareAndSwap or Add, the variable's value).
	Op      string
	Partner trace.ThreadID
	Value   uint64
	File    string
	Line    int
}

// described is what describeSteps tells of an execution.
type described struct {
	steps   []Step
	blocked []Blocked
	names   []string // the threads' names, by ThreadID; nil if none has one
	// race describes the execution's data race with the places of both
	// accesses, with race checking (WithRaces), or is "" if it has none.
	race string
	// slowStep and slowThread are Failure's SlowStep and SlowThread.
	slowStep   int
	slowThread trace.ThreadID
}

// describeSteps re-runs the execution of rec with source capture on and
// describes its steps. A deterministic body takes the same steps; if the
// replay diverges from rec, the error says where, and the steps stop there.
// Bounds b interrupt the replay: ok is then false, and nothing is
// described.
func describeSteps(body func(w *T), rec replay.Record, c *config, b bounds) (d described, ok bool, err error) {
	e := b.exec(c)
	defer e.Close()
	s := replay.New(rec)
	s.Next()
	w := &T{}
	end := e.Run(s, func() { body(w) }, true)
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
func describeTrace(e *engine.Exec, tr *trace.Trace, c *config) described {
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
		st := Step{Thread: ev.Thread, Op: describeOp(tr, ev, label), Partner: ev.Partner, Value: ev.Value}
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
	d := described{steps: steps, blocked: describeBlocked(e, tr, label), names: names}
	d.slowStep, d.slowThread = slowAdvance(e, tr)
	if c.races {
		var det races.Detector
		if r, ok := det.Find(tr); ok {
			d.race = r.Message(tr, func(i int) string { return place(steps[i].File, steps[i].Line) })
		}
	}
	return d
}

// slowAdvance returns the first step (from 1) of tr, run by e, at which
// the clock advanced while a thread of the program could still move, and
// that thread; 0 and trace.NoThread if there is none. Time that moves only
// when every thread is blocked never advances so.
func slowAdvance(e *engine.Exec, tr *trace.Trace) (int, trace.ThreadID) {
	for i, ev := range tr.Events {
		if ev.Op.Kind != trace.KindAdvance {
			continue
		}
		for p := range tr.Threads {
			if q := trace.ThreadID(p); q != ev.Thread && !e.Daemon(q) && tr.EnabledAt(i, q) {
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

// LongReport is the number of steps above which Report summarises the
// interleaving: it prints the first and last summarySteps steps (and the
// blocked threads, as always) and writes the whole report to a file.
const LongReport = 200

// summarySteps is the number of steps a summarised report shows at each
// end of the interleaving.
const summarySteps = 20

// Report formats f for a person: kind, message, the interleaving step by
// step and how to replay it. An interleaving of more than LongReport steps
// is summarised: Report writes the whole report to a file in the
// directory weft-reports of os.TempDir, named after the failure's replay
// token, and its summary says where (if the file cannot be written, the
// report is whole, and says why).
func (f *Failure) Report(replayCmd string) string { return f.report(replayCmd, true) }

// writeFull writes the whole report of f to its file and returns the
// file's path.
func (f *Failure) writeFull(replayCmd string) (string, error) {
	dir := filepath.Join(os.TempDir(), "weft-reports")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("long report: %w", err)
	}
	sum := sha256.Sum256([]byte(f.Token + "\x00" + f.Message + "\x00" + replayCmd))
	name := strings.ReplaceAll(f.Kind.String(), " ", "_") + "-" + hex.EncodeToString(sum[:6]) + ".txt"
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(f.report(replayCmd, false)), 0o644); err != nil {
		return "", fmt.Errorf("long report: %w", err)
	}
	return path, nil
}

// threadWidth is the width of the thread column of f's report: that of
// its longest thread label, and at least 4.
func (f *Failure) threadWidth() int {
	w := 4
	for p := range f.ThreadNames {
		w = max(w, len(f.ThreadLabel(trace.ThreadID(p))))
	}
	return w
}

// writeSteps writes steps [from, to) of f's interleaving to b.
func (f *Failure) writeSteps(b *strings.Builder, from, to int) {
	w := f.threadWidth()
	for i := from; i < to; i++ {
		s := f.Steps[i]
		fmt.Fprintf(b, "  %4d  %-*s %-32s", i+1, w, f.ThreadLabel(s.Thread), s.Op)
		if s.Partner != trace.NoThread {
			fmt.Fprintf(b, " with %s", f.ThreadLabel(s.Partner))
		}
		if s.File != "" {
			b.WriteString("  " + place(s.File, s.Line))
		}
		b.WriteString("\n")
	}
}

// report is Report, with a long interleaving summarised if summary is set.
func (f *Failure) report(replayCmd string, summary bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "weft: %v", f.Kind)
	if f.Thread != trace.NoThread {
		fmt.Fprintf(&b, " in %s", f.ThreadLabel(f.Thread))
	}
	fmt.Fprintf(&b, " (execution %d, %d steps", f.Execution, len(f.Record.Steps))
	if f.FoundSteps != 0 {
		fmt.Fprintf(&b, ", %s; shortened from %d steps, %s", plural(f.Switches, "switch", "switches"), f.FoundSteps, plural(f.FoundSwitches, "switch", "switches"))
	}
	b.WriteString(")\n")
	for _, line := range strings.Split(strings.TrimRight(f.Message, "\n"), "\n") {
		fmt.Fprintf(&b, "    %s\n", line)
	}
	if f.SlowStep > 0 {
		fmt.Fprintf(&b, "found with time at any step: it needs a goroutine to be slower than a timer (at step %d the clock advanced while %s could still move)\n", f.SlowStep, f.ThreadLabel(f.SlowThread))
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
		if len(f.Steps) <= LongReport || !summary {
			f.writeSteps(&b, 0, len(f.Steps))
		} else if path, err := f.writeFull(replayCmd); err != nil {
			f.writeSteps(&b, 0, len(f.Steps))
			fmt.Fprintf(&b, "(weft could not write this report of %d steps to a file, so it is printed whole: %v)\n", len(f.Steps), err)
		} else {
			f.writeSteps(&b, 0, summarySteps)
			fmt.Fprintf(&b, "        ... %d steps not shown; the whole report is in %s\n", len(f.Steps)-2*summarySteps, path)
			f.writeSteps(&b, len(f.Steps)-summarySteps, len(f.Steps))
		}
	}
	if len(f.Blocked) > 0 {
		b.WriteString("blocked:\n")
		w := f.threadWidth()
		for _, x := range f.Blocked {
			fmt.Fprintf(&b, "        %-*s %-32s", w, f.ThreadLabel(x.Thread), x.Op)
			if x.File != "" {
				b.WriteString("  " + place(x.File, x.Line))
			}
			switch {
			case x.Holder == trace.NoThread:
			case x.HolderWaits:
				fmt.Fprintf(&b, "  (behind waiting writer %s)", f.ThreadLabel(x.Holder))
			default:
				fmt.Fprintf(&b, "  (held by %s)", f.ThreadLabel(x.Holder))
			}
			b.WriteString("\n")
		}
		if len(f.Cycle) > 0 {
			b.WriteString("cycle of waits: ")
			for _, p := range f.Cycle {
				fmt.Fprintf(&b, "%s -> ", f.ThreadLabel(p))
			}
			fmt.Fprintf(&b, "%s\n", f.ThreadLabel(f.Cycle[0]))
		}
	}
	if f.Token == "" {
		return b.String() // no execution to replay
	}
	if f.tokenFile != "" {
		fmt.Fprintf(&b, "replay token: %d bytes, in %s\n", len(f.Token), f.tokenFile)
	} else {
		fmt.Fprintf(&b, "replay token: %s\n", f.Token)
	}
	if replayCmd != "" {
		fmt.Fprintf(&b, "replay: %s\n", replayCmd)
	}
	return b.String()
}

// plural returns n and the noun in the number n takes.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// place is where a report shows a source position: the file's base name
// and the line, or "" for none.
func place(file string, line int) string {
	if file == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", filepath.Base(file), line)
}
