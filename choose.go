// This file implements the choice of a strategy when the caller names none:
// the strongest complete one that handles the test body.

package weft

import (
	"time"

	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// The strategies Explore chooses from (see Explore).
const (
	defaultStrategy = "optimal"
	inputStrategy   = "concolic-optimal"
)

// autoChoice is the default strategy (optimal) as Explore runs it when the
// caller names none: if the first execution reads inputs and the concolic
// strategy can run, it ends the exploration there (switch), for Explore to
// explore again with the concolic strategy; otherwise it explores on, and
// note says what that leaves out.
type autoChoice struct {
	strategy.Splitter
	c        *config
	runs     int
	switched bool
	note     string
}

// Next implements strategy.Strategy.
func (a *autoChoice) Next() bool {
	if a.switched {
		return false
	}
	return a.Splitter.Next()
}

// Finish implements strategy.Strategy.
func (a *autoChoice) Finish(tr *trace.Trace, end trace.End) {
	a.runs++
	if a.runs == 1 && len(tr.Inputs) > 0 {
		a.switched, a.note = inputsExplorable(a.c)
	}
	a.Splitter.Finish(tr, end)
}

// SplitLarge implements strategy.LargeSplitter for a parallel exploration.
func (a *autoChoice) SplitLarge() (strategy.Unit, bool) {
	if l, ok := a.Splitter.(strategy.LargeSplitter); ok {
		return l.SplitLarge()
	}
	return a.Splitter.Split()
}

// Unwrap returns the strategy chosen, so that its capabilities are found.
func (a *autoChoice) Unwrap() strategy.Strategy { return a.Splitter }

// inputsExplorable reports whether the concolic strategy can explore the
// inputs of a body, or says why not.
func inputsExplorable(c *config) (bool, string) {
	const keeps = "the body reads inputs, which " + defaultStrategy + " keeps at their default values: "
	mk, err := registry.Lookup(inputStrategy)
	if err != nil {
		return false, keeps + `import _ "github.com/weft-go/weft/concolic" in a file of the test package to explore them with ` + inputStrategy
	}
	s := mk(registry.Params{Seed: c.seed, Depth: c.depth, MaxSteps: c.maxSteps})
	if cl, ok := strategy.As[strategy.Closer](s); ok {
		defer cl.Close()
	}
	if f, ok := strategy.As[strategy.Failer](s); ok && f.Err() != nil {
		return false, keeps + inputStrategy + " would explore them, but it cannot run: " + f.Err().Error()
	}
	return true, ""
}

// exploreChosen explores body with the strategy chosen for it (c names
// none): optimal, or the concolic strategy if the first execution reads
// inputs and it can run; that execution then counts for nothing, and the
// timeout keeps what it spent.
func exploreChosen(body func(w *T), c *config) (*Result, error) {
	s, err := c.build()
	if err != nil {
		return nil, err
	}
	sp, ok := s.(strategy.Splitter)
	if !ok {
		return exploreOn(body, s, c)
	}
	a := &autoChoice{Splitter: sp, c: c}
	start := time.Now()
	r, err := exploreOn(body, a, c)
	if err != nil || !a.switched {
		if r != nil {
			r.Note = a.note
		}
		return r, err
	}
	cc := *c
	cc.strategyName = inputStrategy
	if cc.timeout > 0 {
		cc.timeout = max(cc.timeout-time.Since(start), time.Nanosecond)
	}
	s, err = cc.build()
	if err != nil {
		return nil, err
	}
	return exploreOn(body, s, &cc)
}
