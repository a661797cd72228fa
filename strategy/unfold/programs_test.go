// Tests on weft's programs, run by the runtime: the numbers of events and
// tests of seed 002's examples and of the programs of its Table 2.

package unfold_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy/unfold"
)

// explore runs unfold on the program name with params ps.
func explore(t *testing.T, name string, ps map[string]int, o unfold.Options) (*weft.Result, unfold.Stats) {
	t.Helper()
	p := programs.Lookup(name)
	s := unfold.New(o)
	r, err := weft.Explore(p.MustBody(ps), weft.WithCustomStrategy(s), weft.KeepGoing())
	if err != nil {
		t.Fatalf("%s %v: %v", name, ps, err)
	}
	if s.Err() != nil {
		t.Fatalf("%s %v: %v", name, ps, s.Err())
	}
	return r, s.Stats()
}

func TestPrograms(t *testing.T) {
	for _, c := range []struct {
		name string
		ps   map[string]int
	}{
		{"pairs", map[string]int{"n": 1}},
		{"pairs", map[string]int{"n": 2}},
		{"pairs", map[string]int{"n": 10}},
		{"fib", map[string]int{"n": 1}},
		{"fib", map[string]int{"n": 2}},
		{"fib", map[string]int{"n": 3}},
		{"unfold-fig9", nil},
		{"unfold-fig1", nil},
		{"singlelock", map[string]int{"threads": 2, "rounds": 1}},
		{"singlelock", map[string]int{"threads": 4, "rounds": 2}},
		{"dining", map[string]int{"n": 3}},
		{"dining", map[string]int{"n": 4}},
		{"xy", nil},
	} {
		r, st := explore(t, c.name, c.ps, unfold.Options{})
		t.Logf("%s %v: executions %d complete %d failures %v; %+v", c.name, c.ps, r.Executions, r.Complete, r.FailureCounts, st)
	}
}
