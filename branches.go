// This file implements the branch coverage of an exploration: the sides
// of the program's symbolic branches its executions took (the papers'
// coverage columns: Kähkönen et al. 2014, Table 2, Farzan et al. 2013, Table 1).

package weft

import (
	"slices"
	"strings"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/trace"
)

// BranchSite is a branch of the program on a concolic condition (w.If,
// w.AssertSym, an operator that checks a symbolic operand), named by its
// source line, with the sides the executions took. Branches on concrete
// values are not recorded, nor are sites no execution reached.
type BranchSite struct {
	File string
	Line int
	// True and False report that an execution took the side where the
	// condition held, and the other (an assertion's failing side).
	True, False bool
}

// branchSides accumulates the sides taken, by call site (BranchEvent.PC).
type branchSides map[uintptr]uint8

const (
	sideTrue uint8 = 1 << iota
	sideFalse
)

// add records the branches of tr.
func (b branchSides) add(tr *trace.Trace) {
	for i := range tr.Branches {
		br := &tr.Branches[i]
		if br.Taken {
			b[br.PC] |= sideTrue
		} else {
			b[br.PC] |= sideFalse
		}
	}
}

// sites returns the branch sites by source line, sorted by file and line
// (several call sites on one line are one site).
func (b branchSides) sites() []BranchSite {
	if len(b) == 0 {
		return nil
	}
	type loc struct {
		file string
		line int
	}
	by := map[loc]uint8{}
	for pc, s := range b {
		f := engine.UserFrame(pc)
		by[loc{f.File, f.Line}] |= s
	}
	out := make([]BranchSite, 0, len(by))
	for l, s := range by {
		out = append(out, BranchSite{File: l.file, Line: l.line, True: s&sideTrue != 0, False: s&sideFalse != 0})
	}
	slices.SortFunc(out, compareSites)
	return out
}

func compareSites(a, b BranchSite) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	return a.Line - b.Line
}

// mergeSites returns the sites of a and b, the sides of a line taken in
// either.
func mergeSites(a, b []BranchSite) []BranchSite {
	out := slices.Clone(a)
	for _, s := range b {
		i, found := slices.BinarySearchFunc(out, s, compareSites)
		if found {
			out[i].True = out[i].True || s.True
			out[i].False = out[i].False || s.False
			continue
		}
		out = slices.Insert(out, i, s)
	}
	return out
}
