package rand_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	wrand "github.com/weft-go/weft/std/math/rand/v2"
)

// TestPerExecution checks that every execution draws the same sequence,
// that of a PCG seeded with ExecutionSeed1 and ExecutionSeed2, whichever
// thread draws first, through N and IntN alike.
func TestPerExecution(t *testing.T) {
	ref := rand.New(rand.NewPCG(wrand.ExecutionSeed1, wrand.ExecutionSeed2))
	want := []int{ref.IntN(1000), ref.IntN(1000), ref.IntN(1000)}
	var got [][]int
	r, err := weft.Explore(func(w *weft.T) {
		var mu weft.Mutex
		var draws []int
		draw := func() {
			mu.Lock()
			draws = append(draws, wrand.N(1000))
			mu.Unlock()
		}
		th := w.Go(draw)
		draw()
		th.Join()
		draws = append(draws, wrand.IntN(1000))
		got = append(got, draws)
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Executions != 2 || len(got) != 2 {
		t.Fatalf("%d executions (%d recorded), want 2: the two orders of the locks", r.Executions, len(got))
	}
	for i, g := range got {
		if !slices.Equal(g, want) {
			t.Errorf("execution %d drew %v, want %v", i+1, g, want)
		}
	}
}

// TestOutsideExecution checks the functions outside an execution:
// math/rand/v2's.
func TestOutsideExecution(t *testing.T) {
	if n := wrand.N(uint8(5)); n >= 5 {
		t.Errorf("N(5) = %d", n)
	}
	g := wrand.New(wrand.NewPCG(1, 2))
	if g.IntN(1000) != rand.New(rand.NewPCG(1, 2)).IntN(1000) {
		t.Error("New(NewPCG(1, 2)) is not math/rand/v2's generator")
	}
}
