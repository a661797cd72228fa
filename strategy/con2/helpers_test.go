// Test helpers: running con2 and brute force on programs, and recording
// the branch sides their executions take with the interferences of each.

package con2_test

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/con2"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/trace"
)

// newCon2 returns a con2 strategy with a Z3 solver, or skips the test
// without Z3.
func newCon2(t testing.TB, o con2.Options) *con2.Strategy {
	t.Helper()
	z, err := z3.New(z3.WithTimeout(10 * time.Second))
	if errors.Is(err, solver.ErrUnavailable) {
		t.Skipf("no Z3: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return con2.New(o, z)
}

// inputRange is an input of a program and its declared range.
type inputRange struct {
	name   string
	lo, hi int64
}

// bruteForce runs every schedule (exhaustive) for every vector of the
// inputs' ranges, on symbolic traces, so that branches on values read
// are branches of the trace as they are under con2.
type bruteForce struct {
	inputs []inputRange
	vec    []int64 // the current vector; nil before the first
	inner  strategy.Strategy
}

func (b *bruteForce) SymbolicTrace() bool { return true }

func (b *bruteForce) Next() bool {
	if b.vec == nil {
		b.vec = make([]int64, len(b.inputs))
		for i, in := range b.inputs {
			b.vec[i] = in.lo
		}
		b.inner = exhaustive.New()
		return b.inner.Next()
	}
	if b.inner.Next() {
		return true
	}
	for i := range b.vec {
		if b.vec[i] < b.inputs[i].hi {
			b.vec[i]++
			b.inner = exhaustive.New()
			return b.inner.Next()
		}
		b.vec[i] = b.inputs[i].lo
	}
	return false
}

func (b *bruteForce) Choose(st *strategy.State) strategy.Choice { return b.inner.Choose(st) }

func (b *bruteForce) Input(_ *strategy.State, in strategy.InputRequest) uint64 {
	for i, r := range b.inputs {
		if r.name == in.Name {
			return uint64(b.vec[i])
		}
	}
	return in.Default
}

func (b *bruteForce) Finish(tr *trace.Trace, end trace.End) { b.inner.Finish(tr, end) }

// marks records the labels a program's threads give their symbolic
// branch sides, per thread (program thread i is trace thread i+1), in
// the order taken.
type marks [][]string

// mark records label for thread i.
func (m *marks) mark(i int, label string) {
	for len(*m) <= i {
		*m = append(*m, nil)
	}
	(*m)[i] = append((*m)[i], label)
}

// recorder wraps a strategy: it gathers, over all executions, each side
// with the fewest interferences it was taken with (con2.Interferences),
// and the inputs of failing executions. A side is named by the program's
// mark if it marks its sides (m not nil), else by its source line.
type recorder struct {
	strategy.Strategy
	m     *marks
	sides map[string]int
	fails []failure
	err   error
}

// failure is a failing execution: its inputs and the interferences of
// the failing thread's last branch (the failing side, for an assertion).
type failure struct {
	inputs []uint64
	k      int
}

func newRecorder(s strategy.Strategy, m *marks) *recorder {
	return &recorder{Strategy: s, m: m, sides: map[string]int{}}
}

func (r *recorder) Unwrap() strategy.Strategy { return r.Strategy }

func (r *recorder) Next() bool {
	if r.m != nil {
		*r.m = (*r.m)[:0]
	}
	return r.Strategy.Next()
}

// label names the side of branch b, the n-th of its thread.
func (r *recorder) label(b trace.BranchEvent, n int) (string, bool) {
	if r.m == nil {
		f, _ := runtime.CallersFrames([]uintptr{b.PC}).Next()
		return fmt.Sprintf("%s:%d%s", filepath.Base(f.File), f.Line, map[bool]string{true: "+", false: "-"}[b.Taken]), true
	}
	i := int(b.Thread) - 1
	if i < 0 || i >= len(*r.m) || n >= len((*r.m)[i]) {
		return "", false
	}
	return (*r.m)[i][n], true
}

func (r *recorder) Finish(tr *trace.Trace, end trace.End) {
	ks, err := con2.Interferences(tr)
	if err != nil && r.err == nil {
		r.err = err
	}
	seen := map[trace.ThreadID]int{}
	for j, b := range tr.Branches {
		if ks[j] < 0 {
			continue // a branch of an await's condition: no side
		}
		n := seen[b.Thread]
		seen[b.Thread]++
		l, ok := r.label(b, n)
		if !ok {
			if r.err == nil {
				r.err = fmt.Errorf("branch %d of T%d has no mark", n, b.Thread)
			}
			continue
		}
		if old, ok := r.sides[l]; !ok || ks[j] < old {
			r.sides[l] = ks[j]
		}
	}
	if end.Status == trace.Failed {
		f := failure{inputs: tr.InputValues(), k: -1}
		for j, b := range tr.Branches {
			if b.Thread == end.Thread {
				f.k = ks[j]
			}
		}
		r.fails = append(r.fails, f)
	}
	r.Strategy.Finish(tr, end)
}

// upTo returns the sides recorded with at most k interferences, sorted.
func (r *recorder) upTo(k int) []string {
	var out []string
	for l, d := range r.sides {
		if d <= k {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// all returns every side recorded, sorted.
func (r *recorder) all() []string { return slices.Sorted(maps.Keys(r.sides)) }

// explore runs body under s (through a recorder) to the end and returns
// the recorder and the result; ok is false if maxRuns stopped it. A body
// that marks nothing may be passed as unmarked(body).
func explore(t *testing.T, body func(*marks) func(*weft.T), s strategy.Strategy, maxRuns int, opts ...weft.Option) (*recorder, *weft.Result, bool) {
	t.Helper()
	m := &marks{}
	b := body(m)
	if b == nil {
		m = nil
		b = body(nil)
	}
	rec := newRecorder(s, m)
	opts = append([]weft.Option{weft.WithCustomStrategy(rec), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(maxRuns)}, opts...)
	r, err := weft.Explore(b, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if rec.err != nil {
		t.Fatal(rec.err)
	}
	return rec, r, r.Exhausted
}
