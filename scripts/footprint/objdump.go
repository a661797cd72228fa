// This file reads the disassembly go tool objdump prints: the size of each
// instruction and the function that holds it.

package main

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// code is the disassembly of a binary.
type code struct {
	size  map[uint64]int // the size of the instruction at each address
	funcs []function     // by start address
}

// function is a function's symbol and where its code starts.
type function struct {
	start uint64
	name  string
}

// readCode reads go tool objdump's output: "TEXT name(SB) file" starts a
// function, and each instruction is a line "\tfile:line\t0xADDR\tHEX\tASM".
func readCode(r io.Reader) (*code, error) {
	c := &code{size: map[uint64]int{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	name := ""
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "TEXT "); ok {
			name, _, _ = strings.Cut(rest, " ")
			name = strings.TrimSuffix(name, "(SB)")
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 3 || !strings.HasPrefix(fields[1], "0x") {
			continue
		}
		if name == "" {
			return nil, fmt.Errorf("line %d: an instruction before the first TEXT line", n)
		}
		addr, err := strconv.ParseUint(fields[1][2:], 16, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: address %q: %v", n, fields[1], err)
		}
		if len(fields[2])%2 != 0 {
			return nil, fmt.Errorf("line %d: instruction bytes %q", n, fields[2])
		}
		if len(c.funcs) == 0 || c.funcs[len(c.funcs)-1].name != name {
			c.funcs = append(c.funcs, function{start: addr, name: name})
		}
		c.size[addr] = len(fields[2]) / 2
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(c.funcs, func(a, b function) int { return cmp.Compare(a.start, b.start) })
	return c, nil
}

// unlistedSize is the size counted for an executed address the
// disassembly does not list.
const unlistedSize = 4

// at returns the size of the instruction at addr and the name of the
// function that holds it ("" if addr is before every function).
func (c *code) at(addr uint64) (size int, fn string) {
	size, ok := c.size[addr]
	if !ok {
		size = unlistedSize
	}
	i, found := slices.BinarySearchFunc(c.funcs, addr, func(f function, a uint64) int { return cmp.Compare(f.start, a) })
	if !found {
		i--
	}
	if i < 0 {
		return size, ""
	}
	return size, c.funcs[i].name
}
