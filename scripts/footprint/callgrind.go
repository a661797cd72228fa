// This file reads the per-instruction counts of a callgrind output file.

package main

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// readCounts returns how many times each instruction address of the object
// named binary (compared by base name) ran, from a callgrind output file
// written with --dump-instr=yes. Counts of the same address in several
// contexts add up.
func readCounts(r io.Reader, binary string) (map[uint64]uint64, error) {
	counts := map[uint64]uint64{}
	objects := map[string]string{} // compressed ids of ob= lines to names
	want := filepath.Base(binary)
	inBinary, instrFirst := false, false
	var last uint64
	afterCall := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" {
			continue
		}
		switch c := line[0]; {
		case strings.HasPrefix(line, "positions:"):
			instrFirst = strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(line, "positions:")), "instr")
			continue
		case strings.HasPrefix(line, "ob="):
			inBinary = filepath.Base(compressedName(line[3:], objects)) == want
			continue
		case strings.HasPrefix(line, "cob="):
			compressedName(line[4:], objects) // may define a name ob= uses later
			continue
		case strings.HasPrefix(line, "calls="):
			afterCall = true // the next cost line is the call's inclusive cost
			continue
		case (c < '0' || c > '9') && c != '+' && c != '-' && c != '*':
			continue // fn=, fl=, cob=, cfn=, jump= and the headers
		}
		if !instrFirst {
			return nil, fmt.Errorf("line %d: costs before a \"positions: instr ...\" line: run callgrind with --dump-instr=yes", n)
		}
		fields := strings.Fields(line)
		addr, err := position(fields[0], last)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		last = addr
		if afterCall {
			afterCall = false
			continue
		}
		if !inBinary || len(fields) < 3 {
			continue
		}
		ir, err := strconv.ParseUint(fields[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: cost %q: %v", n, fields[2], err)
		}
		counts[addr] += ir
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return counts, nil
}

// position decodes an instruction position of a cost line: absolute
// (0x...), relative to the last one (+n, -n) or the same (*).
func position(s string, last uint64) (uint64, error) {
	switch {
	case strings.HasPrefix(s, "0x"):
		a, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil {
			return 0, fmt.Errorf("position %q: %v", s, err)
		}
		return a, nil
	case s == "*":
		return last, nil
	case s[0] == '+' || s[0] == '-':
		d, err := strconv.ParseUint(s[1:], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("position %q: %v", s, err)
		}
		if s[0] == '-' {
			return last - d, nil
		}
		return last + d, nil
	}
	return 0, fmt.Errorf("position %q", s)
}

// compressedName resolves a callgrind name that may be compressed: "(id)
// name" defines id, "(id)" refers to it.
func compressedName(s string, names map[string]string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(") {
		return s
	}
	id, name, _ := strings.Cut(s, ")")
	name = strings.TrimSpace(name)
	if name == "" {
		return names[id]
	}
	names[id] = name
	return name
}
