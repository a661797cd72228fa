// This file names the stack of states, in pages that never move, so that
// a long execution grows it without copying the states before.

package optimal

import "github.com/weft-go/weft/strategy/pages"

// nodeList is the stack of states of the current path, in pages that
// never move (package pages): a state's address stays the same while it
// is on the stack once the stack has outgrown the first page, and states
// set on it again keep what they held (the caller empties them).
type nodeList = pages.Stack[node]

// stateEvents sets dst[d], for each state d on the stack with d < len(dst), to
// the address of the state's event, and returns dst. The addresses hold
// until the stack next grows.
func stateEvents(l *nodeList, dst []*event) []*event {
	for d := range min(len(dst), l.Len()) {
		dst[d] = &l.At(d).ev
	}
	return dst
}
