// Tests of the indexed reversal: the initials of a race and the conflicts
// with notdep(i) found by binary searches per thread are those of a scan of
// the events between the race's two sides, on the executions of generated
// programs and on random traces with rendezvous and joins.

package dpor

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/strategytest"
	"github.com/weft-go/weft/trace"
)

// reversalCheck compares the indexed reversal with the scan.
type reversalCheck struct {
	checks   int // comparisons of Initials
	partners int // of them, with an event with a partner between i and k
	joins    int // of them, for a pending Join
	mismatch []string
}

// compare compares Initials and StepDepends's conflicts with their scans
// on tr under rel, for every event i, state s_k (i < k) and thread with an
// operation pending in s_k.
func (c *reversalCheck) compare(tr *trace.Trace, rel trace.Relation) {
	var hb trace.HB
	var sw Sweep
	var indexed, scanned Reversal
	hb.Reset(tr, rel)
	sw.Reset(tr)
	indexed.Reset(tr, hb.Steps())
	scanned.x.whole = false
	var fp []trace.Access
	partner := -1 // the last event with a partner before k
	for k := 0; k <= len(tr.Events); k++ {
		for p := range tr.Threads {
			t := trace.ThreadID(p)
			v, ok := sw.Pending(t)
			if !ok {
				continue
			}
			fp = rel.AppendOpAccesses(fp[:0], v, false, false)
			if j := sw.NextEvent(t); j >= 0 {
				fp = append(fp, hb.Steps().Announced(j)...)
			}
			// An access to an object first used after the state, as a
			// sleeper's.
			as := append(slices.Clone(fp), trace.Access{Obj: newObject, Mode: trace.Write})
			for i := range k {
				got := slices.Clone(indexed.Initials(tr, &hb, i, k, t, v, fp))
				want := scanned.Initials(tr, &hb, i, k, t, v, fp)
				c.checks++
				if partner > i {
					c.partners++
				}
				if v.Kind == trace.KindJoin {
					c.joins++
				}
				if !slices.Equal(got, want) {
					c.mismatch = append(c.mismatch, fmt.Sprintf("i %d k %d thread %d: initials %v, scan %v", i, k, p, got, want))
				}
				for objs := range int32(len(tr.Objects)) + 1 {
					g := indexed.notdepConflicts(hb.Steps(), fp, objs)
					w := scanned.notdepConflicts(hb.Steps(), fp, objs)
					gn := indexed.notdepConflicts(hb.Steps(), as, objs)
					wn := scanned.notdepConflicts(hb.Steps(), as, objs)
					if g != w || gn != wn {
						c.mismatch = append(c.mismatch, fmt.Sprintf("i %d k %d thread %d objs %d: conflicts %v %v, scan %v %v", i, k, p, objs, g, gn, w, wn))
					}
				}
			}
		}
		if k < len(tr.Events) {
			if tr.Events[k].Partner != trace.NoThread {
				partner = k
			}
			hb.Step()
			sw.Advance()
		}
	}
}

// report fails t on the first mismatches, or if the number of comparisons
// is not want.
func (c *reversalCheck) report(t *testing.T, want [3]int) {
	t.Helper()
	for _, m := range c.mismatch[:min(len(c.mismatch), 10)] {
		t.Error(m)
	}
	if got := [3]int{c.checks, c.partners, c.joins}; got != want {
		t.Errorf("comparisons (all, with a rendezvous, for a join) %v, want %v", got, want)
	}
}

// crossCheck is a strategy that compares the indexed reversal with the
// scan on each trace before its own Finish.
type crossCheck struct {
	*Strategy
	rel trace.Relation
	reversalCheck
}

func (c *crossCheck) Finish(tr *trace.Trace, end trace.End) {
	c.compare(tr, c.rel)
	c.Strategy.Finish(tr, end)
}

// TestIndexedInitials compares the indexed reversal with the scan on the
// executions dpor+sleep and dpor-cr+sleep run on 100 generated programs
// (variables, locks, WaitGroups, joins), under their relations.
func TestIndexedInitials(t *testing.T) {
	for _, tc := range []struct {
		name string
		rel  trace.Relation
		want [3]int
	}{
		{"dpor+sleep", trace.Plain, [3]int{30094, 0, 5197}},
		{"dpor-cr+sleep", trace.CR, [3]int{21045, 0, 4102}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &crossCheck{rel: tc.rel}
			for seed := uint64(0); seed < 100; seed++ {
				p, ok := strategytest.GenerateWith(seed, gen.V3)
				if !ok {
					continue
				}
				c.Strategy = New(registered[tc.name])
				if _, err := strategytest.Run(strategy.Strategy(c), p, 50); err != nil {
					t.Fatalf("program %d: %v", seed, err)
				}
			}
			c.report(t, tc.want)
		})
	}
}

// randomTrace returns a trace of n random events of four threads (the
// first starts the others before any step, the last is started by the
// second's first event) over two variables and an unbuffered channel:
// loads, stores, rendezvous of a send and a receive, and joins.
func randomTrace(r *rand.Rand, n int) *trace.Trace {
	const threads = 4
	tr := &trace.Trace{
		Threads: []trace.ThreadInfo{{Parent: trace.NoThread, Step: -1}, {Parent: 0, Step: -1}, {Parent: 0, Step: -1}, {Parent: 1, Step: 0}},
		Objects: []trace.ObjectInfo{{Class: trace.ClassVar}, {Class: trace.ClassVar}, {Class: trace.ClassChan}},
		Final:   make([]trace.Op, threads),
	}
	op := func(q trace.ThreadID) trace.Op {
		switch r.IntN(5) {
		case 0:
			return trace.Op{Kind: trace.KindLoad, Class: trace.ClassVar, Obj: trace.ObjectID(r.IntN(2))}
		case 1:
			return trace.Op{Kind: trace.KindJoin, Class: trace.ClassThread, Obj: trace.NoObject, Arg: int64((int(q) + 1) % threads)}
		}
		return trace.Op{Kind: trace.KindStore, Class: trace.ClassVar, Obj: trace.ObjectID(r.IntN(2))}
	}
	for i := range n {
		q := trace.ThreadID(1 + r.IntN(threads-1))
		if i == 0 {
			q = 1
		}
		e := trace.Event{Thread: q, Op: op(q), Case: -1, Partner: trace.NoThread, PartnerCase: -1, OK: true}
		if p := trace.ThreadID(r.IntN(threads)); p != q && r.IntN(4) == 0 {
			e.Op = trace.Op{Kind: trace.KindSend, Class: trace.ClassChan, Obj: 2}
			e.Partner, e.PartnerOp = p, trace.Op{Kind: trace.KindRecv, Class: trace.ClassChan, Obj: 2}
		}
		tr.Events = append(tr.Events, e)
	}
	for q := range tr.Final {
		tr.Final[q] = op(trace.ThreadID(q))
	}
	return tr
}

// TestIndexedInitialsRandom compares the indexed reversal with the scan on
// 200 random traces of 30 events with rendezvous and joins, under Plain
// and CR.
func TestIndexedInitialsRandom(t *testing.T) {
	for _, tc := range []struct {
		rel  trace.Relation
		want [3]int
	}{
		{trace.Plain, [3]int{372000, 260520, 54353}},
		{trace.CR, [3]int{372000, 260520, 54353}},
	} {
		t.Run(fmt.Sprint(tc.rel), func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			var c reversalCheck
			for range 200 {
				c.compare(randomTrace(r, 30), tc.rel)
			}
			c.report(t, tc.want)
		})
	}
}
