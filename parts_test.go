// Tests of parts that split parts of their own off (work stealing in a
// distributed exploration): a Coordinator and Parts driven in the
// process, in a fixed order, against the exploration in one piece.

package weft_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/trace"
)

// nestedJob is a Part being explored, the job that split it off (nil: the
// Coordinator) and its depth (1: split off the root).
type nestedJob struct {
	p        *weft.Part
	parent   *nestedJob
	depth    int
	children int  // parts split off, not joined
	over     bool // at its last batch
}

// nestedUnit is a part waiting to be started.
type nestedUnit struct {
	part   []byte
	parent *nestedJob
	depth  int
}

// nested explores in the process what a distributed run does over NATS,
// in a fixed order: the Coordinator and every Part in turn run batch
// executions; after its batch, the Coordinator splits parts off while
// fewer than fanout wait, and so does every Part above depth maxDepth
// (work stealing); a Part over with no part of its own out gives its
// outcome to whoever split it off, which joins it at once and queues the
// parts the join adds.
type nested struct {
	k                       *weft.Coordinator
	x                       *weft.PartExplorer
	batch, fanout, maxDepth int
	waiting                 []nestedUnit
	jobs                    []*nestedJob
	rootOver                bool
	// parts counts the parts split off the root (joins included),
	// stolen those split off parts, joins the outcomes joined.
	parts, stolen, joins int
}

func exploreNested(body func(*weft.T), batch, fanout, maxDepth int, opts ...weft.Option) (*weft.Result, *nested, error) {
	k, err := weft.NewCoordinator(body, opts...)
	if err != nil {
		return nil, nil, err
	}
	defer k.Close()
	x, err := weft.NewPartExplorer(body, opts...)
	if err != nil {
		return nil, nil, err
	}
	defer x.Close()
	n := &nested{k: k, x: x, batch: batch, fanout: fanout, maxDepth: maxDepth}
	for !n.rootOver || len(n.waiting) > 0 || len(n.jobs) > 0 {
		if err := n.round(); err != nil {
			return nil, n, err
		}
	}
	return k.Result(true), n, nil
}

// round gives the Coordinator and every job a turn, then starts the parts
// waiting.
func (n *nested) round() error {
	if !n.rootOver {
		over, err := n.k.Explore(n.batch)
		if err != nil {
			return err
		}
		n.rootOver = over
		for !over && len(n.waiting) < n.fanout {
			part, ok, err := n.k.Split()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			n.parts++
			n.waiting = append(n.waiting, nestedUnit{part, nil, 1})
		}
	}
	var left []*nestedJob
	for _, j := range n.jobs {
		done, err := n.turn(j)
		if err != nil {
			return err
		}
		if !done {
			left = append(left, j)
		}
	}
	n.jobs = left
	for _, u := range n.waiting {
		p, err := n.x.Start(u.part)
		if err != nil {
			return err
		}
		n.jobs = append(n.jobs, &nestedJob{p: p, parent: u.parent, depth: u.depth})
	}
	n.waiting = nil
	return nil
}

// turn runs a batch of job j, splits parts off it, and, once it is over
// with no part out, hands its outcome back; it reports whether j is done.
func (n *nested) turn(j *nestedJob) (bool, error) {
	if !j.over {
		over, err := j.p.Explore(n.batch)
		if err != nil {
			return false, err
		}
		j.over = over
		for !over && j.depth < n.maxDepth && len(n.waiting) < n.fanout {
			part, ok, err := j.p.Split()
			if err != nil {
				return false, err
			}
			if !ok {
				break
			}
			n.stolen++
			j.children++
			n.waiting = append(n.waiting, nestedUnit{part, j, j.depth + 1})
		}
	}
	if !j.over || j.children > 0 {
		return false, nil
	}
	out, err := j.p.Outcome()
	if err != nil {
		return false, err
	}
	n.joins++
	if j.parent == nil {
		parts, err := n.k.Join(out)
		if err != nil {
			return false, err
		}
		n.rootOver = false // a join can give the root work again
		for _, part := range parts {
			n.parts++
			n.waiting = append(n.waiting, nestedUnit{part, nil, 1})
		}
		return true, nil
	}
	parent := j.parent
	parts, err := parent.p.Join(out)
	if err != nil {
		return false, err
	}
	parent.children += len(parts) - 1
	parent.over = false // a join can give it work again
	for _, part := range parts {
		n.stolen++
		n.waiting = append(n.waiting, nestedUnit{part, parent, parent.depth + 1})
	}
	return true, nil
}

// compareNested explores body with strategy name in one piece and nested,
// and describes what differs: exhausted, the maximal traces, the failures
// as events, the failure kinds, the final states, for optimal the number
// of distinct complete traces, which must be the complete executions in
// one piece, and for con2 its bound k and the branch sides covered at
// each k (its counters).
func compareNested(body func(*weft.T), name string, batch, fanout, maxDepth int) (string, *nested, error) {
	whole := checktest.NewOutcome(name)
	opts := []weft.Option{weft.WithStrategy(name), weft.KeepGoing(), weft.NoReplayFiles()}
	r1, err := weft.Explore(body, append(opts, weft.WithMaxRuns(0), weft.WithObserver(whole.Add))...)
	if err != nil {
		return "", nil, err
	}
	split := checktest.NewOutcome(name)
	seen := 0
	observe := func(tr *trace.Trace, end trace.End) {
		seen++
		split.Add(tr, end)
	}
	r2, n, err := exploreNested(body, batch, fanout, maxDepth, append(opts, weft.WithObserver(observe))...)
	if err != nil {
		return "", n, err
	}
	var b strings.Builder
	if !r2.Exhausted {
		b.WriteString("not exhausted\n")
	}
	b.WriteString(diffDivided(whole, split, r1, r2))
	if r2.Executions != seen {
		// Every execution is counted once: by the Part that ran it, in
		// the outcomes up to the root.
		fmt.Fprintf(&b, "%d executions counted, %d run\n", r2.Executions, seen)
	}
	if name == "con2" {
		if s1, s2 := sidesCovered(r1), sidesCovered(r2); s1 != s2 {
			fmt.Fprintf(&b, "con2 counters %s, want %s\n", s2, s1)
		}
	}
	return b.String(), n, nil
}

// sidesCovered describes the branch sides con2 covered at each k, as its
// counters in r say, with its bound k (a part adds no counters of its
// own: its root counts its work when it joins it).
func sidesCovered(r *weft.Result) string {
	var b strings.Builder
	for _, c := range r.Counters {
		if c.Name == "k" || strings.HasPrefix(c.Name, "sides ") {
			fmt.Fprintf(&b, "%s: %d; ", c.Name, c.Value)
		}
	}
	return b.String()
}

// nestedStrategies returns the strategies the nested tests run: the
// parallel tests' and, when linked, con2 (it needs Z3 and cgo), whose
// parts, each a scenario to realize, split off no parts of their own.
func nestedStrategies(t *testing.T) []string {
	names := slices.Clone(workerStrategies)
	if slices.Contains(splitters(t), "con2") {
		names = append(names, "con2")
	}
	return names
}

// nestedPrograms are the built-in programs the nested tests explore.
var nestedPrograms = []struct {
	prog   string
	params map[string]int
}{
	{"xy", nil},
	{"dporproblem", nil},
	{"fib", map[string]int{"n": 3}},
	{"pairs", map[string]int{"n": 4}},
	{"bbchan", map[string]int{"producers": 2, "consumers": 2, "capacity": 1}},
	{"dining", map[string]int{"n": 3}},
	{"parallelpi", map[string]int{"threads": 3, "locked": 0}},
}

// TestNestedPrograms explores built-in programs with the strategies that
// divide their work as a distributed run whose parts split parts of their
// own off, three levels deep: the same maximal traces, failures and final
// states as in one piece, every execution counted once, and for optimal
// every trace explored once; for con2 (when linked) the same sides
// covered at each k. Parts explored while the one that split them off
// goes on repeat executions (strategy.Splitter): the counts of fib are
// pinned (n=3 with WEFT_LONG=1, 1698 executions in one piece; n=2 by
// default), and con2's. fib runs by default under optimal and con2 only;
// WEFT_LONG=1 runs it under the other strategies too.
func TestNestedPrograms(t *testing.T) {
	t.Parallel()
	type counts struct{ parts, stolen, joins, executions int }
	pinned := map[string]counts{
		"fib optimal":       {102, 341, 443, 5099},
		"fib dpor-cr+sleep": {129, 65, 194, 1806},
		"fib flip+sleep":    {146, 72, 218, 2153},
		"pairs optimal":     {9, 6, 15, 52},
		// con2 (k = 2): a part is a scenario to realize, and splits off
		// none (the forest stays with the root).
		"fib con2":    {36, 0, 36, 78},
		"pairs con2":  {3, 0, 3, 9},
		"bbchan con2": {7, 0, 7, 15},
	}
	if !long.Enabled() {
		// fib n=2 by default (140 executions in one piece).
		pinned["fib optimal"] = counts{13, 54, 67, 313}
		pinned["fib con2"] = counts{16, 0, 16, 36}
	}
	for _, c := range nestedPrograms {
		if c.prog == "fib" && !long.Enabled() {
			c.params = map[string]int{"n": 2}
		}
		body := programs.Lookup(c.prog).MustBody(c.params)
		for _, name := range nestedStrategies(t) {
			switch {
			case name == "dpor" || name == "dpor-1" || name == "flip":
				continue // without sleep sets: fib 3 takes 10^5 executions in one piece
			case c.prog == "fib" && (name == "dpor+sleep" || name == "dpor-clock+sleep"):
				continue // 113,304 executions in one piece, 651,472 nested
			case c.prog == "fib" && name != "optimal" && name != "con2" && !long.Enabled():
				continue // seconds each: with WEFT_LONG=1 only
			}
			msg, n, err := compareNested(body, name, 3, 2, 3)
			if err != nil {
				t.Fatalf("%s %v, %s: %v", c.prog, c.params, name, err)
			}
			if msg != "" {
				t.Errorf("%s %v, %s:\n%s", c.prog, c.params, name, msg)
			}
			if want, ok := pinned[c.prog+" "+name]; ok {
				if got := (counts{n.parts, n.stolen, n.joins, n.k.Executions()}); got != want {
					t.Errorf("%s %v, %s: %d parts off the root, %d off parts, %d joins, %d executions; want %d, %d, %d, %d",
						c.prog, c.params, name, got.parts, got.stolen, got.joins, got.executions, want.parts, want.stolen, want.joins, want.executions)
				}
			}
		}
	}
}

// TestNestedRandomPrograms does the same on 20 generated programs (100
// with WEFT_LONG=1), every part splitting after each execution, four
// levels deep. con2, when linked, splits 71 parts off the roots of the 20
// programs and runs 103 executions (434 and 585 on the 100); none of its
// parts splits.
func TestNestedRandomPrograms(t *testing.T) {
	t.Parallel()
	type counts struct{ parts, joins, executions int }
	n := 20
	want := map[string]int{"dpor-2": 65, "dpor-cr+sleep": 49, "flip+sleep": 42, "optimal": 114}
	wantCon2 := counts{71, 71, 103}
	if long.Enabled() {
		n = 100
		want = map[string]int{"dpor-2": 304, "dpor-cr+sleep": 256, "flip+sleep": 249, "optimal": 696}
		wantCon2 = counts{434, 434, 585}
	}
	names := []string{"optimal", "dpor-cr+sleep", "flip+sleep", "dpor-2"}
	if slices.Contains(splitters(t), "con2") {
		names = append(names, "con2")
		want["con2"] = 0 // a part of con2 is one scenario to realize
	}
	stolen := map[string]int{}
	var con2 counts
	for seed := range uint64(n) {
		g := gen.New(seed)
		g.Local = true
		body := genweft.Body(g)
		for _, name := range names {
			msg, nn, err := compareNested(body, name, 1, 2, 4)
			if err != nil {
				t.Fatalf("seed %d, %s: %v", seed, name, err)
			}
			stolen[name] += nn.stolen
			if msg != "" {
				t.Errorf("seed %d, %s:\n%s", seed, name, msg)
			}
			if name == "con2" {
				con2.parts += nn.parts
				con2.joins += nn.joins
				con2.executions += nn.k.Executions()
			}
		}
	}
	// The order of exploration is fixed: so are the parts split off.
	if !maps.Equal(stolen, want) {
		t.Errorf("parts split off parts %v, want %v", stolen, want)
	}
	if slices.Contains(names, "con2") && con2 != wantCon2 {
		t.Errorf("con2: %d parts off the root, %d joins, %d executions; want %d, %d, %d",
			con2.parts, con2.joins, con2.executions, wantCon2.parts, wantCon2.joins, wantCon2.executions)
	}
}
