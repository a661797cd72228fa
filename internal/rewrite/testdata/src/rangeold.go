//go:build go1.21

// This file is of Go version 1.21: a range over a channel becomes a for
// loop whose variable is one for the whole loop.

package src

type box struct{ v int }

// drain sums what jobs delivers and collects closures over the loop's
// variable.
func drain(jobs <-chan int, names chan string) (int, []func() int) {
	sum := 0
	var fs []func() int
outer:
	for j := range jobs {
		if j < 0 {
			continue
		}
		if j == 0 {
			break outer
		}
		fs = append(fs, func() int { return j })
		sum += j
	}
	var b box
	for b.v = range jobs {
		sum += b.v
	}
	for range names {
		sum++
	}
	for n := range
	// the names
	names {
		sum += len(n)
	}
	return sum, fs
}

// keys ranges over a map: Go's order, as range over a function is newer.
func keys(m map[string]bool) (ks []string) {
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
