package unfold_test

import (
	"testing"
	"time"

	"github.com/weft-go/weft/strategy/unfold"
)

func TestScratch(t *testing.T) {
	for _, c := range []map[string]int{{"n": 2}, {"n": 3}, {"n": 4}, {"n": 3, "meals": 2}, {"n": 4, "meals": 2}, {"n": 5, "meals": 2}} {
		t0 := time.Now()
		r, s := explore(t, body("dining", c), unfold.Options{})
		t.Logf("dining %v: %d tests %+v %v fail %v err %v", c, r.Executions, s.Stats(), time.Since(t0), r.FailureCounts, s.Err())
	}
}
