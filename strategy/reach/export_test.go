// This file exports to the external tests the analysis of one execution:
// its receiving events with their race sets, and the rows of its race
// table, named for reading.

package reach

import (
	"fmt"
	"strings"

	"github.com/weft-go/weft/trace"
)

// Analysis is what reach reads from one execution, named: each receiving
// event (object, position) with its partners and race set, and the rows
// of the race table of the first run (V0, nothing pruned).
type Analysis struct {
	// Events are "object:position = partners {race set}" lines, in the
	// order of the steps; threads are T<ThreadID>#<call>.
	Events []string
	// Heading names the columns of the race table; Rows are its rows as
	// Fig. 7 emits them.
	Heading []string
	Rows    [][]int
}

// Analyse reads the SYN-sequence of tr as the first run of an exploration
// would.
func Analyse(tr *trace.Trace) Analysis {
	var gs groups
	for i := range tr.Events {
		e := &tr.Events[i]
		if joins(e.Op) {
			gs.join(e.Op, tr.Objects)
		}
		if e.Partner != trace.NoThread && joins(e.PartnerOp) {
			gs.join(e.PartnerOp, tr.Objects)
		}
	}
	var a analysis
	a.reset(tr, &gs)
	var rc racer
	rc.reset(&a, &gs)
	name := func(i int) string {
		r, _ := stepRef(tr.Events[i].Op, tr.Events[i].Case, tr.Objects)
		n := tr.Objects[0].Name
		for _, o := range tr.Objects {
			if o.Key == r.key {
				n = o.Name
			}
		}
		switch r.half {
		case input:
			n += ".in"
		case output:
			n += ".out"
		}
		return fmt.Sprintf("%s:%d", n, a.pos[i])
	}
	f := &frame{a: &a, black: make([]bool, len(tr.Events))}
	f.nonBlocking = make([][]bool, a.n)
	for t := range a.n {
		f.nonBlocking[t] = make([]bool, a.calls(int32(t)))
	}
	var out Analysis
	for i := range tr.Events {
		if a.grp[i] < 0 {
			continue
		}
		races := rc.raceSet(i, nil)
		var rs []string
		for _, o := range races {
			rs = append(rs, outcomeString(o))
		}
		out.Events = append(out.Events, fmt.Sprintf("%s = %s {%s}", name(i), outcomeString(a.outcomeOf(i)), strings.Join(rs, ", ")))
		if len(races) > 0 {
			f.cols = append(f.cols, int32(i))
			f.races = append(f.races, races)
			out.Heading = append(out.Heading, name(i))
		}
	}
	if len(f.cols) > 0 {
		c := newCounter(f)
		for row, ok := c.next(); ok; row, ok = c.next() {
			out.Rows = append(out.Rows, append([]int(nil), row...))
		}
	}
	return out
}

func outcomeString(o outcome) string {
	s := fmt.Sprintf("T%d#%d", o.exec.t, o.exec.k)
	if o.exec.cas >= 0 {
		s += fmt.Sprintf("/%d", o.exec.cas)
	}
	if o.par.t >= 0 {
		s += fmt.Sprintf("+T%d#%d", o.par.t, o.par.k)
		if o.par.cas >= 0 {
			s += fmt.Sprintf("/%d", o.par.cas)
		}
	}
	return s
}

// Racetab is a race table given by its relations, for the tests of Fig.
// 7: column sizes, the control structures of the columns (cs[i][j]: column
// j's event is in column i's) and of the race outcomes (partner[i][v-1][j]:
// column j's event is in the control structure of the v-th outcome of
// column i).
type Racetab struct {
	Sizes   []int
	CS      [][]bool
	Partner [][][]bool
}

func (r *Racetab) columns() int               { return len(r.Sizes) }
func (r *Racetab) size(i int) int             { return r.Sizes[i] }
func (r *Racetab) inCS(j, i int) bool         { return r.CS[i][j] }
func (r *Racetab) inPartner(j, i, v int) bool { return r.Partner[i][v-1][j] }
func (r *Racetab) Valid(t []int) bool         { return valid(r, t) }
func (r *Racetab) Naive() [][]int             { return naiveRows(r) }
func (r *Racetab) Fig7() (rows [][]int) {
	c := newCounter(r)
	for row, ok := c.next(); ok; row, ok = c.next() {
		rows = append(rows, append([]int(nil), row...))
	}
	return rows
}

// Printed returns the rows Fig. 7 emits as printed: line 23 checks rule 3
// for the digit just incremented only.
func (r *Racetab) Printed() (rows [][]int) {
	c := newCounter(r)
	for i, ok := c.step(); ok; i, ok = c.step() {
		t := c.t
		keep := true
		for j := range t {
			if t[j] > 0 && r.inPartner(j, i, t[i]) {
				keep = false
			}
		}
		if keep {
			rows = append(rows, append([]int(nil), t...))
		}
	}
	return rows
}
