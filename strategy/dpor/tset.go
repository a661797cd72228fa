// This file implements small sets of threads.

package dpor

import (
	"math/bits"
	"slices"

	"github.com/weft-go/weft/trace"
)

// ThreadSet is a set of threads, as words of bits. The zero value is empty.
type ThreadSet []uint64

// Add adds t to s.
func (s *ThreadSet) Add(t trace.ThreadID) {
	w := int(t) / 64
	if n := len(*s); n <= w {
		// In one step: a set that gains a high thread first would
		// otherwise grow a word at a time.
		*s = slices.Grow(*s, w+1-n)[:w+1]
		clear((*s)[n:])
	}
	(*s)[w] |= 1 << (uint(t) % 64)
}

// Has reports whether t is in s.
func (s ThreadSet) Has(t trace.ThreadID) bool {
	w := int(t) / 64
	return w < len(s) && s[w]&(1<<(uint(t)%64)) != 0
}

// Clear empties s, keeping its memory.
func (s *ThreadSet) Clear() { *s = (*s)[:0] }

// Len returns the number of threads in s.
func (s ThreadSet) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// Union adds the threads of o to s.
func (s *ThreadSet) Union(o ThreadSet) {
	for len(*s) < len(o) {
		*s = append(*s, 0)
	}
	for i, w := range o {
		(*s)[i] |= w
	}
}

// Minus returns a new set of the threads of s not in o.
func (s ThreadSet) Minus(o ThreadSet) ThreadSet {
	var d ThreadSet
	for i, w := range s {
		if i < len(o) {
			w &^= o[i]
		}
		if w != 0 {
			for len(d) <= i {
				d = append(d, 0)
			}
			d[i] = w
		}
	}
	return d
}
