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
// group. The groups the cache misses go to the backend together in one
// call, and each group's Sat answer (its part of the model) is cached; if
// that call is Unsat, the missed groups are asked one by one, which finds
// and caches the unsat group. Unknown answers and errors are never cached.
// Stats().CacheHits counts groups answered from the cache, and SolverTime
// the time spent in the backend. Cached is safe for concurrent use, but
// serialises queries.
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

// Check implements Solver.Check.
func (c *Cached) Check(ctx context.Context, constraints []Expr) (Result, error) {
	r, _, err := c.query(ctx, nil, constraints, false)
	return r, err
}

// CheckCore implements Solver.CheckCore. The core lies within one
// independent group. A cached Unsat answer from Check has no core, so the
// first CheckCore of that group asks the backend again.
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
	var misses [][]int
	for _, g := range Components(cs) {
		group := pick(cs, g)
		if base != nil {
			if ok, err := Satisfies(base, group); err == nil && ok {
				continue
			}
		}
		r, core, ok := c.lookup(group, wantCore)
		switch {
		case !ok:
			misses = append(misses, g)
		case r.Status == Unsat:
			return r, remap(core, g), nil
		default:
			maps.Copy(model, r.Model)
		}
	}
	if len(misses) == 0 {
		return Result{Status: Sat, Model: model}, nil, nil
	}
	if len(misses) > 1 {
		return c.solveBatch(ctx, cs, misses, model, wantCore)
	}
	g := misses[0]
	r, core, err := c.ask(ctx, pick(cs, g), wantCore)
	if r.Status != Sat {
		return r, remap(core, g), err
	}
	maps.Copy(model, r.Model)
	return Result{Status: Sat, Model: model}, nil, nil
}

// solveBatch sends the missed groups as one backend query, then caches
// each group's part of the model. If the batch is unsat, the groups are
// asked one by one to find (and cache) the unsat one.
func (c *Cached) solveBatch(ctx context.Context, cs []Expr, misses [][]int, model Model, wantCore bool) (Result, []int, error) {
	var all []int
	for _, g := range misses {
		all = append(all, g...)
	}
	r, _, err := c.call(ctx, pick(cs, all), false)
	switch r.Status {
	case Sat:
		for _, g := range misses {
			group := pick(cs, g)
			sub := Model{}
			for _, v := range Vars(group...) {
				sub[v] = r.Model[v]
			}
			c.lru.put(Key(group), &entry{status: Sat, model: sub})
		}
		maps.Copy(model, r.Model)
		return Result{Status: Sat, Model: model}, nil, nil
	case Unsat:
		for _, g := range misses {
			gr, core, err := c.ask(ctx, pick(cs, g), wantCore)
			if gr.Status == Unsat {
				return gr, remap(core, g), nil
			}
			if err != nil {
				return Result{Status: Unknown}, nil, err
			}
		}
		return Result{Status: Unknown}, nil, errors.New("solver: backend found the query unsat but each independent part sat")
	}
	return r, nil, err
}

// pick returns the constraints at the given indices.
func pick(cs []Expr, idx []int) []Expr {
	out := make([]Expr, len(idx))
	for i, j := range idx {
		out[i] = cs[j]
	}
	return out
}

// remap turns indices into a group into indices into the query.
func remap(core, group []int) []int {
	for i, k := range core {
		core[i] = group[k]
	}
	return core
}

// lookup answers a group without the backend: groups without variables
// are decided directly, others from the cache. ok is false on a miss,
// including an Unsat entry without a core when one is wanted.
func (c *Cached) lookup(group []Expr, wantCore bool) (r Result, core []int, ok bool) {
	if len(Vars(group...)) == 0 {
		for i, e := range group {
			if v, _ := e.Const(); v == 0 {
				return Result{Status: Unsat}, []int{i}, true
			}
		}
		return Result{Status: Sat, Model: Model{}}, nil, true
	}
	ent, hit := c.lru.get(Key(group))
	if !hit || (ent.status == Unsat && wantCore && ent.core == nil) {
		return Result{}, nil, false
	}
	c.stats.CacheHits++
	if ent.status == Sat {
		return Result{Status: Sat, Model: maps.Clone(ent.model)}, nil, true
	}
	return Result{Status: Unsat}, coreIndices(group, ent.core), true
}

// ask sends one group to the backend and caches a Sat or Unsat answer.
// A returned core holds indices into group.
func (c *Cached) ask(ctx context.Context, group []Expr, wantCore bool) (Result, []int, error) {
	r, core, err := c.call(ctx, group, wantCore)
	if r.Status == Unknown {
		return r, nil, err
	}
	ent := &entry{status: r.Status, model: maps.Clone(r.Model)}
	if wantCore && r.Status == Unsat {
		ent.core = pick(group, core)
	}
	c.lru.put(Key(group), ent)
	return r, core, nil
}

// call queries the backend, timing it and verifying Sat models if asked.
// Errors and inconsistent answers come back as Unknown.
func (c *Cached) call(ctx context.Context, cs []Expr, wantCore bool) (Result, []int, error) {
	start := time.Now()
	var (
		r    Result
		core []int
		err  error
	)
	if wantCore {
		r, core, err = c.backend.CheckCore(ctx, cs)
	} else {
		r, err = c.backend.Check(ctx, cs)
	}
	c.stats.SolverTime += time.Since(start)
	switch {
	case err != nil:
		return Result{Status: Unknown}, nil, err
	case r.Status == Unknown:
		return Result{Status: Unknown}, nil, errors.New("solver: backend returned unknown")
	case r.Status == Sat && c.verify:
		if ok, verr := Satisfies(r.Model, cs); verr != nil || !ok {
			return Result{Status: Unknown}, nil, fmt.Errorf("solver: backend model %v fails verification (%v)", r.Model, verr)
		}
	}
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
