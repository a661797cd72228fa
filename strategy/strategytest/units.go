// This file implements RunUnits, an exploration divided into units of
// work (strategy.Splitter), and Units, its check against an undivided one.

package strategytest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// UnitOptions say how RunUnits divides an exploration.
type UnitOptions struct {
	// Every: after every Every-th execution of a strategy, it splits off a
	// unit. 0 means 1.
	Every int
	// Depth bounds the nesting: a strategy resumed from a unit at depth
	// Depth splits no further. 0 means 3.
	Depth int
	// Delay, if not zero, explores a unit only after its splitter has run
	// Delay more executions (or ended), so that the splitter moves on
	// while the unit waits: its handback then finds states the splitter
	// has left, and Join returns new units for them. Zero explores and
	// joins each unit at once, which must give exactly the undivided
	// exploration.
	Delay int
	// Limit bounds the executions of the whole exploration; 0 means
	// 100,000.
	Limit int
	// Large splits with SplitLarge (strategy.LargeSplitter), where the
	// strategies have it: the shallowest state's branches, while the
	// splitter goes on below.
	Large bool
	// Mail routes letters (strategy.Mailer), where the strategies have
	// them: a unit whose strategy waits for a letter (AwaitsMail) lets the
	// strategies below it go on until one comes.
	Mail bool
}

// UnitStats counts what RunUnits did.
type UnitStats struct {
	// Units is the number of units explored; Orphans those of them that
	// Join returned; MaxDepth the deepest nesting.
	Units, Orphans, MaxDepth int
}

// RunUnits explores p with s as Run does, dividing the exploration as o
// says (Divide). The Result counts the executions of every strategy
// involved. It reports an error if a strategy chose a thread that is not
// enabled, or if Resume or Join failed.
func RunUnits(s strategy.Splitter, p *Program, o UnitOptions) (*Result, UnitStats, error) {
	d := Divide(s, o)
	limit := o.Limit
	if limit <= 0 {
		limit = 100_000
	}
	r, err := Run(d, p, limit)
	if err == nil {
		err = d.Err()
	}
	return r, d.Stats(), err
}

// Divided is a strategy that explores what another one would, divided into
// units of work (Divide).
type Divided struct {
	o     UnitOptions
	root  strategy.Splitter
	stack []*divFrame // the strategies with work left, children above their parents
	cur   *divFrame   // the strategy of the current execution
	err   error
	st    UnitStats
}

// divFrame is a strategy of a divided exploration: the root, or one resumed
// from a unit, which its parent joins.
type divFrame struct {
	s      strategy.Splitter
	parent *divFrame
	depth  int
	runs   int
	split  bool // an execution ended: split before the next one
	queue  []waiting
	// children counts the units it split off (or Join gave it) that are
	// resumed and not joined yet; units counts those Split and SplitLarge
	// gave, the number of the next (strategy.Mailer).
	children, units int
	// kids are its resumed units by number, letters those written to
	// units not resumed yet, and mail the letters for it not taken in.
	kids    map[int]*divFrame
	letters map[int][][]byte
	mail    [][]byte
	// awaits says its last Next returned false to wait for a letter,
	// waits that it did to wait for its units.
	awaits, waits bool
}

// blocked reports whether f can do nothing until a letter comes or one of
// its units is joined.
func (f *divFrame) blocked() bool {
	return f.awaits && len(f.mail) == 0 || f.waits
}

// waiting is a unit split off but not explored yet, how many more
// executions its splitter runs before it is, and its number among the
// units its splitter split off (-1: one Join gave).
type waiting struct {
	unit   strategy.Unit
	after  int
	orphan bool
	number int
}

// Divide returns a strategy that explores what s would, divided into units
// of work as o says, each explored in turn by a strategy s.Resume returns:
// after every o.Every-th execution of a strategy, it splits off a unit;
// the unit is explored at once (or, with o.Delay, after its splitter has
// run o.Delay more executions); when a unit is explored, its handback is
// joined, and the units Join returns are explored next. With o.Mail, it
// routes letters between mailers (strategy.Mailer), and runs the
// strategy nearest the top of its stack that has work it may do. Run it as
// any strategy (Run, weft.WithCustomStrategy); o.Limit is not used (bound
// the executions where it runs). Err reports a failure of Resume, Join or
// Receive, which ends the exploration.
func Divide(s strategy.Splitter, o UnitOptions) *Divided {
	if o.Every <= 0 {
		o.Every = 1
	}
	if o.Depth <= 0 {
		o.Depth = 3
	}
	if m, ok := s.(strategy.Mailer); ok && o.Mail {
		m.EnableMail()
	}
	return &Divided{o: o, root: s, stack: []*divFrame{{s: s}}}
}

// Err returns why the exploration ended early (Resume or Join failed), or
// nil.
func (d *Divided) Err() error { return d.err }

// Stats returns what the division did so far.
func (d *Divided) Stats() UnitStats { return d.st }

// Unwrap returns the strategy divided, so that strategy.As finds its
// capabilities (a solver's statistics, Close).
func (d *Divided) Unwrap() strategy.Strategy { return d.root }

// Next implements strategy.Strategy.
func (d *Divided) Next() bool {
	for d.err == nil && len(d.stack) > 0 {
		i := len(d.stack) - 1
		for i >= 0 && d.stack[i].blocked() {
			i--
		}
		if i < 0 {
			d.err = fmt.Errorf("every strategy waits for a letter or for its units")
			break
		}
		f := d.stack[i]
		if len(f.mail) > 0 {
			d.receive(f)
			continue
		}
		if len(f.queue) > 0 && f.queue[0].after <= 0 {
			w := f.queue[0]
			f.queue = f.queue[1:]
			d.resume(f, w)
			continue
		}
		if f.split {
			f.split = false
			if f.depth < d.o.Depth && f.runs%d.o.Every == 0 {
				split := f.s.Split
				if l, ok := f.s.(strategy.LargeSplitter); ok && d.o.Large {
					split = l.SplitLarge
				}
				if u, ok := split(); ok {
					f.queue = append(f.queue, waiting{unit: u, after: d.o.Delay, number: f.units})
					f.units++
					d.post(f)
					continue
				}
			}
		}
		next := f.s.Next()
		d.post(f)
		if next {
			d.cur = f
			return true
		}
		if m, ok := f.s.(strategy.Mailer); ok && d.o.Mail && m.AwaitsMail() {
			f.awaits = true
			continue
		}
		if len(f.queue) > 0 {
			f.queue[0].after = 0 // f is done: its units wait no longer
			continue
		}
		if f.children > 0 {
			f.waits = true // for its units, which wait for its letters
			continue
		}
		d.stack = slices.Delete(d.stack, i, i+1)
		parent := f.parent
		if parent == nil {
			break
		}
		parent.children--
		parent.waits = false
		orphans, err := parent.s.Join(f.s.Handback())
		if err != nil {
			d.err = fmt.Errorf("joining a unit's handback: %w", err)
			break
		}
		d.post(parent)
		ws := make([]waiting, len(orphans))
		for i, o := range orphans {
			ws[i] = waiting{unit: o, orphan: true, number: -1}
		}
		parent.queue = append(ws, parent.queue...)
	}
	d.cur = nil
	return false
}

// post routes the letters f's strategy wrote since the last look.
func (d *Divided) post(f *divFrame) {
	m, ok := f.s.(strategy.Mailer)
	if !ok || !d.o.Mail {
		return
	}
	for _, l := range m.Letters() {
		if k := f.kids[l.Unit]; k != nil {
			k.mail = append(k.mail, l.Data)
			continue
		}
		if f.letters == nil {
			f.letters = map[int][][]byte{}
		}
		f.letters[l.Unit] = append(f.letters[l.Unit], l.Data)
	}
}

// receive gives f's strategy the letters for it.
func (d *Divided) receive(f *divFrame) {
	m := f.s.(strategy.Mailer)
	for _, l := range f.mail {
		if err := m.Receive(l); err != nil {
			d.err = fmt.Errorf("receiving a letter: %w", err)
			return
		}
	}
	f.mail, f.awaits, f.waits = nil, false, false
}

// resume pushes a strategy resumed from w's unit, split off by f.
func (d *Divided) resume(f *divFrame, w waiting) {
	s, err := f.s.Resume(w.unit)
	if err != nil {
		d.err = fmt.Errorf("resuming a unit: %w", err)
		return
	}
	d.st.Units++
	if w.orphan {
		d.st.Orphans++
	}
	k := &divFrame{s: s, parent: f, depth: f.depth + 1}
	f.children++
	if w.number >= 0 {
		if f.kids == nil {
			f.kids = map[int]*divFrame{}
		}
		f.kids[w.number] = k
		k.mail = f.letters[w.number]
		delete(f.letters, w.number)
	}
	d.stack = append(d.stack, k)
	d.st.MaxDepth = max(d.st.MaxDepth, f.depth+1)
}

// Choose implements strategy.Strategy.
func (d *Divided) Choose(st *strategy.State) strategy.Choice { return d.cur.s.Choose(st) }

// Input implements strategy.Strategy.
func (d *Divided) Input(st *strategy.State, in strategy.InputRequest) uint64 {
	return d.cur.s.Input(st, in)
}

// Finish implements strategy.Strategy.
func (d *Divided) Finish(tr *trace.Trace, end trace.End) {
	f := d.cur
	f.s.Finish(tr, end)
	d.post(f)
	f.runs++
	f.split = true
	for i := range f.queue {
		f.queue[i].after--
	}
}

// Diverged reports the divergence of the strategy of the last execution.
func (d *Divided) Diverged() error {
	if d.cur == nil {
		return nil
	}
	if dv, ok := strategy.As[strategy.Diverger](d.cur.s); ok {
		return dv.Diverged()
	}
	return nil
}

var (
	_ strategy.Wrapper  = (*Divided)(nil)
	_ strategy.Diverger = (*Divided)(nil)
)

// UnitCheck says what Units compares.
type UnitCheck struct {
	// Programs and From choose the programs as in Options (0: 100
	// programs); a program whose undivided exploration runs more than
	// MaxExecutions executions (0: 1000) is replaced by the next one.
	Programs      int
	From          uint64
	MaxExecutions int
	// Every, Depth: as in UnitOptions (0: split after every execution,
	// three levels deep).
	Every, Depth int
	// Large checks SplitLarge too (the strategy must be a
	// strategy.LargeSplitter): its units, explored at once or delayed,
	// reach what the undivided exploration reaches.
	Large bool
}

// Units checks that the strategies newStrategy returns explore generated
// programs divided into units (RunUnits) as they do undivided (Run):
//
//   - a unit explored and joined at once (UnitOptions.Delay 0) gives the
//     same executions: the same counts of executions, cut ones, every
//     maximal and failing trace, failure kind and final state;
//   - units explored while their splitter goes on (Delay 3) reach the
//     same maximal traces, failure kinds and final states (failing traces
//     are prefixes, and which of them an exploration reaches depends on
//     its order);
//   - with c.Large, units split with SplitLarge, explored at once or
//     delayed, reach them too.
//
// It also fails t if no program was divided at all.
func Units(t testing.TB, newStrategy func() strategy.Splitter, c UnitCheck) {
	t.Helper()
	if c.Programs == 0 {
		c.Programs = 100
	}
	if c.MaxExecutions == 0 {
		c.MaxExecutions = 1000
	}
	checked, divided := 0, 0
	for seed := c.From; checked < c.Programs && seed < c.From+uint64(100*c.Programs); seed++ {
		p, ok := Generate(seed)
		if !ok {
			continue
		}
		whole, err := Run(newStrategy(), p, c.MaxExecutions+1)
		if err != nil {
			t.Errorf("seed %d: undivided: %v", seed, err)
			continue
		}
		if !whole.Exhausted {
			continue
		}
		checked++
		for _, o := range []UnitOptions{{Delay: 0}, {Delay: 3}, {Large: true}, {Large: true, Delay: 3}} {
			if o.Large && !c.Large {
				continue
			}
			o.Every, o.Depth = c.Every, c.Depth
			got, st, err := RunUnits(newStrategy(), p, o)
			if err != nil {
				t.Errorf("seed %d, delay %d, large %v: %v", seed, o.Delay, o.Large, err)
				continue
			}
			if st.Units > 0 {
				divided++
			}
			if d := sameExploration(whole, got, o.Delay == 0 && !o.Large); d != "" {
				t.Errorf("seed %d, delay %d, large %v (%d units, %d orphans): divided, the exploration differs:\n\t%s\n%s", seed, o.Delay, o.Large, st.Units, st.Orphans, d, p)
			}
		}
	}
	if checked < c.Programs {
		t.Errorf("checked %d programs, want %d", checked, c.Programs)
	}
	if divided == 0 {
		t.Errorf("no exploration was divided: Split never handed out a unit")
	}
}

// sameExploration describes how got, a divided exploration, differs from
// want, the undivided one: in every count if exact, else in what they
// reach; "" if it does not.
func sameExploration(want, got *Result, exact bool) string {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if !got.Exhausted {
		fail("the divided exploration did not end")
	}
	if exact {
		if d := extra(want.Failing, got.Failing) + extra(got.Failing, want.Failing); d != "" {
			fail("failing traces differ: %s", d)
		}
		if got.Executions != want.Executions || got.Complete != want.Complete || got.Cut != want.Cut {
			fail("%d executions (%d complete, %d cut), want %d (%d, %d)", got.Executions, got.Complete, got.Cut, want.Executions, want.Complete, want.Cut)
		}
		if !maps.Equal(got.Traces, want.Traces) || !maps.Equal(got.Failing, want.Failing) || !maps.Equal(got.Failures, want.Failures) {
			fail("traces or failures explored a different number of times: %v %v, want %v %v", got.Failures, got.Traces, want.Failures, want.Traces)
		}
	}
	for _, d := range []struct {
		what     string
		got, ref string
	}{
		{"maximal traces", extra(want.Traces, got.Traces), extra(got.Traces, want.Traces)},
		{"final states", extra(want.Finals, got.Finals), extra(got.Finals, want.Finals)},
		{"failure kinds", extra(map[trace.FailureKind]int(want.Failures), got.Failures), extra(got.Failures, want.Failures)},
	} {
		if d.got != "" {
			fail("%s the undivided exploration does not reach: %s", d.what, d.got)
		}
		if d.ref != "" {
			fail("missed %s: %s", d.what, d.ref)
		}
	}
	return strings.Join(errs, "\n\t")
}
