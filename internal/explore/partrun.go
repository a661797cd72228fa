// This file implements what the Coordinator and a Part share: one part of
// a distributed exploration (the root, or a part handed out) explored in
// batches, which splits parts of its own off and joins their outcomes.

package explore

import (
	"fmt"
	"maps"
	"slices"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
)

// partRun explores one part of a distributed exploration with strategy s
// in a runtime (session) whose naming tables are names.
type partRun struct {
	body    func()
	c       *Config
	s       strategy.Splitter
	names   *engine.Names
	session *Session
	// solving is the solver s uses (shared with the other strategies of
	// its process), nil if none: each batch counts the queries it made.
	solving strategy.Solving
	total   *Result
	over    bool // the exploration was over at the last batch, and no join came since
	stopped bool
}

func newPartRun(body func(), c *Config, s strategy.Splitter, names *engine.Names, session *Session) partRun {
	p := partRun{body: body, c: c, s: s, names: names, session: session,
		total: newResult(c.Strategy)}
	p.solving = solverOf(s)
	return p
}

// explore runs at most n executions (all that are left if n < 0) and
// reports whether the exploration is over.
func (p *partRun) explore(n int) (bool, error) {
	var before solver.Stats
	if p.solving != nil {
		before = p.solving.SolverStats()
	}
	b := &Batch{Strategy: p.s, N: n}
	r, err := ExplorePart(p.session, p.body, b, p.c)
	err = sharedObject(p.names, err)
	r.Solver = solver.Stats{}
	if p.solving != nil {
		r.Solver = p.solving.SolverStats().Sub(before)
	}
	r.Counters = nil // the strategy's own, counted once, at the end
	p.record(r)
	p.over = b.Over
	return b.Over, err
}

// record merges r, a batch's Result or a joined part's, and notes
// whether it stops the exploration.
func (p *partRun) record(r *Result) {
	p.total.Merge(r)
	if r.TimedOut || r.Canceled || p.total.StopsAt(p.c.StopOnFail) {
		p.stopped = true
	}
}

// split splits a part off the work left (strategy.Splitter.Split: the
// deepest state of the path with work left), with the naming tables it
// needs; false if there is none.
func (p *partRun) split() ([]byte, bool, error) {
	u, ok := p.s.Split()
	if !ok {
		return nil, false, nil
	}
	b, err := p.part(u)
	return b, err == nil, err
}

// splitLarge splits a large part off the work left: the branches left at
// the shallowest state of the path that has any
// (strategy.LargeSplitter.SplitLarge), or, for a strategy that cannot,
// split's.
func (p *partRun) splitLarge() ([]byte, bool, error) {
	l, ok := p.s.(strategy.LargeSplitter)
	if !ok {
		return p.split()
	}
	u, ok := l.SplitLarge()
	if !ok {
		return nil, false, nil
	}
	b, err := p.part(u)
	return b, err == nil, err
}

// part wraps unit u as a part.
func (p *partRun) part(u strategy.Unit) ([]byte, error) {
	b, err := strategy.EncodeUnit(partTag(p.c.Strategy), &partData{Unit: u, Tables: p.names.Export()})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInternal, err)
	}
	return b, nil
}

// join takes in the outcome of a part split off here: it merges its
// Result, imports its naming tables, joins its handback, and returns the
// parts that adds where the exploration has moved on. Bytes that are no
// outcome of this exploration are refused with an error wrapping
// ErrBadPart, and nothing of them is taken in.
func (p *partRun) join(outcome []byte) ([][]byte, error) {
	var d outcomeData
	if err := strategy.DecodeHandback(strategy.Handback(outcome), partTag(p.c.Strategy), &d); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadPart, err)
	}
	units, err := p.s.Join(d.Handback)
	if err != nil {
		return nil, fmt.Errorf("%w: joining an outcome of %s: %v", ErrBadPart, p.c.Strategy, err)
	}
	p.names.Import(d.Tables)
	p.record(d.Result.result(p.c.Strategy))
	p.over = false // a join can give the exploration work again
	parts := make([][]byte, 0, len(units))
	for _, u := range units {
		b, err := p.part(u)
		if err != nil {
			return nil, err
		}
		parts = append(parts, b)
	}
	return parts, nil
}

// result returns the Result so far, with the strategy's counters.
func (p *partRun) result() *Result {
	r := *p.total
	r.FailureCounts = maps.Clone(r.FailureCounts)
	r.Counters = slices.Clone(r.Counters)
	r.addCounters(counters(p.s))
	return &r
}

// letters returns the letters the strategy wrote since the last call.
func (p *partRun) letters() []strategy.Letter {
	if m := mailer(p.s); m != nil {
		return m.Letters()
	}
	return nil
}

// receive gives the strategy letter l, for the part it explores; an error
// wraps ErrBadPart.
func (p *partRun) receive(l []byte) error {
	m := mailer(p.s)
	if m == nil {
		return fmt.Errorf("%w: a letter for strategy %s, which takes none", ErrBadPart, p.c.Strategy)
	}
	if err := m.Receive(l); err != nil {
		return fmt.Errorf("%w: %v", ErrBadPart, err)
	}
	p.over = false // the letter can give the exploration work again
	return nil
}

// awaitsMail reports whether the exploration waits for a letter: its last
// batch ended over, but a letter can give it work.
func (p *partRun) awaitsMail() bool {
	m := mailer(p.s)
	return m != nil && m.AwaitsMail()
}
