// This file tests the DPOR family against exhaustive search on the random
// programs of internal/gen with objects allocated once (so that final states
// compare by name): a range of seeds on demand.

package dpor_test

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
)

// The regressions the family and optimal once had on gen programs are
// scenarios written as text, with every strategy's exact counts
// (internal/gen/genweft/testdata).

// TestDPORGenRange compares the family and optimal with exhaustive search
// on to-from gen programs, objects allocated once, from seed from on, when
// WEFT_DPOR_GEN=from-to is set (a long run: not part of the default suite).
// A program too large for exhaustive search is replaced by the next seed
// (past to if need be), and the test fails if more than to-from had to be.
// WEFT_DPOR_GEN_EVENTS=n generates programs of up to n steps (gen's
// default: 11), WEFT_DPOR_GEN_ORDER=n explores in the random order of seed
// n, WEFT_DPOR_GEN_LOCAL=1 keeps the objects allocated by each execution
// where gen draws it, and WEFT_DPOR_GEN_ONLY=name,name checks only the
// strategies named (for example flip,flip+sleep).
func TestDPORGenRange(t *testing.T) {
	v := os.Getenv("WEFT_DPOR_GEN")
	if v == "" {
		t.Skip("WEFT_DPOR_GEN=from-to not set")
	}
	var from, to uint64
	if _, err := fmt.Sscanf(v, "%d-%d", &from, &to); err != nil || to <= from {
		t.Fatalf("WEFT_DPOR_GEN=%q: want from-to, from < to (%v)", v, err)
	}
	o := gen.DefaultOptions
	if n, err := strconv.Atoi(os.Getenv("WEFT_DPOR_GEN_EVENTS")); err == nil && n > 0 {
		o.MaxEvents = n
	}
	order, _ := strconv.ParseInt(os.Getenv("WEFT_DPOR_GEN_ORDER"), 10, 64)
	local := os.Getenv("WEFT_DPOR_GEN_LOCAL") == "1"
	all := append(slices.Clone(dporNames), "optimal")
	names := all
	if v := os.Getenv("WEFT_DPOR_GEN_ONLY"); v != "" {
		names = strings.Split(v, ",")
		for _, s := range names {
			if !slices.Contains(all, s) {
				t.Fatalf("WEFT_DPOR_GEN_ONLY=%q: %q is not one of %v", v, s, all)
			}
		}
	}
	tally := &genTally{checked: map[string]int{}, executions: map[string]int{}}
	n := int(to - from)
	last, skipped := checktest.CheckPrograms(t, n, from, n, func(seed uint64) bool {
		p := gen.NewWith(seed, o)
		p.Local = p.Local && local
		return checkGenDPOR(t, p, order, names, tally)
	})
	t.Logf("%d gen programs, seeds %d-%d (%+v, order %d, local objects %v): %d too large for exhaustive search, skipped; programs checked per strategy: %v; executions in all: %v",
		n, from, last, o, order, local, skipped, tally.checked, tally.executions)
}

// genTally counts, per strategy, the gen programs checked and the
// executions run on them.
type genTally struct {
	checked, executions map[string]int
}

// checkGenDPOR explores p exhaustively and with each strategy of names
// (in the random order of seed order, if not 0) and reports to t what a
// strategy missed: a maximal trace, a failure kind,
// a final state; or that it did not finish or ran more executions than
// exhaustive search. It counts in tally (if not nil) the programs checked
// and the executions, and reports false if p is too large for exhaustive
// search.
func checkGenDPOR(t *testing.T, p *gen.Program, order int64, names []string, tally *genTally) bool {
	t.Helper()
	body := genweft.Body(p)
	ref, rc := checktest.ExploreTraces(t, body, "exhaustive", 0, maxExhaustive)
	if !ref.Exhausted {
		return false
	}
	if tally != nil {
		tally.executions["exhaustive"] += ref.Executions
	}
	for _, s := range names {
		r, c := checktest.ExploreTraces(t, body, s, order, 10*maxExhaustive)
		var errs []string
		if !r.Exhausted {
			errs = append(errs, "did not finish")
		}
		for f := range rc.Maximal {
			if !c.Maximal[f] {
				errs = append(errs, "missed the trace "+f)
				break
			}
		}
		if !maps.Equal(c.Kinds, rc.Kinds) {
			errs = append(errs, fmt.Sprintf("failure kinds %v, want %v", c.Kinds, rc.Kinds))
		}
		if d := checktest.DiffSets(rc.Finals, c.Finals); d != "" {
			errs = append(errs, "final states differ from exhaustive's: "+d)
		}
		if r.Executions > ref.Executions {
			errs = append(errs, fmt.Sprintf("%d executions, more than exhaustive's %d", r.Executions, ref.Executions))
		}
		if tally != nil {
			tally.checked[s]++
			tally.executions[s] += r.Executions
		}
		if len(errs) > 0 {
			t.Errorf("gen program %d under %s (%d executions; exhaustive %d, %d traces):\n\t%s\n%s",
				p.Seed, s, r.Executions, ref.Executions, len(rc.Maximal), strings.Join(errs, "\n\t"), p)
		}
	}
	return true
}
