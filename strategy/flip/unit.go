// This file implements units of work (strategy.Splitter) for race
// detection and flipping, on dpor.Walk's.

package flip

import "github.com/weft-go/weft/strategy"

// The strategy as a strategy.Splitter.
var _ strategy.Splitter = (*Strategy)(nil)

// Split implements strategy.Splitter: it hands out the state the next
// execution would flip a race at, with the states above it.
func (s *Strategy) Split() (strategy.Unit, bool) { return s.SplitNext(s.Next) }

// Resume implements strategy.Splitter.
func (s *Strategy) Resume(u strategy.Unit) (strategy.Splitter, error) {
	r := New(s.opt)
	if err := r.ResumeUnit(u); err != nil {
		return nil, err
	}
	return r, nil
}
