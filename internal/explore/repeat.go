// This file implements the check that a failure found after the first
// complete execution is the program's: that execution, run again, must
// end as it did, or the body keeps state from one execution to the next.

package explore

import (
	"fmt"

	"github.com/weft-go/weft/internal/races"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// firstRun is the first execution of an exploration that completed: its
// record, which replays it, and how it ended.
type firstRun struct {
	rec replay.Record
	end trace.End
	n   int // its number in the exploration, from 1
}

// UnrepeatableAdvice says what makes a body keep state between executions
// and what to do about it.
const UnrepeatableAdvice = "Each execution must start from the state the test starts from under go test: state the body changes and " +
	"that outlives an execution (an object the Test function made before its subtests, a package's map or cache) makes an execution " +
	"start from a state go test never produces, so a failure in a later execution may be no failure of the program's. " +
	"Make that state in the body (in the subtest), or reset it at the body's start."

// repeatFirst runs the first complete execution of the exploration again,
// after a failure found in a later one, in a runtime of its own, and
// returns why the failure may not be the program's, or "" if it ended as
// it did: the body keeps state between executions if it does
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
		return fmt.Sprintf("execution %d, which %s, %s when run again after this one under the same schedule", first.n, endPhrase(first.end), endPhrase(end))
	}
	if err := s.Diverged(); err != nil {
		return fmt.Sprintf("execution %d, which %s, did not repeat itself when run again after this one (%v)", first.n, endPhrase(first.end), err)
	}
	return ""
}

// repeatable reports whether a failure of kind k is checked by running
// the first complete execution again: not one that says weft could not run or
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
