// This file tests that a custom strategy that hides a capability the
// driver needs (a wrapper without Unwrap) is refused.

package weft_test

import (
	"errors"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/reach"
	"github.com/weft-go/weft/trace"
)

// embedded wraps a strategy by embedding the interface: its method set is
// the four methods, so the inner strategy's capabilities are hidden.
type embedded struct{ strategy.Strategy }

// unexported wraps a strategy it holds in an unexported field.
type unexported struct{ inner strategy.Strategy }

func (u *unexported) Next() bool                               { return u.inner.Next() }
func (u *unexported) Choose(s *strategy.State) strategy.Choice { return u.inner.Choose(s) }
func (u *unexported) Input(s *strategy.State, in strategy.InputRequest) uint64 {
	return u.inner.Input(s, in)
}
func (u *unexported) Finish(tr *trace.Trace, end trace.End) { u.inner.Finish(tr, end) }

// unwrapping embeds a strategy and unwraps to it: it hides nothing.
type unwrapping struct{ strategy.Strategy }

func (u unwrapping) Unwrap() strategy.Strategy { return u.Strategy }

// TestHiddenCapability: a wrapper without Unwrap around a strategy with a
// capability the driver needs is refused before any execution, naming
// the wrapper, the field, the strategy, the capabilities and the fix; one
// that unwraps, or that hides only a strategy without such capabilities,
// explores.
func TestHiddenCapability(t *testing.T) {
	body := programs.Lookup("addall").MustBody(nil)
	con2 := weft.StrategyByName("con2", 0) // type-checked only: no Z3 needed
	defer con2.(strategy.Closer).Close()
	const fix = "; implement Unwrap() strategy.Strategy returning it (strategy.Wrapper), or the capabilities themselves"
	for _, tc := range []struct {
		name string
		s    strategy.Strategy
		want string
	}{
		{"reach embedded", embedded{reach.New(reach.Options{})},
			"custom strategy hides a capability the driver needs: weft_test.embedded holds, in its field Strategy, a *reach.Strategy that implements strategy.Failer, strategy.Closer, which the driver finds only through strategy.As: " +
				"the errors that refuse a program it does not model, or that say it could not be set up, would go unseen; its resources (a solver's native memory) would never be released" + fix},
		{"con2 unexported", &unexported{con2},
			"custom strategy hides a capability the driver needs: *weft_test.unexported holds, in its field inner, a *con2.Strategy that implements strategy.SymbolicTracer, strategy.Failer, strategy.Closer, which the driver finds only through strategy.As: " +
				"it needs symbolic traces, which the runtime records only for a strategy that asks; the errors that refuse a program it does not model, or that say it could not be set up, would go unseen; its resources (a solver's native memory) would never be released" + fix},
		{"unwrapping reach embedded", embedded{unwrapping{reach.New(reach.Options{})}},
			"custom strategy hides a capability the driver needs: weft_test.embedded holds, in its field Strategy, a weft_test.unwrapping that implements strategy.Failer, strategy.Closer, which the driver finds only through strategy.As: " +
				"the errors that refuse a program it does not model, or that say it could not be set up, would go unseen; its resources (a solver's native memory) would never be released" + fix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := weft.Explore(body, weft.WithCustomStrategy(tc.s), weft.NoReplayFiles())
			if !errors.Is(err, weft.ErrHiddenCapability) || r != nil {
				t.Fatalf("Explore = %v, %v; want nil and an error wrapping ErrHiddenCapability", r, err)
			}
			if err.Error() != tc.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, tc.want)
			}
		})
	}
	// exhaustive has no capability the driver needs: hiding it is fine.
	r, err := weft.Explore(programs.Lookup("xy").MustBody(nil), weft.WithCustomStrategy(embedded{exhaustive.New()}), weft.NoReplayFiles())
	if err != nil || !r.Exhausted || r.Executions != 6 {
		t.Errorf("exhaustive embedded: %v, %+v; want 6 executions, exhausted", err, r)
	}
	// con2 unwrapped finds addall's assertion, which needs symbolic traces.
	r, err = weft.Explore(body, weft.WithCustomStrategy(unwrapping{con2}), weft.NoReplayFiles())
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	if err != nil || r.FailureCounts[trace.Assertion] != 1 {
		t.Errorf("con2 unwrapped: %v, %+v; want its assertion", err, r)
	}
}
