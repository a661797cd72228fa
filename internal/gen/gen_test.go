package gen_test

import (
	"maps"
	"testing"

	"github.com/weft-go/weft/internal/gen"
)

// TestDeterministic checks that a seed always gives the same program, and
// that programs respect the size bound.
func TestDeterministic(t *testing.T) {
	for seed := range uint64(50) {
		a, b := gen.New(seed), gen.New(seed)
		if a.String() != b.String() {
			t.Fatalf("seed %d: two different programs:\n%s\n%s", seed, a, b)
		}
		if n := a.Events(); n > gen.DefaultOptions.MaxEvents {
			t.Errorf("seed %d: %d steps, more than %d", seed, n, gen.DefaultOptions.MaxEvents)
		}
	}
	if gen.New(1).String() == gen.New(2).String() {
		t.Errorf("seeds 1 and 2 give the same program")
	}
}

// TestLoops checks the programs of event loops: a seed always gives the
// same program, within the size bound, and the first 200 seeds draw each
// of the loop statements, stop cases and filled channels as many times as
// they always did.
func TestLoops(t *testing.T) {
	counts := map[string]int{}
	var walk func([]gen.Stmt)
	walk = func(ss []gen.Stmt) {
		for _, s := range ss {
			counts[s.Kind.String()]++
			if s.Kind == gen.Lock && len(s.Body) == 1 && (s.Body[0].Kind == gen.Send || s.Body[0].Kind == gen.Recv || s.Body[0].Kind == gen.Select) {
				counts["lock across a channel operation"]++
			}
			for _, c := range s.Cases {
				if c.Stop {
					counts["stop case"]++
				}
			}
			if s.Kind == gen.Select && len(s.Cases) < 2 {
				counts["select of one case"]++
			}
			walk(s.Body)
		}
	}
	for seed := range uint64(200) {
		p := gen.NewWith(seed, gen.Loops)
		if q := gen.NewWith(seed, gen.Loops); p.String() != q.String() {
			t.Fatalf("seed %d: two different programs:\n%s\n%s", seed, p, q)
		}
		if n := p.Events(); n > gen.Loops.MaxEvents {
			t.Errorf("seed %d: %d steps, more than %d", seed, n, gen.Loops.MaxEvents)
		}
		if p.Fill {
			counts["fill"]++
		}
		for _, th := range p.Threads {
			walk(th)
		}
		walk(p.Main)
	}
	want := map[string]int{"add": 57, "afterloop": 47, "close": 43, "fill": 59, "join": 153, "load": 51, "lock": 83,
		"lock across a channel operation": 83, "recv": 74, "repeat": 43, "select": 68, "send": 145, "sleep": 51,
		"stop case": 44, "store": 70, "tickloop": 53, "tinytimer": 55}
	if !maps.Equal(counts, want) {
		t.Errorf("statements drawn by the first 200 seeds:\n%v, want\n%v", counts, want)
	}
}
