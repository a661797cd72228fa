// This file computes a run's footprint: the code it ran at least once per
// execution, in bytes and cache lines, by package and function.

package main

import (
	"strings"
)

// lineBytes is the size of a cache line.
const lineBytes = 64

// footprint is the code a run executed at least once per execution.
type footprint struct {
	bytes int            // bytes of the instructions
	lines int            // cache lines that hold them
	fns   map[string]int // bytes by function
}

// measure returns the footprint of the counts of a run of execs
// executions in code c: the instructions that ran at least execs times.
func measure(c *code, counts map[uint64]uint64, execs uint64) footprint {
	f := footprint{fns: map[string]int{}}
	lines := map[uint64]bool{}
	for addr, n := range counts {
		if n < execs {
			continue
		}
		size, fn := c.at(addr)
		f.bytes += size
		f.fns[fn] += size
		for l := addr / lineBytes; l <= (addr+uint64(size)-1)/lineBytes; l++ {
			lines[l] = true
		}
	}
	f.lines = len(lines)
	return f
}

// byPackage sums f's bytes by the package of each function.
func (f footprint) byPackage() map[string]int {
	p := map[string]int{}
	for fn, n := range f.fns {
		p[packageOf(fn)] += n
	}
	return p
}

// packageOf returns the import path of the package of the function named
// fn, as Go's symbols spell it ("path/pkg.(*T).M", "path/pkg.F[...]").
func packageOf(fn string) string {
	if i := strings.IndexByte(fn, '['); i >= 0 {
		fn = fn[:i] // a generic's shape names hold dots
	}
	slash := strings.LastIndexByte(fn, '/')
	dot := strings.IndexByte(fn[slash+1:], '.')
	if dot < 0 {
		return fn
	}
	return fn[:slash+1+dot]
}
