// This file implements what an exploration makes of an execution that
// reached the step bound: it goes on after it (up to MaxBoundHits of them
// without KeepGoing), its report says so and, when the execution's last
// steps repeat a short cycle, says that too, as a hint.

package explore

import (
	"fmt"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/trace"
)

// MaxBoundHits is the number of executions that reach the step bound
// (trace.Livelock) after which an exploration that stops at its first
// failure (StopOnFail) stops. A bound hit proves nothing (weft cannot tell
// a loop that ends after more steps from one that never ends), so the
// exploration goes on after it, to find a real failure if there is one;
// but each such execution costs the whole bound of steps, and a long test
// reaches it in every execution. With KeepGoing the exploration goes on
// to its other bounds.
const MaxBoundHits = 10

// failingExecutions counts r's failing executions.
func (r *Result) failingExecutions() int {
	n := 0
	for _, c := range r.FailureCounts {
		n += c
	}
	return n
}

// StopsAt reports whether what r found stops its exploration, with
// stopOnFail for Config.StopOnFail: a divergence always does; with
// stopOnFail, a failure other than a step bound hit does, and so do
// MaxBoundHits bound hits.
func (r *Result) StopsAt(stopOnFail bool) bool {
	if r.FailureCounts[trace.Nondeterminism] > 0 {
		return true
	}
	if !stopOnFail {
		return false
	}
	hits := r.FailureCounts[trace.Livelock]
	return hits >= MaxBoundHits || r.failingExecutions() > hits
}

// boundMessage is the message of the failure of an execution that reached
// the step bound of maxSteps steps, tr: what it means and what to do, and
// the cycle its last steps repeat, if they repeat one.
func boundMessage(tr *trace.Trace, maxSteps int) string {
	if maxSteps <= 0 {
		maxSteps = engine.DefaultMaxSteps
	}
	msg := fmt.Sprintf("the execution reached the step bound (%d steps) without ending: weft cannot tell a loop that ends after more steps from one that never ends, so this is no failure of the test, and no pass; raise the bound (WithMaxSteps, weft test -max-steps) if the test is just long, or make the test smaller (fewer iterations)", maxSteps)
	if n, k := periodicTail(tr.Events); k > 0 {
		msg += fmt.Sprintf("\nthe last %s steps repeat a cycle of %s (the same threads, operations, objects and values): a hint of an endless loop, not a proof (a loop that counts in a local variable repeats so and ends)", thousands(n), plural(k, "step", "steps"))
	}
	return msg
}

// Bounds of the cycle periodicTail looks for.
const (
	// maxCycle is the longest cycle looked for, in steps.
	maxCycle = 64
	// cycleSpan is the number of last steps a cycle must cover (or half
	// the execution's steps, if fewer), and cycleTurns the number of
	// times, at least, it must repeat in them.
	cycleSpan  = 1000
	cycleTurns = 4
)

// periodicTail returns the shortest cycle k (at most maxCycle steps) that
// the last steps of evs repeat, comparing each step's thread, operation
// kind, object and value, and the number n of last steps that repeat it;
// 0, 0 if no such cycle covers the last cycleSpan steps (or the last half
// of evs, if shorter) and repeats cycleTurns times in them. It runs once
// per step bound hit, in time linear in len(evs) for each k tried.
func periodicTail(evs []trace.Event) (n, k int) {
	need := min(cycleSpan, len(evs)/2)
	if need == 0 {
		return 0, 0
	}
	same := func(a, b *trace.Event) bool {
		return a.Thread == b.Thread && a.Op.Kind == b.Op.Kind && a.Op.Obj == b.Op.Obj && a.Value == b.Value
	}
	last := len(evs) - 1
	for k := 1; k <= maxCycle && cycleTurns*k <= need; k++ {
		// The tail repeats k from the first step i (counting back) whose
		// step k before differs.
		i := last
		for i-k >= 0 && same(&evs[i], &evs[i-k]) {
			i--
		}
		// Steps i+1-k .. last repeat the cycle: last-i+k of them.
		if n := last - i + k; n >= need {
			return n, k
		}
	}
	return 0, 0
}

// thousands formats n with commas between groups of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// plural returns n and the noun in the number n takes.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
