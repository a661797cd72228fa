// Tests of weft.Go, which starts a thread without a *T.

package weft_test

import (
	"strings"
	"testing"

	"github.com/weft-go/weft"
)

// startWorkers is library code under test: it starts threads with weft.Go,
// as it would with go statements, and knows nothing of *weft.T.
func startWorkers(n *weft.Int[int], k int) []*weft.Thread {
	var ths []*weft.Thread
	for range k {
		ths = append(ths, weft.Go(func() { n.Add(1) }))
	}
	return ths
}

// TestGoWithoutT: threads started by weft.Go are explored as those of
// w.Go. Workers T1 and T2 each Add once, the body joins T1, then T2, then
// loads: exhaustive search runs the 3 interleavings (T1's Add, T2's Add,
// join T1; T1's Add, join T1, T2's Add; T2's Add, T1's Add, join T1).
func TestGoWithoutT(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		var n weft.Int[int]
		for _, th := range startWorkers(&n, 2) {
			th.Join()
		}
		w.Assert(n.Load() == 2, "n = %d", n.Load())
	}, weft.WithStrategy("exhaustive"), weft.NoReplayFiles())
	if err != nil || r.Failed() || !r.Exhausted || r.Executions != 3 || r.FinalStates != 1 {
		t.Fatalf("Explore: %v; executions %d, failures %v, final states %d; want 3 executions, no failure, 1 final state",
			err, r.Executions, r.FailureCounts, r.FinalStates)
	}
}

// TestGoOutsideAnExecution: weft.Go called outside an execution panics
// with an explanation.
func TestGoOutsideAnExecution(t *testing.T) {
	defer func() {
		r := recover()
		if s, ok := r.(string); !ok || !strings.Contains(s, "outside an execution") {
			t.Errorf("recover() = %v; want the explanation", r)
		}
	}()
	weft.Go(func() {})
}
