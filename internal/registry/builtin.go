// This file registers the strategies built on the standard library alone:
// exhaustive search, random and PCT scheduling, the DPOR family (Saarikivi et al. 2012
// Figs. 1-3 and 7, Kähkönen et al. 2014, §6.1), race detection and flipping (the CS294-32 DPOR slides),
// Optimal-DPOR (Abdulla et al., POPL 2014), the unfolding strategy
// (Kähkönen et al. 2014) and reachability testing (Lei and Carver 2006).

package registry

import (
	"slices"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/dpor"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/flip"
	"github.com/weft-go/weft/strategy/optimal"
	"github.com/weft-go/weft/strategy/pct"
	"github.com/weft-go/weft/strategy/random"
	"github.com/weft-go/weft/strategy/reach"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// dporStrategies maps the names of the DPOR family to their options; the
// seed, if not zero, randomises the order of exploration. Without sleep
// sets the backtracking rule is Flanagan and Godefroid's process rule; with
// sleep sets it is the initials of the race's reversal (source-DPOR), which
// stays complete when sleeping threads are skipped, except for DPOR-1 and
// DPOR-2 (Kähkönen et al. 2014, §6.1), which keep the process rule and handle sleeping
// threads their way.
var dporStrategies = map[string]dpor.Options{
	"dpor":             {Algorithm: dpor.VectorClocks, Relation: trace.Plain, Rule: dpor.Process},
	"dpor+sleep":       {Algorithm: dpor.VectorClocks, Relation: trace.Plain, Rule: dpor.Initials, Sleep: true},
	"dpor-clock":       {Algorithm: dpor.ObjectClocks, Rule: dpor.Process},
	"dpor-clock+sleep": {Algorithm: dpor.ObjectClocks, Rule: dpor.Initials, Sleep: true},
	"dpor-cr":          {Algorithm: dpor.CommutingReads, Rule: dpor.Process},
	"dpor-cr+sleep":    {Algorithm: dpor.CommutingReads, Rule: dpor.Initials, Sleep: true},
	"dpor-1":           {Algorithm: dpor.CommutingReads, Rule: dpor.Process, Sleep: true, Asleep: dpor.DPOR1},
	"dpor-2":           {Algorithm: dpor.CommutingReads, Rule: dpor.Process, Sleep: true, Asleep: dpor.DPOR2},
}

// Redundant reports whether the strategy named name is systematic but has
// no sleep sets: it explores executions of one equivalence class many
// times over (the DPOR family with Flanagan and Godefroid's process rule,
// race flipping without sleep sets, exhaustive search). Where the classes
// are many (time at any step, loops that tick), it can spend its whole run
// bound far from a bug that a strategy with sleep sets reaches.
func Redundant(name string) bool {
	switch name {
	case "exhaustive", "flip":
		return true
	}
	o, ok := dporStrategies[name]
	return ok && !o.Sleep
}

func init() {
	Register("exhaustive", func(Params) strategy.Strategy { return exhaustive.New() })
	Register("random", func(p Params) strategy.Strategy { return random.New(p.Seed) })
	Register("pct", func(p Params) strategy.Strategy {
		bound := p.MaxSteps
		if bound <= 0 {
			bound = engine.DefaultMaxSteps
		}
		return pct.New(pct.Config{Seed: p.Seed, Depth: p.Depth, MaxSteps: bound})
	})
	for name, o := range dporStrategies {
		Register(name, func(p Params) strategy.Strategy {
			o := o
			o.Seed = p.Seed
			return dpor.New(o)
		})
	}
	Register("flip", func(p Params) strategy.Strategy { return flip.New(flip.Options{Seed: p.Seed}) })
	Register("flip+sleep", func(p Params) strategy.Strategy { return flip.New(flip.Options{Sleep: true, Seed: p.Seed}) })
	Register("optimal", func(p Params) strategy.Strategy { return optimal.NewWith(optimal.Options{Seed: p.Seed}) })
	Register("unfold", func(p Params) strategy.Strategy {
		return unfold.New(unfold.Options{Seed: p.Seed, NewSolver: newSolver})
	})
	Register("reach", func(p Params) strategy.Strategy {
		return reach.New(reach.Options{Seed: p.Seed, PV: p.ReachPV, Symmetric: p.ReachSymmetric, NewSolver: newSolver})
	})
}

// newSolver makes the solver of the strategies that need one for some
// programs only (unfold and reach, for the path constraints of symbolic
// inputs); nil until package github.com/weft-go/weft/concolic sets it
// (SetSolver).
var newSolver func() (solver.Solver, error)

// SetSolver makes f the maker of the solvers of the strategies that need
// one for some programs only (unfold, reach). Package concolic sets it to
// Z3's.
func SetSolver(f func() (solver.Solver, error)) { newSolver = f }

// ConcolicInners maps each concolic strategy to the strategy that explores
// its schedules: concolic-X combines concolic testing with X, for every
// strategy with an execution tree (Saarikivi et al. 2012 combine concolic
// testing with DPOR, DPOR-CR and sleep sets; jCUTE with race flipping).
// Package github.com/weft-go/weft/concolic registers them.
var ConcolicInners = map[string]string{
	"concolic":         "exhaustive",
	"concolic-flip":    "flip",
	"concolic-optimal": "optimal",
}

func init() {
	for name := range dporStrategies {
		ConcolicInners["concolic-"+name] = name
	}
	ConcolicInners["concolic-flip+sleep"] = "flip+sleep"
	for name := range ConcolicInners {
		concolicNames = append(concolicNames, name)
	}
	slices.Sort(concolicNames)
	for _, name := range concolicNames {
		OptIn(name, `import _ "github.com/weft-go/weft/concolic" in a file of your test package (or main) to enable it; it needs cgo and the Z3 library (apt-get install libz3-dev, or brew install z3)`)
	}
}

// concolicNames are the strategies that solve with Z3, registered by
// package github.com/weft-go/weft/concolic: the concolic ones and con2.
var concolicNames = []string{"con2"}
