// This file implements the race table of Lei and Carver 2006, §6.2: Construct-Race-
// Table (Fig. 7), a mixed-radix counter whose rows are the race variants of
// a SYN-sequence, each row checked against every validity rule, and the
// naive construction (all tuples, filtered), its oracle.

package reach

// racetab describes a race table: the receiving events of its heading
// (columns, in a topological order of happened-before) and the relations
// the validity rules ask about.
type racetab interface {
	// columns returns the number of columns.
	columns() int
	// size returns the size of column i's race set (d_i).
	size(i int) int
	// inCS reports whether the event of column j is in the control
	// structure of the event of column i (j < i: the heading is in
	// happened-before order).
	inCS(j, i int) bool
	// inPartner reports whether the event of column j is in the control
	// structure of the v-th (from 1) outcome of column i's race set: of a
	// call it synchronises with (or of what the receiving event needs
	// besides: the value a receive takes). Changing column j's partner
	// would remove it.
	inPartner(j, i, v int) bool
}

// valid reports whether row t is a race variant (§6.2, the naive
// algorithm's rules): (1) some partner changes; (2) a column is removed
// (-1) iff the partner of a receiving event in its control structure
// changes; (3) no new partner's control structure holds a receiving event
// whose partner changes. Fig. 7 checks rule 3 only for the digit it just
// incremented, which lets some tuples through that violate it (the note's
// counter-example, TestFig7Counterexample); here every changed digit is
// checked.
func valid(tab racetab, t []int) bool {
	some := false
	for i, v := range t {
		if v > 0 {
			some = true
		}
		removed := false
		for j, w := range t {
			if j < i && w > 0 && tab.inCS(j, i) {
				removed = true
				break
			}
		}
		if removed != (v == -1) {
			return false
		}
		if v > 0 {
			for j, w := range t {
				if w > 0 && tab.inPartner(j, i, v) {
					return false
				}
			}
		}
	}
	return some
}

// counter enumerates the rows of a race table as Construct-Race-Table
// (Fig. 7) does, keeping those that pass every rule (valid).
type counter struct {
	tab  racetab
	t    []int
	done bool
}

func newCounter(tab racetab) *counter {
	return &counter{tab: tab, t: make([]int, tab.columns())}
}

// next returns the next row, or false when the table is complete. The
// row is the counter's memory: copy it to keep it.
func (c *counter) next() ([]int, bool) {
	for {
		if _, ok := c.step(); !ok {
			return nil, false
		}
		if valid(c.tab, c.t) { // lines 22-24, with every rule
			return c.t, true
		}
	}
}

// step advances the counter to its next number (lines 7-21) and returns
// the digit it incremented, or false at the end.
func (c *counter) step() (int, bool) {
	tab, t := c.tab, c.t
	if c.done {
		return 0, false
	}
	{
		// Line 7: the least significant digit that can grow.
		i := len(t) - 1
		for ; i >= 0; i-- {
			if t[i] != -1 && t[i] < tab.size(i) {
				break
			}
		}
		if i < 0 {
			c.done = true
			return 0, false
		}
		t[i]++
		if t[i] == 1 { // lines 11-14: remove what depends on r_i
			for j := i + 1; j < len(t); j++ {
				if t[j] != -1 && tab.inCS(i, j) {
					t[j] = -1
				}
			}
		}
		for j := i + 1; j < len(t); j++ { // lines 15-21: the carry
			if t[j] != tab.size(j) {
				continue
			}
			t[j] = 0
			for k := j + 1; k < len(t); k++ {
				if t[k] != -1 || !tab.inCS(j, k) {
					continue
				}
				still := false
				for l := 0; l < k; l++ {
					if t[l] > 0 && tab.inCS(l, k) {
						still = true
						break
					}
				}
				if !still {
					t[k] = 0
				}
			}
		}
		return i, true
	}
}

// naiveRows returns every valid row, in the order of the mixed-radix
// numbers they are (-1 below 0): the naive algorithm of §6.2.
func naiveRows(tab racetab) [][]int {
	n := tab.columns()
	var rows [][]int
	t := make([]int, n)
	for i := range t {
		t[i] = -1
	}
	for {
		if valid(tab, t) {
			rows = append(rows, append([]int(nil), t...))
		}
		i := n - 1
		for ; i >= 0; i-- {
			if t[i] < tab.size(i) {
				t[i]++
				break
			}
			t[i] = -1
		}
		if i < 0 {
			return rows
		}
	}
}
