// A test that counts the SYN-sequences of a Table 4 program by exhaustive
// search, independently of reach: where the number differs from the
// paper's, it is the program's own.

package reach_test

import (
	"testing"

	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy/reach"
)

// TestTable4Oracle reads every execution of exhaustive search on
// DP-monitorSU with 4 philosophers as a SYN-sequence (the monitor's
// entries in order) and counts the distinct ones: 720 for Hoare's dining
// philosophers monitor, every order of its 8 entries that the monitor
// allows (the paper's 624 is that of a program it does not print,
// "without starvation"); and 30 for 3, as the paper (the count for 4
// needs WEFT_LONG=1). reach exercises each exactly once.
func TestTable4Oracle(t *testing.T) {
	for _, c := range []struct {
		name string
		ps   map[string]int
		want int
	}{
		{"dpmonitor", map[string]int{"n": 3}, 30},
		{"dpmonitor", map[string]int{"n": 4}, 720},
	} {
		if c.want > 100 && !long.Enabled() {
			continue // 6 s
		}
		r, ok := compare(t, body(c.name, c.ps), reach.Options{}, 2_000_000)
		if !ok {
			t.Fatalf("%s: exhaustive search did not finish", c.name)
		}
		if !r.ok() || r.want != c.want || r.got != c.want {
			t.Errorf("%s %v: want %d sequences: %v", c.name, c.ps, c.want, r)
		}
	}
}
