// This file implements units of work (strategy.Splitter) for the concolic
// strategy: a subtree not started yet, handed out with the knowledge that
// decides what its exploration negates, and the knowledge that comes back.

package concolic

import (
	"errors"
	"fmt"
	"maps"
	"reflect"

	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// knowledge is what the exploration knows of the combined tree, beyond
// its stack: the sides covered and decided, the queries answered and the
// tries of those that timed out (see negate). A unit carries all of it; a
// handback what its exploration added (Tries: the timeouts it added).
type knowledge struct {
	Covered, Decided map[string]bool
	Answers          map[string]answer
	Tries            map[string]int
}

// unitPayload is what a unit holds: a subtree not started yet (its prefix,
// input vector and branch), and the knowledge of the strategy that split
// it off. The sizes of the prefix's states are not in it: a subtree
// records them in its first execution.
type unitPayload struct {
	Prefix    []step
	Vector    solver.Model
	Thread    trace.ThreadID
	Ord       int
	Side      bool
	Root      bool
	Knowledge knowledge
}

// handbackPayload is what a handback holds: the knowledge the exploration
// of a unit added, its counters and its last solver error, if any.
type handbackPayload struct {
	Knowledge knowledge
	Stats     Stats
	LastError string
}

// Split implements strategy.Splitter. It hands out the subtree Next would
// take next, whole, if it has not started: the one on top of the stack,
// or below the finished ones Next would drop, with a copy of the
// strategy's knowledge (the sides covered and decided, the queries
// answered, the tries of those that timed out). A subtree that has
// started is not split (its inner strategy is not a Splitter): Split then
// returns false until Next reaches a subtree that has not.
func (s *Strategy) Split() (strategy.Unit, bool) {
	if s.err != nil || s.cur == nil || s.over || s.Diverged() != nil {
		return nil, false // not begun, over, or ending
	}
	i := len(s.stack) - 1
	for ; i >= 0 && s.stack[i].started; i-- {
		if t := s.stack[i]; !t.done && t.ready {
			return nil, false // it runs: Next takes its next execution
		}
	}
	if i < 0 {
		return nil, false
	}
	t := s.stack[i]
	u, err := strategy.EncodeUnit(s.unitTag(), unitPayload{
		Prefix: t.prefix, Vector: t.vector,
		Thread: t.thread, Ord: t.ord, Side: t.side, Root: t.root,
		Knowledge: knowledge{s.covered, s.decided, s.answers, s.tries},
	})
	if err != nil {
		return nil, false
	}
	clear(s.stack[i:])
	s.stack = s.stack[:i]
	s.home.units++
	return u, true
}

// Resume implements strategy.Splitter. The strategy it returns explores
// the unit's subtree and every subtree it opens, with the unit's
// knowledge, a fresh inner strategy from s's factory, and s's solver,
// which it shares: explore s and the strategies resumed on it from one
// goroutine at a time, or call Resume on a strategy built for the
// goroutine that explores the unit. It does not change s's exploration.
func (s *Strategy) Resume(u strategy.Unit) (strategy.Splitter, error) {
	if s.err != nil {
		return nil, fmt.Errorf("concolic: resuming a unit: %w", s.err)
	}
	if s.home.closed {
		return nil, errors.New("concolic: resuming a unit: the solver is closed")
	}
	var p unitPayload
	if err := strategy.DecodeUnit(u, s.unitTag(), &p); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%w: %v", strategy.ErrBadUnit, err)
	}
	k := p.Knowledge.orEmpty()
	r := &Strategy{
		newInner: s.newInner, solver: s.solver, home: s.home, resumed: true, tag: s.tag,
		covered: maps.Clone(k.Covered), decided: maps.Clone(k.Decided),
		answers: maps.Clone(k.Answers), tries: maps.Clone(k.Tries),
		base: k,
	}
	if p.Vector == nil {
		p.Vector = solver.Model{}
	}
	r.push(&subtree{prefix: p.Prefix, vector: p.Vector, thread: p.Thread, ord: p.Ord, side: p.Side, root: p.Root})
	return r, nil
}

// check reports what makes p no unit of a concolic strategy.
func (p *unitPayload) check() error {
	for _, f := range p.Prefix {
		if f.Thread < 0 || f.Alt < 0 {
			return fmt.Errorf("a prefix step runs thread %d, alternative %d", f.Thread, f.Alt)
		}
	}
	switch {
	case p.Root && len(p.Prefix) > 0:
		return errors.New("the root subtree has a prefix")
	case !p.Root && (p.Thread < 0 || p.Ord < 0):
		return fmt.Errorf("the subtree's branch is branch %d of thread %d", p.Ord, p.Thread)
	}
	return p.Knowledge.check()
}

// check reports what makes k no knowledge of a concolic strategy.
func (k *knowledge) check() error {
	for _, n := range k.Tries {
		if n < 0 {
			return fmt.Errorf("a query tried %d times", n)
		}
	}
	return nil
}

// orEmpty returns k with empty maps for those it lacks (encoding/gob does
// not send empty maps).
func (k knowledge) orEmpty() knowledge {
	if k.Covered == nil {
		k.Covered = map[string]bool{}
	}
	if k.Decided == nil {
		k.Decided = map[string]bool{}
	}
	if k.Answers == nil {
		k.Answers = map[string]answer{}
	}
	if k.Tries == nil {
		k.Tries = map[string]int{}
	}
	return k
}

// Handback implements strategy.Splitter: the knowledge s added to what its
// unit brought (sides covered and decided, queries answered, timeouts),
// its Stats and its last solver error; nil for a strategy not resumed from
// a unit.
func (s *Strategy) Handback() strategy.Handback {
	if !s.resumed {
		return nil
	}
	p := handbackPayload{Stats: s.stats, Knowledge: knowledge{
		Covered: added(s.covered, s.base.Covered),
		Decided: added(s.decided, s.base.Decided),
		Answers: added(s.answers, s.base.Answers),
		Tries:   map[string]int{},
	}}
	for q, n := range s.tries {
		if d := n - s.base.Tries[q]; d > 0 {
			p.Knowledge.Tries[q] = d
		}
	}
	if s.lastErr != nil {
		p.LastError = s.lastErr.Error()
	}
	h, err := strategy.EncodeHandback(s.tag, p)
	if err != nil {
		return nil // Join refuses it: the failure shows there
	}
	return h
}

// added returns the entries of m whose keys base lacks (the knowledge
// maps only grow: an entry, once set, keeps its value).
func added[V any](m, base map[string]V) map[string]V {
	a := map[string]V{}
	for k, v := range m {
		if _, ok := base[k]; !ok {
			a[k] = v
		}
	}
	return a
}

// Join implements strategy.Splitter: it takes in the knowledge of h as if
// s had found it itself, and adds its Stats to s's. The knowledge is not
// tied to s's path, so Join returns no units.
func (s *Strategy) Join(h strategy.Handback) ([]strategy.Unit, error) {
	if s.err != nil {
		return nil, fmt.Errorf("concolic: joining a handback: %w", s.err)
	}
	var p handbackPayload
	if err := strategy.DecodeHandback(h, s.unitTag(), &p); err != nil {
		return nil, err
	}
	if err := p.Knowledge.check(); err != nil {
		return nil, fmt.Errorf("%w: %v", strategy.ErrBadUnit, err)
	}
	for k := range p.Knowledge.Covered {
		s.covered[k] = true
	}
	for k := range p.Knowledge.Decided {
		s.decided[k] = true
	}
	for k, a := range p.Knowledge.Answers {
		if _, ok := s.answers[k]; !ok {
			s.answers[k] = a
		}
	}
	for k, n := range p.Knowledge.Tries {
		s.tries[k] += n
	}
	s.stats.add(p.Stats)
	if p.LastError != "" {
		s.lastErr = errors.New(p.LastError)
	}
	if s.home.units > 0 {
		s.home.units--
	}
	s.home.release()
	return nil, nil
}

// release closes the solver once the exploration of s, the strategy that
// built it, is over and every unit handed out by s or by a strategy
// resumed from one has been joined.
func (s *Strategy) release() {
	if s.home == s && s.over && s.units == 0 {
		s.Close()
	}
}

// unitTag returns the tag of s's units: "concolic/" and the inner
// strategy's type, with its options if it has an Options method (as
// package dpor's strategies do), which build one inner strategy the first
// time. Options an inner strategy does not return (optimal's seed) are
// not in it: a unit of a concolic strategy is accepted by one whose inner
// strategy has the same type and differs in them.
func (s *Strategy) unitTag() string {
	if s.tag == "" {
		in := s.newInner()
		s.tag = fmt.Sprintf("concolic/%T", in)
		if m := reflect.ValueOf(in).MethodByName("Options"); m.IsValid() && m.Type().NumIn() == 0 && m.Type().NumOut() == 1 {
			s.tag += fmt.Sprintf("%+v", m.Call(nil)[0].Interface())
		}
	}
	return s.tag
}

// add adds the counters of b to a.
func (a *Stats) add(b Stats) {
	a.Subtrees += b.Subtrees
	a.Executions += b.Executions
	a.Branches += b.Branches
	a.Negations += b.Negations
	a.Pruned += b.Pruned
	a.TimedOut += b.TimedOut
	a.Errors += b.Errors
	a.Covered += b.Covered
	a.Reused += b.Reused
	a.Deviated += b.Deviated
	a.Diverged += b.Diverged
	a.Repeated += b.Repeated
}
