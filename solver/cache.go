// This file implements Cached, a Solver wrapper that splits queries into
// independent parts, reuses a base model and caches answers.

package solver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"
)

// CacheOptions configure NewCached.
type CacheOptions struct {
	// MaxEntries bounds the number of cached answers (least recently
	// used ones are evicted). 0 means DefaultCacheEntries; a negative
	// value disables caching (independence splitting still applies).
	MaxEntries int

	// Verify checks every Sat model returned by the backend with Eval
	// and fails the query if it does not satisfy the constraints.
	Verify bool
}

// DefaultCacheEntries is the cache bound used when CacheOptions.MaxEntries
// is 0.
const DefaultCacheEntries = 16384

// Cached wraps a backend Solver with constraint independence and an answer
// cache. A query is split into independent groups of constraints
// (Components); each group is answered from the cache, keyed by Key of the
// group, or by one backend call whose Sat or Unsat answer is then cached.
// Unknown answers and errors are never cached. Stats().CacheHits counts
// groups answered from the cache, and SolverTime the time spent in the
// backend. Cached is safe for concurrent use, but serialises queries.
type Cached struct {
	backend Solver
	verify  bool

	mu    sync.Mutex
	lru   lru
	stats Stats
}

var _ Solver = (*Cached)(nil)

// NewCached returns a caching, slicing Solver in front of backend. Closing
// it closes the backend.
func NewCached(backend Solver, opts CacheOptions) *Cached {
	n := opts.MaxEntries
	if n == 0 {
		n = DefaultCacheEntries
	}
	return &Cached{backend: backend, verify: opts.Verify, lru: newLRU(n)}
}

// Check implements Solver.Check, solving each independent group separately
// and merging the models.
func (c *Cached) Check(ctx context.Context, constraints []Expr) (Result, error) {
	r, _, err := c.query(ctx, nil, constraints, false)
	return r, err
}

// CheckCore implements Solver.CheckCore. The core lies within one
// independent group.
func (c *Cached) CheckCore(ctx context.Context, constraints []Expr) (Result, []int, error) {
	return c.query(ctx, nil, constraints, true)
}

// CheckWithBase decides constraints like Check, reusing base, the model of
// the current concrete run: every independent group that base already
// satisfies is not sent to the solver and keeps its base values. In
// concolic testing the constraints are the path prefix, which base
// satisfies, plus the negated branch, so only the slice of the negated
// branch (see Slice) is solved. On Sat the model is a copy of base
// overridden with the solved values, so it also covers base's variables
// that occur in no constraint.
func (c *Cached) CheckWithBase(ctx context.Context, base Model, constraints []Expr) (Result, error) {
	if base == nil {
		base = Model{}
	}
	r, _, err := c.query(ctx, base, constraints, false)
	return r, err
}

// Stats implements Solver.Stats.
func (c *Cached) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Close implements Solver.Close by closing the backend.
func (c *Cached) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru = newLRU(-1)
	return c.backend.Close()
}

func (c *Cached) query(ctx context.Context, base Model, cs []Expr, wantCore bool) (Result, []int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats.Queries++
	r, core, err := c.solve(ctx, base, cs, wantCore)
	switch r.Status {
	case Sat:
		c.stats.Sat++
	case Unsat:
		c.stats.Unsat++
	default:
		c.stats.Unknown++
		if errors.Is(err, ErrTimeout) {
			c.stats.Timeouts++
		}
	}
	return r, core, err
}

func (c *Cached) solve(ctx context.Context, base Model, cs []Expr, wantCore bool) (Result, []int, error) {
	for i, e := range cs {
		if !e.IsBool() {
			return Result{}, nil, fmt.Errorf("solver: constraint %d (%s) is a %d-bit vector, want boolean", i, e, e.Width())
		}
	}
	if _, err := VarWidths(cs...); err != nil {
		return Result{}, nil, err
	}
	model := maps.Clone(base)
	if model == nil {
		model = Model{}
	}
	var unknownErr error
	for _, g := range Components(cs) {
		group := make([]Expr, len(g))
		for i, j := range g {
			group[i] = cs[j]
		}
		if base != nil {
			if ok, err := Satisfies(base, group); err == nil && ok {
				continue
			}
		}
		r, core, err := c.solveGroup(ctx, group, wantCore)
		switch r.Status {
		case Unsat:
			for i, k := range core {
				core[i] = g[k]
			}
			return Result{Status: Unsat}, core, nil
		case Sat:
			maps.Copy(model, r.Model)
		default:
			if unknownErr == nil {
				unknownErr = fmt.Errorf("solver: group of %d constraints: %w", len(g), err)
			}
		}
	}
	if unknownErr != nil {
		return Result{Status: Unknown}, nil, unknownErr
	}
	return Result{Status: Sat, Model: model}, nil, nil
}

// solveGroup answers one independent group from the cache or the backend.
// A returned core holds indices into group.
func (c *Cached) solveGroup(ctx context.Context, group []Expr, wantCore bool) (Result, []int, error) {
	if len(Vars(group...)) == 0 {
		// Constant constraints: decide them locally.
		for i, e := range group {
			if v, _ := e.Const(); v == 0 {
				return Result{Status: Unsat}, []int{i}, nil
			}
		}
		return Result{Status: Sat, Model: Model{}}, nil, nil
	}
	key := Key(group)
	if ent, ok := c.lru.get(key); ok && (ent.status == Sat || !wantCore || ent.core != nil) {
		c.stats.CacheHits++
		if ent.status == Sat {
			return Result{Status: Sat, Model: maps.Clone(ent.model)}, nil, nil
		}
		return Result{Status: Unsat}, coreIndices(group, ent.core), nil
	}
	start := time.Now()
	var (
		r    Result
		core []int
		err  error
	)
	if wantCore {
		r, core, err = c.backend.CheckCore(ctx, group)
	} else {
		r, err = c.backend.Check(ctx, group)
	}
	c.stats.SolverTime += time.Since(start)
	if err != nil || r.Status == Unknown {
		if err == nil {
			err = errors.New("solver: backend returned unknown")
		}
		return Result{Status: Unknown}, nil, err
	}
	ent := &entry{status: r.Status, model: r.Model}
	if r.Status == Sat && c.verify {
		if ok, verr := Satisfies(r.Model, group); verr != nil || !ok {
			return Result{Status: Unknown}, nil, fmt.Errorf("solver: backend model %v fails verification (%v)", r.Model, verr)
		}
	}
	if r.Status == Sat {
		r.Model = maps.Clone(r.Model)
	}
	if wantCore && r.Status == Unsat {
		ent.core = make([]Expr, len(core))
		for i, k := range core {
			ent.core[i] = group[k]
		}
	}
	c.lru.put(key, ent)
	return r, core, nil
}

// coreIndices maps cached core constraints back to indices into group.
func coreIndices(group []Expr, core []Expr) []int {
	if core == nil {
		return nil
	}
	in := make(map[Expr]bool, len(core))
	for _, e := range core {
		in[e] = true
	}
	var idx []int
	for i, e := range group {
		if in[e] {
			idx = append(idx, i)
			delete(in, e)
		}
	}
	return idx
}
