// Package concolic enables weft's concolic strategies: input search by
// dynamic symbolic execution around a schedule-exploring strategy
// (Saarikivi et al. 2012, §III), with the Z3 solver.
//
// Z3 is a C library reached through cgo, so these strategies are opt-in:
// package weft itself builds without cgo or libz3. Import this package for
// its side effect, in any file of the test package (or of the main package
// of a program that calls weft.Explore):
//
//	import _ "github.com/weft-go/weft/concolic"
//
// and ask for a strategy by name:
//
//	weft.Check(t, body, weft.WithStrategy("concolic-optimal"))
//
// It registers three strategies, one per schedule strategy inside:
//
//	concolic          exhaustive search of the schedules of each input
//	concolic-dpor     source-DPOR (dpor)
//	concolic-optimal  Optimal-DPOR (optimal)
//
// and con2colic testing (Farzan et al. 2013, package strategy/con2), which explores
// interferences instead of schedules, up to the bound set with
// weft.WithInterferences (weft run -k):
//
//	con2              every branch side reachable with at most k interferences
//
// It also gives the unfolding strategy (weft.WithStrategy("unfold"),
// Kähkönen et al. 2014) and reachability testing (weft.WithStrategy("reach"),
// Lei and Carver 2006) their solver: without it, unfold refuses a program
// whose targets have path constraints on inputs, and reach one that
// branches on an input.
//
// Building needs cgo and the Z3 headers (apt-get install libz3-dev, or
// brew install z3). In a build without cgo (CGO_ENABLED=0) the strategies
// are registered but an exploration with one fails with an error that says
// how to get Z3.
package concolic
