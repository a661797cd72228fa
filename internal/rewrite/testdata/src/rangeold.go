//go:build go1.21

// This file is of Go version 1.21: a range over a channel or a map
// becomes a for loop whose variable is one for the whole loop.

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

// keys ranges over maps in each form: a loop over the pairs in the
// order of the execution's seed, whose variables are one for the whole
// loop, as the range's.
func keys(m map[string]bool, counts map[string]int) (ks []string, fs []func() string) {
	for k := range m {
		ks = append(ks, k)
		fs = append(fs, func() string { return k })
	}
	for k, v := range counts {
		if v == 0 {
			continue
		}
		ks = append(ks, k)
	}
	for _, v := range counts {
		ks = append(ks, string(rune('a'+v)))
	}
	var b box
	var name string
	for name, b.v = range counts {
		ks = append(ks, name)
	}
	for range m {
		ks = append(ks, "")
	}
	return ks, fs
}
