// This file implements small sets of threads.

package dpor

import (
	"iter"
	"math/bits"

	"github.com/weft-go/weft/trace"
)

// ThreadSet is a set of threads, as words of bits from the lowest word
// that holds one: s[0] is that word's index (thread s[0]*64 is the first
// thread of s[1]), s[1:] are the words. The zero value is empty. A set
// costs the span of its threads, not the highest thread: a state's
// backtracking set, usually one thread, takes two words however many
// threads the execution has. (Units carry sets as they are: a change of
// the layout is a change of the units' format, strategy's unitMagic.)
type ThreadSet []uint64

// Add adds t to s.
func (s *ThreadSet) Add(t trace.ThreadID) {
	w := uint64(t) / 64
	bit := uint64(1) << (uint(t) % 64)
	x := *s
	if len(x) == 0 {
		*s = append(x[:0], w, bit)
		return
	}
	base := x[0]
	switch {
	case w < base:
		// Move the words up by base-w, in one step.
		d := int(base - w)
		n := len(x)
		x = growSet(x, d)
		copy(x[1+d:], x[1:n])
		clear(x[1 : 1+d])
		x[0] = w
	case int(w-base) >= len(x)-1:
		n := len(x)
		x = growSet(x, int(w-base)+2-n)
		clear(x[n:])
	}
	x[1+w-x[0]] |= bit
	*s = x
}

// growSet returns x with d more words, reusing its memory if it can.
func growSet(x ThreadSet, d int) ThreadSet {
	n := len(x) + d
	if n <= cap(x) {
		return x[:n]
	}
	y := make(ThreadSet, n, max(n, 2*cap(x)))
	copy(y, x)
	return y
}

// Has reports whether t is in s.
func (s ThreadSet) Has(t trace.ThreadID) bool {
	if len(s) == 0 {
		return false
	}
	w := uint64(t)/64 - s[0] // wraps for a word below the first
	return w < uint64(len(s)-1) && s[1+w]&(1<<(uint(t)%64)) != 0
}

// Clear empties s, keeping its memory.
func (s *ThreadSet) Clear() { *s = (*s)[:0] }

// Len returns the number of threads in s.
func (s ThreadSet) Len() int {
	n := 0
	for i := 1; i < len(s); i++ {
		n += bits.OnesCount64(s[i])
	}
	return n
}

// All returns the threads of s in increasing order.
func (s ThreadSet) All() iter.Seq[trace.ThreadID] {
	return func(yield func(trace.ThreadID) bool) {
		for i := 1; i < len(s); i++ {
			base := (s[0] + uint64(i-1)) * 64
			for w := s[i]; w != 0; w &= w - 1 {
				if !yield(trace.ThreadID(base + uint64(bits.TrailingZeros64(w)))) {
					return
				}
			}
		}
	}
}

// Union adds the threads of o to s.
func (s *ThreadSet) Union(o ThreadSet) {
	for t := range o.All() {
		s.Add(t)
	}
}

// Minus returns a new set of the threads of s not in o.
func (s ThreadSet) Minus(o ThreadSet) ThreadSet {
	var d ThreadSet
	for t := range s.All() {
		if !o.Has(t) {
			d.Add(t)
		}
	}
	return d
}
