// This file checks the runtime against package model, the model of every
// primitive: each execution is replayed step by step through the model,
// which must give, in every state, the threads the runtime found enabled,
// the alternatives it offered (in its order, with their cases and
// partners), and each event's outcome as recorded: its result, the event
// it synchronises with, the failure it raises, the thread's next
// operation where the primitive decides it.

package weft_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/random"
	"github.com/weft-go/weft/trace"
)

var checkSources = true

// modelChecker wraps a strategy: it records the state the runtime shows at
// each Choose and checks each finished execution against the model.
type modelChecker struct {
	strategy.Strategy
	steps []stepView
	// errs are the disagreements found, at most a few per exploration.
	errs  []string
	execs int
	state model.State
}

// stepView is the state the runtime showed a strategy before one step.
type stepView struct {
	threads []strategy.Thread
	alts    [][]strategy.Alternative
}

// Next implements strategy.Strategy.
func (c *modelChecker) Next() bool {
	c.steps = c.steps[:0]
	return c.Strategy.Next()
}

// Choose implements strategy.Strategy: it records st.
func (c *modelChecker) Choose(st *strategy.State) strategy.Choice {
	if st.Step != len(c.steps) {
		c.errorf(st.Trace, "Choose for step %d after %d states", st.Step, len(c.steps))
	}
	v := stepView{}
	for p, t := range st.Threads {
		t.Op.Cases = slices.Clone(t.Op.Cases)
		v.threads = append(v.threads, t)
		var as []strategy.Alternative
		for a := range t.Alts {
			as = append(as, st.Alternatives.Alternative(trace.ThreadID(p), a))
		}
		v.alts = append(v.alts, as)
	}
	c.steps = append(c.steps, v)
	return c.Strategy.Choose(st)
}

// Finish implements strategy.Strategy: it replays tr through the model.
func (c *modelChecker) Finish(tr *trace.Trace, end trace.End) {
	c.execs++
	if len(c.errs) < 5 {
		c.check(tr, end)
	}
	c.Strategy.Finish(tr, end)
}

func (c *modelChecker) errorf(tr *trace.Trace, format string, args ...any) {
	if len(c.errs) < 5 {
		c.errs = append(c.errs, fmt.Sprintf(format, args...)+"\n\ttrace: "+trace.Foata(tr, trace.CR))
	}
}

// check replays execution tr, which ended with end, through the model.
func (c *modelChecker) check(tr *trace.Trace, end trace.End) {
	s := &c.state
	s.Reset(tr.Objects, len(tr.Threads))
	s.Evals = tr.Evals
	s.Timed = true
	predicted := false // the failure that ended the execution was the model's
	for i := 0; i <= len(tr.Events); i++ {
		if i < len(c.steps) {
			if !c.checkState(tr, i, &c.steps[i]) {
				return
			}
		} else if i < len(tr.Events) {
			c.errorf(tr, "step %d: no state recorded", i)
			return
		}
		if i == len(tr.Events) {
			break
		}
		ev := &tr.Events[i]
		p := ev.Thread
		if i < len(c.steps) {
			// The alternative chosen is the event's case and partner.
			as := c.steps[i].alts[p]
			want := strategy.Alternative{Case: ev.Case, Partner: ev.Partner, PartnerCase: ev.PartnerCase}
			if int(ev.Alt) >= len(as) || as[ev.Alt] != want {
				c.errorf(tr, "step %d: %v %v: alternative %d of %v, the event says %+v", i, p, ev.Op, ev.Alt, as, want)
			}
		}
		if ev.Op.Kind == trace.KindRUnlock {
			if b := s.Objects[ev.Op.Obj].Balanced(p); b != ev.Op.Arg {
				c.errorf(tr, "step %d: %v %v: balanced %d, the model says %d", i, p, ev.Op, ev.Op.Arg, b)
			}
		}
		if ev.Partner != trace.NoThread && !sameOp(ev.PartnerOp, s.Threads[ev.Partner].Op) {
			c.errorf(tr, "step %d: %v %v: partner %v with %v, pending %v in the model", i, p, ev.Op, ev.Partner, ev.PartnerOp, s.Threads[ev.Partner].Op)
		}
		out := s.Outcome(p, ev.Op, model.Alt{Case: ev.Case, Partner: ev.Partner, PartnerCase: ev.PartnerCase})
		if out.OK != ev.OK || (!out.Data && out.Value != ev.Value) || (checkSources && out.Source != int32(ev.Source())) {
			c.errorf(tr, "step %d: %v %v: recorded ok %v value %d source %d, the model says ok %v value %d (data %v) source %d",
				i, p, ev.Op, ev.OK, ev.Value, ev.Source(), out.OK, out.Value, out.Data, out.Source)
		}
		if out.Fail != trace.NoFailure {
			switch {
			case end.Status != trace.Failed || end.Kind != out.Fail || end.Thread != p:
				c.errorf(tr, "step %d: %v %v: the model says it fails with %v, the execution ended %v %v %v", i, p, ev.Op, out.Fail, end.Status, end.Kind, end.Thread)
			case out.Fatal && i != len(tr.Events)-1:
				c.errorf(tr, "step %d: %v %v: the model says it fails fatally, the execution went on", i, p, ev.Op)
			}
			predicted = true
		}
		s.Apply(ev)
		if out.Next.Kind != trace.KindNone && !out.Fatal {
			next := tr.Final[p]
			if i+1 < len(c.steps) {
				next = c.steps[i+1].threads[p].Op
			}
			if !sameOp(next, out.Next) {
				c.errorf(tr, "step %d: %v %v: next %v, the model says %v", i, p, ev.Op, next, out.Next)
			}
		}
	}
	switch end.Kind {
	case trace.UnlockOfUnlocked, trace.SendOnClosed, trace.CloseOfClosed, trace.NegativeWaitGroup:
		if !predicted {
			c.errorf(tr, "the execution failed with %v, which the model did not predict", end.Kind)
		}
	}
	c.checkEnd(tr, end)
}

// checkState compares the model's state before step i with the state v the
// runtime showed, after moving virtual time as the runtime does when no
// thread is enabled. It reports whether they agree.
func (c *modelChecker) checkState(tr *trace.Trace, i int, v *stepView) bool {
	s := &c.state
	for p := range s.Threads {
		t := &s.Threads[p]
		t.Op, t.Done = trace.Op{}, false
		if p < len(v.threads) {
			t.Op, t.Done = v.threads[p].Op, v.threads[p].Done
		}
	}
	for c.enabled() == 0 && s.Advance() {
	}
	ok := true
	for p := range v.threads {
		q := trace.ThreadID(p)
		op := v.threads[p].Op
		var got []strategy.Alternative
		verdict := s.Alternatives(q, op, func(a model.Alt) bool {
			got = append(got, strategy.Alternative{Case: a.Case, Partner: a.Partner, PartnerCase: a.PartnerCase})
			return true
		})
		if verdict == model.Unknown || !slices.Equal(got, v.alts[p]) {
			c.errorf(tr, "step %d: %v %v: the runtime offers %v, the model %v (%v)", i, q, op, v.alts[p], got, verdict)
			ok = false
		}
		if (len(got) > 0) != tr.EnabledAt(i, q) && i < len(tr.Events) {
			c.errorf(tr, "step %d: %v %v: enabled %v in the trace", i, q, op, tr.EnabledAt(i, q))
			ok = false
		}
		if op.Kind == trace.KindRUnlock {
			if b := s.Objects[op.Obj].Balanced(q); b != op.Arg {
				c.errorf(tr, "step %d: %v pending %v: the model says balanced %d", i, q, op, b)
			}
		}
	}
	return ok
}

// enabled returns the number of threads the model finds enabled.
func (c *modelChecker) enabled() int {
	s := &c.state
	n := 0
	for p := range s.Threads {
		if !s.Threads[p].Done && s.Enabled(trace.ThreadID(p), s.Threads[p].Op) == model.Enabled {
			n++
		}
	}
	return n
}

// checkEnd checks the end of the execution against the model's last state:
// a deadlock or leak has no thread enabled, a complete execution every
// thread but timers' finished.
func (c *modelChecker) checkEnd(tr *trace.Trace, end trace.End) {
	s := &c.state
	for p := range s.Threads {
		s.Threads[p].Op = tr.Final[p]
		s.Threads[p].Done = tr.Final[p].Kind == trace.KindNone
	}
	switch {
	case end.Status == trace.Failed && (end.Kind == trace.Deadlock || end.Kind == trace.Leak):
		for c.enabled() == 0 && s.Advance() {
		}
		if n := c.enabled(); n != 0 {
			c.errorf(tr, "%v at the end, where the model finds %d threads enabled", end.Kind, n)
		}
	case end.Status == trace.Complete:
		for p := range s.Threads {
			if !s.Threads[p].Done && !s.Daemon(trace.ThreadID(p)) {
				c.errorf(tr, "complete, with %v pending %v", p, s.Threads[p].Op)
			}
		}
	}
}

// sameOp reports whether a and b are the same operation.
func sameOp(a, b trace.Op) bool {
	return a.Kind == b.Kind && a.Class == b.Class && a.Obj == b.Obj && a.Arg == b.Arg && slices.Equal(a.Cases, b.Cases)
}

// checkModel explores body exhaustively (at most max executions), checking
// every execution against the model. It returns the number of executions.
func checkModel(t *testing.T, name string, body func(w *weft.T), max int) int {
	t.Helper()
	return checkModelWith(t, name, body, exhaustive.New(), max)
}

// checkModelWith is checkModel under strategy s, with opts.
func checkModelWith(t *testing.T, name string, body func(w *weft.T), s strategy.Strategy, max int, opts ...weft.Option) int {
	t.Helper()
	c := &modelChecker{Strategy: s}
	opts = append([]weft.Option{weft.WithCustomStrategy(c), weft.KeepGoing(), weft.WithMaxRuns(max)}, opts...)
	_, err := weft.Explore(body, opts...)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, e := range c.errs {
		t.Errorf("%s: %s", name, e)
	}
	return c.execs
}

// TestModelGen checks the runtime against the model on random programs
// (internal/gen): every execution of small programs of both generators, and
// random executions of larger ones; 60 seeds (300 with WEFT_LONG=1).
func TestModelGen(t *testing.T) {
	t.Parallel()
	n := 300
	if !long.Enabled() {
		n = 60
	}
	execs := 0
	for seed := range uint64(n) {
		for _, o := range []gen.Options{gen.DefaultOptions, gen.V1} {
			p := gen.NewWith(seed, o)
			execs += checkModel(t, fmt.Sprintf("gen v%d seed %d\n%v", o.Version, seed, p), genweft.Body(p), 1000)
		}
		large := gen.Options{MaxEvents: 40, Version: 2}
		p := gen.NewWith(seed, large)
		execs += checkModelWith(t, fmt.Sprintf("gen v2 (40 events) seed %d\n%v", seed, p), genweft.Body(p), random.New(int64(seed)+1), 100)
		if t.Failed() {
			return
		}
	}
	t.Logf("%d executions of %d programs checked", execs, 3*n)
}

// TestModelAnyStep checks the runtime against the model on the timer
// programs, random timed programs (gen.Timed; 30, 100 with WEFT_LONG=1)
// and random ticker programs (genweft.NewTickers, small; 10, 33) with time
// that moves at any step: the clock's advances, the reads of the clock,
// the sleeps' wake-ups and the tickers' re-arming.
func TestModelAnyStep(t *testing.T) {
	t.Parallel()
	execs := 0
	for _, c := range timerPrograms {
		execs += checkModelWith(t, c.Name, c.Body, exhaustive.New(), 20000, weft.WithTime(weft.TimeAnyStep))
	}
	for _, c := range anyStepPrograms {
		execs += checkModelWith(t, c.name, c.body, exhaustive.New(), 20000, weft.WithTime(weft.TimeAnyStep))
	}
	n := 100
	if !long.Enabled() {
		n = 30
	}
	for seed := range uint64(n) {
		p := gen.NewWith(seed, gen.Timed)
		execs += checkModelWith(t, fmt.Sprintf("gen timed seed %d\n%v", seed, p), genweft.Body(p), exhaustive.New(), 1000, weft.WithTime(weft.TimeAnyStep))
	}
	for seed := range uint64(n / 3) {
		p := genweft.NewTickers(seed).Small()
		execs += checkModelWith(t, fmt.Sprintf("ticker %v", p), p.Body(), exhaustive.New(), 1000, weft.WithTime(weft.TimeAnyStep))
	}
	t.Logf("%d executions checked", execs)
}

// TestModelPrograms checks the runtime against the model on hand-written
// programs: those of the soundness tests, the Cond, monitor and timer
// programs of the optimal tests (the *_sem_test.go cases are checked by
// runSemCases), and built-in programs.
func TestModelPrograms(t *testing.T) {
	t.Parallel()
	for _, c := range soundnessCases {
		checkModel(t, c.name, c.body, 20000)
	}
	for _, c := range modelPrograms {
		checkModel(t, c.Name, c.Body, 20000)
	}
	for _, c := range timerPrograms {
		checkModel(t, c.Name, c.Body, 20000)
	}
	for _, c := range []struct {
		name   string
		params map[string]int
	}{
		{"bbmonitor", map[string]int{"producers": 2, "consumers": 2, "slots": 1, "items": 1, "su": 1}},
		{"bbmonitor", map[string]int{"producers": 2, "consumers": 1, "slots": 1, "items": 2, "su": 0}},
		{"bbchan", map[string]int{"producers": 2, "consumers": 2, "capacity": 1}},
		{"bbchan", map[string]int{"producers": 2, "consumers": 2, "capacity": 0}},
		{"dining", map[string]int{"n": 3}},
		{"singlelock", map[string]int{"threads": 3, "rounds": 1}},
	} {
		checkModel(t, fmt.Sprint(c.name, c.params), programs.Lookup(c.name).MustBody(c.params), 20000)
	}
	for _, c := range modelCases {
		checkModel(t, c.name, c.body, 20000)
	}
}
