// This file implements the random strategy and the seeding of its
// per-execution generators.

package random

import (
	"math/rand/v2"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Strategy picks uniformly among the enabled choices. Use New.
type Strategy struct {
	seed int64
	exec uint64 // executions started
	pcg  rand.PCG
	rng  *rand.Rand
}

// New returns a random strategy seeded with seed.
func New(seed int64) *Strategy {
	s := &Strategy{seed: seed}
	s.rng = rand.New(&s.pcg)
	return s
}

// Seed sets p to the generator of execution exec of a run seeded with seed.
// The two halves of PCG's state come from the seed and the execution number
// through the SplitMix64 finaliser, so that nearby seeds and executions give
// unrelated streams.
func Seed(p *rand.PCG, seed int64, exec uint64) {
	p.Seed(splitMix(uint64(seed)), splitMix(exec^0x6a09e667f3bcc909))
}

// splitMix is SplitMix64's output function: its increment, then Mix.
func splitMix(x uint64) uint64 { return trace.Mix(x + 0x9e3779b97f4a7c15) }

// Executions returns the number of executions started so far.
func (s *Strategy) Executions() uint64 { return s.exec }

// Next implements strategy.Strategy. It always reports true.
func (s *Strategy) Next() bool {
	Seed(&s.pcg, s.seed, s.exec)
	s.exec++
	return true
}

// Choose implements strategy.Strategy: a uniform choice among all enabled
// (thread, alternative) pairs.
func (s *Strategy) Choose(st *strategy.State) strategy.Choice {
	total := 0
	for i := range st.Threads {
		total += int(st.Threads[i].Alts)
	}
	r := int32(s.rng.IntN(total))
	for i := range st.Threads {
		a := st.Threads[i].Alts
		if r < a {
			return strategy.Choice{Thread: trace.ThreadID(i), Alt: r}
		}
		r -= a
	}
	panic("weft internal error: random: no enabled thread")
}

// Input implements strategy.Strategy: a uniform value in the declared range.
func (s *Strategy) Input(_ *strategy.State, in strategy.InputRequest) uint64 {
	return Value(s.rng, in)
}

// Finish implements strategy.Strategy.
func (s *Strategy) Finish(*trace.Trace, trace.End) {}
