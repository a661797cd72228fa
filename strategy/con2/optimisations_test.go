// Tests and benchmarks of the optimisations of Farzan et al. 2013, §7.5: unsat-core
// guidance, the duplicate cache and prioritised exploration, each an
// option of con2, measured on a program made to need them.

package con2_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/con2"
)

// ladder returns a program of n writers, m checkers and a reader. Writer
// i stores input a_i (in [0, 3]) in x_i. Each checker stores 2 in x_0 if
// it reads 2 there: one interference, the same static branch in every
// checker.
// The reader fails if it reads 2 from x_1; else it reads x_0..x_n-1 and
// fails if the first two sum to 5 (two interferences), and, never, if
// a_1 > 100 (outside its range). Most of the reader's reads do not matter
// to its branches: unsat-core guidance interferes with those that do, and
// drops the scenarios of the impossible branch; two interferences in
// either order make the same scenario twice, which the cache sees; and
// the checkers' scenarios, which would cover a side one of them has
// covered, wait behind the reader's with prioritisation.
func ladder(n, m int) func(*marks) func(*weft.T) {
	return func(mk *marks) func(*weft.T) {
		if mk != nil {
			return nil // it marks nothing: sides are named by source line
		}
		xs := make([]*weft.Var[weft.SInt], n)
		for i := range xs {
			xs[i] = weft.NewVar[weft.SInt](fmt.Sprint("x", i))
		}
		two := weft.Const[int64](2)
		return func(w *weft.T) {
			as := make([]weft.SInt, n)
			for i := range as {
				as[i] = w.InputRange(fmt.Sprint("a", i), 0, 3)
			}
			for i := range n {
				w.Go(func() { xs[i].Store(as[i]) })
			}
			for range m {
				w.Go(func() {
					if w.If(xs[0].Load().Eq(two)) {
						xs[0].Store(two)
					}
				})
			}
			w.Go(func() {
				if w.If(xs[1].Load().Eq(two)) {
					w.Fail("the reader read 2")
				}
				var sum weft.SInt
				for i := range n {
					if v := xs[i].Load(); i < 2 {
						sum = sum.Add(v)
					}
				}
				if w.If(as[1].Gt(weft.Const[int64](100))) {
					w.Fail("impossible")
				}
				if w.If(sum.Eq(weft.Const[int64](5))) {
					w.Fail("x0 + x1 == 5")
				}
			})
		}
	}
}

// TestOptimisations: on ladder(4, 6) with k = 2, each optimisation of
// §7.5 changes the work and not the sides covered (7: the checkers' and
// the reader's branches both ways, but the impossible one's true side).
// The numbers are measured (the exploration is deterministic): unsat-core
// guidance processes 109 ISCs where interfering with every read processes
// 136 (it prunes 33 ISCs whose cores hold no local read); the cache keeps
// 20 duplicates from being processed again without guidance (156 ISCs
// without either) and 1 with it (110); prioritisation finds the first
// failure (the reader's, at k = 1) in 14 executions instead of 19, the
// checkers' scenarios for the side the first checker covered waiting.
func TestOptimisations(t *testing.T) {
	t.Parallel()
	body := ladder(4, 6)
	var sides []string
	for _, tc := range []struct {
		name       string
		o          con2.Options
		stop       bool
		isc, execs int
	}{
		{"all", con2.Options{}, false, 109, 59},
		{"no unsat core", con2.Options{NoUnsatCore: true}, false, 136, 57},
		{"no cache", con2.Options{NoCache: true}, false, 110, 60},
		{"no unsat core, no cache", con2.Options{NoUnsatCore: true, NoCache: true}, false, 156, 58},
		{"first failure", con2.Options{}, true, 22, 14},
		{"first failure, no priority", con2.Options{NoPriority: true}, true, 27, 19},
	} {
		tc.o.K = 2
		s := newCon2(t, tc.o)
		rec := newRecorder(s, nil)
		opts := []weft.Option{weft.WithCustomStrategy(rec), weft.NoReplayFiles()}
		if !tc.stop {
			opts = append(opts, weft.KeepGoing())
		}
		r, err := weft.Explore(body(nil), opts...)
		if err != nil {
			t.Fatal(err)
		}
		if st := s.Stats(); st.ISCs != tc.isc || r.Executions != tc.execs {
			t.Logf("%+v", st)
			t.Errorf("%s: %d ISCs, %d executions; want %d, %d", tc.name, st.ISCs, r.Executions, tc.isc, tc.execs)
		}
		if tc.stop {
			if len(r.Failures) != 1 || r.Failures[0].Message != "the reader read 2" {
				t.Errorf("%s: failures %v, want the reader's", tc.name, r.Failures)
			}
			continue
		}
		if sides == nil {
			sides = rec.all()
			if len(sides) != 7 {
				t.Errorf("%s: %d sides covered (%v), want 7", tc.name, len(sides), sides)
			}
		} else if got := rec.all(); !slices.Equal(got, sides) {
			t.Errorf("%s: sides %v, want %v", tc.name, got, sides)
		}
	}
}

// BenchmarkOptimisations explores ladder(4, 6) with k = 2 to the end under
// each combination of the optimisations, reporting the ISCs processed and
// the solver queries.
func BenchmarkOptimisations(b *testing.B) {
	body := ladder(4, 6)(nil)
	for _, o := range []struct {
		name string
		o    con2.Options
	}{
		{"all", con2.Options{}},
		{"no-unsat-core", con2.Options{NoUnsatCore: true}},
		{"no-cache", con2.Options{NoCache: true}},
		{"no-priority", con2.Options{NoPriority: true}},
		{"none", con2.Options{NoUnsatCore: true, NoCache: true, NoPriority: true}},
	} {
		b.Run(o.name, func(b *testing.B) {
			o.o.K = 2
			var iscs, queries int64
			for b.Loop() {
				s := newCon2(b, o.o)
				if _, err := weft.Explore(body, weft.WithCustomStrategy(s), weft.NoReplayFiles(), weft.KeepGoing()); err != nil {
					b.Fatal(err)
				}
				iscs += int64(s.Stats().ISCs)
				queries += s.SolverStats().Queries
			}
			b.ReportMetric(float64(iscs)/float64(b.N), "ISCs/op")
			b.ReportMetric(float64(queries)/float64(b.N), "queries/op")
		})
	}
}
