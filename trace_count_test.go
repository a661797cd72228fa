// This file recomputes, apart from weft, the Mazurkiewicz trace counts of
// the benchmark programs that TestDPORCounts and TestOptimalCounts state
// (derived first by a brute force outside the repository): it enumerates the lexicographic normal forms of a static
// description of each program.

package weft_test

import (
	"testing"

	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/internal/long"
)

// staticEvent is an access of a program whose accesses do not depend on
// the values read: a load or store of a variable.
type staticEvent struct {
	obj   int
	store bool
}

// staticProgram is such a program: its threads' accesses, and for each
// thread the event (thread, index) in whose local code it starts, or
// thread -1 if it starts before the first step.
type staticProgram struct {
	threads [][]staticEvent
	start   [][2]int
}

// traces counts the Mazurkiewicz traces of p's complete executions under
// CR: two events are dependent if they belong to one thread, access one
// variable and one of them stores, or one starts the other's thread. It
// enumerates the executions in lexicographic normal form (the least
// linearisation of each trace, ordering events of different threads by
// thread): an execution w·a is one if w is and no event of w after the
// last one that a depends on is greater than a (Anisimov and Knuth).
func (p *staticProgram) traces() int {
	type ev struct{ thread, index int }
	pc := make([]int, len(p.threads))
	var word []ev
	dep := func(a, b ev) bool {
		if a.thread == b.thread {
			return true
		}
		for _, x := range [][2]ev{{a, b}, {b, a}} {
			if s := p.start[x[1].thread]; s[0] == x[0].thread && s[1] == x[0].index {
				return true
			}
		}
		ea, eb := p.threads[a.thread][a.index], p.threads[b.thread][b.index]
		return ea.obj == eb.obj && (ea.store || eb.store)
	}
	var count func() int
	count = func() int {
		n, moved := 0, false
		for t := range p.threads {
			if pc[t] == len(p.threads[t]) {
				continue
			}
			if s := p.start[t]; s[0] >= 0 && pc[s[0]] <= s[1] {
				continue // not started yet
			}
			moved = true
			a := ev{t, pc[t]}
			normal := true
			for k := len(word) - 1; k >= 0 && !dep(word[k], a); k-- {
				if word[k].thread > a.thread {
					normal = false
					break
				}
			}
			if !normal {
				continue
			}
			word = append(word, a)
			pc[t]++
			n += count()
			pc[t]--
			word = word[:len(word)-1]
		}
		if !moved {
			return 1
		}
		return n
	}
	return count()
}

// fibStatic is the benchmark fib n: the body stores i and j, starts T1
// and T2 in the local code of the second store, and loads i and j; T1 runs
// n times load i, load j, store i; T2 n times load j, load i, store j.
func fibStatic(n int) *staticProgram {
	const i, j = 0, 1
	p := &staticProgram{
		threads: [][]staticEvent{{{i, true}, {j, true}, {i, false}, {j, false}}, nil, nil},
		start:   [][2]int{{-1, 0}, {0, 1}, {0, 1}},
	}
	for range n {
		p.threads[1] = append(p.threads[1], staticEvent{i, false}, staticEvent{j, false}, staticEvent{i, true})
		p.threads[2] = append(p.threads[2], staticEvent{j, false}, staticEvent{i, false}, staticEvent{j, true})
	}
	return p
}

// pairsStatic is pairs n: for each variable, a thread that loads it and one
// that stores it, all started before the first step.
func pairsStatic(n int) *staticProgram {
	p := &staticProgram{threads: [][]staticEvent{nil}, start: [][2]int{{-1, 0}}}
	for x := range n {
		p.threads = append(p.threads, []staticEvent{{x, false}}, []staticEvent{{x, true}})
		p.start = append(p.start, [2]int{-1, 0}, [2]int{-1, 0})
	}
	return p
}

// TestTraceCounts checks the trace counts of checktest.TraceCounts
// (TestDPORCounts's table has the same) that a static
// description gives: xy, dporproblem, pairs and fib (not indexer and
// filesystem, whose accesses depend on the values read); and, for fib, the
// counts of the notes (n=1: 11; without the body's loads, n=1: 3 and n=2:
// 19).
func TestTraceCounts(t *testing.T) {
	const x, y = 0, 1
	noStart := [][2]int{{-1, 0}, {-1, 0}, {-1, 0}}
	static := func(program string, params map[string]int) *staticProgram {
		switch program {
		case "xy":
			return &staticProgram{threads: [][]staticEvent{nil, {{x, true}, {y, true}}, {{y, true}, {x, true}}}, start: noStart}
		case "dporproblem":
			return &staticProgram{threads: [][]staticEvent{nil, {{x, true}, {x, true}}, {{y, true}, {x, true}}}, start: noStart}
		case "pairs":
			return pairsStatic(params["n"])
		case "fib":
			return fibStatic(params["n"])
		}
		return nil
	}
	checked := 0
	for _, c := range checktest.TraceCounts {
		p := static(c.Program, c.Params)
		if p == nil || c.Long && !long.Enabled() {
			continue
		}
		checked++
		if got := p.traces(); got != c.Traces {
			t.Errorf("%s %v: %d traces, checktest.TraceCounts says %d", c.Program, c.Params, got, c.Traces)
		}
	}
	want := 9 // xy, dporproblem, pairs n=1-4, fib n=2-4
	if !long.Enabled() {
		want-- // fib n=4 is long
	}
	if checked != want {
		t.Errorf("%d rows of checktest.TraceCounts checked, want %d", checked, want)
	}
	fibNoMain := func(n int) *staticProgram {
		p := fibStatic(n)
		p.threads[0] = p.threads[0][:2]
		return p
	}
	for _, tc := range []struct {
		name   string
		p      *staticProgram
		traces int
	}{
		{"fib n=1", fibStatic(1), 11},
		{"fib n=1 without the body's loads", fibNoMain(1), 3},
		{"fib n=2 without the body's loads", fibNoMain(2), 19},
	} {
		if got := tc.p.traces(); got != tc.traces {
			t.Errorf("%s: %d traces, want %d", tc.name, got, tc.traces)
		}
	}
}
