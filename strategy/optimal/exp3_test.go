package optimal

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft/strategy/strategytest"
)

func TestExpOne(t *testing.T) {
	o := strategytest.UnitOptions{Large: true, Every: 8, Delay: 10, Depth: 2}
	p, _ := strategytest.Generate(199)
	t.Logf("%v", p)
	w, _ := strategytest.Run(New(), p, 0)
	t.Logf("whole %v", w.Schedules)
	s := New()
	s.SetLog(func(f string, a ...any) { fmt.Printf("  "+f+"\n", a...) })
	g, _, _ := strategytest.RunUnits(s, p, o)
	t.Logf("divided %v", g.Schedules)
	for k, n := range g.Traces {
		if n > 1 {
			t.Logf("dup %s", k)
		}
	}
	for k, n := range g.Failing {
		if n > 1 {
			t.Logf("dup failing %s", k)
		}
	}
}
