// Tests of As: capabilities are found through wrappers.

package strategy_test

import (
	"errors"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// base is a strategy with the Failer and Closer capabilities.
type base struct{ closed bool }

func (*base) Next() bool                                               { return false }
func (*base) Choose(*strategy.State) strategy.Choice                   { return strategy.Cut }
func (*base) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }
func (*base) Finish(*trace.Trace, trace.End)                           {}
func (*base) Err() error                                               { return errBase }
func (b *base) Close() error                                           { b.closed = true; return nil }

var errBase = errors.New("base failed")

// wrap is a wrapper with a Diverged method of its own.
type wrap struct{ strategy.Strategy }

func (w wrap) Unwrap() strategy.Strategy { return w.Strategy }
func (wrap) Diverged() error             { return nil }

// opaque wraps without Unwrap: it hides what it wraps.
type opaque struct{ strategy.Strategy }

func TestAs(t *testing.T) {
	b := &base{}
	s := wrap{wrap{b}}
	if f, ok := strategy.As[strategy.Failer](s); !ok || f.Err() != errBase {
		t.Errorf("As[Failer] = %v, %v; want the base's", f, ok)
	}
	c, ok := strategy.As[strategy.Closer](s)
	if !ok {
		t.Fatal("As[Closer] found nothing")
	}
	c.Close()
	if !b.closed {
		t.Error("As[Closer] did not find the base")
	}
	if d, ok := strategy.As[strategy.Diverger](s); !ok || d != strategy.Diverger(s) {
		t.Errorf("As[Diverger] = %v, %v; want the outer wrapper", d, ok)
	}
	if _, ok := strategy.As[strategy.Solving](s); ok {
		t.Error("As[Solving] found a capability no strategy has")
	}
	if _, ok := strategy.As[strategy.Failer](opaque{b}); ok {
		t.Error("As looked through a strategy without Unwrap")
	}
	if _, ok := strategy.As[strategy.Failer](nil); ok {
		t.Error("As[Failer](nil) found something")
	}
}
