// Package replay repeats a recorded execution exactly, and encodes records
// as compact tokens.
//
// Replay is just another strategy: it makes the recorded choices in order
// and reads the recorded inputs. When the program does not follow the record
// (the recorded thread does not exist, is not enabled, has another operation
// pending, or the execution runs past the record), the strategy cuts the
// execution and Diverged says at which step, which thread, what was recorded
// and what happened instead.
package replay

import (
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

// Choose implements strategy.Strategy.
func (s *Strategy) Choose(st *strategy.State) strategy.Choice {
	i := s.step
	s.step++
	if i >= len(s.rec.Steps) {
		s.diverged = fmt.Errorf("step %d: the record ends after %d steps, but the execution went on", i+1, len(s.rec.Steps))
		return strategy.Cut
	}
	r := s.rec.Steps[i]
	switch {
	case int(r.Thread) >= len(st.Threads):
		s.diverged = fmt.Errorf("step %d: recorded %v (%v), but the execution has no thread %v", i+1, r.Thread, r.Kind, r.Thread)
	case st.Threads[r.Thread].Op.Kind != r.Kind:
		s.diverged = fmt.Errorf("step %d: %v: recorded %v, but its pending operation is %v", i+1, r.Thread, r.Kind, st.Threads[r.Thread].Op)
	case r.Alt >= st.Threads[r.Thread].Alts:
		s.diverged = fmt.Errorf("step %d: %v: recorded %v alternative %d, but it has %d enabled alternatives", i+1, r.Thread, r.Kind, r.Alt, st.Threads[r.Thread].Alts)
	default:
		return strategy.Choice{Thread: r.Thread, Alt: r.Alt}
	}
	return strategy.Cut
}

// Input implements strategy.Strategy.
func (s *Strategy) Input(_ *strategy.State, in strategy.InputRequest) uint64 {
	if s.input >= len(s.rec.Inputs) {
		if s.diverged == nil {
			s.diverged = fmt.Errorf("input %q: the record has only %d input values", in.Name, len(s.rec.Inputs))
		}
		return in.Default
	}
	v := s.rec.Inputs[s.input]
	s.input++
	return v
}

// Finish implements strategy.Strategy.
func (s *Strategy) Finish(tr *trace.Trace, end trace.End) {
	if s.diverged == nil && end.Status != trace.Cut && len(tr.Events) != len(s.rec.Steps) {
		s.diverged = fmt.Errorf("the execution ended (%v) after %d steps, but the record has %d", end.Status, len(tr.Events), len(s.rec.Steps))
	}
}

// Diverged returns why the execution did not follow the record, or nil.
func (s *Strategy) Diverged() error { return s.diverged }
