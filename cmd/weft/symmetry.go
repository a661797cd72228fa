// This file implements the -symmetric flag of weft run: groups of thread
// ranks for reach's symmetry reduction.

package main

import (
	"fmt"
	"strconv"
	"strings"
)

// symmetryFlag collects repeated -symmetric groups, each a list of thread
// ranks such as 0,1,2 or 0-2 (or both: 0-2,5).
type symmetryFlag [][]int

func (f *symmetryFlag) String() string {
	var groups []string
	for _, g := range *f {
		var ranks []string
		for _, r := range g {
			ranks = append(ranks, strconv.Itoa(r))
		}
		groups = append(groups, strings.Join(ranks, ","))
	}
	return strings.Join(groups, " ")
}

func (f *symmetryFlag) Set(v string) error {
	var g []int
	for _, part := range strings.Split(v, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return fmt.Errorf("group %q: %q is not a thread rank (0, 1, ...)", v, lo)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return fmt.Errorf("group %q: %q is not a range of ranks such as 0-2", v, part)
			}
		}
		for r := a; r <= b; r++ {
			g = append(g, r)
		}
	}
	if len(g) < 2 {
		return fmt.Errorf("group %q: a symmetry group needs two threads or more", v)
	}
	*f = append(*f, g)
	return nil
}
