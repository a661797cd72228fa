// This file implements interference scenario candidates (Farzan et al. 2013, Def.
// 7.1) and the worklists W^0..W^k of Alg. 1.

package con2

import (
	"fmt"
	"slices"
	"strings"

	"github.com/weft-go/weft/trace"
)

// iscKind says what an ISC's execution is for.
type iscKind uint8

const (
	// iscBranch: the other side of a branch (a dangling node, Alg. 2).
	iscBranch iscKind = iota
	// iscRead: a read without the interference that stopped an execution
	// (§7.3, the special dangling node).
	iscRead
	// iscStart: a thread runs alone from its fork (Alg. 1 lines 6-9, for
	// the threads a program starts as it runs).
	iscStart
	// iscResume: a thread runs alone from a node inside a critical
	// section, so that the forest learns where it releases the lock
	// (§7.4).
	iscResume
)

// isc is an interference scenario candidate: the causal past of its tips,
// one of which is its sink (Def. 7.1); the others extend threads that hold
// a lock at their last node to where they release it (§7.4). Once its
// prefix has run, its target thread runs alone.
type isc struct {
	kind   iscKind
	sink   int32
	target trace.ThreadID
	tips   []int32 // sorted
	degree int
	key    string
	// guide holds the reads of an unrealizable ISC whose local coupling
	// is in the unsat core (§7.5): Alg. 3 interferes with them only; nil
	// means every read.
	guide map[int32]bool
	// free holds the receivers completion added for the senders' sides
	// of rendezvous in the scenario (explore.go): their interferences do
	// not count in its degree.
	free []int32
}

// makeKey names c for the duplicate cache: its nodes name their causal
// pasts, so equal keys are isomorphic scenarios (§7.5, Def. 5.4).
func (c *isc) makeKey() {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d", c.kind, c.target)
	for _, t := range c.tips {
		fmt.Fprintf(&b, ",%d", t)
	}
	c.key = b.String()
}

// withTip returns tips with t added, sorted.
func withTip(tips []int32, t int32) []int32 {
	if slices.Contains(tips, t) {
		return tips
	}
	out := append(slices.Clone(tips), t)
	slices.Sort(out)
	return out
}

// worklists are W^0..W^k: the ISCs to process, by degree.
type worklists struct {
	w [][]*isc
}

func (l *worklists) push(c *isc) {
	for len(l.w) <= c.degree {
		l.w = append(l.w, nil)
	}
	l.w[c.degree] = append(l.w[c.degree], c)
}

// pop removes and returns an ISC of the lowest degree that has one (Alg.
// 1 processes W^0..W^k in order; the ISCs an execution adds at a lower
// degree than the current one go first), preferring one for which first
// holds (prioritised exploration, §7.5) when first is not nil; nil if
// none is left.
func (l *worklists) pop(first func(*isc) bool) *isc {
	for d := range l.w {
		q := l.w[d]
		if len(q) == 0 {
			continue
		}
		i := 0
		if first != nil {
			if j := slices.IndexFunc(q, first); j >= 0 {
				i = j
			}
		}
		c := q[i]
		l.w[d] = slices.Delete(q, i, i+1)
		return c
	}
	return nil
}
