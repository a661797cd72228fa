// Tests of the race table (Lei and Carver 2006, §6.2): Construct-Race-Table (Fig. 7)
// with every changed digit checked, against the naive algorithm, and the
// notes' counter-example to Fig. 7 as printed.

package reach_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/weft-go/weft/strategy/reach"
)

// TestFig7Counterexample: receives r1 (race set {sA}) and r2 (race set
// {sq2}) are concurrent, and sA is sent after r2 (r2 is in sA's control
// structure). Fig. 7 as printed, with the heading (r1, r2), emits (0, 1),
// (1, 0) and (1, 1); the last is no variant (rule 3: changing r2's partner
// removes sA). With every changed digit checked, the rows are the naive
// algorithm's: (0, 1), (1, 0).
func TestFig7Counterexample(t *testing.T) {
	tab := &reach.Racetab{
		Sizes:   []int{1, 1},
		CS:      [][]bool{{false, false}, {false, false}},
		Partner: [][][]bool{{{false, true}}, {{false, false}}},
	}
	if got := fmt.Sprint(tab.Printed()); got != "[[0 1] [1 0] [1 1]]" {
		t.Errorf("Fig. 7 as printed: %s, want [[0 1] [1 0] [1 1]]", got)
	}
	if tab.Valid([]int{1, 1}) {
		t.Error("(1, 1) is valid")
	}
	for _, rows := range [][][]int{tab.Fig7(), tab.Naive()} {
		if got := fmt.Sprint(rows); got != "[[0 1] [1 0]]" {
			t.Errorf("rows %s, want [[0 1] [1 0]]", got)
		}
	}
}

// TestFig7Table3: the race table of Fig. 1's Q0 as the paper has it
// (Table 3): columns r1, r3, concurrent, race sets {s2} and {s4}, r1 in
// the control structure of neither s4 nor r3: rows (0, 1), (1, 0), (1, 1)
// in that order (the paper's walk-through of the step from (0, 1) to
// (1, 0) included).
func TestFig7Table3(t *testing.T) {
	tab := &reach.Racetab{
		Sizes:   []int{1, 1},
		CS:      [][]bool{{false, false}, {false, false}},
		Partner: [][][]bool{{{false, false}}, {{false, false}}},
	}
	if got := fmt.Sprint(tab.Fig7()); got != "[[0 1] [1 0] [1 1]]" {
		t.Errorf("rows %s, want [[0 1] [1 0] [1 1]]", got)
	}
}

// randomTable returns a race table whose columns happen in order, each
// in the control structure of a random set of later ones (closed under
// transitivity), with race sets of 1 to 3 outcomes whose control
// structures hold random columns, never their own.
func randomTable(r *rand.Rand) *reach.Racetab {
	n := 1 + r.IntN(5)
	tab := &reach.Racetab{Sizes: make([]int, n), CS: make([][]bool, n), Partner: make([][][]bool, n)}
	for i := range n {
		tab.Sizes[i] = 1 + r.IntN(3)
		tab.CS[i] = make([]bool, n)
		for j := range i {
			if r.IntN(3) == 0 {
				tab.CS[i][j] = true
				for k := range j {
					tab.CS[i][k] = tab.CS[i][k] || tab.CS[j][k]
				}
			}
		}
		tab.Partner[i] = make([][]bool, tab.Sizes[i])
		for v := range tab.Partner[i] {
			tab.Partner[i][v] = make([]bool, n)
			for j := range n {
				tab.Partner[i][v][j] = j != i && r.IntN(4) == 0
			}
		}
	}
	return tab
}

// TestFig7Naive: on random tables, Fig. 7 with every digit checked emits
// exactly the naive algorithm's rows, each once.
func TestFig7Naive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for k := range 5000 {
		tab := randomTable(r)
		fig7, naive := tab.Fig7(), tab.Naive()
		key := func(rows [][]int) []string {
			var s []string
			for _, row := range rows {
				s = append(s, fmt.Sprint(row))
			}
			return s
		}
		a, b := key(fig7), key(naive)
		sorted := slices.Clone(a)
		slices.Sort(sorted)
		slices.Sort(b)
		if !slices.Equal(sorted, b) || len(slices.Compact(slices.Clone(sorted))) != len(sorted) {
			t.Fatalf("table %d %+v:\nFig. 7: %v\nnaive:  %v", k, tab, a, b)
		}
	}
}
