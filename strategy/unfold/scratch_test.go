package unfold_test

import (
	"testing"
	"time"

	"github.com/weft-go/weft/strategy/unfold"
)

func TestScratch(t *testing.T) {
	for _, c := range []map[string]int{{"n": 4, "meals": 2}, {"n": 5, "meals": 2}} {
		t0 := time.Now()
		r, st := explore(t, "dining", c, unfold.Options{})
		t.Logf("dining %v: %d tests %+v %v fail %v", c, r.Executions, st, time.Since(t0), r.FailureCounts)
	}
	t0 := time.Now()
	r, st := explore(t, "singlelock", map[string]int{"threads": 4, "rounds": 2}, unfold.Options{})
	t.Logf("sl: %d tests %+v %v", r.Executions, st, time.Since(t0))
}
