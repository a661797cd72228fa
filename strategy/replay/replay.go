// Package replay repeats a recorded execution exactly, and encodes records
// as compact tokens.
//
// Replay is just another strategy: it makes the recorded choices in order
// and reads the recorded inputs. When the program does not follow the record
// (the recorded thread does not exist, is not enabled, has another operation
// pending, or the execution runs past the record), the strategy cuts the
// execution and Diverged says at which step, which thread, what was recorded
// and what happened instead, in an error wrapping ErrMismatch. An execution
// that ends before using every recorded step and input value diverges too.
package replay

import (
	"errors"
	"fmt"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Strategy replays one record once.
type Strategy struct {
	rec      Record
	step     int
	input    int
	started  bool
	diverged error
}

// New returns a strategy that replays r.
func New(r Record) *Strategy { return &Strategy{rec: r} }

// Next implements strategy.Strategy: it allows one execution.
func (s *Strategy) Next() bool {
	if s.started {
		return false
	}
	s.started = true
	return true
}

// ErrMismatch is wrapped by every error about an execution that does not
// follow its record: the record was made with another program, other
// parameters or another step bound, or the program is not deterministic.
var ErrMismatch = errors.New("the execution does not follow the replay record")

// mismatch is a divergence from the record. Its text says where and how;
// it matches ErrMismatch.
type mismatch struct{ msg string }

func (m *mismatch) Error() string        { return m.msg }
func (m *mismatch) Is(target error) bool { return target == ErrMismatch }

// diverge records the first divergence.
func (s *Strategy) diverge(format string, args ...any) {
	if s.diverged == nil {
		s.diverged = &mismatch{msg: fmt.Sprintf(format, args...)}
	}
}

// Choose implements strategy.Strategy. It checks the recorded step against
// the state: the thread exists, runs the recorded kind of operation, is
// enabled, and has the recorded alternative.
func (s *Strategy) Choose(st *strategy.State) strategy.Choice {
	i := s.step
	s.step++
	if i >= len(s.rec.Steps) {
		s.diverge("step %d: the record ends after %d steps, but the execution went on (if the failure was the step bound, replay with the bound of the run that found it: -max-steps %d, WithMaxSteps(%d))", i+1, len(s.rec.Steps), len(s.rec.Steps), len(s.rec.Steps))
		return strategy.Cut
	}
	r := s.rec.Steps[i]
	switch {
	case r.Thread < 0 || int(r.Thread) >= len(st.Threads):
		s.diverge("step %d: recorded %v (%v), but the execution has no thread %v", i+1, r.Thread, r.Kind, r.Thread)
	case st.Threads[r.Thread].Done:
		s.diverge("step %d: recorded %v (%v), but %v has finished", i+1, r.Thread, r.Kind, r.Thread)
	case st.Threads[r.Thread].Op.Kind != r.Kind:
		s.diverge("step %d: %v: recorded %v, but its pending operation is %v", i+1, r.Thread, r.Kind, st.Threads[r.Thread].Op)
	case st.Threads[r.Thread].Alts == 0:
		s.diverge("step %d: %v: recorded %v alternative %d, but %v is blocked (0 enabled alternatives)", i+1, r.Thread, r.Kind, r.Alt, r.Thread)
	case r.Alt < 0 || r.Alt >= st.Threads[r.Thread].Alts:
		s.diverge("step %d: %v: recorded %v alternative %d, but it has %d enabled alternatives", i+1, r.Thread, r.Kind, r.Alt, st.Threads[r.Thread].Alts)
	default:
		return strategy.Choice{Thread: r.Thread, Alt: r.Alt}
	}
	return strategy.Cut
}

// Input implements strategy.Strategy.
func (s *Strategy) Input(st *strategy.State, in strategy.InputRequest) uint64 {
	if s.input >= len(s.rec.Inputs) {
		s.diverge("before step %d: input %q: the record has only %d input values", st.Step+1, in.Name, len(s.rec.Inputs))
		return in.Default
	}
	v := s.rec.Inputs[s.input]
	s.input++
	return v
}

// Finish implements strategy.Strategy. It checks that the execution used
// the whole record: every step and every input value.
func (s *Strategy) Finish(tr *trace.Trace, end trace.End) {
	if end.Status == trace.Cut {
		return // only a divergence cuts a replay, and it is recorded
	}
	switch {
	case len(tr.Events) != len(s.rec.Steps):
		s.diverge("the execution ended (%v) after %d steps, but the record has %d", end.Status, len(tr.Events), len(s.rec.Steps))
	case s.input != len(s.rec.Inputs):
		s.diverge("the execution ended (%v) after %d steps and %d input values, but the record has %d input values", end.Status, len(tr.Events), s.input, len(s.rec.Inputs))
	}
}

// Diverged returns why the execution did not follow the record, or nil.
func (s *Strategy) Diverged() error { return s.diverged }

var _ strategy.Diverger = (*Strategy)(nil)
