// This file implements units of work (strategy.Splitter) for race
// detection and flipping, on dpor.Tree's.

package flip

import (
	"fmt"

	"github.com/weft-go/weft/strategy"
)

// The strategy as a strategy.Splitter.
var _ strategy.Splitter = (*Strategy)(nil)

// tag names the strategy and its options in its units.
func (s *Strategy) tag() string { return fmt.Sprintf("flip%+v", s.opt) }

// Split implements strategy.Splitter: it hands out the state the next
// execution would flip a race at, with the states above it.
func (s *Strategy) Split() (strategy.Unit, bool) {
	if !s.started || s.primed || s.tree.Diverged != nil || !s.Next() {
		return nil, false
	}
	return s.tree.SplitUnit(s.tag())
}

// Resume implements strategy.Splitter.
func (s *Strategy) Resume(u strategy.Unit) (strategy.Splitter, error) {
	r := New(s.opt)
	primed, err := r.tree.ResumeUnit(u, r.tag())
	if err != nil {
		return nil, err
	}
	r.started, r.primed = true, primed
	return r, nil
}

// Join implements strategy.Splitter.
func (s *Strategy) Join(h strategy.Handback) ([]strategy.Unit, error) {
	return s.tree.JoinHandback(h, s.tag())
}

// Handback implements strategy.Splitter.
func (s *Strategy) Handback() strategy.Handback { return s.tree.HandbackUnit(s.tag()) }
