// This file tests PCT's scheduler on synthetic states.

package pct

import (
	"slices"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// enabled returns a state of n enabled threads with one alternative each.
func enabled(n int) *strategy.State {
	st := &strategy.State{Threads: make([]strategy.Thread, n)}
	for i := range st.Threads {
		st.Threads[i].Alts = 1
	}
	return st
}

func TestChangePointsDistinctAndUniform(t *testing.T) {
	const k, d, execs = 8, 5, 2000
	s := New(Config{Seed: 1, Depth: d, Steps: k})
	perStep := make([]int, k+1)
	for range execs {
		s.Next()
		if len(s.points) != d-1 {
			t.Fatalf("%d change points, want d-1 = %d", len(s.points), d-1)
		}
		var steps, levels []int
		for _, p := range s.points {
			if p.step < 1 || p.step > k {
				t.Fatalf("change point at step %d, outside 1..%d", p.step, k)
			}
			steps = append(steps, p.step)
			levels = append(levels, int(p.level))
			perStep[p.step]++
		}
		slices.Sort(steps)
		if len(slices.Compact(steps)) != d-1 {
			t.Fatalf("change points %v are not distinct", s.points)
		}
		slices.Sort(levels)
		if !slices.Equal(levels, []int{1, 2, 3, 4}) {
			t.Fatalf("levels %v, want 1..d-1", levels)
		}
	}
	// Each step is a change point with probability (d-1)/k = 1/2: 1000 of
	// 2000 executions, standard deviation about 22. Seed 1 gives these
	// counts (measured; the seed fixes them).
	want := [k + 1]int{0, 987, 1049, 1012, 992, 962, 978, 1033, 987}
	for step := 1; step <= k; step++ {
		if n := perStep[step]; n != want[step] || n < 850 || n > 1150 {
			t.Errorf("step %d was a change point %d times in %d executions, want %d (about %d)", step, n, execs, want[step], execs/2)
		}
	}
}

func TestFewerStepsThanPoints(t *testing.T) {
	s := New(Config{Seed: 1, Depth: 10, Steps: 3})
	s.Next()
	steps := []int{}
	for _, p := range s.points {
		steps = append(steps, p.step)
	}
	slices.Sort(steps)
	if !slices.Equal(steps, []int{1, 2, 3}) {
		t.Fatalf("with k = 3 and d = 10, change points at %v, want every step", steps)
	}
}

// TestDepth1RunsHighestPriority checks that without change points one
// thread keeps running while it is enabled, and that each thread is the
// highest one equally often.
func TestDepth1RunsHighestPriority(t *testing.T) {
	s := New(Config{Seed: 2, Depth: 1})
	st := enabled(3)
	first := make([]int, 3)
	const execs = 3000
	for range execs {
		s.Next()
		st.Step = 0
		c := s.Choose(st)
		first[c.Thread]++
		for i := 1; i < 20; i++ {
			st.Step = i
			if d := s.Choose(st); d != c {
				t.Fatalf("step %d: chose %v after %v, with no change point", i+1, d, c)
			}
		}
		// Once c blocks, the next highest runs: one of the others.
		st.Threads[c.Thread].Alts = 0
		if d := s.Choose(st); d.Thread == c.Thread {
			t.Fatalf("chose blocked thread %v", d.Thread)
		}
		st.Threads[c.Thread].Alts = 1
	}
	want := []int{1010, 1003, 987} // seed 2 (measured; the seed fixes them)
	for i, n := range first {
		if n != want[i] || n < 850 || n > 1150 {
			t.Errorf("thread %d ran first %d times in %d, want %d (about %d)", i, n, execs, want[i], execs/3)
		}
	}
}

// TestChangePointPreempts checks that the thread about to take the step of
// a change point drops below every other thread.
func TestChangePointPreempts(t *testing.T) {
	for seed := range int64(50) {
		s := New(Config{Seed: seed, Depth: 2, Steps: 1}) // the change point is step 1
		s.Next()
		st := enabled(2)
		c := s.Choose(st)
		other := 1 - c.Thread
		if s.prio[other] != 1 {
			t.Fatalf("seed %d: the preempted thread %v has priority %d, want 1", seed, other, s.prio[other])
		}
		if s.prio[c.Thread] < 1<<63 {
			t.Fatalf("seed %d: the running thread %v lost its initial priority", seed, c.Thread)
		}
		for i := 1; i < 10; i++ {
			st.Step = i
			if d := s.Choose(st); d != c {
				t.Fatalf("seed %d, step %d: chose %v, want %v to keep running", seed, i+1, d, c)
			}
		}
	}
}

// TestLateThreadUniformRank checks that a thread that appears later takes a
// uniformly random place among the initial priorities.
func TestLateThreadUniformRank(t *testing.T) {
	s := New(Config{Seed: 3, Depth: 1})
	top := 0
	const execs = 3000
	for range execs {
		s.Next()
		s.Choose(enabled(2))
		st := enabled(3)
		st.Step = 1
		if s.Choose(st).Thread == 2 {
			top++
		}
	}
	const want = 1013 // seed 3 (measured; the seed fixes it)
	if top != want || top < 850 || top > 1150 {
		t.Errorf("the late thread was highest %d times in %d, want %d (about %d)", top, execs, want, execs/3)
	}
}

func TestAlternativesUniform(t *testing.T) {
	s := New(Config{Seed: 4, Depth: 1})
	st := &strategy.State{Threads: []strategy.Thread{{Alts: 3}}}
	counts := make([]int, 3)
	for range 100 {
		s.Next()
		for i := range 30 {
			st.Step = i
			counts[s.Choose(st).Alt]++
		}
	}
	want := []int{992, 1000, 1008} // seed 4 (measured; the seed fixes them)
	for a, n := range counts {
		if n != want[a] || n < 850 || n > 1150 {
			t.Errorf("alternative %d chosen %d times in 3000, want %d (about 1000)", a, n, want[a])
		}
	}
}

func TestLearnsLength(t *testing.T) {
	tests := []struct {
		name    string
		max     int
		lengths []int
		want    int
	}{
		{"start", 0, nil, DefaultSteps},
		{"longer", 0, []int{100, 30}, 100},
		{"shorter", 0, []int{10}, 10},
		{"empty", 0, []int{0}, 1},
		{"capped", 80, []int{100}, 80},
		{"longest", 0, []int{70, 90, 80}, 90},
		{"short ones", 0, []int{7, 8, 5}, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Config{Depth: 3, MaxSteps: tc.max})
			for _, n := range tc.lengths {
				s.Next()
				s.Finish(&trace.Trace{Events: make([]trace.Event, n)}, trace.End{})
			}
			if got := s.Steps(); got != tc.want {
				t.Errorf("k = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestReproducible(t *testing.T) {
	run := func(seed int64) []strategy.Choice {
		s := New(Config{Seed: seed, Depth: 3, Steps: 10})
		var out []strategy.Choice
		st := enabled(4)
		st.Threads[1].Alts = 2
		for range 20 {
			s.Next()
			for i := range 10 {
				st.Step = i
				out = append(out, s.Choose(st))
			}
		}
		return out
	}
	if a, b := run(11), run(11); !slices.Equal(a, b) {
		t.Fatal("the same seed gave different choices")
	}
	if a, b := run(11), run(12); slices.Equal(a, b) {
		t.Fatal("seeds 11 and 12 gave the same 200 choices")
	}
}
