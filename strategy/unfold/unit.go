// This file implements units of work (strategy.Splitter): a unit is the
// next test, with the log of what the strategy did before it, from which
// a strategy with the same options rebuilds the same unfolding.

package unfold

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

var _ strategy.Splitter = (*Strategy)(nil)

// maxLogEvents bounds the events of the executions a strategy keeps in
// its log for units: past it, the log is dropped and Split hands out no
// more units.
const maxLogEvents = 1 << 16

// wireExec is an execution as the log keeps it: the parts of its trace
// the unfolding is built from, and how it ended.
type wireExec struct {
	Events  []trace.Event
	Threads []trace.ThreadInfo
	Objects []trace.ObjectInfo
	Final   []trace.Op
	Evals   []trace.AwaitEval
	Merged  []trace.KeyMerge
	End     trace.End
}

// logEntry is a call the strategy's state depends on: a Next (Kind 'n',
// its result OK and target), a Finish ('f') or a Join ('j', of a test of
// target Target) with its execution.
type logEntry struct {
	Kind   byte
	OK     bool
	Target int32
	Exec   *wireExec
}

// unitData is a unit: the log of the strategy that split it, up to the
// Next that took the unit's test, and the state of its random order.
type unitData struct {
	Log  []logEntry
	Rand []byte
}

// handbackData is what a unit hands back: its test, if it ran one, and
// the target it ran for.
type handbackData struct {
	Ran    bool
	Target int32
	Exec   wireExec
}

// unitState is a strategy's part in units: its log (nil once dropped:
// noLog says why), and for a strategy resumed from a unit, whether it
// took its test and the test's execution.
type unitState struct {
	log       []logEntry
	logEvents int
	noLog     string
	resumed   bool
	took      bool
	ran       *wireExec
	ranTarget int32
}

// tag names the strategy and its options for units.
func (s *Strategy) tag() string {
	return fmt.Sprintf("unfold(seed=%d,naive=%v,nodeadlocks=%v,plain=%v)", s.opts.Seed, s.opts.Naive, s.opts.NoDeadlocks, s.opts.Plain)
}

// logNext logs a call of Next that returned ok.
func (s *Strategy) logNext(ok bool) {
	if s.u.noLog == "" && !s.u.resumed {
		s.u.log = append(s.u.log, logEntry{Kind: 'n', OK: ok, Target: s.target})
	}
}

// logExec logs a Finish (kind 'f') or a Join ('j') of tr, which ended so,
// unless the log was dropped; a program that reads inputs drops it (its
// tests need their models and the expressions of its branches), and so
// does one whose executions pass maxLogEvents.
func (s *Strategy) logExec(kind byte, tr *trace.Trace, end trace.End) {
	u := &s.u
	if u.noLog != "" {
		return
	}
	switch {
	case len(tr.Inputs) > 0 || len(tr.Branches) > 0:
		u.noLog = "the program reads inputs"
	case u.logEvents+len(tr.Events) > maxLogEvents:
		u.noLog = fmt.Sprintf("its executions passed %d events", maxLogEvents)
	}
	if u.noLog != "" {
		u.log = nil
		return
	}
	x := wireOf(tr, end)
	if u.resumed {
		u.ran, u.ranTarget = x, s.target
		return
	}
	u.logEvents += len(tr.Events)
	u.log = append(u.log, logEntry{Kind: kind, Target: s.target, Exec: x})
}

// wireOf copies what the unfolding is built from of tr, which ended so.
func wireOf(tr *trace.Trace, end trace.End) *wireExec {
	x := &wireExec{
		Events:  slices.Clone(tr.Events),
		Threads: slices.Clone(tr.Threads),
		Objects: slices.Clone(tr.Objects),
		Final:   slices.Clone(tr.Final),
		Evals:   slices.Clone(tr.Evals),
		Merged:  slices.Clone(tr.Merged),
		End:     end,
	}
	for i := range x.Events {
		x.Events[i].Op.Cases = slices.Clone(x.Events[i].Op.Cases)
		x.Events[i].PartnerOp.Cases = slices.Clone(x.Events[i].PartnerOp.Cases)
	}
	for i := range x.Final {
		x.Final[i].Cases = slices.Clone(x.Final[i].Cases)
	}
	for i := range x.Evals {
		x.Evals[i].Reads = slices.Clone(x.Evals[i].Reads)
	}
	return x
}

// trace returns the trace of x.
func (x *wireExec) trace() *trace.Trace {
	return &trace.Trace{Events: x.Events, Threads: x.Threads, Objects: x.Objects, Final: x.Final, Evals: x.Evals, Merged: x.Merged}
}

// Split implements strategy.Splitter: it hands out the test Next would
// run next, with the log of the calls that built s's unfolding, and goes
// on as if it had run it. A strategy resumed from a unit, one whose
// program reads inputs, or whose log passed maxLogEvents, does not split.
func (s *Strategy) Split() (strategy.Unit, bool) {
	if s.err != nil || !s.started || s.u.resumed || s.u.noLog != "" {
		return nil, false
	}
	d := unitData{Log: s.u.log}
	if s.pcg != nil {
		b, err := s.pcg.MarshalBinary()
		if err != nil {
			panic("weft internal error: unfold: " + err.Error())
		}
		d.Rand = b
	}
	u, err := strategy.EncodeUnit(s.tag(), &d)
	if err != nil {
		panic("weft internal error: unfold: " + err.Error())
	}
	if !s.Next() {
		return nil, false
	}
	return u, true
}

// Resume implements strategy.Splitter: a strategy with s's options that
// replays the unit's log, building the unfolding of the strategy that
// split it, and then runs the unit's test alone.
func (s *Strategy) Resume(u strategy.Unit) (strategy.Splitter, error) {
	var d unitData
	if err := strategy.DecodeUnit(u, s.tag(), &d); err != nil {
		return nil, err
	}
	r := New(s.opts)
	r.n.sym.newSolver = s.opts.NewSolver
	r.u.resumed = true
	for i, e := range d.Log {
		if err := r.replay(e); err != nil {
			return nil, fmt.Errorf("%w: a unit of %s whose log does not replay at its entry %d: %v", strategy.ErrBadUnit, s.tag(), i, err)
		}
	}
	r.u.ran = nil
	if r.pcg != nil && d.Rand != nil {
		if err := r.pcg.UnmarshalBinary(d.Rand); err != nil {
			return nil, fmt.Errorf("%w: a unit of %s with a bad random state: %v", strategy.ErrBadUnit, s.tag(), err)
		}
	}
	return r, nil
}

// replay makes the call of log entry e.
func (s *Strategy) replay(e logEntry) error {
	switch e.Kind {
	case 'n':
		if ok := s.nextTest(); ok != e.OK || ok && s.target != e.Target {
			return fmt.Errorf("Next gave (%v, target %d), the log (%v, %d)", ok, s.target, e.OK, e.Target)
		}
	case 'f', 'j':
		if e.Exec == nil {
			return fmt.Errorf("an execution is missing")
		}
		if e.Kind == 'j' {
			s.reset(e.Target, nil)
		}
		s.Finish(e.Exec.trace(), e.Exec.End)
	default:
		return fmt.Errorf("an entry of kind %q", e.Kind)
	}
	if s.err != nil {
		return s.err
	}
	return nil
}

// Handback implements strategy.Splitter: nil for a strategy not resumed
// from a unit; otherwise the unit's test, which the splitter models as if
// it had run it.
func (s *Strategy) Handback() strategy.Handback {
	if !s.u.resumed {
		return nil
	}
	d := handbackData{Ran: s.u.ran != nil, Target: s.u.ranTarget}
	if s.u.ran != nil {
		d.Exec = *s.u.ran
	}
	h, err := strategy.EncodeHandback(s.tag(), &d)
	if err != nil {
		panic("weft internal error: unfold: " + err.Error())
	}
	return h
}

// Join implements strategy.Splitter: it models the unit's test, as Finish
// would have, in s's unfolding. A unit adds no other work.
func (s *Strategy) Join(h strategy.Handback) ([]strategy.Unit, error) {
	var d handbackData
	if err := strategy.DecodeHandback(h, s.tag(), &d); err != nil {
		return nil, err
	}
	if !d.Ran || s.err != nil {
		return nil, nil
	}
	size := s.n.size
	s.reset(d.Target, nil)
	s.finish(d.Exec.trace(), d.Exec.End, 'j')
	if s.n.size > size {
		// A unit joined after s went on may add events to a searched
		// unfolding: search it again (the deadlocks an execution
		// reached are not run again).
		s.searched = false
	}
	return nil, nil
}

// newPCG returns the random source of Options.Seed.
func newPCG(seed int64) *rand.PCG { return rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15) }
