package trace

import (
	"strings"
	"testing"
)

// TestFoataCounts checks the number of distinct Foata normal forms among all
// interleavings of small programs: the number of Mazurkiewicz traces.
func TestFoataCounts(t *testing.T) {
	x, y := ObjectID(0), ObjectID(1)
	tests := []struct {
		name      string
		progs     [][]Op
		cr, plain int
	}{
		{"xy", [][]Op{{store(x), store(y)}, {store(y), store(x)}}, 3, 3},
		{"dporproblem", [][]Op{{store(x), store(x)}, {store(y), store(x)}}, 3, 3},
		{"two readers", [][]Op{{load(x)}, {load(x)}}, 1, 2},
		{"pairs 2", [][]Op{{load(x)}, {store(x)}, {load(y)}, {store(y)}}, 4, 4},
		{"independent", [][]Op{{store(x)}, {store(y)}}, 1, 1},
		{"read read write", [][]Op{{load(x), load(x)}, {store(x)}}, 3, 3},
	}
	for _, tc := range tests {
		steps := make([]int, len(tc.progs))
		for i, p := range tc.progs {
			steps[i] = len(p)
		}
		for _, rel := range []Relation{CR, Plain} {
			seen := map[string]bool{}
			hashes := map[uint64]bool{}
			for _, s := range interleavings(steps) {
				tr := synth(tc.progs, s)
				seen[Foata(tr, rel)] = true
				hashes[FoataHash(tr, rel)] = true
			}
			want := tc.cr
			if rel == Plain {
				want = tc.plain
			}
			if len(seen) != want || len(hashes) != want {
				t.Errorf("%s under %v: %d forms (%d hashes), want %d", tc.name, rel, len(seen), len(hashes), want)
			}
		}
	}
}

func TestFoataForm(t *testing.T) {
	x, y := ObjectID(0), ObjectID(1)
	tr := synth([][]Op{{store(x), store(y)}, {store(y), store(x)}}, []ThreadID{1, 2, 2, 1})
	got := Foata(tr, CR)
	want := "0.0 store o0 =0; 0.1 store o1 =0 | 0.0 store o1 =0; 0.1 store o0 =0"
	if got != want {
		t.Fatalf("Foata = %q, want %q", got, want)
	}
	// Objects are named by first use in the normal form, not by their IDs.
	tr2 := synth([][]Op{{store(y), store(x)}, {store(x), store(y)}}, []ThreadID{1, 2, 2, 1})
	if got2 := Foata(tr2, CR); got2 != want {
		t.Fatalf("renamed objects: %q", got2)
	}
	if strings.Count(got, "|") != 1 {
		t.Fatalf("levels: %q", got)
	}
}

// TestFoataPast checks the causal past of an event: the events that happen
// before it and the event, as Foata writes them, with objects named by
// their first use in the past alone.
func TestFoataPast(t *testing.T) {
	x, y, z := ObjectID(0), ObjectID(1), ObjectID(2)
	// T1 stores z, then x; T2 stores y, then x: T2's store of x comes
	// last and races with T1's; T1's store of z is in its past, T2's
	// store of y too.
	tr := synth([][]Op{{store(z), store(x)}, {store(y), store(x)}}, []ThreadID{1, 2, 1, 2})
	for _, c := range []struct {
		j    int
		want string
	}{
		{3, "0.0 store o0 =0; 0.1 store o1 =0 | 0.0 store o2 =0 | 0.1 store o2 =0"},
		{2, "0.0 store o0 =0 | 0.0 store o1 =0"},
		{1, "0.1 store o0 =0"},
	} {
		if got := FoataPast(tr, CR, c.j); got != c.want {
			t.Errorf("FoataPast(%d) = %q, want %q", c.j, got, c.want)
		}
	}
	if got, all := FoataPast(tr, CR, 3), Foata(tr, CR); got != all {
		t.Errorf("the past of the last event is the whole trace here: %q, Foata %q", got, all)
	}
}
