package rand_test

import (
	"math/rand"
	randv2 "math/rand/v2"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	wrand "github.com/weft-go/weft/std/math/rand"
	wrandv2 "github.com/weft-go/weft/std/math/rand/v2"
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
