// This file implements the Result of an exploration as this package
// tallies it, and its failures; package weft turns them into its own
// Result and Failure, whose fields are documented there.

package explore

import (
	"time"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// Result is what an exploration found: package weft's Result, field for
// field, with the final states themselves, which merge.
type Result struct {
	Strategy                      string
	Executions, Complete, Cut     int
	Assumed, AwaitBlocked         int
	Exhausted, TimedOut, Canceled bool
	Failures                      []*Failure
	FailureCounts                 map[trace.FailureKind]int
	FinalStates                   int
	Events                        int64
	Wall                          time.Duration
	Solver                        solver.Stats
	Counters                      []strategy.Counter
	Workers                       []WorkerStats
	NotParallel                   string
	Covers                        string
	Note                          string
	Incomplete                    string
	Branches                      []BranchSite
	Uncontrolled                  int

	finals FinalStates
}

// newResult returns the empty Result of an exploration with strategy
// name.
func newResult(name string) *Result {
	return &Result{Strategy: name, FailureCounts: map[trace.FailureKind]int{}}
}

// Failed reports whether the exploration found a failure.
func (r *Result) Failed() bool { return len(r.Failures) > 0 }

// Failure is a failing execution: package weft's Failure, field for
// field.
type Failure struct {
	Kind                      trace.FailureKind
	Message                   string
	Thread                    trace.ThreadID
	Execution                 int
	Token                     string
	Record                    replay.Record
	Steps                     []Step
	Inputs                    []InputValue
	Objects                   []trace.ObjectInfo
	Blocked                   []Blocked
	Cycle                     []trace.ThreadID
	Switches                  int
	FoundSteps, FoundSwitches int
	ThreadNames               []string
	SlowStep                  int
	SlowThread                trace.ThreadID
	Log                       []string
	Threads                   []ThreadStart
	RaceSteps                 [2]int
	Found                     []Step
	Unrepeatable              string
}

// Step is one step of a failing interleaving (package weft's Step).
type Step struct {
	Thread  trace.ThreadID
	Op      string
	Partner trace.ThreadID
	Value   uint64
	File    string
	Line    int
	Kind    trace.Kind
	Object  string
	Sync    int
}

// ThreadStart says where a thread started (package weft's ThreadStart).
type ThreadStart struct {
	Parent trace.ThreadID
	Step   int
}

// Blocked is a thread left blocked at the end of a deadlock or a leak
// (package weft's Blocked).
type Blocked struct {
	Thread      trace.ThreadID
	Op          string
	File        string
	Line        int
	Holder      trace.ThreadID
	HolderWaits bool
}

// InputValue is an input an execution read (package weft's InputValue).
type InputValue struct {
	Name   string
	Value  uint64
	Signed bool
	Bits   int
}

// inputValues returns the inputs tr read, in order.
func inputValues(tr *trace.Trace) []InputValue {
	var out []InputValue
	for _, in := range tr.Inputs {
		out = append(out, InputValue{Name: in.Name, Value: in.Value, Signed: in.Signed, Bits: in.Bits})
	}
	return out
}

// WorkerStats describes one worker of a parallel exploration (package
// weft's WorkerStats).
type WorkerStats struct {
	Executions, Units int
	Busy, Idle        time.Duration
}

// APIResult turns a Result into package weft's (a *weft.Result), for a
// command that runs an exploration in a mode of this package's and
// reports it as package weft does (weft run -nats). Package weft sets it
// when it is initialised, so that one conversion fills both.
var APIResult func(*Result) any

// APIBody turns a test body of package weft's (a func(*weft.T)) into the
// function an exploration runs, as weft.Explore does: each execution with
// a T of its own, its cleanups and helpers' errors. Package weft sets it.
var APIBody func(body any) func()

// lateMisuse records the misuse msg, of a goroutine that a thread started
// and that used a weft object after the last execution ended (no
// execution's failure), unless r has a misuse already.
func (r *Result) lateMisuse(msg string) {
	if r.FailureCounts[trace.Misuse] > 0 {
		return
	}
	r.FailureCounts[trace.Misuse]++
	r.Failures = append(r.Failures, &Failure{Kind: trace.Misuse, Message: msg, Thread: trace.NoThread, Execution: r.Executions})
}
