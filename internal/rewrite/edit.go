// This file implements the edits: replacements of byte ranges of the
// source, applied in order, that keep every line break of the text they
// replace.

package rewrite

import (
	"fmt"
	"slices"
	"strings"
)

// edit replaces src[pos:end] with text. depth is the nesting depth of the
// node that made it, and closes marks an insertion that closes a node (a
// ")" after an operand): at one offset the insertions that close come
// first, innermost first, then the others, outermost first.
type edit struct {
	pos, end int
	text     string
	depth    int
	closes   bool
}

// edits is the list of a file's edits.
type edits []edit

func (es edits) sorted() edits {
	s := slices.Clone(es)
	slices.SortStableFunc(s, func(a, b edit) int {
		if a.pos != b.pos {
			return a.pos - b.pos
		}
		// At one offset: empty ranges (insertions) before a replacement
		// that starts there; closing insertions first, innermost first.
		ai, bi := a.end == a.pos, b.end == b.pos
		if ai != bi {
			if ai {
				return -1
			}
			return 1
		}
		if a.closes != b.closes {
			if a.closes {
				return -1
			}
			return 1
		}
		if a.closes {
			return b.depth - a.depth
		}
		return a.depth - b.depth
	})
	return s
}

// apply returns src[lo:hi] with the edits inside that range applied. The
// line breaks of a replaced range are kept, after its replacement.
func (es edits) apply(src []byte, lo, hi int) (string, error) {
	var b strings.Builder
	at := lo
	for _, e := range es.sorted() {
		if e.pos < lo || e.end > hi {
			continue
		}
		if e.pos < at {
			return "", fmt.Errorf("internal error: overlapping edits at offsets %d and %d", e.pos, at)
		}
		b.Write(src[at:e.pos])
		b.WriteString(e.text)
		b.WriteString(strings.Repeat("\n", strings.Count(string(src[e.pos:e.end]), "\n")))
		at = e.end
	}
	b.Write(src[at:hi])
	return b.String(), nil
}

// without returns the edits outside [lo, hi).
func (es edits) without(lo, hi int) edits {
	return slices.DeleteFunc(es, func(e edit) bool { return e.pos >= lo && e.end <= hi })
}
