// This file implements the choice of a strategy when the caller names none:
// the strongest complete one that handles the test body.

package explore

import (
	"time"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// autoChoice is the default strategy (optimal) as Explore runs it when the
// caller names none: if the first execution reads inputs and the concolic
// strategy can run, it ends the exploration there, for Explore to explore
// again with that strategy (next, named nextName, built to find out);
// otherwise it explores on, and note says what that leaves out. If an
// execution waits in an await, where optimal can miss a trace, it ends
// the exploration there too, for Explore to explore again with
// AwaitStrategy (concolic-AwaitStrategy if the body reads inputs).
type autoChoice struct {
	strategy.Splitter
	c        *Config
	first    bool // the first execution is finished
	inputs   bool // the first execution read inputs
	next     strategy.Strategy
	nextName string
	note     string
}

// Next implements strategy.Strategy.
func (a *autoChoice) Next() bool {
	if a.next != nil {
		return false
	}
	return a.Splitter.Next()
}

// Finish implements strategy.Strategy.
func (a *autoChoice) Finish(tr *trace.Trace, end trace.End) {
	if !a.first && len(tr.Inputs) > 0 {
		a.inputs = true
		a.next, a.note = inputStrategyFor(a.c)
		a.nextName = InputStrategy
	}
	a.first = true
	if len(tr.Evals) > 0 && (a.next == nil || a.nextName == InputStrategy) {
		a.awaitStrategy()
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

// awaitStrategy makes next AwaitStrategy, or its concolic form for a body
// that reads inputs if that can run (and the note says so otherwise).
func (a *autoChoice) awaitStrategy() {
	name := AwaitStrategy
	if a.inputs && a.next != nil {
		name = "concolic-" + AwaitStrategy
	}
	release(a.next)
	cc := *a.c
	cc.Strategy = name
	s, err := cc.build()
	if err != nil {
		// AwaitStrategy is built in; only its concolic form can be missing.
		a.next, a.nextName = nil, ""
		return
	}
	a.next, a.nextName = s, name
}

// inputStrategyFor returns the concolic strategy with c's options, to
// explore the inputs of a body, or nil and why it cannot.
func inputStrategyFor(c *Config) (strategy.Strategy, string) {
	const keeps = "the body reads inputs, which " + DefaultStrategy + " keeps at their default values: "
	cc := *c
	cc.Strategy = InputStrategy
	s, err := cc.build()
	if err != nil {
		return nil, keeps + `import _ "github.com/weft-go/weft/concolic" in a file of the test package to explore them with ` + InputStrategy
	}
	if err := failed(s); err != nil {
		release(s)
		return nil, keeps + InputStrategy + " would explore them, but it cannot run: " + err.Error()
	}
	return s, ""
}

// exploreChosen explores body with the strategy chosen for it (c names
// none): optimal, the concolic strategy if the first execution reads
// inputs and it can run, or AwaitStrategy once an execution waits in an
// await; the executions before the switch then count for nothing, and
// the timeout keeps what they spent.
func exploreChosen(body func(), c *Config) (*Result, error) {
	s, err := c.build()
	if err != nil {
		return nil, err
	}
	a := &autoChoice{Splitter: s.(strategy.Splitter), c: c}
	start := time.Now()
	r, err := exploreOn(body, a, c)
	if a.next == nil || err != nil {
		release(a.next)
		if r != nil {
			r.Note = a.note
		}
		return r, err
	}
	cc := *c
	cc.Strategy = a.nextName
	if cc.Timeout > 0 {
		cc.Timeout = max(cc.Timeout-time.Since(start), time.Nanosecond)
	}
	r, err = exploreOn(body, a.next, &cc)
	if r != nil && r.Note == "" {
		r.Note = a.note
	}
	return r, err
}
