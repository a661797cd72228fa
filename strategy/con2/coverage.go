// This file implements the branch coverage con2 reports: the branch
// sides covered, each at the fewest interferences an execution took it
// with (Farzan et al. 2013, Table 1, "#Branches k=0/1/2/...").

package con2

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/weft-go/weft/strategy"
)

// side is a side of a static branch: the program's call site that
// branched (trace.BranchEvent.PC) and the side taken.
type side struct {
	pc    uintptr
	taken bool
}

// side returns the side of branch node n.
func (f *forest) side(n int32) side {
	l := &f.nodes[n].lab
	return side{l.pc, l.taken}
}

// coverage holds the sides covered with at most k interferences, each
// with the fewest interferences an execution took it with.
type coverage struct {
	k     int
	sides map[side]int
}

// add records that an execution took side sd with d interferences in its
// causal past; a side taken with more than k counts for nothing (the
// execution went past its scenario: an interference it did not foresee).
func (c *coverage) add(sd side, d int) {
	if d > c.k {
		return
	}
	if old, ok := c.sides[sd]; !ok || d < old {
		c.sides[sd] = d
	}
}

func (c *coverage) has(sd side) bool {
	_, ok := c.sides[sd]
	return ok
}

// perK returns how many sides were first covered with 0, 1, ..., k
// interferences.
func (c *coverage) perK() []int {
	n := make([]int, c.k+1)
	for _, d := range c.sides {
		n[d]++
	}
	return n
}

// Covered returns the branch sides covered, as "file:line +" (the then
// side) or "file:line -", each with the fewest interferences it was
// covered with, sorted.
func (s *Strategy) Covered() []Side {
	var out []Side
	for sd, d := range s.cover.sides {
		f, _ := runtime.CallersFrames([]uintptr{sd.pc}).Next()
		out = append(out, Side{File: f.File, Line: f.Line, Taken: sd.taken, K: d})
	}
	slices.SortFunc(out, func(a, b Side) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Taken == b.Taken {
			return 0
		}
		if a.Taken {
			return -1
		}
		return 1
	})
	return out
}

// Side is a branch side covered: the source line of the branch, the side
// (Taken: the condition held) and the fewest interferences an execution
// covered it with.
type Side struct {
	File  string
	Line  int
	Taken bool
	K     int
}

func (sd Side) String() string {
	s := "-"
	if sd.Taken {
		s = "+"
	}
	return fmt.Sprintf("%s:%d %s (k=%d)", sd.File, sd.Line, s, sd.K)
}

// Counters implements strategy.Counting: the branch sides covered in all
// and first covered at each k (Table 1's columns), and the work of Alg. 1.
// A strategy resumed from a unit has none: what its execution did goes
// back in its handback, and its splitter counts it when it joins it
// (a distributed run adds the counters of its parts).
func (s *Strategy) Counters() []strategy.Counter {
	if s.u.resumed {
		return nil
	}
	cs := []strategy.Counter{{Name: "k", Value: int64(s.opts.K)}}
	total := 0
	for k, n := range s.cover.perK() {
		cs = append(cs, strategy.Counter{Name: fmt.Sprintf("sides k=%d", k), Value: int64(n)})
		total += n
	}
	st := s.stats
	return append(cs,
		strategy.Counter{Name: "sides covered", Value: int64(total)},
		strategy.Counter{Name: "ISCs", Value: int64(st.ISCs)},
		strategy.Counter{Name: "ISCs realizable", Value: int64(st.Realizable)},
		strategy.Counter{Name: "ISCs unrealizable", Value: int64(st.Unrealizable)},
		strategy.Counter{Name: "ISCs pruned", Value: int64(st.Pruned)},
		strategy.Counter{Name: "ISCs duplicate", Value: int64(st.Duplicates)},
		strategy.Counter{Name: "max k reached", Value: int64(st.MaxDegree)},
		strategy.Counter{Name: "diverged", Value: int64(st.Diverged)},
		strategy.Counter{Name: "unforeseen", Value: int64(st.Unforeseen)},
	)
}
