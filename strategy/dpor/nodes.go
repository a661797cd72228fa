// This file implements the stack of nodes of a Tree as pages that never
// move, so that a long execution grows it without copying the nodes before.

package dpor

import "fmt"

// nodePage is the number of nodes in a page of a NodeStack.
const nodePage = 1024

// NodeStack is the stack of nodes of the current path: its nodes are kept
// in pages of nodePage but for the first, which grows by doubling up to a
// page (most executions are short). A node's address stays the same while
// it is on the stack once the stack has outgrown the first page, and the
// pages are kept, with the nodes' memory, for the next executions: a node
// pushed again reuses the memory of the one that was there.
type NodeStack struct {
	pages [][]Node
	n     int
}

// Len returns the number of nodes.
func (l *NodeStack) Len() int { return l.n }

// At returns node k, which must be on the stack.
func (l *NodeStack) At(k int) *Node {
	if k < 0 || k >= l.n {
		panic(fmt.Sprintf("weft internal error: dpor: node %d of %d", k, l.n))
	}
	return &l.pages[k/nodePage][k%nodePage]
}

// Truncate drops the nodes from k on; their memory stays for reuse.
func (l *NodeStack) Truncate(k int) {
	if k < 0 || k > l.n {
		panic(fmt.Sprintf("weft internal error: dpor: truncate %d nodes to %d", l.n, k))
	}
	l.n = k
}

// push adds a node on top and returns it, holding what the node there
// held when it was last on the stack (the caller empties it).
func (l *NodeStack) push() *Node {
	k := len(l.pages)
	room := 0
	if k > 0 {
		room = (k-1)*nodePage + len(l.pages[k-1])
	}
	if l.n == room {
		switch {
		case k == 0:
			l.pages = append(l.pages, make([]Node, 16))
		case len(l.pages[k-1]) < nodePage:
			// Only the first page is ever short.
			p := make([]Node, min(2*len(l.pages[k-1]), nodePage))
			copy(p, l.pages[k-1])
			l.pages[k-1] = p
		default:
			l.pages = append(l.pages, make([]Node, nodePage))
		}
	}
	l.n++
	return l.At(l.n - 1)
}
