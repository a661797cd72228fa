// This file holds the Mazurkiewicz trace counts of the benchmark programs,
// which Optimal-DPOR's tests pin and package weft's tests recompute apart
// from weft.

package checktest

// A TraceCount is the number of Mazurkiewicz traces of a built-in program
// with parameters.
type TraceCount struct {
	Program string
	Params  map[string]int
	Traces  int
	Long    bool // skipped unless WEFT_LONG=1
}

// TraceCounts are the trace counts of the benchmark programs.
var TraceCounts = []TraceCount{
	{"xy", nil, 3, false},
	{"dporproblem", nil, 3, false},
	{"pairs", map[string]int{"n": 1}, 2, false},
	{"pairs", map[string]int{"n": 2}, 4, false},
	{"pairs", map[string]int{"n": 3}, 8, false},
	{"pairs", map[string]int{"n": 4}, 16, false},
	{"fib", map[string]int{"n": 2}, 140, false},
	{"fib", map[string]int{"n": 3}, 1698, false},
	{"fib", map[string]int{"n": 4}, 19605, true},
	{"indexer", map[string]int{"n": 11}, 1, false},
	{"indexer", map[string]int{"n": 12}, 8, false},
	{"indexer", map[string]int{"n": 13}, 64, false},
	{"filesystem", map[string]int{"n": 14}, 2, false},
	{"filesystem", map[string]int{"n": 16}, 8, false},
	// The store in each of its m+1 places among the loads.
	{"readloop", map[string]int{"m": 1}, 2, false},
	{"readloop", map[string]int{"m": 50}, 51, false},
	{"readloop", map[string]int{"m": 300}, 301, false},
}
