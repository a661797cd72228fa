// This file tests Cached: the answer cache, independence splitting, base
// models, cores and error handling.

package solver_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/weft-go/weft/solver"
)

var (
	x8 = solver.Var("x", 8)
	y8 = solver.Var("y", 8)
	z8 = solver.Var("z", 8)
	c8 = func(v uint64) solver.Expr { return solver.Const(v, 8) }
)

func TestCachedSameQueryTwice(t *testing.T) {
	fake := &bruteForce{}
	s := solver.NewCached(fake, solver.CacheOptions{Verify: true})
	q := []solver.Expr{solver.Ugt(x8, c8(200)), solver.Eq(solver.Add(x8, y8), c8(3))}
	for i := range 2 {
		r, err := s.Check(context.Background(), q)
		if err != nil || r.Status != solver.Sat {
			t.Fatalf("query %d: %v, %v", i, r.Status, err)
		}
		if ok, err := solver.Satisfies(r.Model, q); !ok || err != nil {
			t.Fatalf("query %d: model %v does not satisfy: %v", i, r.Model, err)
		}
	}
	// The same set in another order, with a duplicate, hits too.
	r, err := s.Check(context.Background(), []solver.Expr{q[1], q[0], q[1]})
	if err != nil || r.Status != solver.Sat {
		t.Fatalf("reordered query: %v, %v", r.Status, err)
	}
	if got := fake.Stats().Queries; got != 1 {
		t.Errorf("backend queries = %d, want 1", got)
	}
	st := s.Stats()
	if st.Queries != 3 || st.CacheHits != 2 || st.Sat != 3 {
		t.Errorf("stats = %+v, want 3 queries, 2 hits, 3 sat", st)
	}
}

func TestCachedUnsatCached(t *testing.T) {
	fake := &bruteForce{}
	s := solver.NewCached(fake, solver.CacheOptions{})
	q := []solver.Expr{solver.Ugt(x8, c8(9)), solver.Ult(x8, c8(5))}
	for range 2 {
		if r, err := s.Check(context.Background(), q); err != nil || r.Status != solver.Unsat {
			t.Fatalf("got %v, %v; want unsat", r.Status, err)
		}
	}
	if got := len(fake.queries); got != 1 {
		t.Errorf("backend queries = %d, want 1", got)
	}
	// A core request after a plain unsat must consult the backend once.
	for range 2 {
		r, core, err := s.CheckCore(context.Background(), q)
		if err != nil || r.Status != solver.Unsat || !slices.Equal(core, []int{0, 1}) {
			t.Fatalf("CheckCore = %v, %v, %v; want unsat, [0 1]", r.Status, core, err)
		}
	}
	if got := len(fake.queries); got != 2 {
		t.Errorf("backend queries = %d, want 2", got)
	}
	if st := s.Stats(); st.CacheHits != 2 || st.Unsat != 4 {
		t.Errorf("stats = %+v, want 2 hits, 4 unsat", st)
	}
}

func TestCachedSlicing(t *testing.T) {
	fake := &bruteForce{}
	s := solver.NewCached(fake, solver.CacheOptions{Verify: true})
	// Path prefix over x, y and z; z is independent of the target.
	prefix := []solver.Expr{
		solver.Ugt(x8, c8(10)),                  // 0: x
		solver.Eq(z8, c8(42)),                   // 1: z
		solver.Ult(solver.Add(x8, y8), c8(100)), // 2: x, y
	}
	base := solver.Model{"x": 20, "y": 30, "z": 42, "w": 7}
	target := solver.Eq(y8, c8(50)) // negated branch: y == 50
	cs := append(slices.Clone(prefix), target)

	if got, want := solver.Slice(cs, 3), []int{0, 2, 3}; !slices.Equal(got, want) {
		t.Fatalf("Slice = %v, want %v", got, want)
	}
	r, err := s.CheckWithBase(context.Background(), base, cs)
	if err != nil || r.Status != solver.Sat {
		t.Fatalf("CheckWithBase = %v, %v", r.Status, err)
	}
	if len(fake.queries) != 1 {
		t.Fatalf("backend queries = %d, want 1", len(fake.queries))
	}
	sent := fake.queries[0]
	if len(sent) != 3 || slices.Contains(sent, prefix[1]) {
		t.Errorf("sent %v, want the 3 constraints over x and y only", sent)
	}
	if r.Model["z"] != 42 || r.Model["w"] != 7 || r.Model["y"] != 50 {
		t.Errorf("model %v: want z=42 and w=7 from base, y=50", r.Model)
	}
	if ok, err := solver.Satisfies(r.Model, cs); !ok || err != nil {
		t.Errorf("model %v does not satisfy the query: %v", r.Model, err)
	}

	// A base that violates an independent group gets that group solved
	// too, so the answer stays a model of the whole query.
	bad := solver.Model{"x": 20, "y": 30, "z": 1}
	r, err = s.CheckWithBase(context.Background(), bad, cs)
	if err != nil || r.Status != solver.Sat || r.Model["z"] != 42 {
		t.Fatalf("CheckWithBase(bad base) = %v %v, %v", r.Status, r.Model, err)
	}
	if len(fake.queries) != 2 || !slices.Equal(fake.queries[1], []solver.Expr{prefix[1]}) {
		t.Errorf("second call sent %v, want only z == 42 (x,y group cached)", fake.queries[1:])
	}
}

func TestCachedBatchesMisses(t *testing.T) {
	fake := &bruteForce{}
	s := solver.NewCached(fake, solver.CacheOptions{Verify: true})
	ctx := context.Background()
	cs := []solver.Expr{solver.Eq(x8, c8(1)), solver.Eq(y8, c8(2)), solver.Ult(x8, z8)}
	r, err := s.Check(ctx, cs)
	if err != nil || r.Status != solver.Sat {
		t.Fatalf("Check = %v, %v", r.Status, err)
	}
	if len(fake.queries) != 1 || len(fake.queries[0]) != 3 {
		t.Errorf("backend got %v, want one query with the two missed groups", fake.queries)
	}
	if ok, err := solver.Satisfies(r.Model, cs); !ok || err != nil {
		t.Errorf("model %v does not satisfy: %v", r.Model, err)
	}
	if got := solver.Vars(cs...); len(r.Model) != len(got) {
		t.Errorf("model %v, want exactly the variables %v", r.Model, got)
	}
	// Each group was cached with its part of the model.
	for _, q := range [][]solver.Expr{{cs[1]}, {cs[2], cs[0]}} {
		r, err := s.Check(ctx, q)
		if err != nil || r.Status != solver.Sat || len(r.Model) != len(solver.Vars(q...)) {
			t.Errorf("Check(%v) = %v %v, %v", q, r.Status, r.Model, err)
		}
	}
	if len(fake.queries) != 1 || s.Stats().CacheHits != 2 {
		t.Errorf("backend queries %d, hits %d; want 1 and 2", len(fake.queries), s.Stats().CacheHits)
	}

	// An unsat batch is split to find and cache the unsat group.
	w8 := solver.Var("w", 8)
	bad := []solver.Expr{solver.Eq(w8, c8(3)), solver.Ult(y8, c8(1)), solver.Ugt(y8, c8(5))}
	r, core, err := s.CheckCore(ctx, bad)
	if err != nil || r.Status != solver.Unsat || !slices.Equal(core, []int{1, 2}) {
		t.Fatalf("CheckCore = %v, %v, %v; want unsat, [1 2]", r.Status, core, err)
	}
	n := len(fake.queries)
	if n != 4 { // the batch, then w's group (sat), then y's group (unsat)
		t.Errorf("backend queries = %d, want 4", n)
	}
	r, core, err = s.CheckCore(ctx, bad)
	if err != nil || r.Status != solver.Unsat || !slices.Equal(core, []int{1, 2}) || len(fake.queries) != n {
		t.Errorf("repeated CheckCore = %v, %v, %v with %d new backend queries", r.Status, core, err, len(fake.queries)-n)
	}
}

func TestCachedCoreIndices(t *testing.T) {
	fake := &bruteForce{}
	s := solver.NewCached(fake, solver.CacheOptions{})
	cs := []solver.Expr{
		solver.Eq(y8, c8(2)),  // 0: independent, sat
		solver.Ugt(x8, c8(9)), // 1
		solver.Ult(z8, c8(3)), // 2: linked to x by 4, not in the core
		solver.Ult(x8, c8(5)), // 3
		solver.Ule(z8, x8),    // 4
	}
	for range 2 {
		r, core, err := s.CheckCore(context.Background(), cs)
		if err != nil || r.Status != solver.Unsat || !slices.Equal(core, []int{1, 3}) {
			t.Fatalf("CheckCore = %v, %v, %v; want unsat, [1 3]", r.Status, core, err)
		}
	}
	// The cached core is mapped through the new positions.
	perm := []solver.Expr{cs[3], cs[4], cs[0], cs[2], cs[1]}
	_, core, _ := s.CheckCore(context.Background(), perm)
	if !slices.Equal(core, []int{0, 4}) {
		t.Errorf("core of permuted query = %v, want [0 4]", core)
	}
	if st := s.Stats(); st.CacheHits < 2 {
		t.Errorf("stats = %+v, want cache hits", st)
	}
	// A constant false constraint is its own core without a backend call.
	n := len(fake.queries)
	r, core, err := s.CheckCore(context.Background(), []solver.Expr{cs[0], solver.False})
	if err != nil || r.Status != solver.Unsat || !slices.Equal(core, []int{1}) || len(fake.queries) != n {
		t.Errorf("CheckCore(y==2, false) = %v, %v, %v (backend calls %d)", r.Status, core, err, len(fake.queries)-n)
	}
}

func TestCachedUnknownNotCached(t *testing.T) {
	fake := &bruteForce{unknown: true}
	s := solver.NewCached(fake, solver.CacheOptions{})
	q := []solver.Expr{solver.Eq(x8, c8(1))}
	for range 2 {
		r, err := s.Check(context.Background(), q)
		if r.Status != solver.Unknown || !errors.Is(err, solver.ErrTimeout) {
			t.Fatalf("got %v, %v; want unknown, ErrTimeout", r.Status, err)
		}
	}
	if st := s.Stats(); fake.stats.Queries != 2 || st.CacheHits != 0 || st.Timeouts != 2 || st.Unknown != 2 {
		t.Errorf("backend queries %d, stats %+v; want 2 backend queries, 0 hits, 2 timeouts", fake.stats.Queries, st)
	}
	// Unsat in another group still decides the query.
	r, err := s.Check(context.Background(), []solver.Expr{q[0], solver.False})
	if err != nil || r.Status != solver.Unsat {
		t.Errorf("got %v, %v; want unsat", r.Status, err)
	}
}

func TestCachedVerify(t *testing.T) {
	fake := &bruteForce{corrupt: true}
	s := solver.NewCached(fake, solver.CacheOptions{Verify: true})
	r, err := s.Check(context.Background(), []solver.Expr{solver.Eq(x8, c8(1))})
	if r.Status != solver.Unknown || err == nil {
		t.Errorf("got %v, %v; want unknown with a verification error", r.Status, err)
	}
}

func TestCachedEviction(t *testing.T) {
	fake := &bruteForce{}
	s := solver.NewCached(fake, solver.CacheOptions{MaxEntries: 1})
	a := []solver.Expr{solver.Eq(x8, c8(1))}
	b := []solver.Expr{solver.Eq(x8, c8(2))}
	for _, q := range [][]solver.Expr{a, a, b, a} {
		if _, err := s.Check(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	if got := len(fake.queries); got != 3 {
		t.Errorf("backend queries = %d, want 3 (a, b, a again after eviction)", got)
	}
	if got := s.Stats().CacheHits; got != 1 {
		t.Errorf("cache hits = %d, want 1", got)
	}
}

func TestCachedRejectsBadQueries(t *testing.T) {
	s := solver.NewCached(&bruteForce{}, solver.CacheOptions{})
	if _, err := s.Check(context.Background(), []solver.Expr{x8}); err == nil {
		t.Error("bit-vector constraint accepted")
	}
	mixed := []solver.Expr{solver.Eq(x8, c8(1)), solver.Eq(solver.Var("x", 16), solver.Const(1, 16))}
	if _, err := s.Check(context.Background(), mixed); err == nil {
		t.Error("variable with two widths accepted")
	}
	if r, err := s.Check(context.Background(), nil); err != nil || r.Status != solver.Sat || r.Model == nil {
		t.Errorf("empty query = %v %v, %v; want sat with an empty model", r.Status, r.Model, err)
	}
}
