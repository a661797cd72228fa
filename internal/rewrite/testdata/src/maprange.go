// This file holds ranges over maps: those with a variable visit their
// keys in the order of the execution's seed; one without any stays.

package src

type counts map[string]int

// total ranges over maps in each form.
func total(m map[string]int, c counts, sets map[[2]int]bool) (n int) {
	for k, v := range m {
		n += len(k) + v
	}
	for k := range c {
		n += len(k)
	}
	for _, v := range c {
		n += v
	}
	var key [2]int
	for key = range sets {
		n += key[0]
	}
	for range m {
		n++
	}
	for k, v := range map[int]int{1: 2} {
		n += k + v
	}
	return n
}
