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
	"fmt"

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
	// diverged says how a replayed step differed from the recorded one.
	diverged error
}

// New returns an exhaustive strategy.
func New() *Strategy { return &Strategy{} }

// Next implements strategy.Strategy.
func (s *Strategy) Next() bool {
	if s.diverged != nil {
		return false // the program is not deterministic: nothing to explore
	}
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
		c := n.opts[n.next]
		if err := replayed(d, n, c, st); err != nil {
			s.diverged = err
			return strategy.Cut
		}
		return c
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

// replayed checks that state st, reached at depth d by replaying the path,
// offers the options node n recorded, c among them.
func replayed(d int, n *node, c strategy.Choice, st *strategy.State) error {
	if !st.Enabled(c.Thread) {
		return fmt.Errorf("step %d: recorded %v, but it is not enabled (the execution has %d threads)", d+1, c.Thread, len(st.Threads))
	}
	if a := st.Threads[c.Thread].Alts; c.Alt >= a {
		return fmt.Errorf("step %d: recorded %v alternative %d, but it has %d alternatives", d+1, c.Thread, c.Alt, a)
	}
	opts := 0
	for i := range st.Threads {
		opts += int(st.Threads[i].Alts)
	}
	if opts != len(n.opts) {
		return fmt.Errorf("step %d: recorded %d enabled alternatives, but the state has %d", d+1, len(n.opts), opts)
	}
	return nil
}

// Diverged reports how the last execution failed to replay the recorded
// path (the program is not deterministic), or nil.
func (s *Strategy) Diverged() error { return s.diverged }

var _ strategy.Diverger = (*Strategy)(nil)

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
