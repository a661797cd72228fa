package rand_test

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	wrand "github.com/weft-go/weft/std/math/rand"
)

// TestPerExecution checks that every execution draws the same sequence,
// that of a generator seeded with ExecutionSeed, whichever thread draws
// first, and that Seed leaves it alone.
func TestPerExecution(t *testing.T) {
	ref := rand.New(rand.NewSource(wrand.ExecutionSeed))
	want := []int{ref.Intn(1000), ref.Intn(1000), ref.Intn(1000)}
	var got [][]int
	r, err := weft.Explore(func(w *weft.T) {
		var mu weft.Mutex
		var draws []int
		wrand.Seed(99)
		draw := func() {
			mu.Lock()
			draws = append(draws, wrand.Intn(1000))
			mu.Unlock()
		}
		th := w.Go(draw)
		draw()
		th.Join()
		draws = append(draws, wrand.Intn(1000))
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
