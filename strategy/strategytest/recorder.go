// This file implements Recorder, a wrapper that keeps the replay token of
// every execution a strategy runs.

package strategytest

import (
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// Recorder wraps a strategy and keeps the replay token of every execution
// it finishes, in order (the schedule only: inputs are not recorded).
type Recorder struct {
	strategy.Strategy
	Tokens []string
}

var _ strategy.Wrapper = (*Recorder)(nil)

// Finish implements strategy.Strategy.
func (r *Recorder) Finish(tr *trace.Trace, end trace.End) {
	r.Tokens = append(r.Tokens, replay.Encode(replay.FromTrace(tr, nil)))
	r.Strategy.Finish(tr, end)
}

// Unwrap implements strategy.Wrapper.
func (r *Recorder) Unwrap() strategy.Strategy { return r.Strategy }
