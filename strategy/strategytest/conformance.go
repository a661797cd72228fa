// This file implements Conformance: a strategy against exhaustive search
// on generated programs.

package strategytest

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/trace"
)

// Claims are what a strategy claims of its explorations; Conformance
// checks each one set.
type Claims struct {
	// Complete: the strategy ends its exploration by itself, in no more
	// executions than exhaustive search, and reaches every maximal trace
	// (complete, deadlocked or leaking), every failure kind and every
	// final state that exhaustive search reaches (the DPOR family).
	Complete bool
	// OnePerTrace: exactly one execution per trace, maximal or failing,
	// and none cut (Optimal-DPOR).
	OnePerTrace bool
	// EveryInterleaving: one execution per path of the tree of choices,
	// none cut, as many as Interleavings counts (exhaustive search).
	EveryInterleaving bool
}

// Options configure Conformance.
type Options struct {
	// Programs is the number of programs checked: Generate's programs from
	// seed From on, skipping those it does not model and those with more
	// than MaxInterleavings executions of exhaustive search. 0 means 100.
	Programs int
	From     uint64
	// Gen are the generator's options; the zero value means
	// gen.DefaultOptions (gen.V3 adds AddOnly).
	Gen gen.Options
	// MaxInterleavings bounds exhaustive search on a program; 0 means
	// 2000.
	MaxInterleavings int
	// Executions bounds the executions of a strategy that claims neither
	// completeness nor one execution per interleaving: it must end its
	// exploration within the bound or, if it never does (random, PCT),
	// run exactly that many. 0 means 10 times exhaustive search's.
	Executions int
	Claims
}

// Conformance checks the strategies newStrategy returns, one per program,
// against exhaustive search on generated programs (Generate). It reports
// to t every program on which a strategy:
//
//   - chose a thread or an alternative that was not enabled;
//   - reached a maximal trace, a failing trace, a failure kind or a final
//     state that exhaustive search does not (it is no execution of the
//     program);
//   - reported a divergence (Diverged, if it has one): the programs are
//     deterministic;
//   - did not end its exploration within the bound on executions, or,
//     for a strategy that never ends it, ran fewer executions than the
//     bound;
//
// and every program on which a claim of o.Claims fails. It fails t if
// fewer than o.Programs programs could be checked.
func Conformance(t testing.TB, newStrategy func() strategy.Strategy, o Options) {
	t.Helper()
	if o.Programs == 0 {
		o.Programs = 100
	}
	if o.MaxInterleavings == 0 {
		o.MaxInterleavings = 2000
	}
	if o.Gen == (gen.Options{}) {
		o.Gen = gen.DefaultOptions
	}
	checked := 0
	seed := o.From
	for ; checked < o.Programs && seed < o.From+uint64(100*o.Programs); seed++ {
		p, ok := GenerateWith(seed, o.Gen)
		if !ok {
			continue
		}
		ref, err := reference(seed, o.Gen, p, o.MaxInterleavings)
		if err != nil {
			t.Fatalf("gen program %d: exhaustive search: %v", seed, err)
		}
		if !ref.Exhausted {
			continue // too large
		}
		checked++
		if msg := conforms(newStrategy(), p, ref, o); msg != "" {
			t.Errorf("gen program %d (%d executions of exhaustive search, %d traces):\n\t%s\n%s",
				seed, ref.Executions, len(ref.Traces), msg, p)
		}
	}
	if checked < o.Programs {
		t.Errorf("only %d of the %d programs asked for were checked (seeds %d-%d)", checked, o.Programs, o.From, seed-1)
	}
}

// refs caches the results of exhaustive search by seed, generator options
// and bound: the package tests of a strategy family check every variant on
// the same programs.
var refs struct {
	sync.Mutex
	m map[refKey]*Result
}

// refKey names a program and a bound on exhaustive search.
type refKey struct {
	seed  uint64
	gen   gen.Options
	limit int
}

// reference returns exhaustive search's result on p, the program of seed
// under generator options g, with at most limit executions.
func reference(seed uint64, g gen.Options, p *Program, limit int) (*Result, error) {
	refs.Lock()
	defer refs.Unlock()
	k := refKey{seed, g, limit}
	if r, ok := refs.m[k]; ok {
		return r, nil
	}
	r, err := Run(exhaustive.New(), p, limit)
	if err != nil {
		return nil, err
	}
	if refs.m == nil {
		refs.m = map[refKey]*Result{}
	}
	refs.m[k] = r
	return r, nil
}

// conforms runs s on p and describes how it fails o's checks against
// ref, exhaustive search's result ("" if it does not).
func conforms(s strategy.Strategy, p *Program, ref *Result, o Options) string {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	limit := o.Executions
	switch {
	case o.Complete || o.EveryInterleaving:
		limit = ref.Executions + 1 // room to show it runs too many
	case limit == 0:
		limit = 10 * ref.Executions
	}
	got, err := Run(s, p, limit)
	if err != nil {
		return err.Error()
	}
	if d, ok := strategy.As[strategy.Diverger](s); ok {
		if err := d.Diverged(); err != nil {
			fail("the strategy reports a divergence: %v", err)
		}
	}
	if diff := extra(ref.Traces, got.Traces); diff != "" {
		fail("maximal traces exhaustive search does not reach: %s", diff)
	}
	if diff := extra(ref.Failing, got.Failing); diff != "" {
		fail("failing traces exhaustive search does not reach: %s", diff)
	}
	if diff := extra(ref.Finals, got.Finals); diff != "" {
		fail("final states exhaustive search does not reach: %s", diff)
	}
	if diff := extra(ref.Failures, got.Failures); diff != "" {
		fail("failure kinds exhaustive search does not reach: %s", diff)
	}
	switch {
	case o.Complete || o.EveryInterleaving:
		if !got.Exhausted {
			fail("did not end its exploration in %d executions", got.Executions)
		}
	case !got.Exhausted && got.Executions != limit:
		fail("%d executions, want %d (the bound)", got.Executions, limit)
	}
	if o.Complete {
		if got.Executions > ref.Executions {
			fail("%d executions, more than exhaustive search's %d", got.Executions, ref.Executions)
		}
		for _, d := range []string{extra(got.Traces, ref.Traces), extra(got.Finals, ref.Finals), extra(got.Failures, ref.Failures)} {
			if d != "" {
				fail("missed what exhaustive search reaches: %s", d)
			}
		}
	}
	if o.OnePerTrace {
		if got.Cut != 0 {
			fail("%d executions cut", got.Cut)
		}
		for _, m := range []map[string]int{got.Traces, got.Failing} {
			for f, n := range m {
				if n != 1 {
					fail("explored one trace %d times: %s", n, f)
				}
			}
		}
		if d := extra(got.Failing, ref.Failing); d != "" {
			fail("missed failing traces: %s", d)
		}
		if want := len(ref.Traces) + len(ref.Failing); got.Executions != want {
			fail("%d executions, want one per trace: %d", got.Executions, want)
		}
	}
	if o.EveryInterleaving {
		if n := Interleavings(p); got.Executions != n || got.Cut != 0 {
			fail("%d executions (%d cut), want one per interleaving: %d", got.Executions, got.Cut, n)
		}
		seen := map[string]bool{}
		for _, sc := range got.Schedules {
			if seen[sc] {
				fail("ran the schedule %s twice", sc)
			}
			seen[sc] = true
		}
	}
	return strings.Join(errs, "\n\t")
}

// extra describes the keys of got that are not keys of want, or "".
func extra[K comparable, V, W any](want map[K]V, got map[K]W) string {
	var out []string
	for k := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprint(k))
		}
	}
	if len(out) == 0 {
		return ""
	}
	slices.Sort(out)
	const most = 3
	if len(out) > most {
		out = append(out[:most], fmt.Sprintf("and %d more", len(out)-most))
	}
	return strings.Join(out, "; ")
}

// Interleavings counts the executions of p that exhaustive search runs:
// the paths of its tree of choices, each choice being an enabled thread
// and one of its alternatives. It enumerates them depth-first by running
// each prefix again, independently of package exhaustive.
func Interleavings(p *Program) int {
	var tr trace.Trace
	var count func(prefix []strategy.Choice) int
	count = func(prefix []strategy.Choice) int {
		s := &scripted{prefix: prefix}
		m := newMachine(p, &tr)
		if _, _, err := m.run(s); err != nil {
			panic(err) // scripted chooses enabled threads only
		}
		if s.options == nil {
			return 1 // the execution ended after the prefix
		}
		n := 0
		for _, c := range s.options {
			n += count(append(slices.Clone(prefix), c))
		}
		return n
	}
	return count(nil)
}

// scripted takes the choices of its prefix, then lists the options of the
// next choice point and cuts the execution there.
type scripted struct {
	prefix  []strategy.Choice
	depth   int
	options []strategy.Choice
}

func (s *scripted) Next() bool { return true }

func (s *scripted) Choose(st *strategy.State) strategy.Choice {
	if s.depth < len(s.prefix) {
		s.depth++
		return s.prefix[s.depth-1]
	}
	for i, th := range st.Threads {
		for a := range th.Alts {
			s.options = append(s.options, strategy.Choice{Thread: trace.ThreadID(i), Alt: a})
		}
	}
	return strategy.Cut
}

func (s *scripted) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }
func (s *scripted) Finish(*trace.Trace, trace.End)                           {}
