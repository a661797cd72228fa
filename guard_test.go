// Tests of the panic guard: a strategy's panic ends the exploration as a
// weft internal error, which the test body cannot recover.

package weft_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/trace"
)

// panicky is exhaustive search that panics in method on its n-th call.
type panicky struct {
	strategy.Strategy
	method string
	n      int
	calls  map[string]int
}

// strategyBug is the value panicky panics with.
const strategyBug = "strategy bug 7f3a"

func (p *panicky) call(method string) {
	p.calls[method]++
	if method == p.method && p.calls[method] == p.n {
		panic(strategyBug)
	}
}

func (p *panicky) Next() bool { p.call("Next"); return p.Strategy.Next() }
func (p *panicky) Choose(s *strategy.State) strategy.Choice {
	p.call("Choose")
	return p.Strategy.Choose(s)
}
func (p *panicky) Input(s *strategy.State, in strategy.InputRequest) uint64 {
	p.call("Input")
	return p.Strategy.Input(s, in)
}
func (p *panicky) Finish(tr *trace.Trace, end trace.End) {
	p.call("Finish")
	p.Strategy.Finish(tr, end)
}

// TestStrategyPanic: whichever method panics, Explore returns an error
// wrapping ErrInternal that names the method, the step and the panic, with
// the strategy's stack; the body's recover does not see it, and no failure
// of the program is reported.
func TestStrategyPanic(t *testing.T) {
	for _, tc := range []struct {
		method string
		n      int
		where  string
		execs  int // executions counted in the Result
	}{
		{"Next", 3, "in Next of execution 3", 2},
		{"Choose", 4, "in Choose at step 2 of execution 2", 1},
		{"Input", 2, "in Input at step 1 of execution 2", 1},
		{"Finish", 2, "in Finish of execution 2", 2},
	} {
		t.Run(tc.method, func(t *testing.T) {
			var recovered []any
			body := func(w *weft.T) {
				// weft unwinds the threads of a cut execution with a
				// panic the body may recover; the strategy's panic must
				// not be among what it sees.
				defer func() { recovered = append(recovered, recover()) }()
				x := weft.NewVar[int]("x")
				w.InputRange("in", 0, 1)
				w.Go(func() { x.Store(1) })
				x.Store(2)
			}
			p := &panicky{Strategy: exhaustive.New(), method: tc.method, n: tc.n, calls: map[string]int{}}
			r, err := weft.Explore(body, weft.WithCustomStrategy(p), weft.NoReplayFiles())
			if !errors.Is(err, weft.ErrInternal) {
				t.Fatalf("err = %v (calls %v); want ErrInternal", err, p.calls)
			}
			msg := err.Error()
			for _, want := range []string{"weft internal error: strategy custom panicked " + tc.where + ": " + strategyBug, "guard_test.go", "(*panicky).call", "a bug in weft"} {
				if !strings.Contains(msg, want) {
					t.Errorf("error lacks %q:\n%s", want, msg)
				}
			}
			for _, v := range recovered {
				if v == strategyBug {
					t.Error("the test body's recover caught the strategy's panic")
				}
			}
			if r == nil || r.Failed() || r.Exhausted || r.Executions != tc.execs {
				t.Errorf("result %+v; want %d executions, no failure, not exhausted", r, tc.execs)
			}
		})
	}
}
