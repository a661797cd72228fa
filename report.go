// This file implements failure reports: the interleaving step by step with
// source positions.

package weft

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
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
	// Log holds the lines the execution logged with T's Log and Logf, and
	// its Error lines that Message does not hold, each after its file and
	// line, in order.
	Log []string
	// Threads says where each thread started, by ThreadID.
	Threads []ThreadStart
	// RaceSteps are, for a data race that race checking found
	// (WithRaces), the steps (from 1) of its two accesses in Steps; zero
	// otherwise.
	RaceSteps [2]int
	// Found is, if weft shortened the interleaving (FoundSteps is not 0),
	// the interleaving as the exploration found it, described as Steps;
	// nil if it could not be replayed within the exploration's bounds.
	Found []Step
	// Unrepeatable, if not "", says why the failure, found after the
	// first complete execution, may be no failure of the program's: that
	// execution, run again after it, did not end as it had, so the body
	// keeps state between executions and the failing one may have
	// started from a state the test never starts from. Check reports
	// such a failure as inconclusive, unless another one is not so.
	Unrepeatable string
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
	// Kind is the operation's kind and Object the name of the object it
	// touched ("" for none; for a select, the case taken's channel).
	Kind   trace.Kind
	Object string
	// Sync is the step (from 1) this one synchronises with, 0 if none:
	// the unlock before a lock, the send or close whose value a receive
	// took, the joined thread's last step, the store a load read
	// (trace.Event.Source). A rendezvous is one step of both threads
	// (Partner).
	Sync int
}

// ThreadStart says where a thread of a failing execution started: its
// parent, and the step (from 1) in whose local code the parent started
// it, 0 for a thread started before the first step.
type ThreadStart struct {
	Parent trace.ThreadID
	Step   int
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

// StepCount returns the number of steps of f's interleaving as its report
// lists them, a stand-in's inner steps folded into the program's one call
// (context.WithTimeout), or, if it has no list, of its record.
func (f *Failure) StepCount() int {
	if len(f.Steps) > 0 {
		return len(f.Steps)
	}
	return len(f.Record.Steps)
}

// report is Report, with a long interleaving summarised if summary is set.
func (f *Failure) report(replayCmd string, summary bool) string {
	var b strings.Builder
	if f.Kind == trace.Livelock {
		// No failure proved (Result.StepBounded): the report says what
		// happened.
		b.WriteString("weft: step bound reached, a possible livelock")
	} else {
		fmt.Fprintf(&b, "weft: %v", f.Kind)
	}
	if f.Thread != trace.NoThread {
		fmt.Fprintf(&b, " in %s", f.ThreadLabel(f.Thread))
	}
	fmt.Fprintf(&b, " (execution %d, %d steps", f.Execution, f.StepCount())
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
	if len(f.Log) > 0 {
		b.WriteString("log:\n")
		for _, l := range f.Log {
			fmt.Fprintf(&b, "    %s\n", l)
		}
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
