// This file implements the lifecycle of a strategy in an exploration: the
// one place its optional capabilities (package strategy) are looked up,
// and where it is released.

package explore

import (
	"fmt"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
)

// release closes s if it holds resources (strategy.Closer); nil is
// ignored.
func release(s strategy.Strategy) {
	if s == nil {
		return
	}
	if cl, ok := strategy.As[strategy.Closer](s); ok {
		cl.Close() // release a solver's native resources; nothing to report
	}
}

// refused returns the error of a strategy that could not be set up (the
// concolic ones without Z3: strategy.Failer), or nil.
func refused(s strategy.Strategy, name string) error {
	if err := failed(s); err != nil {
		return fmt.Errorf("strategy %s: %w", name, err)
	}
	return nil
}

// failerOf returns s's strategy.Failer, nil for a strategy that never
// fails.
func failerOf(s strategy.Strategy) strategy.Failer {
	f, _ := strategy.As[strategy.Failer](s)
	return f
}

// failed returns why s could not be set up or cannot go on
// (strategy.Failer), or nil.
func failed(s strategy.Strategy) error {
	if f := failerOf(s); f != nil {
		return f.Err()
	}
	return nil
}

// blockedTimeOnly reports whether s models only time that moves when
// every thread is blocked (strategy.BlockedTimeOnly).
func blockedTimeOnly(s strategy.Strategy) bool {
	_, ok := strategy.As[strategy.BlockedTimeOnly](s)
	return ok
}

// setStop gives s, if it runs an analysis of its own that may take long
// (strategy.Stoppable), the bounds that stop the exploration.
func setStop(s strategy.Strategy, stop *strategy.Stop) {
	if st, ok := strategy.As[strategy.Stoppable](s); ok {
		st.SetStop(stop)
	}
}

// solverStats returns the counters of the solver s uses
// (strategy.Solving), zero for a strategy without one.
func solverStats(s strategy.Strategy) solver.Stats {
	if ss, ok := strategy.As[strategy.Solving](s); ok {
		return ss.SolverStats()
	}
	return solver.Stats{}
}

// counters returns s's own counts (strategy.Counting), nil for a strategy
// without any.
func counters(s strategy.Strategy) []strategy.Counter {
	if cs, ok := strategy.As[strategy.Counting](s); ok {
		return cs.Counters()
	}
	return nil
}

// covers returns what s covered, for a strategy that aims at a coverage
// goal (strategy.Covering), or "".
func covers(s strategy.Strategy) string {
	if cv, ok := strategy.As[strategy.Covering](s); ok {
		return cv.Covers()
	}
	return ""
}

// incomplete returns why s may have missed behaviours of the program
// (strategy.Incomplete), or "".
func incomplete(s strategy.Strategy) string {
	if in, ok := strategy.As[strategy.Incomplete](s); ok {
		return in.Incomplete()
	}
	return ""
}

// solverOf returns the solver s uses (strategy.Solving), or nil.
func solverOf(s strategy.Strategy) strategy.Solving {
	ss, _ := strategy.As[strategy.Solving](s)
	return ss
}
