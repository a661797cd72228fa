// This file implements the Foata normal form of a trace: a canonical string
// for its Mazurkiewicz trace, to count distinct traces among executions.

package trace

import (
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// Foata returns the Foata normal form of tr's events under rel, as a string:
// two executions of a program give the same string iff they are the same
// Mazurkiewicz trace (they differ only in the order of adjacent independent
// events; Saarikivi et al. 2012, §II-A).
//
// The events are grouped in levels: an event's level is the length of the
// longest chain of happens-before (HB) ending with it, so each level holds
// pairwise independent events, of distinct threads. Within a level events
// are sorted by thread. Names do not depend on the interleaving: a thread is
// named by its path of spawn indices from the test body ("0", "0.1",
// "0.1.0", ...), an object by its first access in the normal form. Each event
// shows its thread, operation, objects, select cases, rendezvous partner, OK,
// and the value of a variable or channel operation (but an AddOnly's: see
// AddOnly).
func Foata(tr *Trace, rel Relation) string { return foata(tr, rel, nil) }

// FoataPast returns the Foata normal form of the causal past of tr's event
// j under rel: j and the events that happen before it, written as Foata
// writes a whole trace. Two executions with the same FoataPast of their
// failing event fail the same way: the event and all it observed are the
// same, whatever independent events of other threads ran beside them. This
// is the identity of a failure as an event of the unfolding (Kähkönen et al. 2014, §3:
// an event is its local configuration), and what the DPOR family
// guarantees to reach: source sets cover a maximal execution only up to
// its weak initials (Abdulla et al., "Optimal dynamic partial order
// reduction"), so an execution that stops at a failure may be reached only
// with independent steps of other threads run before the failing one.
func FoataPast(tr *Trace, rel Relation, j int) string {
	var h HB
	h.Reset(tr, rel)
	h.Run()
	keep := make([]bool, len(tr.Events))
	for i := range j {
		keep[i] = h.Before(i, j)
	}
	keep[j] = true
	return foata(tr, rel, keep)
}

// foata writes the Foata normal form of the events of tr that keep holds
// (all of them if keep is nil); keep must be closed under happens-before,
// so that the levels of its events are their levels in the whole trace.
func foata(tr *Trace, rel Relation, keep []bool) string {
	names := threadNames(tr)
	level := foataLevels(tr, rel)
	order := make([]int, 0, len(tr.Events))
	for i := range tr.Events {
		if keep == nil || keep[i] {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(i, j int) int {
		if level[i] != level[j] {
			return level[i] - level[j]
		}
		return strings.Compare(names[tr.Events[i].Thread], names[tr.Events[j].Thread])
	})
	objs := make(map[ObjectID]int)
	obj := func(o ObjectID) string {
		if o == NoObject {
			return "nil"
		}
		k, ok := objs[o]
		if !ok {
			k = len(objs)
			objs[o] = k
		}
		return "o" + strconv.Itoa(k)
	}
	var b strings.Builder
	for n, i := range order {
		if n > 0 {
			if level[i] != level[order[n-1]] {
				b.WriteString(" | ")
			} else {
				b.WriteString("; ")
			}
		}
		e := &tr.Events[i]
		b.WriteString(names[e.Thread])
		b.WriteByte(' ')
		writeOp(&b, e.Op, names, obj)
		if e.Op.Kind == KindSelect {
			b.WriteString(" case ")
			b.WriteString(strconv.Itoa(int(e.Case)))
		}
		if e.Partner != NoThread {
			b.WriteString(" <- ")
			b.WriteString(names[e.Partner])
			b.WriteByte(' ')
			writeOp(&b, e.PartnerOp, names, obj)
			if e.PartnerOp.Kind == KindSelect {
				b.WriteString(" case ")
				b.WriteString(strconv.Itoa(int(e.PartnerCase)))
			}
		}
		if AddOnly(e.Op) {
			// Its value, the sum after it, depends on the order of the
			// adds it commutes with; the program does not observe it.
			b.WriteString(" only")
		} else if c := e.Op.Class; c == ClassVar || c == ClassChan {
			b.WriteString(" =")
			b.WriteString(strconv.FormatUint(e.Value, 10))
		}
		if !e.OK {
			b.WriteString(" !ok")
		}
	}
	return b.String()
}

// FoataHash returns a 64-bit hash of Foata(tr, rel).
func FoataHash(tr *Trace, rel Relation) uint64 {
	h := fnv.New64a()
	h.Write([]byte(Foata(tr, rel)))
	return h.Sum64()
}

// writeOp writes op with canonical names.
func writeOp(b *strings.Builder, op Op, names []string, obj func(ObjectID) string) {
	b.WriteString(op.Kind.String())
	switch op.Kind {
	case KindSelect:
		b.WriteByte('(')
		for k, c := range op.Cases {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c.Kind.String())
			b.WriteByte(' ')
			b.WriteString(obj(c.Obj))
		}
		if op.Arg == 1 {
			b.WriteString(", default")
		}
		b.WriteByte(')')
		return
	case KindJoin:
		b.WriteByte(' ')
		if t := op.Arg; t >= 0 && int(t) < len(names) {
			b.WriteString(names[t])
		}
		return
	}
	if op.Obj != NoObject {
		b.WriteByte(' ')
		b.WriteString(obj(op.Obj))
	}
	if m := ArgObject(&op); m != NoObject {
		b.WriteByte(' ')
		b.WriteString(obj(m))
	}
}

// threadNames names each thread of tr by its path of spawn indices.
func threadNames(tr *Trace) []string {
	names := make([]string, len(tr.Threads))
	children := make([]int, len(tr.Threads))
	for c, th := range tr.Threads {
		if th.Parent == NoThread || int(th.Parent) >= c {
			names[c] = strconv.Itoa(c)
			continue
		}
		names[c] = names[th.Parent] + "." + strconv.Itoa(children[th.Parent])
		children[th.Parent]++
	}
	return names
}

// foataLevels returns the level of each event of tr (from 1): one more than
// the highest level of the events that happen before it, computed with
// per-thread and per-object levels the way HB computes clocks.
func foataLevels(tr *Trace, rel Relation) []int {
	level := make([]int, len(tr.Events))
	th := make([]int, len(tr.Threads))
	var ol ObjectClocks // levels: clocks of width 1
	ol.Reset(len(tr.Objects)+1, 1)
	lv := make(VC, 1)
	idx := func(o ObjectID) int {
		if o == TimeObject {
			return len(tr.Objects)
		}
		return int(o)
	}
	spawned := 0
	spawn := func(i int) {
		for spawned < len(tr.Threads) && int(tr.Threads[spawned].Step) == i {
			if p := tr.Threads[spawned].Parent; p != NoThread {
				th[spawned] = th[p]
			}
			spawned++
		}
	}
	spawn(-1)
	var steps Steps
	steps.Reset(tr, rel)
	for i := range tr.Events {
		e := &tr.Events[i]
		l := th[e.Thread]
		if e.Partner != NoThread {
			l = max(l, th[e.Partner])
		}
		if e.Op.Kind == KindJoin {
			l = max(l, th[e.Op.Arg])
		}
		acc := steps.Accesses(i)
		lv[0] = uint32(l)
		for _, x := range acc {
			ol.Order(idx(x.Obj), x.Mode, lv)
		}
		l = int(lv[0]) + 1
		lv[0] = uint32(l)
		level[i] = l
		th[e.Thread] = l
		if e.Partner != NoThread {
			th[e.Partner] = l
		}
		for _, x := range acc {
			ol.Record(idx(x.Obj), x.Mode, lv)
		}
		spawn(i)
	}
	return level
}
