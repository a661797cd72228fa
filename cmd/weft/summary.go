// This file implements the summary of weft run: its JSON form and its
// table.

package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/failjson"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/trace"
)

// Summary is what weft run -json prints: one object. The README documents
// it; its field names are stable.
type Summary struct {
	Program  string         `json:"program"`
	Params   map[string]int `json:"params"`
	Strategy string         `json:"strategy"`
	Seed     int64          `json:"seed"`
	// Time is how virtual time moves: "blocked" (only when every thread
	// is blocked) or "any" (at any step), as -time says.
	Time string `json:"time"`
	// Executions counts the executions run; Complete those that ended
	// normally, Cut those the strategy cut short and Assumed those an
	// assumption ended (w.Assume; none of them failures).
	Executions int `json:"executions"`
	Complete   int `json:"complete"`
	Cut        int `json:"cut"`
	Assumed    int `json:"assumed"`
	// Exhausted is true when the strategy finished its exploration: for
	// exhaustive, every interleaving was run.
	Exhausted bool `json:"exhausted"`
	// Stopped says why the exploration ended: "exhausted", "incomplete"
	// (the strategy finished but may have missed behaviours), "failure" (the
	// first failure, without -keep-going), "step-bound" (the tenth
	// execution that reached the step bound, without -keep-going, and no
	// other failure), "max-runs", "timeout", "interrupted" (SIGINT) or
	// "abandoned" (a thread blocked outside weft's control).
	Stopped string `json:"stopped"`
	// Covers says, when a strategy that aims at a coverage goal (con2)
	// finished, what it covered: it did not search for deadlocks.
	Covers string `json:"covers,omitempty"`
	// Failures holds the first failure of each kind found.
	Failures []FailureSummary `json:"failures"`
	// FailureCounts counts the failing executions by kind.
	FailureCounts map[string]int `json:"failure_counts"`
	FinalStates   int            `json:"final_states"`
	Events        int64          `json:"events"`
	WallS         float64        `json:"wall_s"`
	ExecPerS      float64        `json:"exec_per_s"`
	PeakRSSBytes  int64          `json:"peak_rss_bytes"`
	// Solver is present when the strategy used an SMT solver (concolic).
	Solver *SolverSummary `json:"solver,omitempty"`
	// Counters are the strategy's own counts, by name (unfold: the
	// events and conditions of the unfolding, the deadlocks found in it).
	Counters map[string]int64 `json:"counters,omitempty"`
	// Branches lists the sides of the program's symbolic branches at the
	// lines the executions reached (the papers' branch coverage); absent
	// for a program without inputs.
	Branches *BranchesSummary `json:"branches,omitempty"`
	// counterOrder is the strategy's order of Counters, for the table.
	counterOrder []string
	// Workers describes each worker of a parallel run (-workers); absent
	// when one ran. NotParallel says why a run asked for several ran on
	// one.
	Workers     []WorkerSummary `json:"workers,omitempty"`
	NotParallel string          `json:"not_parallel,omitempty"`
	// Note says what the strategy weft chose leaves out (inputs it keeps
	// at their defaults); absent when nothing.
	Note string `json:"note,omitempty"`
	// Incomplete says why an exploration the strategy finished may have
	// missed behaviours (weft.Result.Incomplete).
	Incomplete string `json:"incomplete,omitempty"`
}

// WorkerSummary is one worker of a parallel run in Summary: the
// executions it ran, the units of work it took from the others, and the
// share of the wall time it waited for work.
type WorkerSummary struct {
	Executions int     `json:"executions"`
	Units      int     `json:"units"`
	Idle       float64 `json:"idle"`
}

// SolverSummary is the SMT solver's work in a run.
type SolverSummary struct {
	Queries   int64   `json:"queries"`
	Sat       int64   `json:"sat"`
	Unsat     int64   `json:"unsat"`
	Unknown   int64   `json:"unknown"`
	Timeouts  int64   `json:"timeouts"`
	CacheHits int64   `json:"cache_hits"`
	TimeS     float64 `json:"time_s"`
}

// BranchesSummary lists branch sides as "file:line +" (the side where the
// condition held) or "file:line -" (the other: an assertion's failing
// side): those some execution took, and those none did.
type BranchesSummary struct {
	Covered    []string `json:"covered"`
	NotCovered []string `json:"not_covered"`
}

// FailureSummary is one failure in Summary.
type FailureSummary struct {
	Kind      string `json:"kind"`
	Message   string `json:"message"`
	Token     string `json:"token"`
	Execution int    `json:"execution"` // its number in the run, from 1
	Steps     int    `json:"steps"`
	Switches  int    `json:"switches"` // its context switches
	// FoundSteps and FoundSwitches are those of the schedule as the
	// exploration found it, if weft shortened it (-shorten); 0 otherwise.
	FoundSteps    int `json:"found_steps,omitempty"`
	FoundSwitches int `json:"found_switches,omitempty"`
	// Thread is the thread that failed, as reports name it ("T1", or
	// "T1(name)" for a named thread); empty for a deadlock or a leak.
	Thread string `json:"thread,omitempty"`
	// Interleaving is the failing interleaving, step by step (shortened,
	// if weft shortened it).
	Interleaving []failjson.Step `json:"interleaving"`
	// Blocked lists the threads a deadlock or a leak left blocked; Cycle
	// is a cycle of them, each waiting for a mutex the next holds.
	Blocked []BlockedSummary `json:"blocked,omitempty"`
	Cycle   []string         `json:"cycle,omitempty"`
	Replay  string           `json:"replay"` // the command that replays it
}

// BlockedSummary is a thread left blocked, in FailureSummary.
type BlockedSummary = failjson.Blocked

// summarize builds the summary of run r of program p.
func summarize(p *programs.Program, ps programs.Params, o *runOptions, r *weft.Result) *Summary {
	s := &Summary{
		Program: p.Name, Params: ps, Strategy: r.Strategy, Seed: o.seed, Time: o.time.String(), Note: r.Note, Incomplete: r.Incomplete, Covers: r.Covers,
		Executions: r.Executions, Complete: r.Complete, Cut: r.Cut, Assumed: r.Assumed, Exhausted: r.Exhausted,
		Failures: []FailureSummary{}, FailureCounts: map[string]int{},
		FinalStates: r.FinalStates, Events: r.Events,
		WallS: r.Wall.Seconds(), ExecPerS: r.ExecPerSecond(), PeakRSSBytes: peakRSS(),
	}
	for _, w := range r.Workers {
		s.Workers = append(s.Workers, WorkerSummary{Executions: w.Executions, Units: w.Units, Idle: w.IdleFraction()})
	}
	if o.workersSet {
		s.NotParallel = r.NotParallel
	}
	for _, c := range r.Counters {
		if s.Counters == nil {
			s.Counters = map[string]int64{}
		}
		s.Counters[c.Name] = c.Value
		s.counterOrder = append(s.counterOrder, c.Name)
	}
	if len(r.Branches) > 0 {
		s.Branches = &BranchesSummary{Covered: []string{}, NotCovered: []string{}}
		for _, b := range r.Branches {
			site := filepath.Base(b.File) + ":" + strconv.Itoa(b.Line)
			for _, side := range []struct {
				taken bool
				sign  string
			}{{b.True, " +"}, {b.False, " -"}} {
				if side.taken {
					s.Branches.Covered = append(s.Branches.Covered, site+side.sign)
				} else {
					s.Branches.NotCovered = append(s.Branches.NotCovered, site+side.sign)
				}
			}
		}
	}
	if st := r.Solver; st.Queries > 0 || st.CacheHits > 0 {
		s.Solver = &SolverSummary{Queries: st.Queries, Sat: st.Sat, Unsat: st.Unsat, Unknown: st.Unknown,
			Timeouts: st.Timeouts, CacheHits: st.CacheHits, TimeS: st.SolverTime.Seconds()}
	}
	for _, f := range r.Failures {
		fs := FailureSummary{
			Kind: f.Kind.String(), Message: f.Message, Token: f.Token, Execution: f.Execution,
			Steps: f.StepCount(), Switches: f.Switches, FoundSteps: f.FoundSteps, FoundSwitches: f.FoundSwitches,
			Replay: replayCommand(p, o.maxSteps, o.races, f.Token),
		}
		if f.Thread != trace.NoThread {
			fs.Thread = f.ThreadLabel(f.Thread)
		}
		fs.Interleaving = make([]failjson.Step, len(f.Steps))
		for i, st := range f.Steps {
			js := failjson.Step{Thread: f.ThreadLabel(st.Thread), Op: st.Op, Object: st.Object, At: at(st.File, st.Line), Source: st.Sync}
			if st.Partner != trace.NoThread {
				js.With = f.ThreadLabel(st.Partner)
			}
			fs.Interleaving[i] = js
		}
		for _, b := range f.Blocked {
			bs := BlockedSummary{Thread: f.ThreadLabel(b.Thread), Op: b.Op, At: at(b.File, b.Line)}
			if b.Holder != trace.NoThread {
				bs.HeldBy, bs.WaitingWriter = f.ThreadLabel(b.Holder), b.HolderWaits
			}
			fs.Blocked = append(fs.Blocked, bs)
		}
		for _, p := range f.Cycle {
			fs.Cycle = append(fs.Cycle, f.ThreadLabel(p))
		}
		s.Failures = append(s.Failures, fs)
	}
	for k, n := range r.FailureCounts {
		s.FailureCounts[k.String()] = n
	}
	switch {
	case r.Exhausted:
		s.Stopped = "exhausted"
	case r.Incomplete != "":
		s.Stopped = "incomplete"
	case r.Failed() && !r.StepBounded() && !o.keepGoing:
		s.Stopped = "failure"
	case r.StepBounded() && !o.keepGoing && !r.TimedOut && !r.Canceled && (o.maxRuns == 0 || r.Executions < o.maxRuns):
		s.Stopped = "step-bound"
	case o.maxRuns > 0 && r.Executions >= o.maxRuns:
		s.Stopped = "max-runs"
	case r.TimedOut:
		s.Stopped = "timeout"
	case r.Canceled:
		s.Stopped = "interrupted"
	default:
		s.Stopped = "abandoned"
	}
	return s
}

// at is a source position in JSON: file:line, the file's base name; ""
// for none.
func at(file string, line int) string {
	if file == "" {
		return ""
	}
	return filepath.Base(file) + ":" + strconv.Itoa(line)
}

// stopText explains Stopped in the table.
var stopText = map[string]string{
	"exhausted":   "the strategy explored everything it covers",
	"incomplete":  "the strategy finished, but may have missed behaviours (see incomplete)",
	"failure":     "stopped at the first failure; -keep-going continues",
	"step-bound":  "stopped at the tenth execution that reached the step bound; -keep-going continues",
	"max-runs":    "stopped at -max-runs",
	"timeout":     "stopped at -timeout",
	"interrupted": "stopped by an interrupt (Ctrl-C)",
	"abandoned":   "stopped: a thread blocked outside weft's control",
}

// stopText explains why the exploration ended, for the table.
func (s *Summary) stopText() string {
	if s.Stopped == "exhausted" && s.Covers != "" {
		return "the strategy covered " + s.Covers + "; it is not a deadlock search: a deadlock, or a failure that only a plain Go if leads to, is found only when an execution runs into it"
	}
	return stopText[s.Stopped]
}

// print writes s as a table.
func (s *Summary) print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t"+format+"\n", append([]any{k}, args...)...) }
	prog := s.Program
	if p := programs.Lookup(s.Program); p != nil && len(p.Params) > 0 {
		prog += " " + strings.Join(p.Format(s.Params), " ")
	}
	row("program", "%s", prog)
	strat := s.Strategy
	if s.Strategy == "random" || s.Strategy == "pct" {
		strat += fmt.Sprintf(" (seed %d)", s.Seed)
	}
	row("strategy", "%s", strat)
	if s.Time == weft.TimeAnyStep.String() {
		row("time", "moves at any step (-time any)")
	}
	row("executions", "%d (%s)", s.Executions, s.stopText())
	row("complete", "%d", s.Complete)
	row("cut", "%d", s.Cut)
	if s.Assumed > 0 {
		row("assumed away", "%d", s.Assumed)
	}
	row("failures", "%s", s.failureText())
	row("final states", "%d distinct", s.FinalStates)
	row("events", "%d", s.Events)
	row("wall time", "%v", roundDuration(time.Duration(s.WallS*float64(time.Second))))
	row("executions/s", "%.0f", s.ExecPerS)
	row("peak memory", "%s", formatBytes(s.PeakRSSBytes))
	if s.Incomplete != "" {
		row("incomplete", "%s", s.Incomplete)
	}
	if s.Note != "" {
		row("note", "%s", s.Note)
	}
	if len(s.Workers) > 0 {
		row("workers", "%s", s.workersText())
	} else if s.NotParallel != "" {
		row("workers", "1 (%s)", s.NotParallel)
	}
	if v := s.Solver; v != nil {
		row("solver", "%d queries (%d sat, %d unsat, %d unknown, %d timeouts), %d cache hits, %v",
			v.Queries, v.Sat, v.Unsat, v.Unknown, v.Timeouts, v.CacheHits, roundDuration(time.Duration(v.TimeS*float64(time.Second))))
	}
	for _, name := range s.counterOrder {
		row(name, "%d", s.Counters[name])
	}
	if b := s.Branches; b != nil {
		n := len(b.Covered)
		row("branch sides", "%d of %d covered", n, n+len(b.NotCovered))
		for i, side := range b.NotCovered {
			key := ""
			if i == 0 {
				key = "not covered"
			}
			row(key, "%s", side)
		}
	}
	tw.Flush()
}

// failureText lists the failure counts by kind, in the order of the kinds.
func (s *Summary) failureText() string {
	total := 0
	var parts []string
	for _, k := range trace.FailureKinds() {
		if n := s.FailureCounts[k.String()]; n > 0 {
			total += n
			parts = append(parts, fmt.Sprintf("%s %d", k, n))
		}
	}
	if total == 0 {
		return "none"
	}
	return fmt.Sprintf("%d (%s)", total, strings.Join(parts, ", "))
}

// roundDuration rounds d for display: to the microsecond under a second, to
// the millisecond above.
func roundDuration(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}

// formatBytes formats a byte count in binary units.
func formatBytes(n int64) string {
	if n <= 0 {
		return "unknown"
	}
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// workersText describes the workers of a parallel run: how many, and for
// each its executions and idle share.
func (s *Summary) workersText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:", len(s.Workers))
	for i, w := range s.Workers {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d executions %.0f%% idle", w.Executions, 100*w.Idle)
	}
	return b.String()
}
