// This file implements the PCT strategy: random thread priorities and
// priority change points.

package pct

import (
	"math/rand/v2"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/random"
	"github.com/weft-go/weft/trace"
)

// Config parameterises PCT.
type Config struct {
	// Seed seeds the run.
	Seed int64
	// Depth is the bug depth d (at least 1): the strategy uses d-1 priority
	// change points per execution.
	Depth int
	// Steps is the estimate of an execution's length k for the first
	// execution (default 64); later executions use the longest seen.
	Steps int
	// MaxSteps caps the estimate (default: no cap).
	MaxSteps int
}

// DefaultSteps is the first estimate of an execution's length.
const DefaultSteps = 64

// point is a priority change point: the step (from 1) and the priority the
// thread taking it drops to.
type point struct {
	step  int
	level uint64
}

// Strategy is the PCT strategy. Use New.
type Strategy struct {
	cfg  Config
	exec uint64
	pcg  rand.PCG
	rng  *rand.Rand
	k    int // the estimate of an execution's length
	seen int // the longest execution seen, 0 before the first

	// prio holds each thread's priority. Initial priorities have the top
	// bit set and random low bits, so they are all above d and their order
	// is uniformly random (ties, of probability 2^-63, go to the lower
	// ThreadID); a change point sets a priority to its level, 1..d-1.
	prio   []uint64
	points []point
}

// New returns a PCT strategy. A Depth below 1 is taken as 1.
func New(cfg Config) *Strategy {
	if cfg.Depth < 1 {
		cfg.Depth = 1
	}
	if cfg.Steps <= 0 {
		cfg.Steps = DefaultSteps
	}
	if cfg.MaxSteps > 0 && cfg.Steps > cfg.MaxSteps {
		cfg.Steps = cfg.MaxSteps
	}
	s := &Strategy{cfg: cfg, k: cfg.Steps}
	s.rng = rand.New(&s.pcg)
	return s
}

// Steps returns the current estimate of an execution's length, k.
func (s *Strategy) Steps() int { return s.k }

// Next implements strategy.Strategy: it seeds the execution's generator and
// draws its change points. It always reports true.
func (s *Strategy) Next() bool {
	random.Seed(&s.pcg, s.cfg.Seed, s.exec)
	s.exec++
	s.prio = s.prio[:0]
	s.drawPoints()
	return true
}

// drawPoints draws min(d-1, k) distinct change points uniformly from 1..k
// (Floyd's sampling) and gives them the levels 1..d-1 in random order.
func (s *Strategy) drawPoints() {
	m := min(s.cfg.Depth-1, s.k)
	s.points = s.points[:0]
	for j := s.k - m + 1; j <= s.k; j++ {
		t := 1 + s.rng.IntN(j)
		if s.isPoint(t) {
			t = j
		}
		s.points = append(s.points, point{step: t})
	}
	s.rng.Shuffle(len(s.points), func(i, j int) { s.points[i], s.points[j] = s.points[j], s.points[i] })
	for i := range s.points {
		s.points[i].level = uint64(i + 1)
	}
}

func (s *Strategy) isPoint(step int) bool {
	for _, p := range s.points {
		if p.step == step {
			return true
		}
	}
	return false
}

// Choose implements strategy.Strategy: the highest-priority enabled thread,
// after the priority change of the step if it has one.
func (s *Strategy) Choose(st *strategy.State) strategy.Choice {
	for len(s.prio) < len(st.Threads) {
		s.prio = append(s.prio, s.rng.Uint64()|1<<63)
	}
	t := s.highest(st)
	step := st.Step + 1
	for _, p := range s.points {
		if p.step == step {
			s.prio[t] = p.level
			t = s.highest(st)
			break
		}
	}
	var alt int32
	if a := st.Threads[t].Alts; a > 1 {
		alt = s.rng.Int32N(a)
	}
	return strategy.Choice{Thread: t, Alt: alt}
}

// highest returns the enabled thread of highest priority.
func (s *Strategy) highest(st *strategy.State) trace.ThreadID {
	best := trace.NoThread
	var bp uint64
	for i := range st.Threads {
		if st.Threads[i].Alts > 0 && (best == trace.NoThread || s.prio[i] > bp) {
			best, bp = trace.ThreadID(i), s.prio[i]
		}
	}
	if best == trace.NoThread {
		panic("weft internal error: pct: no enabled thread")
	}
	return best
}

// Input implements strategy.Strategy: a uniform value in the declared range.
func (s *Strategy) Input(_ *strategy.State, in strategy.InputRequest) uint64 {
	return random.Value(s.rng, in)
}

// Finish implements strategy.Strategy: it learns the length of executions.
// The next execution's k is the longest execution seen so far (at least 1),
// capped at MaxSteps.
func (s *Strategy) Finish(tr *trace.Trace, _ trace.End) {
	s.seen = max(s.seen, len(tr.Events), 1)
	s.k = s.seen
	if s.cfg.MaxSteps > 0 {
		s.k = min(s.k, s.cfg.MaxSteps)
	}
}
