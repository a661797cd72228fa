// This file implements the parts of a distributed exploration: a
// Coordinator explores the root of a strategy's exploration and hands its
// units of work out as self-contained parts; a PartExplorer, in any
// process, explores parts to outcomes, which the Coordinator joins
// (package distrib carries both over NATS JetStream).

package weft

import (
	"errors"
	"fmt"
	"time"

	"github.com/weft-go/weft/internal/driver"
	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// ErrBadPart is wrapped by the errors of PartExplorer.Explore and
// Coordinator.Join for bytes that are no part or outcome of the
// exploration: corrupt, of another strategy or options, or of another
// version of weft.
var ErrBadPart = errors.New("not a part of this distributed exploration")

// partData is a part: a unit of the strategy and the naming tables of
// the runtime that split it off (engine.Names.Export).
type partData struct {
	Unit   strategy.Unit
	Tables engine.Tables
}

// outcomeData is what the exploration of a part found: the unit's
// handback, the Result, and the naming tables of the runtime that
// explored it.
type outcomeData struct {
	Handback strategy.Handback
	Result   wireResult
	Tables   engine.Tables
}

// wireResult is a Result as encoding/gob sees it.
type wireResult struct {
	Executions, Complete, Cut, Assumed int
	Events                             int64
	Exhausted, TimedOut, Canceled      bool
	Failures                           []*Failure
	FailureCounts                      map[trace.FailureKind]int
	Finals                             *driver.FinalStates
	Branches                           []BranchSite
	Solver                             solver.Stats
	Counters                           []strategy.Counter
	Wall                               time.Duration
}

func wireOf(r *Result) wireResult {
	return wireResult{Executions: r.Executions, Complete: r.Complete, Cut: r.Cut, Assumed: r.Assumed, Events: r.Events,
		Exhausted: r.Exhausted, TimedOut: r.TimedOut, Canceled: r.Canceled, Failures: r.Failures, FailureCounts: r.FailureCounts,
		Finals: &r.finals, Branches: r.Branches, Solver: r.Solver, Counters: r.Counters, Wall: r.Wall}
}

func (w *wireResult) result(name string) *Result {
	r := &Result{Strategy: name, Executions: w.Executions, Complete: w.Complete, Cut: w.Cut, Assumed: w.Assumed, Events: w.Events,
		Exhausted: w.Exhausted, TimedOut: w.TimedOut, Canceled: w.Canceled, Failures: w.Failures, FailureCounts: w.FailureCounts,
		Branches: w.Branches, Solver: w.Solver, Counters: w.Counters, Wall: w.Wall}
	if r.FailureCounts == nil {
		r.FailureCounts = map[trace.FailureKind]int{}
	}
	if w.Finals != nil {
		r.finals = *w.Finals
	}
	r.FinalStates = r.finals.Count()
	return r
}

// partTag names the parts and outcomes of an exploration with strategy
// name; the units inside carry the strategy's own tag and options.
func partTag(name string) string { return "weft-part:" + name }

// splitterOf builds c's strategy, which must divide into units.
func splitterOf(c *config) (strategy.Splitter, error) {
	s, err := c.build()
	if err != nil {
		return nil, err
	}
	if f, ok := strategy.As[strategy.Failer](s); ok && f.Err() != nil {
		return nil, fmt.Errorf("strategy %s: %w", c.strategyName, f.Err())
	}
	sp, ok := s.(strategy.Splitter)
	if !ok || c.strategy != nil {
		if cl, ok := strategy.As[strategy.Closer](s); ok {
			cl.Close()
		}
		return nil, fmt.Errorf("strategy %s does not divide its work into units (strategy.Splitter): it cannot be distributed; choose one of dpor*, flip*, optimal or the concolic ones", c.strategyName)
	}
	return sp, nil
}

// distributedConfig applies opts for a part of a distributed exploration:
// the strategy is optimal unless one is chosen; bounds on executions and
// progress reports do not apply to a part.
func distributedConfig(opts []Option) (config, error) {
	c := defaultConfig()
	for _, o := range opts {
		if err := o(&c); err != nil {
			return c, err
		}
	}
	if !c.strategySet {
		c.strategyName, c.strategySet = "optimal", true
	}
	c.maxRuns, c.progress = 0, nil
	return c, nil
}

// sharedObject returns err, or an error wrapping ErrSharedObject if the
// test body used an object made outside it (names.SharedObject).
func sharedObject(names *engine.Names, err error) error {
	if msg := names.SharedObject(); msg != "" && err == nil {
		return fmt.Errorf("%w: %s", ErrSharedObject, msg)
	}
	return err
}

// A Coordinator explores the root of a distributed exploration of a test
// body: it runs executions of its strategy (Explore), splits units of work
// off as parts for other processes (Split) and joins what they found
// (Join). Bounds on executions (WithMaxRuns) and progress reports do not
// apply. An object the test body uses that is made outside it must have a
// name of its own (its constructor's, or SetName's): every process names
// it by its class and name; others are refused with ErrSharedObject.
type Coordinator struct {
	body    func(*T)
	c       config
	s       strategy.Splitter
	names   *engine.Names
	session *driver.Session
	total   *Result
	start   time.Time
	over    bool // the root's exploration was over at the last Explore
	stopped bool
}

// NewCoordinator returns a Coordinator of the exploration of body with
// opts; its strategy (optimal unless WithStrategy chooses another) must
// divide into units.
func NewCoordinator(body func(*T), opts ...Option) (*Coordinator, error) {
	c, err := distributedConfig(opts)
	if err != nil {
		return nil, err
	}
	s, err := splitterOf(&c)
	if err != nil {
		return nil, err
	}
	k := &Coordinator{body: body, c: c, s: s, names: engine.NewNames(), start: time.Now()}
	k.names.Apart()
	k.session = newSession(body, &k.c, k.names)
	k.total = &Result{Strategy: c.strategyName, FailureCounts: map[trace.FailureKind]int{}}
	return k, nil
}

// Strategy returns the name of the exploration's strategy.
func (k *Coordinator) Strategy() string { return k.c.strategyName }

// Explore runs at most n executions of the root's exploration and reports
// whether it is over (a Join can give it work again). A failure (unless
// KeepGoing), the timeout or the context stops the exploration (Stopped).
func (k *Coordinator) Explore(n int) (over bool, err error) {
	b := &driver.Batch{Strategy: k.s, N: max(n, 1)}
	r, err := explorePart(k.session, k.body, b, &k.c)
	err = sharedObject(k.names, err)
	r.Solver = solver.Stats{} // counted once, at the end
	k.record(r)
	k.over = b.Over
	return b.Over, err
}

// record merges r, a part's Result, and notes whether it stops the
// exploration.
func (k *Coordinator) record(r *Result) {
	k.total.Merge(r)
	if r.TimedOut || r.Canceled || r.Failed() && k.c.stopOnFail || r.FailureCounts[trace.Nondeterminism] > 0 {
		k.stopped = true
	}
}

// Executions returns the executions counted so far: the root's and those
// of the parts joined.
func (k *Coordinator) Executions() int { return k.total.Executions }

// Stopped reports whether a failure (unless KeepGoing), a divergence, the
// timeout or the context stopped the exploration.
func (k *Coordinator) Stopped() bool { return k.stopped }

// Split splits a part off the root's work (strategy.Splitter.Split: the
// deepest state of its path with work left), with the naming tables it
// needs; false if the root has no work to hand out. (Larger units,
// strategy.LargeSplitter's, made optimal repeat more executions: fib n=3,
// 1698 traces, took 11,143 executions on two workers against 3,355.)
func (k *Coordinator) Split() ([]byte, bool, error) {
	u, ok := k.s.Split()
	if !ok {
		return nil, false, nil
	}
	b, err := k.part(u)
	return b, err == nil, err
}

// part wraps unit u as a part.
func (k *Coordinator) part(u strategy.Unit) ([]byte, error) {
	b, err := strategy.EncodeUnit(partTag(k.c.strategyName), &partData{Unit: u, Tables: k.names.Export()})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInternal, err)
	}
	return b, nil
}

// Join takes in the outcome of a part (PartExplorer.Explore): it merges
// its Result, imports its naming tables and joins its handback, and
// returns the parts that adds where the root has moved on. Bytes that are
// no outcome of this exploration are refused with an error wrapping
// ErrBadPart, and nothing of them is taken in.
func (k *Coordinator) Join(outcome []byte) ([][]byte, error) {
	var d outcomeData
	if err := strategy.DecodeHandback(strategy.Handback(outcome), partTag(k.c.strategyName), &d); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadPart, err)
	}
	units, err := k.s.Join(d.Handback)
	if err != nil {
		return nil, fmt.Errorf("%w: joining an outcome of %s: %v", ErrBadPart, k.c.strategyName, err)
	}
	k.names.Import(d.Tables)
	k.record(d.Result.result(k.c.strategyName)) // with the part's solver queries
	parts := make([][]byte, 0, len(units))
	for _, u := range units {
		b, err := k.part(u)
		if err != nil {
			return nil, err
		}
		parts = append(parts, b)
	}
	return parts, nil
}

// Result returns the Result of the exploration so far; exhausted is
// reported if every part split off was joined, the root's exploration is
// over and nothing stopped it.
func (k *Coordinator) Result(joined bool) *Result {
	r := *k.total
	r.Exhausted = joined && k.over && !k.stopped
	r.Wall = time.Since(k.start)
	if ss, ok := strategy.As[strategy.Solving](k.s); ok {
		r.Solver = r.Solver.Add(ss.SolverStats()) // the root's and the units' it resumed here
	}
	if cs, ok := strategy.As[strategy.Counting](k.s); ok {
		r.Counters = nil
		r.addCounters(cs.Counters())
	}
	return &r
}

// Close releases the Coordinator's runtime and strategy.
func (k *Coordinator) Close() {
	k.session.Close()
	if cl, ok := strategy.As[strategy.Closer](k.s); ok {
		cl.Close()
	}
}

// A PartExplorer explores the parts of a distributed exploration of a test
// body in its process, one at a time, in a runtime of its own that
// imports the naming tables each part carries.
type PartExplorer struct {
	body    func(*T)
	c       config
	s       strategy.Splitter // resumes the parts
	names   *engine.Names
	session *driver.Session
}

// NewPartExplorer returns a PartExplorer of body with opts, the options of
// the Coordinator (the strategy and its options must be the same: a part
// of another is refused).
func NewPartExplorer(body func(*T), opts ...Option) (*PartExplorer, error) {
	c, err := distributedConfig(opts)
	if err != nil {
		return nil, err
	}
	s, err := splitterOf(&c)
	if err != nil {
		return nil, err
	}
	x := &PartExplorer{body: body, c: c, s: s, names: engine.NewNames()}
	x.names.Apart()
	x.session = newSession(body, &x.c, x.names)
	return x, nil
}

// Explore explores part to the end and returns its outcome, for
// Coordinator.Join. Bytes that are no part of this exploration are
// refused with an error wrapping ErrBadPart.
func (x *PartExplorer) Explore(part []byte) ([]byte, error) {
	var d partData
	if err := strategy.DecodeUnit(strategy.Unit(part), partTag(x.c.strategyName), &d); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadPart, err)
	}
	w, err := x.s.Resume(d.Unit)
	if err != nil {
		return nil, fmt.Errorf("%w: resuming a part of %s: %v", ErrBadPart, x.c.strategyName, err)
	}
	x.names.Import(d.Tables)
	var before solver.Stats
	ss, solving := strategy.As[strategy.Solving](x.s)
	if solving {
		before = ss.SolverStats() // w shares x.s's solver
	}
	r, err := explorePart(x.session, x.body, w, &x.c)
	if err := sharedObject(x.names, err); err != nil {
		return nil, err
	}
	r.Solver = solver.Stats{}
	if solving {
		r.Solver = ss.SolverStats().Sub(before)
	}
	r.Exhausted = true
	if cs, ok := strategy.As[strategy.Counting](w); ok {
		r.addCounters(cs.Counters())
	}
	b, err := strategy.EncodeHandback(partTag(x.c.strategyName), &outcomeData{Handback: w.Handback(), Result: wireOf(r), Tables: x.names.Export()})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInternal, err)
	}
	return b, nil
}

// Close releases the PartExplorer's runtime and strategy.
func (x *PartExplorer) Close() {
	x.session.Close()
	if cl, ok := strategy.As[strategy.Closer](x.s); ok {
		cl.Close()
	}
}
