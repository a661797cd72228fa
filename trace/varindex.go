// This file implements VarIndex: the value of a variable in a state closed
// under happens-before without a scan of the trace (VarValue's answer, by
// binary searches in each variable's events).

package trace

import "slices"

// VarIndex indexes the events of each variable of a trace (ClassVar, by
// object) in trace order and by thread. Value answers what VarValue
// answers for the sets an analysis of races asks about, in time
// logarithmic in the trace per thread that accesses the variable.
type VarIndex struct {
	tr   *Trace
	vars []varEvents // by ObjectID
	cut  []int32     // scratch: per thread of a variable, its included events
	slot []int32     // scratch of Reset: by thread, its events' place in a variable's
}

// delta returns the change an AddOnly event k, at position m of v's events,
// makes to v's value, 0 for other events.
func (x *VarIndex) delta(v *varEvents, m, k int) uint64 {
	e := &x.tr.Events[k]
	if !AddOnly(e.Op) {
		return 0
	}
	d := e.Value
	if m > 0 {
		d -= x.tr.Events[v.all[m-1]].Value
	}
	return d
}

// newThread returns v.threads with one more, empty, entry, reusing the
// memory of an earlier one.
func (v *varEvents) newThread() []threadVar {
	n := len(v.threads)
	if n < cap(v.threads) {
		ts := v.threads[:n+1]
		t := &ts[n]
		t.pos, t.sum, t.lastNon = t.pos[:0], t.sum[:0], t.lastNon[:0]
		return ts
	}
	return append(v.threads, threadVar{})
}

// varEvents are the events of one variable.
type varEvents struct {
	all []int32 // event indices, in trace order
	// sum[m] is the sum of the deltas of the AddOnly events of all[:m];
	// lastNon[m] the position in all of the last event at or before m
	// that is not an AddOnly (-1: none); nextMask[m] the position of the
	// first AddOnly at or after m that narrows VarValue's mask (Arg < 8),
	// or len(all).
	sum      []uint64
	lastNon  []int32
	nextMask []int32
	threads  []threadVar // the threads that access the variable, in order of first access
}

// threadVar are the events of one variable by one thread.
type threadVar struct {
	pos     []int32  // positions in varEvents.all
	sum     []uint64 // sum[m]: the deltas of the AddOnly events of pos[:m]
	lastNon []int32  // lastNon[m]: the last position of pos[:m+1] that is not an AddOnly, -1
}

// Reset indexes tr. It costs the events of tr and the threads that
// access each variable, not the threads of tr times its variables.
func (x *VarIndex) Reset(tr *Trace) {
	x.tr = tr
	for len(x.vars) < len(tr.Objects) {
		x.vars = append(x.vars, varEvents{})
	}
	x.vars = x.vars[:len(tr.Objects)]
	for o := range x.vars {
		v := &x.vars[o]
		v.all, v.sum, v.lastNon, v.nextMask = v.all[:0], v.sum[:0], v.lastNon[:0], v.nextMask[:0]
		v.threads = v.threads[:0]
	}
	for k := range tr.Events {
		e := &tr.Events[k]
		if e.Op.Class != ClassVar || e.Op.Obj < 0 || int(e.Op.Obj) >= len(x.vars) {
			continue
		}
		v := &x.vars[e.Op.Obj]
		m := len(v.all)
		prevSum := uint64(0)
		if m > 0 {
			prevSum = v.sum[m]
		} else {
			v.sum = append(v.sum, 0)
		}
		delta := x.delta(v, m, k)
		v.all = append(v.all, int32(k))
		v.sum = append(v.sum, prevSum+delta)
		last := int32(m)
		if AddOnly(e.Op) {
			last = -1
			if m > 0 {
				last = v.lastNon[m-1]
			}
		}
		v.lastNon = append(v.lastNon, last)
	}
	// Each variable's events by thread, in the order the threads first
	// access it: slot[q] is 1 + the index of thread q's in v.threads.
	if cap(x.slot) < len(tr.Threads) {
		x.slot = make([]int32, len(tr.Threads))
	}
	slot := x.slot[:len(tr.Threads)]
	for o := range x.vars {
		v := &x.vars[o]
		for m, k := range v.all {
			e := &tr.Events[k]
			if slot[e.Thread] == 0 {
				v.threads = v.newThread()
				slot[e.Thread] = int32(len(v.threads))
			}
			t := &v.threads[slot[e.Thread]-1]
			if len(t.sum) == 0 {
				t.sum = append(t.sum, 0)
			}
			t.sum = append(t.sum, t.sum[len(t.sum)-1]+x.delta(v, m, int(k)))
			tl := int32(m)
			if AddOnly(e.Op) {
				tl = -1
				if n := len(t.lastNon); n > 0 {
					tl = t.lastNon[n-1]
				}
			}
			t.pos = append(t.pos, int32(m))
			t.lastNon = append(t.lastNon, tl)
		}
		for _, k := range v.all {
			slot[tr.Events[k].Thread] = 0
		}
	}
	for o := range x.vars {
		v := &x.vars[o]
		n := len(v.all)
		v.nextMask = slices.Grow(v.nextMask, n+1)[:n+1]
		v.nextMask[n] = int32(n)
		for m := n - 1; m >= 0; m-- {
			op := tr.Events[v.all[m]].Op
			if AddOnly(op) && op.Arg < 8 {
				v.nextMask[m] = int32(m)
			} else {
				v.nextMask[m] = v.nextMask[m+1]
			}
		}
	}
}

// Value returns VarValue(tr, obj, upto, in) for the set in of the events
// before upto that are before i, or after i and not after(k): after must
// report whether event k (k > i) happens after i, and so be monotone
// along each thread's events. With i >= upto, in holds every event before
// upto.
func (x *VarIndex) Value(obj ObjectID, upto, i int, after func(k int) bool) uint64 {
	if obj < 0 || int(obj) >= len(x.vars) || i < 0 {
		return VarValue(x.tr, obj, upto, func(k int) bool { return k < i || k > i && k < upto && !after(k) })
	}
	v := &x.vars[obj]
	if len(v.all) == 0 {
		return 0
	}
	u, _ := slices.BinarySearch(v.all, int32(upto))
	c, _ := slices.BinarySearch(v.all[:u], int32(i))
	last := int32(-1) // the last included event that is not an AddOnly
	if c > 0 {
		last = v.lastNon[c-1]
	}
	x.cut = x.cut[:0]
	if i < upto {
		for q := range v.threads {
			t := &v.threads[q]
			// The thread's events after i and before upto: those that do
			// not happen after i are a prefix of them.
			lo, _ := slices.BinarySearchFunc(t.pos, int32(c), cmpInt32)
			hi, _ := slices.BinarySearchFunc(t.pos, int32(u), cmpInt32)
			if lo < hi && v.all[t.pos[lo]] == int32(i) {
				lo++
			}
			b := lo + sortSearch(hi-lo, func(m int) bool { return after(int(v.all[t.pos[lo+m]])) })
			x.cut = append(x.cut, int32(lo), int32(b))
			if b > lo {
				if l := t.lastNon[b-1]; l >= t.pos[lo] {
					last = max(last, l)
				}
			}
		}
	}
	var sum uint64
	if int(last) < c {
		sum += v.sum[c] - v.sum[last+1]
	}
	for q := 0; q < len(x.cut)/2; q++ {
		t := &v.threads[q]
		lo, b := int(x.cut[2*q]), int(x.cut[2*q+1])
		if f := lo + sortSearch(b-lo, func(m int) bool { return t.pos[lo+m] > last }); f < b {
			sum += t.sum[b] - t.sum[f]
		}
	}
	mask := ^uint64(0)
	if m := v.nextMask[last+1]; int(m) < u {
		mask = 1<<(8*uint(x.tr.Events[v.all[m]].Op.Arg)) - 1
	}
	if last >= 0 {
		return (x.tr.Events[v.all[last]].Value + sum) & mask
	}
	return sum & mask
}

func cmpInt32(a, b int32) int { return int(a) - int(b) }

// sortSearch returns the least m in [0, n) for which f holds, or n; f is
// false then true.
func sortSearch(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if f(m) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}
