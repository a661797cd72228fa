package weft_test

import (
	"testing"
	"time"

	"github.com/weft-go/weft"
)

func TestSmokeAnyStep(t *testing.T) {
	body := func(w *weft.T) {
		done := weft.MakeChan[int](1)
		w.Go(func() { done.Send(1) })
		timedOut := false
		weft.Select(weft.OnRecv(done, nil), weft.OnRecv(w.After(time.Second), func(time.Duration, bool) { timedOut = true }))
		w.Assert(!timedOut, "timed out")
	}
	for _, m := range []weft.TimeMode{weft.TimeWhenBlocked, weft.TimeAnyStep} {
		for _, s := range []string{"exhaustive", "dpor+sleep", "optimal", "dpor"} {
			r, err := weft.Explore(body, weft.WithStrategy(s), weft.WithTime(m), weft.KeepGoing())
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v %s: execs %d complete %d fails %v finals %d", m, s, r.Executions, r.Complete, r.FailureCounts, r.FinalStates)
		}
	}
}
