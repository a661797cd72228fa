package rand_test

import (
	"errors"
	"math/rand"
	randv2 "math/rand/v2"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	wrand "github.com/weft-go/weft/std/math/rand"
	wrandv2 "github.com/weft-go/weft/std/math/rand/v2"
	"github.com/weft-go/weft/trace"
)

// TestPerExecution checks, for math/rand's stand-in and math/rand/v2's,
// that every execution draws the same sequence, that of a generator seeded
// as the package doc says, whichever thread draws first; and that Seed
// leaves math/rand's alone.
func TestPerExecution(t *testing.T) {
	ref := rand.New(rand.NewSource(wrand.ExecutionSeed))
	refV2 := randv2.New(randv2.NewPCG(wrandv2.ExecutionSeed1, wrandv2.ExecutionSeed2))
	for _, c := range []struct {
		name      string
		draw, end func() int // a thread's draw, the last draw
		want      []int
	}{
		{"math/rand", func() int { wrand.Seed(99); return wrand.Intn(1000) }, func() int { return wrand.Intn(1000) },
			[]int{ref.Intn(1000), ref.Intn(1000), ref.Intn(1000)}},
		{"math/rand/v2", func() int { return wrandv2.N(1000) }, func() int { return wrandv2.IntN(1000) },
			[]int{refV2.IntN(1000), refV2.IntN(1000), refV2.IntN(1000)}},
	} {
		var got [][]int
		r, err := weft.Explore(func(w *weft.T) {
			var mu weft.Mutex
			var draws []int
			draw := func() {
				mu.Lock()
				draws = append(draws, c.draw())
				mu.Unlock()
			}
			th := w.Go(draw)
			draw()
			th.Join()
			got = append(got, append(draws, c.end()))
		})
		if err != nil {
			t.Fatal(err)
		}
		if r.Executions != 2 || len(got) != 2 {
			t.Fatalf("%s: %d executions (%d recorded), want 2: the two orders of the locks", c.name, r.Executions, len(got))
		}
		for i, g := range got {
			if !slices.Equal(g, c.want) {
				t.Errorf("%s: execution %d drew %v, want %v", c.name, i+1, g, c.want)
			}
		}
	}
}

// TestOutsideExecution checks the functions outside an execution: math/rand's.
func TestOutsideExecution(t *testing.T) {
	if n := wrand.Intn(5); n < 0 || n >= 5 {
		t.Errorf("Intn(5) = %d", n)
	}
	if p := wrand.Perm(4); len(p) != 4 {
		t.Errorf("Perm(4) = %v", p)
	}
	g := wrand.New(wrand.NewSource(1))
	if g.Intn(1000) != rand.New(rand.NewSource(1)).Intn(1000) {
		t.Error("New(NewSource(1)) is not math/rand's generator")
	}
}

// TestSeed checks that the exploration's seed (WithSeed) seeds the
// generator of every execution: 1 plus the seed.
func TestSeed(t *testing.T) {
	ref := rand.New(rand.NewSource(wrand.ExecutionSeed + 5))
	want := []int{ref.Intn(1000), ref.Intn(1000)}
	var got []int
	r, err := weft.Explore(func(w *weft.T) {
		got = []int{wrand.Intn(1000), wrand.Intn(1000)}
	}, weft.WithSeed(5))
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 1 || !slices.Equal(got, want) {
		t.Errorf("%d executions drew %v, want 1 drawing %v", r.Executions, got, want)
	}
}

// TestVaryingSeed checks WithVaryingSeed: under the random strategy each
// of 20 executions draws from a seed of its own, recorded in its trace;
// a failure that depends on the numbers replays from its token alone;
// and optimal refuses the option.
func TestVaryingSeed(t *testing.T) {
	seeds := map[int64]bool{}
	var drawn []int64
	var traced []int64
	r, err := weft.Explore(func(w *weft.T) {
		drawn = append(drawn, wrand.Int63())
	}, weft.WithStrategy("random"), weft.WithVaryingSeed(), weft.WithMaxRuns(20),
		weft.WithObserver(func(tr *trace.Trace, _ trace.End) { traced = append(traced, tr.Seed) }))
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 20 || len(drawn) != 20 || len(traced) != 20 {
		t.Fatalf("%d executions, %d draws, %d traces; want 20 each", r.Executions, len(drawn), len(traced))
	}
	for i, s := range traced {
		seeds[s] = true
		if want := rand.New(rand.NewSource(wrand.ExecutionSeed + s)).Int63(); drawn[i] != want {
			t.Errorf("execution %d (seed %d) drew %d, want %d", i+1, s, drawn[i], want)
		}
	}
	if len(seeds) != 20 {
		t.Errorf("%d distinct seeds in 20 executions, want 20", len(seeds))
	}

	body := func(w *weft.T) {
		if wrand.Intn(8) == 3 {
			w.Fail("drew 3")
		}
	}
	r, err = weft.Explore(body, weft.WithStrategy("random"), weft.WithVaryingSeed(), weft.WithMaxRuns(1000))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Failed() || r.Failures[0].Record.Seed == 0 {
		t.Fatalf("no failure with a seed of its own in %d executions: %+v", r.Executions, r.Failures)
	}
	rr, err := weft.Replay(body, r.Failures[0].Token)
	if err != nil || !rr.Failed() || rr.Failures[0].Message != "drew 3" {
		t.Errorf("the replay of %s: %v, %+v; want the failure drew 3", r.Failures[0].Token, err, rr)
	}
	if _, err := weft.Explore(body, weft.WithVaryingSeed()); !errors.Is(err, weft.ErrVaryingSeed) {
		t.Errorf("optimal with a varying seed: %v, want ErrVaryingSeed", err)
	}
}
