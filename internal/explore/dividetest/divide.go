// Package dividetest implements, for tests only, a divided exploration: a
// strategy's exploration split into units of work (strategy.Splitter),
// each explored at once to its own Result and merged into its splitter's.
// The parallel and distributed modes of package explore divide
// explorations so as they go; the tests check them, and every
// strategy.Splitter, against this sequential form. No package but tests
// imports it.
package dividetest

import (
	"errors"
	"fmt"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// options say how Explore divides an exploration: after every every-th
// execution of a strategy it splits off a unit, down to depth levels of
// units within units. With apart, each unit runs in a runtime of its own
// (a new session), as in another process: the naming tables of the
// runtime that split it are imported there (engine.Names.Import), and
// what that runtime learned is imported back when the unit is over.
type options struct {
	every, depth int
	apart        bool
}

// errStopped unwinds a divided exploration that a failure or the timeout
// stopped.
var errStopped = errors.New("exploration stopped")

// Explore explores body with s as explore.Run does, divided into units:
// after every every-th execution of a strategy it splits off a unit, down
// to depth levels of units within units; each unit is explored at once by
// a strategy s.Resume returns, to a Result of its own, its handback
// joined, the units Join returns explored in turn, and every Result merged
// (explore.Result.Merge). Every part runs in one runtime (session),
// unless apart: then each unit runs in a runtime of its own, as in another
// process. Bounds on executions and progress reports do not apply.
func Explore(body func(), s strategy.Splitter, c *explore.Config, every, depth int, apart bool) (*explore.Result, error) {
	names := engine.NewNames()
	x := &divider{session: newSession(body, c, names), names: names, body: body, c: c,
		o: options{every: every, depth: depth, apart: apart}}
	defer x.session.Close()
	total := newResult(c.Strategy)
	err := x.divided(s, 0, total)
	total.Exhausted = err == nil
	if errors.Is(err, errStopped) {
		err = nil
	}
	if ss, ok := strategy.As[strategy.Solving](s); ok {
		total.Solver = ss.SolverStats() // the units share s's solver
	}
	if cl, ok := strategy.As[strategy.Closer](s); ok {
		cl.Close() // release a solver's native resources; nothing to report
	}
	return total, err
}

// newSession starts the runtime of an exploration of body with c, whose
// naming tables are names.
func newSession(body func(), c *explore.Config, names *engine.Names) *explore.Session {
	return explore.NewSession(c.SessionConfig(names), body)
}

// newResult returns the empty Result of an exploration with strategy
// name.
func newResult(name string) *explore.Result {
	return &explore.Result{Strategy: name, FailureCounts: map[trace.FailureKind]int{}}
}

// divider runs a divided exploration in one session.
type divider struct {
	session *explore.Session
	names   *engine.Names // the session's
	body    func()
	c       *explore.Config
	o       options
}

// divided explores with s, at nesting depth, into total, until s's
// exploration is over.
func (x *divider) divided(s strategy.Splitter, depth int, total *explore.Result) error {
	o := x.o
	for {
		b := &explore.Batch{Strategy: s, N: max(o.every, 1)}
		r, err := explore.ExplorePart(x.session, x.body, b, x.c)
		r.Solver = solver.Stats{} // counted once, at the end
		total.Merge(r)
		switch {
		case err != nil:
			return err
		case r.TimedOut, r.Canceled, total.StopsAt(x.c.StopOnFail):
			return errStopped
		case b.Over:
			return nil
		case depth >= o.depth:
			continue
		}
		if u, ok := s.Split(); ok {
			if err := x.unit(s, u, depth+1, total); err != nil {
				return err
			}
		}
	}
}

// unit explores a unit owner split off, joins its handback and explores
// the units Join returns.
func (x *divider) unit(owner strategy.Splitter, u strategy.Unit, depth int, total *explore.Result) error {
	w, err := owner.Resume(u)
	if err != nil {
		return fmt.Errorf("%w: resuming a unit of %s: %v", explore.ErrInternal, x.c.Strategy, err)
	}
	part := newResult(x.c.Strategy)
	if x.o.apart {
		y := *x
		y.names = engine.NewNames()
		y.names.Import(x.names.Export())
		y.session = newSession(x.body, x.c, y.names)
		defer y.session.Close()
		err = y.divided(w, depth, part)
		x.names.Import(y.names.Export())
	} else {
		err = x.divided(w, depth, part)
	}
	total.Merge(part)
	if err != nil {
		return err
	}
	orphans, err := owner.Join(w.Handback())
	if err != nil {
		return fmt.Errorf("%w: joining a unit of %s: %v", explore.ErrInternal, x.c.Strategy, err)
	}
	for _, u := range orphans {
		if err := x.unit(owner, u, depth, total); err != nil {
			return err
		}
	}
	return nil
}
