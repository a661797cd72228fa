// Tests of the strategy Explore and Check choose when the caller names none.

package weft_test

import (
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
)

// TestDefaultStrategy: without WithStrategy, a body without inputs is
// explored with optimal (xy: 3 traces), and one that reads inputs with
// concolic-optimal (jcute: its assertion is found), the concolic strategies
// being imported by this test package; without Z3 the choice stays optimal
// and the Result's note says why.
func TestDefaultStrategy(t *testing.T) {
	r, err := weft.Explore(programs.Lookup("xy").MustBody(nil))
	if err != nil {
		t.Fatal(err)
	}
	if r.Strategy != "optimal" || r.Executions != 3 || !r.Exhausted || r.Note != "" {
		t.Errorf("xy: strategy %s, %d executions, exhausted %v, note %q; want optimal, 3, true, none", r.Strategy, r.Executions, r.Exhausted, r.Note)
	}
	r, err = weft.Explore(programs.Lookup("jcute").MustBody(nil))
	if err != nil {
		t.Fatal(err)
	}
	if r.Strategy == "optimal" && strings.Contains(r.Note, "cannot run") {
		t.Skipf("no Z3: %s", r.Note)
	}
	if r.Strategy != "concolic-optimal" || len(r.Failures) != 1 || r.Note != "" {
		t.Errorf("jcute: strategy %s, failures %v, note %q; want concolic-optimal, the assertion, no note", r.Strategy, r.FailureCounts, r.Note)
	}
}
