// This file implements the check that a failure found after the first
// execution is the program's: the first execution, run again, must end as
// it did, or the body keeps state from one execution to the next.

package explore

import (
	"fmt"

	"github.com/weft-go/weft/internal/races"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// firstRun is the first execution of an exploration: its record, which
// replays it, and how it ended.
type firstRun struct {
	rec replay.Record
	end trace.End
}

// UnrepeatableAdvice says what makes a body keep state between executions
// and what to do about it.
const UnrepeatableAdvice = "Each execution must start from the state the test starts from under go test: state the body changes and " +
	"that outlives an execution (an object the Test function made before its subtests, a package's map or cache) makes an execution " +
	"start from a state go test never produces, so a failure after the first execution may be no failure of the program's. " +
	"Make that state in the body (in the subtest), or reset it at the body's start."

// repeatFirst runs the first execution of the exploration again, after a
// failure found in a later one, in a runtime of its own, and returns why
// the failure may not be the program's, or "" if the first execution
// ended as it did: the body keeps state between executions if it does
// not (a map the Test function made before its subtests, which the
// subtests' executions fill, so that a later execution starts from
// another state than go test's and an assertion on its size fails). The
// exploration's bounds b stop it: then it says nothing.
func repeatFirst(body func(), c *Config, first *firstRun, b bounds) string {
	if first == nil || b.passed() {
		return ""
	}
	fixed := *c
	fixed.Seed, fixed.VarySeed = first.rec.Seed, false
	e := b.exec(&fixed)
	defer e.Close()
	s := replay.New(first.rec)
	s.Next()
	end := e.Run(s, body, false)
	if e.Abandoned() || e.Interrupted() {
		return ""
	}
	e.TakeMisuse()
	if c.Races {
		var det races.Detector
		end = RaceEnd(&det, e.Trace(), end)
	}
	s.Finish(e.Trace(), end)
	if end.Status != first.end.Status || (end.Status == trace.Failed && end.Kind != first.end.Kind) {
		return fmt.Sprintf("the first execution, run again after this one under the same schedule, %s where it first %s", endPhrase(end), endPhrase(first.end))
	}
	if err := s.Diverged(); err != nil {
		return fmt.Sprintf("the first execution, run again after this one, did not repeat itself (%v)", err)
	}
	return ""
}

// repeatable reports whether a failure of kind k is checked by running
// the first execution again: not one that says weft could not run or
// follow the body (nondeterminism, an internal error, a thread blocked
// outside weft, a misuse), nor the step bound, inconclusive already.
func repeatable(k trace.FailureKind) bool { return shortenable(k) }

// endPhrase says how an execution ended, as the predicate of a sentence.
func endPhrase(end trace.End) string {
	switch end.Status {
	case trace.Failed:
		return "failed (" + end.Kind.String() + ")"
	case trace.Complete:
		return "completed"
	case trace.Cut:
		return "was cut"
	}
	return "ended " + end.Status.String()
}
