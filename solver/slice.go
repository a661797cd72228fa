// This file implements constraint independence: splitting a query into
// groups of constraints that share no variables.

package solver

import "slices"

// Components partitions the indices of constraints into independent
// groups: two constraints are in the same group exactly when they are
// linked by a chain of constraints sharing variables. Each group is sorted
// and groups are ordered by their first index; a constraint without
// variables forms a group of its own.
func Components(constraints []Expr) [][]int {
	parent := make([]int, len(constraints))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := make(map[string]int) // variable -> a constraint using it
	for i, c := range constraints {
		for _, v := range Vars(c) {
			j, ok := owner[v]
			if !ok {
				owner[v] = i
				continue
			}
			ri, rj := find(i), find(j)
			if ri != rj {
				parent[max(ri, rj)] = min(ri, rj)
			}
		}
	}
	group := make(map[int]int) // root -> index into groups
	var groups [][]int
	for i := range constraints {
		r := find(i)
		g, ok := group[r]
		if !ok {
			g = len(groups)
			group[r] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// Slice returns the sorted indices of the constraints that transitively
// share variables with constraints[target], including target itself. In
// concolic testing target is the negated branch condition and the others
// are the path prefix: only the slice needs to be sent to the solver, the
// remaining variables keep their current values.
func Slice(constraints []Expr, target int) []int {
	if target < 0 || target >= len(constraints) {
		panic("solver: Slice: target out of range")
	}
	for _, g := range Components(constraints) {
		if slices.Contains(g, target) {
			return g
		}
	}
	panic("unreachable")
}
