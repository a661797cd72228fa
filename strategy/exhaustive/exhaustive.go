// Package exhaustive explores every interleaving of a program: every order of
// its enabled threads and every alternative of each pending operation (select
// cases, channel partners), by depth-first search over the tree of choices.
// Each execution replays the prefix of the previous one up to the deepest
// choice point with an untried option, then takes that option.
//
// Inputs are read as their default values: exhaustive search over input
// values is the concolic layer's job.
package exhaustive

import (
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// node is a choice point on the current path: the options enabled there and
// the index of the one taken.
type node struct {
	opts []strategy.Choice
	next int
}

// Strategy is the exhaustive strategy. Its zero value is not usable; use New.
type Strategy struct {
	path    []node
	depth   int
	started bool
	done    bool
}

// New returns an exhaustive strategy.
func New() *Strategy { return &Strategy{} }

// Next implements strategy.Strategy.
func (s *Strategy) Next() bool {
	if !s.started {
		s.started = true
		return true
	}
	// Backtrack: drop exhausted nodes, advance the deepest one left.
	for len(s.path) > 0 {
		n := &s.path[len(s.path)-1]
		n.next++
		if n.next < len(n.opts) {
			s.depth = 0
			return true
		}
		s.path = s.path[:len(s.path)-1]
	}
	s.done = true
	return false
}

// Choose implements strategy.Strategy.
func (s *Strategy) Choose(st *strategy.State) strategy.Choice {
	d := s.depth
	s.depth++
	if d < len(s.path) {
		n := &s.path[d]
		return n.opts[n.next]
	}
	// A new choice point: list its options, in thread order.
	var opts []strategy.Choice
	if d < cap(s.path) {
		opts = s.path[:d+1][d].opts[:0]
	}
	for i, t := range st.Threads {
		for a := range t.Alts {
			opts = append(opts, strategy.Choice{Thread: trace.ThreadID(i), Alt: a})
		}
	}
	s.path = append(s.path, node{opts: opts})
	return opts[0]
}

// Input implements strategy.Strategy.
func (s *Strategy) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }

// Finish implements strategy.Strategy.
func (s *Strategy) Finish(*trace.Trace, trace.End) {
	// A cut or shortened execution leaves deeper nodes of an earlier path
	// behind; they are not part of this path.
	if s.depth < len(s.path) {
		s.path = s.path[:s.depth]
	}
}
