package optimal

import (
	"testing"

	"github.com/weft-go/weft/strategy/strategytest"
)

func TestExpFind(t *testing.T) {
	o := strategytest.UnitOptions{Large: true, Every: 8, Delay: 10, Depth: 2}
	progs := 0
	for ps := uint64(0); progs < 60; ps++ {
		p, ok := strategytest.Generate(ps)
		if !ok || strategytest.Interleavings(p) > 2000 {
			continue
		}
		progs++
		w, _ := strategytest.Run(New(), p, 0)
		g, st, _ := strategytest.RunUnits(New(), p, o)
		if g.Executions != w.Executions {
			t.Logf("prog %d: %d vs %d, %d units %d orphans", ps, g.Executions, w.Executions, st.Units, st.Orphans)
		}
	}
}
