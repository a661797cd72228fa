// This file implements units of work (strategy.Splitter): distributed
// reachability testing (Lei and Carver 2006, §8) hands race variants to
// other nodes, each of which explores the subtree of its variant with no
// communication after, since "prefix-based test runs during reachability
// testing are independent".

package reach

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

var _ strategy.Splitter = (*Strategy)(nil)

// unitData is a unit: a race variant, the root of the subtree to explore,
// with the names its events use: the stable numbers of the threads and
// the groups of the objects of the model.
type unitData struct {
	Threads []wireThread
	Refs    []wireRef
	Parent  []int32
	Variant variant
}

// wireThread is a thread's stable number and its path of spawns.
type wireThread struct {
	Parent, Rank int32
	ID           trace.ThreadID
}

// wireRef is an object of the model (a ref) and its node in the groups.
type wireRef struct {
	Key  uint64
	Half uint8
	Node int32
}

// handbackData is what a unit hands back: its statistics. A subtree of
// reachability testing needs nothing from the states above it, nor finds
// anything for them.
type handbackData struct {
	Runs, Variants int
}

// tag names the strategy and its options for units.
func (s *Strategy) tag() string {
	return fmt.Sprintf("reach(seed=%d,pv=%v,symmetric=%v)", s.opts.Seed, s.opts.PV, s.opts.Symmetric)
}

// Split implements strategy.Splitter: it hands out the next race variant
// of the deepest node on the stack (the one Next would run next) as the
// root of a subtree, and goes on as if it had explored it.
func (s *Strategy) Split() (strategy.Unit, bool) {
	if s.err != nil || !s.started || s.restart || s.retry != nil {
		return nil, false
	}
	for len(s.stack) > 0 {
		v, ok := s.nextVariant()
		if !ok {
			if s.err != nil {
				return nil, false
			}
			continue
		}
		d := unitData{Variant: *v, Parent: slices.Clone(s.gs.parent)}
		for p, id := range s.names.Paths() {
			d.Threads = append(d.Threads, wireThread{Parent: p.Parent, Rank: p.Rank, ID: id})
		}
		slices.SortFunc(d.Threads, func(a, b wireThread) int { return cmp.Compare(a.ID, b.ID) })
		for r, n := range s.gs.node {
			d.Refs = append(d.Refs, wireRef{Key: r.key, Half: r.half, Node: n})
		}
		slices.SortFunc(d.Refs, func(a, b wireRef) int { return cmp.Compare(a.Node, b.Node) })
		u, err := strategy.EncodeUnit(s.tag(), &d)
		if err != nil {
			panic("weft internal error: reach: " + err.Error())
		}
		return u, true
	}
	return nil, false
}

// Resume implements strategy.Splitter: a strategy with s's options whose
// first run is the unit's variant and whose exploration ends with that
// variant's subtree. (A select that joins objects of the model that the
// unit's names keep apart begins the exploration again, from the empty
// variant, as in a run of its own: the unit then explores the whole
// program, Stats.Restarts.)
func (s *Strategy) Resume(u strategy.Unit) (strategy.Splitter, error) {
	var d unitData
	if err := strategy.DecodeUnit(u, s.tag(), &d); err != nil {
		return nil, err
	}
	bad := func(what string) error {
		return fmt.Errorf("%w: a unit of %s with a bad %s", strategy.ErrBadUnit, s.tag(), what)
	}
	r := New(s.opts)
	paths := make(map[trace.ThreadPath]trace.ThreadID, len(d.Threads))
	for _, t := range d.Threads {
		p := trace.ThreadPath{Parent: t.Parent, Rank: t.Rank}
		if _, dup := paths[p]; dup {
			return nil, bad("table of threads")
		}
		paths[p] = t.ID
	}
	if !r.names.SetPaths(paths) {
		return nil, bad("table of threads")
	}
	r.gs.parent = d.Parent
	r.gs.node = make(map[ref]int32, len(d.Refs))
	for _, w := range d.Refs {
		if w.Node < 0 || int(w.Node) >= len(d.Parent) {
			return nil, bad("table of objects")
		}
		r.gs.node[ref{w.Key, w.Half}] = w.Node
	}
	for _, p := range d.Parent {
		if p < 0 || int(p) >= len(d.Parent) {
			return nil, bad("table of objects")
		}
	}
	v := d.Variant
	if v.Pos == nil {
		v.Pos = make(map[int32][]spec)
	}
	r.started, r.analysed, r.resumed = true, 1, true
	r.retry = &v
	r.stats.Variants = 1
	return r, nil
}

// Handback implements strategy.Splitter: nil for a strategy not resumed
// from a unit; otherwise its runs and variants, for nothing above the
// unit's root needs what it found.
func (s *Strategy) Handback() strategy.Handback {
	if !s.resumed {
		return nil
	}
	h, err := strategy.EncodeHandback(s.tag(), &handbackData{Runs: s.stats.Runs, Variants: s.stats.Variants})
	if err != nil {
		panic("weft internal error: reach: " + err.Error())
	}
	return h
}

// Join implements strategy.Splitter: a unit's subtree adds no work where
// s's path has moved on.
func (s *Strategy) Join(h strategy.Handback) ([]strategy.Unit, error) {
	var d handbackData
	if err := strategy.DecodeHandback(h, s.tag(), &d); err != nil {
		return nil, err
	}
	return nil, nil
}
