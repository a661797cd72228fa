// This file records the set of threads enabled before each step of a trace
// as the changes from one step to the next, so that a step costs what
// changed rather than a word per 64 threads.

package trace

import (
	"math/bits"
	"slices"
	"sort"
)

// enabledLog holds the enabled sets of a trace's steps: the bits that
// changed before each step (flips, in step order), and, every so many
// changes, a copy of the whole set (marks), from which a query replays the
// changes up to its step.
type enabledLog struct {
	cur   []uint64 // the set before the last step recorded
	steps int      // the number of steps recorded
	flips []enabledFlip
	marks []enabledMark
	bits  []uint64 // the sets of the marks, one after another
}

// enabledFlip says that thread was enabled (on) or not before step, and
// otherwise before the step before.
type enabledFlip struct {
	step   int32
	thread ThreadID
	on     bool
}

// enabledMark is a copy of the enabled set before step, which the flips
// from flip on follow; its words are bits[off:off+words].
type enabledMark struct {
	step       int32
	flip       int32
	off, words int32
}

// reset empties l for a new execution, keeping its memory.
func (l *enabledLog) reset() {
	clear(l.cur)
	l.steps = 0
	l.flips, l.marks, l.bits = l.flips[:0], l.marks[:0], l.bits[:0]
}

// room returns s with room for one more element: it doubles the capacity
// of a full slice, where append would grow a long one by a quarter at a
// time, copying it each time.
func room[S ~[]E, E any](s S) S {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 16))
	}
	return s
}

// set records that thread p is enabled (on) or not before step l.steps.
func (l *enabledLog) set(p ThreadID, on bool) {
	w, b := int(p)/64, uint64(1)<<(uint(p)%64)
	for w >= len(l.cur) {
		l.cur = append(l.cur, 0)
	}
	if (l.cur[w]&b != 0) == on {
		return
	}
	l.cur[w] ^= b
	l.flips = append(room(l.flips), enabledFlip{int32(l.steps), p, on})
}

// next ends the record of the set before step l.steps; a mark is taken
// once the flips since the last one outnumber the bits of a set, so marks
// cost a word per 64 flips.
func (l *enabledLog) next() {
	since := len(l.flips)
	if m := len(l.marks); m > 0 {
		since -= int(l.marks[m-1].flip)
	}
	if since > 64*len(l.cur) {
		l.marks = append(l.marks, enabledMark{step: int32(l.steps), flip: int32(len(l.flips)), off: int32(len(l.bits)), words: int32(len(l.cur))})
		l.bits = append(l.bits, l.cur...)
	}
	l.steps++
}

// AddEnabled records the enabled set before the next step: enabled(i)
// reports whether thread i is enabled, for i < n.
func (t *Trace) AddEnabled(n int, enabled func(i int) bool) {
	l := &t.enabled
	for i := range max(n, 64*len(l.cur)) {
		l.set(ThreadID(i), i < n && enabled(i))
	}
	l.next()
}

// AddEnabledSet records the enabled set before the next step as words of
// bits: thread i is enabled if bit i%64 of set[i/64] is set. Only the
// threads listed in changed may differ from the set recorded before the
// step before, unless set has at most two words: those are compared
// whole. A thread may be listed more than once.
func (t *Trace) AddEnabledSet(set []uint64, changed []ThreadID) {
	l := &t.enabled
	if len(set) <= 2 {
		for w, x := range set {
			if w >= len(l.cur) {
				l.cur = append(l.cur, 0)
			}
			for d := x ^ l.cur[w]; d != 0; d &= d - 1 {
				b := d & -d
				l.cur[w] ^= b
				l.flips = append(room(l.flips), enabledFlip{int32(l.steps), ThreadID(64*w + bits.TrailingZeros64(b)), x&b != 0})
			}
		}
	} else {
		for _, p := range changed {
			if w := int(p) / 64; w < len(set) {
				l.set(p, set[w]&(1<<(uint(p)%64)) != 0)
			}
		}
	}
	l.next()
}

// EnabledAt reports whether thread p was enabled in the state before step i.
func (t *Trace) EnabledAt(i int, p ThreadID) bool {
	l := &t.enabled
	if i < 0 || i >= l.steps || p < 0 {
		return false
	}
	// The last mark at or before step i, and the flips after it.
	m := sort.Search(len(l.marks), func(k int) bool { return int(l.marks[k].step) > i }) - 1
	on, from := false, 0
	if m >= 0 {
		k := &l.marks[m]
		if w := int(p) / 64; w < int(k.words) {
			on = l.bits[int(k.off)+w]&(1<<(uint(p)%64)) != 0
		}
		from = int(k.flip)
	}
	for _, f := range l.flips[from:] {
		if int(f.step) > i {
			break
		}
		if f.thread == p {
			on = f.on
		}
	}
	return on
}

// EnabledWalk reads the enabled sets of a trace's steps in step order, at
// a cost of the changes between them (Trace.EnabledAt replays those since
// the last mark at each call).
type EnabledWalk struct {
	t    *Trace
	bits []uint64
	step int // the step whose set bits is
	next int // the first flip not applied
}

// EnabledWalk returns a walk of t's enabled sets, before its first step.
func (t *Trace) EnabledWalk() *EnabledWalk {
	return &EnabledWalk{t: t}
}

// At reports whether thread p was enabled in the state before step i. The
// steps asked for must not decrease from one call to the next.
func (w *EnabledWalk) At(i int, p ThreadID) bool {
	l := &w.t.enabled
	if i < 0 || i >= l.steps || p < 0 {
		return false
	}
	if i < w.step {
		panic("trace: EnabledWalk.At went back")
	}
	for ; w.next < len(l.flips) && int(l.flips[w.next].step) <= i; w.next++ {
		f := &l.flips[w.next]
		x, b := int(f.thread)/64, uint64(1)<<(uint(f.thread)%64)
		for x >= len(w.bits) {
			w.bits = append(w.bits, 0)
		}
		if f.on {
			w.bits[x] |= b
		} else {
			w.bits[x] &^= b
		}
	}
	w.step = i
	x := int(p) / 64
	return x < len(w.bits) && w.bits[x]&(1<<(uint(p)%64)) != 0
}
