// This file holds the wire forms of units, handbacks and letters (written
// in the binary forms of wirecodec.go) and their translation: events, states and wakeup trees as bytes, the
// name tables they are written in, and the translation of a handback's
// names into the strategy's that joins it.

package optimal

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// The wire forms of units, handbacks and letters (wirecodec.go).

// wireEvent is an event (event.go).
type wireEvent struct {
	Event         trace.Event
	Step, PStep   int32
	Ann           []trace.Access
	SpawnLo       trace.ThreadID
	Th, Part, Jn  trace.ThreadID
	Kids          []trace.ThreadID
	Cached, Fails bool
}

// wireTree is a node of a wakeup tree.
type wireTree struct {
	Ev       wireEvent
	Children []wireTree
}

// wireNode is a state of the path (node).
type wireNode struct {
	Ev    wireEvent
	Alt   int32
	Sleep []wireEvent
	Wut   []wireTree
	// Given are the branches handed out (node.given).
	Given []wireTree
}

// wireNames are the name tables (names.go): threads by their parent's
// stable number and rank, objects by key.
type wireNames struct {
	Threads []wireThread
	Objects []wireObject
}

type wireThread struct {
	Parent, Rank int32
	ID           trace.ThreadID
}

type wireObject struct {
	Key uint64
	ID  trace.ObjectID
}

// unitData is a unit: the states of the path from the initial one to the
// unit's root, the last one, whose sleep set holds the branch explored
// last and whose wakeup tree holds the branches left; the name tables the
// events are written in; whether an execution failed before (see
// analysis.run); and the state of the random order (Options.Seed).
type unitData struct {
	Nodes        []wireNode
	Names        wireNames
	FailedBefore bool
	Rand         []byte
	// Large marks a unit of SplitLarge (unitLog.large); Mail one that
	// takes letters from its splitter (mail.go).
	Large, Mail bool
}

// handbackData is a handback: the states above the unit's root, as the
// exploration left them (for the path they are on, and for the units Join
// makes where the splitter has left it); the wakeup sequences inserted
// there, in order; the name tables the events are written in and the key
// merges found; whether an execution failed; the state of the random
// order; and the exploration's statistics.
type handbackData struct {
	Path         []wireNode
	Large        bool
	Inserts      []wireInsert
	Names        wireNames
	Merges       []trace.KeyMerge
	FailedBefore bool
	Rand         []byte
	Stats        Stats
}

type wireInsert struct {
	Depth       int
	Seq, Branch []wireEvent
	At          []int
}

// randState returns the state of the random order, or nil.
func (s *Strategy) randState() []byte {
	if s.pcg == nil {
		return nil
	}
	b, err := s.pcg.MarshalBinary()
	if err != nil {
		panic("weft internal error: optimal: " + err.Error())
	}
	return b
}

// setRand sets the state of the random order of s, resumed from a unit.
func (s *Strategy) setRand(b []byte) error {
	if s.seed == 0 {
		return nil
	}
	s.pcg = rand.NewPCG(uint64(s.seed), 0x9e3779b97f4a7c15)
	s.rand = rand.New(s.pcg)
	if b == nil {
		return nil
	}
	if err := s.pcg.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("%w: a unit of %s with a bad random state: %v", strategy.ErrBadUnit, s.tag(), err)
	}
	return nil
}

// wireNames returns s's name tables, in the order of their numbers.
func (s *Strategy) wireNames() wireNames {
	var w wireNames
	for k, id := range s.tn.Paths() {
		w.Threads = append(w.Threads, wireThread{Parent: k.Parent, Rank: k.Rank, ID: id})
	}
	slices.SortFunc(w.Threads, func(a, b wireThread) int { return cmp.Compare(a.ID, b.ID) })
	for k, id := range s.nm.ids {
		w.Objects = append(w.Objects, wireObject{Key: k, ID: id})
	}
	slices.SortFunc(w.Objects, func(a, b wireObject) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.Key, b.Key))
	})
	return w
}

// setNames sets the name tables of s, resumed from a unit.
func (s *Strategy) setNames(w *wireNames) error {
	paths := make(map[trace.ThreadPath]trace.ThreadID, len(w.Threads))
	for _, t := range w.Threads {
		k := trace.ThreadPath{Parent: t.Parent, Rank: t.Rank}
		if _, dup := paths[k]; dup {
			return fmt.Errorf("%w: a unit of %s with a bad table of threads", strategy.ErrBadUnit, s.tag())
		}
		paths[k] = t.ID
	}
	if !s.tn.SetPaths(paths) {
		return fmt.Errorf("%w: a unit of %s with a bad table of threads", strategy.ErrBadUnit, s.tag())
	}
	s.nm.ids = make(map[uint64]trace.ObjectID, len(w.Objects))
	for _, o := range w.Objects {
		if _, dup := s.nm.ids[o.Key]; dup || o.ID < 0 {
			return fmt.Errorf("%w: a unit of %s with a bad table of objects", strategy.ErrBadUnit, s.tag())
		}
		s.nm.ids[o.Key] = o.ID
	}
	return nil
}

// translator translates the stable numbers of threads and objects of a
// handback's events into those of the strategy that joins it: the same
// path of spawns, the same object key. Threads and objects the strategy
// has not named yet get new numbers, as if it had met them.
type translator struct {
	tag     string
	threads map[trace.ThreadID]trace.ThreadID
	objects map[trace.ObjectID]trace.ObjectID
}

// translator returns the translator of the names w into s's, which it
// extends with the names s has not met.
func (s *Strategy) translator(w *wireNames) (*translator, error) {
	x := &translator{tag: s.tag(), threads: map[trace.ThreadID]trace.ThreadID{}, objects: map[trace.ObjectID]trace.ObjectID{}}
	bad := func(what string) error {
		return fmt.Errorf("%w: a handback of %s with a bad table of %s", strategy.ErrBadUnit, x.tag, what)
	}
	keyOf := make(map[trace.ThreadID][2]int32, len(w.Threads))
	for _, t := range w.Threads {
		if _, dup := keyOf[t.ID]; dup || t.ID < 0 {
			return nil, bad("threads")
		}
		keyOf[t.ID] = [2]int32{t.Parent, t.Rank}
	}
	// A thread's key holds its parent's number, named before it: the
	// parent is translated first (depth bounds a cycle in a bad table).
	var thread func(id trace.ThreadID, depth int) (trace.ThreadID, error)
	thread = func(id trace.ThreadID, depth int) (trace.ThreadID, error) {
		if t, ok := x.threads[id]; ok {
			return t, nil
		}
		k, ok := keyOf[id]
		if !ok || depth > len(keyOf) {
			return 0, bad("threads")
		}
		if k[0] >= 0 {
			p, err := thread(trace.ThreadID(k[0]), depth+1)
			if err != nil {
				return 0, err
			}
			k[0] = int32(p)
		}
		t := s.tn.Intern(trace.ThreadPath{Parent: k[0], Rank: k[1]})
		x.threads[id] = t
		return t, nil
	}
	for _, id := range slices.Sorted(maps.Keys(keyOf)) {
		if _, err := thread(id, 0); err != nil {
			return nil, err
		}
	}
	if s.nm.ids == nil {
		s.nm.ids = make(map[uint64]trace.ObjectID)
	}
	for _, o := range w.Objects {
		if o.ID < 0 {
			return nil, bad("objects")
		}
		t, known := s.nm.ids[o.Key]
		if u, ok := x.objects[o.ID]; ok {
			// Another key of the object.
			if !known {
				s.nm.ids[o.Key] = u
			}
			continue
		}
		if !known {
			t = trace.ObjectID(len(s.nm.ids))
			s.nm.ids[o.Key] = t
		}
		x.objects[o.ID] = t
	}
	return x, nil
}

// thread translates stable thread number t.
func (x *translator) thread(t trace.ThreadID) (trace.ThreadID, error) {
	if x == nil || t < 0 {
		return t, nil
	}
	u, ok := x.threads[t]
	if !ok {
		return 0, fmt.Errorf("%w: a handback of %s naming a thread it has no name for", strategy.ErrBadUnit, x.tag)
	}
	return u, nil
}

// object translates stable object number o.
func (x *translator) object(o trace.ObjectID) (trace.ObjectID, error) {
	if x == nil || o < 0 {
		return o, nil
	}
	u, ok := x.objects[o]
	if !ok {
		return 0, fmt.Errorf("%w: a handback of %s naming an object it has no key for", strategy.ErrBadUnit, x.tag)
	}
	return u, nil
}

// op translates the objects of op in place (its select cases are its
// own).
func (x *translator) op(op *trace.Op) (err error) {
	if x == nil {
		return nil
	}
	if op.Obj, err = x.object(op.Obj); err != nil {
		return err
	}
	for i := range op.Cases {
		if op.Cases[i].Obj, err = x.object(op.Cases[i].Obj); err != nil {
			return err
		}
	}
	if m := trace.ArgObject(op); m != trace.NoObject {
		o, err := x.object(m)
		if err != nil {
			return err
		}
		op.Arg = int64(o)
	}
	return nil
}

// wireEventOf returns the wire form of e.
func wireEventOf(e *event) wireEvent {
	return wireEvent{Event: e.Event, Step: e.step, PStep: e.pstep, Ann: e.ann(), SpawnLo: e.spawnLo,
		Th: e.sth, Part: e.spart, Jn: e.sjoin, Kids: e.kids(), Cached: e.cached, Fails: e.fails}
}

// event returns the event of wire form w, with x's names (no translation if
// x is nil).
func (x *translator) event(w *wireEvent) (event, error) {
	e := event{Event: w.Event, step: w.Step, pstep: w.PStep, spawnLo: w.SpawnLo,
		sth: w.Th, spart: w.Part, sjoin: w.Jn, fails: w.Fails}
	e.setMore(eventMore{ann: slices.Clone(w.Ann), kids: slices.Clone(w.Kids)})
	e.Op.Cases = slices.Clone(e.Op.Cases)
	e.PartnerOp.Cases = slices.Clone(e.PartnerOp.Cases)
	var err error
	if e.sth, err = x.thread(e.sth); err != nil {
		return e, err
	}
	if e.spart, err = x.thread(e.spart); err != nil {
		return e, err
	}
	if e.sjoin, err = x.thread(e.sjoin); err != nil {
		return e, err
	}
	kids := e.kids()
	for i := range kids {
		if kids[i], err = x.thread(kids[i]); err != nil {
			return e, err
		}
	}
	if err := x.op(&e.Op); err != nil {
		return e, err
	}
	if err := x.op(&e.PartnerOp); err != nil {
		return e, err
	}
	ann := e.ann()
	for i := range ann {
		if ann[i].Obj, err = x.object(ann[i].Obj); err != nil {
			return e, err
		}
	}
	if w.Cached {
		e.cache()
	}
	return e, nil
}

// events returns the events of wire forms ws, with x's names.
func (x *translator) events(ws []wireEvent) ([]event, error) {
	out := make([]event, len(ws))
	for i := range ws {
		var err error
		if out[i], err = x.event(&ws[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// wireNodeOf returns the wire form of n (without the subtree of the branch
// it is exploring, which the next state holds).
func wireNodeOf(n *node) wireNode {
	w := wireNode{Ev: wireEventOf(&n.ev), Alt: n.alt, Sleep: make([]wireEvent, len(n.sleep)), Wut: wireForest(n.wut), Given: wireForest(n.given())}
	for i := range n.sleep {
		w.Sleep[i] = wireEventOf(&n.sleep[i])
	}
	return w
}

// wireForest returns the wire form of a wakeup forest.
func wireForest(f []*wnode) []wireTree {
	if len(f) == 0 {
		return nil
	}
	out := make([]wireTree, len(f))
	for i, c := range f {
		out[i] = wireTree{Ev: wireEventOf(c.ev), Children: wireForest(c.children)}
	}
	return out
}

// nodeFrom sets n to the state of wire form w, with x's names. Its wakeup
// tree's nodes are s's; they are not counted as created (Stats).
func (s *Strategy) nodeFrom(n *node, w *wireNode, x *translator) error {
	var err error
	if n.ev, err = x.event(&w.Ev); err != nil {
		return err
	}
	n.alt = w.Alt
	n.sleep = make([]event, len(w.Sleep))
	for i := range w.Sleep {
		if n.sleep[i], err = x.event(&w.Sleep[i]); err != nil {
			return err
		}
	}
	if n.wut, err = s.forestFrom(w.Wut, x); err != nil {
		return err
	}
	given, err := s.forestFrom(w.Given, x)
	if given != nil || n.recs != nil {
		n.records().given = given
	}
	return err
}

// forestFrom returns the wakeup forest of wire form f, with x's names.
func (s *Strategy) forestFrom(f []wireTree, x *translator) ([]*wnode, error) {
	if len(f) == 0 {
		return nil, nil
	}
	out := make([]*wnode, len(f))
	for i := range f {
		c := s.nm.alloc()
		ev, err := x.event(&f[i].Ev)
		if err != nil {
			return nil, err
		}
		c.set(&ev)
		kids, err := s.forestFrom(f[i].Children, x)
		if err != nil {
			return nil, err
		}
		c.children = append(c.children, kids...)
		out[i] = c
	}
	return out, nil
}
