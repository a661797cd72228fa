package flip

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/strategytest"
)

// sim runs a program of stores and loads (threads 1..n, started before any
// step) under s with strategytest's runner, without goroutines, and returns
// the schedules of its executions ("/cut" marks a cut one) and the number
// of distinct traces among those not cut.
func sim(t *testing.T, s strategy.Strategy, p [][]strategytest.Stmt) ([]string, int) {
	t.Helper()
	r, err := strategytest.Run(s, &strategytest.Program{Vars: 2, Threads: p}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exhausted {
		t.Fatal("more than 1000 executions")
	}
	return r.Schedules, len(r.Traces)
}

func st(v int) strategytest.Stmt { return strategytest.Stmt{Kind: strategytest.Store, Obj: v} }
func ld(v int) strategytest.Stmt { return strategytest.Stmt{Kind: strategytest.Load, Obj: v} }

func TestFlip(t *testing.T) {
	x, y := 0, 1
	xy := [][]strategytest.Stmt{{st(x), st(y)}, {st(y), st(x)}}
	problem := [][]strategytest.Stmt{{st(x), st(x)}, {st(y), st(x)}}
	pairs := [][]strategytest.Stmt{{ld(x)}, {st(x)}, {ld(y)}, {st(y)}}
	tests := []struct {
		name      string
		p         [][]strategytest.Stmt
		opt       Options
		schedules string
		traces    int
	}{
		// Slides 15-31: executions 1-4 are x=1 y=2 y=3 x=4; x=1 y=3 x=4
		// y=2; y=3 x=4 x=1 y=2; y=3 x=1 y=2 x=4 (the last equivalent to
		// the second).
		{"xy", xy, Options{}, "[1122 1221 2211 2112]", 3},
		// Slides 38-50, with delayed sets: 3 executions.
		{"xy delayed", xy, Options{Sleep: true}, "[1122 1221 2211]", 3},
		// Slide 36: no reduction; postponed threads run again only when
		// nothing else can.
		{"dporproblem", problem, Options{}, "[1122 1221 1212 2211 2112 2121]", 3},
		{"dporproblem delayed", problem, Options{Sleep: true}, "[1122 1221 2211]", 3},
		{"pairs", pairs, Options{}, "[1234 1243 2341 2413]", 4},
	}
	for _, tc := range tests {
		got, traces := sim(t, New(tc.opt), tc.p)
		if fmt.Sprint(got) != tc.schedules || traces != tc.traces {
			t.Errorf("%s: schedules %v (%d traces), want %s (%d)", tc.name, got, traces, tc.schedules, tc.traces)
		}
	}
}

func TestFlipRandomOrder(t *testing.T) {
	x, y := 0, 1
	p := [][]strategytest.Stmt{{st(x), ld(y)}, {st(y), ld(x)}, {ld(x), st(y)}}
	_, want := sim(t, New(Options{}), p)
	for seed := int64(1); seed <= 5; seed++ {
		for _, sleep := range []bool{false, true} {
			if _, got := sim(t, New(Options{Sleep: sleep, Seed: seed}), p); got != want {
				t.Errorf("seed %d sleep %v: %d traces, want %d", seed, sleep, got, want)
			}
		}
	}
}

// TestConformance checks flip and flip+sleep, in thread order and in the
// random order of seed 1, against exhaustive search on 40 generated programs
// (200 with WEFT_LONG=1): complete (every maximal trace, final state and
// failure kind, in no more executions).
func TestConformance(t *testing.T) {
	for _, sleep := range []bool{false, true} {
		for _, seed := range []int64{0, 1} {
			t.Run(fmt.Sprintf("sleep=%v/order%d", sleep, seed), func(t *testing.T) {
				strategytest.Conformance(t, func() strategy.Strategy { return New(Options{Sleep: sleep, Seed: seed}) },
					strategytest.Options{Programs: long.N(40, 200), Claims: strategytest.Claims{Complete: true}})
			})
		}
		// Adds whose result is unused (AddOnly), which commute with
		// each other.
		t.Run(fmt.Sprintf("sleep=%v/addonly", sleep), func(t *testing.T) {
			strategytest.Conformance(t, func() strategy.Strategy { return New(Options{Sleep: sleep}) },
				strategytest.Options{Programs: long.N(40, 200), Gen: gen.V3, Claims: strategytest.Claims{Complete: true}})
		})
	}
}

// TestUnits checks flip and flip+sleep divided into units on generated
// programs: explored and joined at once, exactly the undivided
// exploration; explored while the splitter goes on, the same traces,
// failures and final states.
// Each runs on 20 and 10 programs (100 and 50 with WEFT_LONG=1).
func TestUnits(t *testing.T) {
	for _, sleep := range []bool{false, true} {
		for _, c := range []strategytest.UnitCheck{{Programs: long.N(20, 100)}, {Programs: long.N(10, 50), From: 500, Every: 3, Depth: 6}} {
			t.Run(fmt.Sprintf("sleep=%v", sleep), func(t *testing.T) {
				strategytest.Units(t, func() strategy.Splitter { return New(Options{Sleep: sleep}) }, c)
			})
		}
	}
}
