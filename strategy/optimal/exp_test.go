package optimal

import (
	"testing"

	"github.com/weft-go/weft/strategy/strategytest"
)

func TestExpDup(t *testing.T) {
	for _, o := range []strategytest.UnitOptions{{Delay: 3}, {Large: true, Delay: 3}, {Every: 2, Delay: 10, Depth: 1}, {Large: true, Every: 8, Delay: 10, Depth: 2}} {
		var want, got, dups, progs, orph, units, bad, cut, fdups int
		for ps := uint64(0); progs < 60; ps++ {
			p, ok := strategytest.Generate(ps)
			if !ok || strategytest.Interleavings(p) > 2000 {
				continue
			}
			w, err := strategytest.Run(New(), p, 0)
			if err != nil {
				t.Fatal(err)
			}
			progs++
			g, st, err := strategytest.RunUnits(New(), p, o)
			if err != nil {
				t.Fatal(err)
			}
			want += w.Executions
			got += g.Executions
			orph += st.Orphans
			units += st.Units
			cut += g.Cut
			for _, n := range g.Failing {
				if n > 1 {
					fdups += n - 1
				}
			}
			for k, n := range g.Traces {
				if n > 1 {
					dups += n - 1
				}
				_ = k
			}
			if len(g.Traces) != len(w.Traces) {
				bad++
			}
		}
		t.Logf("%+v: cut %d fdups %d; %d vs %d executions, %d dups, %d units %d orphans, %d programs with missing traces", o, cut, fdups, got, want, dups, units, orph, bad)
	}
}
