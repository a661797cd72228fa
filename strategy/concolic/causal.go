// This file implements the analysis of a finished execution for the
// combined tree: the causal past of each symbolic branch (the events and
// branches that happen before it), the prefix a subtree for its other side
// replays, and the key that names its node.

package concolic

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"github.com/weft-go/weft/trace"
)

// analysis holds the per-execution state of the causal analysis; its
// memory is reused across executions.
type analysis struct {
	tr      *trace.Trace
	hb      trace.HB
	level   []int32            // Foata level of each event
	thl     []int32            // level of each thread's last event
	ol      trace.ObjectClocks // the levels of each object's accesses (width 1)
	lv      trace.VC           // a level, as a clock of width 1
	paths   []uint64           // paths[j]: a digest of the branches before branch j and their sides
	in      []bool             // the events of the node's prefix
	k       int                // the prefix is a subset of the first k events
	aug     int                // the prefix holds every event up to aug (-1: none)
	spawned int                // threads whose start level is set
	order   []int32
	buf     []byte
}

// node is what the analysis says about one branch of the execution: the
// key of its node in the combined tree. The prefix that replays its causal
// past is built on demand (analysis.prefix).
type node struct {
	key string
	// claim reports that the current subtree explores everything below
	// the node, so the side taken here is covered.
	claim bool
}

// reset starts the analysis of tr.
func (a *analysis) reset(tr *trace.Trace) {
	a.tr = tr
	a.hb.Reset(tr, trace.CR)
	n := len(tr.Events)
	a.level = growInt32(a.level, n)
	a.thl = growInt32(a.thl, len(tr.Threads))
	clear(a.thl)
	a.ol.Reset(len(tr.Objects)+1, 1)
	if a.lv == nil {
		a.lv = make(trace.VC, 1)
	}
	if cap(a.in) < n {
		a.in = make([]bool, n)
	}
	a.in = a.in[:n]
	a.spawned = 0
	a.spawnLevels(-1)
	a.paths = append(a.paths[:0], 0x9e3779b97f4a7c15)
	for i := range tr.Branches {
		b := &tr.Branches[i]
		h := a.paths[i] ^ b.Cond.Hash()
		if b.Taken {
			h ^= 0x5851f42d4c957f2d
		}
		a.paths = append(a.paths, trace.Mix(h))
	}
}

// growInt32 returns s resized to n entries, reusing its memory.
func growInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n, n+n/2)
	}
	return s[:n]
}

// objIndex is the index of object o in the per-object levels.
func (a *analysis) objIndex(o trace.ObjectID) int {
	if o == trace.TimeObject {
		return len(a.tr.Objects)
	}
	return int(o)
}

// step processes event i: its happens-before clock and Foata level (the
// way trace.HB orders steps, under trace.CR).
func (a *analysis) step(i int) {
	e := &a.tr.Events[i]
	l := a.thl[e.Thread]
	if e.Partner != trace.NoThread {
		l = max(l, a.thl[e.Partner])
	}
	if e.Op.Kind == trace.KindJoin && int(e.Op.Arg) < len(a.thl) {
		l = max(l, a.thl[e.Op.Arg])
	}
	acc := a.hb.Steps().Accesses(i)
	a.lv[0] = uint32(l)
	for _, x := range acc {
		a.ol.Order(a.objIndex(x.Obj), x.Mode, a.lv)
	}
	l = int32(a.lv[0]) + 1
	a.lv[0] = uint32(l)
	a.level[i] = l
	a.thl[e.Thread] = l
	if e.Partner != trace.NoThread {
		a.thl[e.Partner] = l
	}
	for _, x := range acc {
		a.ol.Record(a.objIndex(x.Obj), x.Mode, a.lv)
	}
	a.hb.Step()
	a.spawnLevels(i)
}

// spawnLevels gives the threads started in the local code of event i their
// parent's level.
func (a *analysis) spawnLevels(i int) {
	for ; a.spawned < len(a.tr.Threads) && int(a.tr.Threads[a.spawned].Step) == i; a.spawned++ {
		if p := a.tr.Threads[a.spawned].Parent; p != trace.NoThread {
			a.thl[a.spawned] = a.thl[p]
		}
	}
}

// multi reports whether event e may have had several alternatives (a
// rendezvous partner, a select case): their numbering depends on what else
// is ready, so a prefix replays it only with every event before it.
func multi(e *trace.Event) bool {
	return e.Alt != 0 || e.Partner != trace.NoThread || e.Op.Kind == trace.KindSelect
}

// branch analyses branch j, taken after k events by thread t, whose clock
// there is the current clock of t. own is the index of the current
// subtree's own branch (-1 for none) and pl the length of its prefix; root
// says the current subtree is the root.
func (a *analysis) branch(j, k int, root bool, own, pl int) node {
	tr := a.tr
	b := &tr.Branches[j]
	t := b.Thread
	clock := a.hb.Thread(t)
	// The causal past: the events that happen before the branch, and
	// every event up to the last one of them that may have had several
	// alternatives, and up to the one that started the last thread the
	// prefix names (threads are numbered in the order they start).
	a.aug = int(tr.Threads[t].Step)
	for i := 0; i < k; i++ {
		a.in[i] = clock.Knows(i, tr.Events[i].Thread)
		if !a.in[i] {
			continue
		}
		e := &tr.Events[i]
		if multi(e) {
			a.aug = max(a.aug, i)
		}
		a.aug = max(a.aug, int(tr.Threads[e.Thread].Step))
		if e.Partner != trace.NoThread {
			a.aug = max(a.aug, int(tr.Threads[e.Partner].Step))
		}
	}
	for i := 0; i <= a.aug && i < k; i++ {
		a.in[i] = true
	}
	a.k = k
	var nd node
	// The key: a digest of the prefix in Foata normal form (level, then
	// thread), the path constraint (the branches before it and the sides
	// they took) and the branch's condition.
	a.order = a.order[:0]
	for i := 0; i < k; i++ {
		if a.in[i] {
			a.order = append(a.order, int32(i))
		}
	}
	slices.SortFunc(a.order, func(x, y int32) int {
		if d := a.level[x] - a.level[y]; d != 0 {
			return int(d)
		}
		return int(tr.Events[x].Thread - tr.Events[y].Thread)
	})
	a.buf = a.buf[:0]
	for _, i := range a.order {
		a.buf = a.appendEvent(a.buf, int(i))
	}
	a.buf = binary.AppendUvarint(a.buf, uint64(t))
	a.buf = binary.LittleEndian.AppendUint64(a.buf, a.paths[j])
	a.buf = binary.LittleEndian.AppendUint64(a.buf, b.Cond.Hash())
	sum := sha256.Sum256(a.buf)
	nd.key = string(sum[:16])
	// The current subtree explores every execution that extends its
	// prefix and takes its own branch's side: the node is inside it if
	// the node's causal past holds the prefix and that branch.
	switch {
	case root:
		nd.claim = true
	case own < 0:
	case j == own:
		nd.claim = true
	case own < j && pl <= k:
		nd.claim = !slices.Contains(a.in[:pl], false)
	}
	return nd
}

// prefix returns the forced prefix of the node the last call of branch
// analysed: the events of its causal past, in the order they ran.
func (a *analysis) prefix() []step {
	var p []step
	for i := 0; i < a.k; i++ {
		if a.in[i] {
			e := &a.tr.Events[i]
			p = append(p, step{Thread: e.Thread, Alt: e.Alt, Kind: e.Op.Kind})
		}
	}
	return p
}

// appendEvent appends to buf what names event i across executions: its
// level, thread, choice, partner and operation, without the values it
// read or wrote (they vary with the inputs).
func (a *analysis) appendEvent(buf []byte, i int) []byte {
	e := &a.tr.Events[i]
	var key uint64
	if o := e.Op.Obj; o >= 0 && int(o) < len(a.tr.Objects) {
		key = a.tr.Objects[o].Key
	}
	buf = binary.AppendUvarint(buf, uint64(a.level[i]))
	buf = binary.AppendVarint(buf, int64(e.Thread))
	buf = binary.AppendVarint(buf, int64(e.Alt))
	buf = binary.AppendVarint(buf, int64(e.Partner))
	buf = binary.AppendVarint(buf, int64(e.Case))
	buf = append(buf, byte(e.Op.Kind), byte(e.Op.Class))
	return binary.AppendUvarint(buf, key)
}
