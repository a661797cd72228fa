// This file implements the stack of states as pages that never move, so
// that a long execution grows it without copying the states before.

package optimal

import "fmt"

// nodePage is the number of states in a page of a nodeList.
const nodePage = 1024

// nodeList is the stack of states of the current path: n states, in pages
// of nodePage but for the first, which grows by doubling up to a page
// (most executions are short). A state's address stays the same while it
// is on the stack once the stack has outgrown the first page, and the
// pages are kept, with the states' memory, for the next executions.
type nodeList struct {
	pages [][]node
	n     int
}

// len returns the number of states.
func (l *nodeList) len() int { return l.n }

// at returns state d, which must be on the stack.
func (l *nodeList) at(d int) *node {
	if d < 0 || d >= l.n {
		panic(fmt.Sprintf("weft internal error: optimal: state %d of %d", d, l.n))
	}
	return &l.pages[d/nodePage][d%nodePage]
}

// setLen makes the stack n states long; states beyond the old length keep
// what they held when they were last on it (the caller empties them).
func (l *nodeList) setLen(n int) {
	for {
		k := len(l.pages)
		room := 0
		if k > 0 {
			room = (k-1)*nodePage + len(l.pages[k-1])
		}
		if n <= room {
			break
		}
		switch {
		case k == 0:
			l.pages = append(l.pages, make([]node, min(16, nodePage)))
		case len(l.pages[k-1]) < nodePage:
			// Only the first page is ever short.
			p := make([]node, min(2*len(l.pages[k-1]), nodePage))
			copy(p, l.pages[k-1])
			l.pages[k-1] = p
		default:
			l.pages = append(l.pages, make([]node, nodePage))
		}
	}
	l.n = n
}

// events sets dst[d], for each state d on the stack with d < len(dst), to
// the address of the state's event, and returns dst. The addresses hold
// until the stack next grows.
func (l *nodeList) events(dst []*event) []*event {
	d := 0
	for _, p := range l.pages {
		for i := range p {
			if d >= len(dst) || d >= l.n {
				return dst
			}
			dst[d] = &p[i].ev
			d++
		}
	}
	return dst
}
