// This file names the stack of nodes of a Tree: pages that never move
// (package pages), so that a long execution grows it without copying the
// nodes before.

package dpor

import "github.com/weft-go/weft/strategy/pages"

// NodeStack is the stack of nodes of the current path. A node pushed again
// reuses the memory of the one that was there (the caller empties it).
type NodeStack = pages.Stack[Node]
