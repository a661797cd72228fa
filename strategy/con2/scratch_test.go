package con2_test

import (
	"errors"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
	"github.com/weft-go/weft/strategy/con2"
)

func TestScratch(t *testing.T) {
	for _, name := range []string{"addall", "jcute", "unfold-fig9"} {
		for k := 0; k <= 2; k++ {
			z, err := z3.New(z3.WithTimeout(10 * time.Second))
			if errors.Is(err, solver.ErrUnavailable) {
				t.Skip(err)
			}
			s := con2.New(con2.Options{K: k}, z)
			r, err := weft.Explore(programs.Lookup(name).MustBody(nil), weft.WithCustomStrategy(s), weft.NoReplayFiles(), weft.KeepGoing())
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s k=%d: %d executions, failures %v, stats %+v", name, k, r.Executions, r.FailureCounts, s.Stats())
			for _, c := range s.Counters() {
				t.Logf("  %s = %d", c.Name, c.Value)
			}
			for _, f := range r.Failures {
				t.Logf("%v", f.Inputs)
			}
		}
	}
}
