// Package pages implements a stack of values kept in pages that never
// move, so that a long execution grows it without copying the values
// below its top: the strategies' stacks of nodes and states.
package pages

import (
	"errors"
	"fmt"
)

// Size is the number of values in a page.
const Size = 1024

// Stack is a stack of values of type T in pages of Size but for the first,
// which grows by doubling up to a page (most executions are short). A
// value's address stays the same while it is on the stack once the stack
// has outgrown the first page, and the pages are kept, with the values'
// memory, when the stack shrinks: a value pushed again holds what the one
// there held when it was last on the stack (the caller empties it).
type Stack[T any] struct {
	pages [][]T
	n     int
}

// Len returns the number of values.
func (l *Stack[T]) Len() int { return l.n }

// At returns value k, which must be on the stack. It is small enough to
// be inlined (the strategies call it at every step): the panic is made
// elsewhere, and the page is found with unsigned arithmetic (shifts).
func (l *Stack[T]) At(k int) *T {
	if uint(k) >= uint(l.n) {
		panic(errOutside)
	}
	return &l.pages[uint(k)/Size][uint(k)%Size]
}

// errOutside is the panic of At for a value not on the stack.
var errOutside = errors.New("weft internal error: pages: a value not on the stack")

// Truncate drops the values from k on; their memory stays for reuse.
func (l *Stack[T]) Truncate(k int) {
	if k < 0 || k > l.n {
		panic(fmt.Sprintf("weft internal error: pages: truncate %d values to %d", l.n, k))
	}
	l.n = k
}

// Push adds a value on top and returns it.
func (l *Stack[T]) Push() *T {
	l.SetLen(l.n + 1)
	return l.At(l.n - 1)
}

// SetLen makes the stack n values long; values beyond the old length keep
// what they held when they were last on it.
func (l *Stack[T]) SetLen(n int) {
	if n < 0 {
		panic(fmt.Sprintf("weft internal error: pages: length %d", n))
	}
	for {
		k := len(l.pages)
		room := 0
		if k > 0 {
			room = (k-1)*Size + len(l.pages[k-1])
		}
		if n <= room {
			break
		}
		switch {
		case k == 0:
			l.pages = append(l.pages, make([]T, 16))
		case len(l.pages[k-1]) < Size:
			// Only the first page is ever short.
			p := make([]T, min(2*len(l.pages[k-1]), Size))
			copy(p, l.pages[k-1])
			l.pages[k-1] = p
		default:
			l.pages = append(l.pages, make([]T, Size))
		}
	}
	l.n = n
}
