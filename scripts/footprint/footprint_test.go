// This file tests the reading of callgrind's counts and objdump's
// disassembly, and the footprint computed from them.

package main

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// objdumpText is the disassembly of two functions: a.F at 0x1000 (a 4-byte
// and a 60-byte instruction, the second ending at the line boundary 0x1040)
// and b.(*T).M at 0x1040 (two instructions of 2 bytes).
var objdumpText = `TEXT example.com/a.F(SB) /src/a/a.go
  a.go:3		0x1000		48894c24		MOVQ CX, 0x8(SP)
  a.go:4		0x1004		` + sixtyBytes + `	NOPL
TEXT example.com/b.(*T).M(SB) /src/b/b.go
  b.go:7		0x1040		31c0			XORL AX, AX
  b.go:8		0x1042		c3c3			RET
`

var sixtyBytes = strings.Repeat("90", 60)

// callgrindText counts, per instruction, for two executions: in the
// binary (its name defined on a cob= line, as callgrind writes it), 0x1000
// twice, 0x1004 once, 0x1040 twice (through a call cost line that must not
// count), 0x1042 three times and 0x1050, an address the disassembly does
// not list, twice; in libc, 0x1000 (another object) five times.
const callgrindText = `# callgrind format
positions: instr line
events: Ir

ob=(1) /lib/libc.so.6
fn=(1) memmove
0x1000 10 5
cob=(2) /tmp/x/prog.test
cfn=(2) a.F
calls=1 0x1000 3
0x1000 10 99

ob=(2)
fn=(2) example.com/a.F
0x1000 3 2
+4 4 1
calls=2 0x1040 7
* 4 50
fn=(3) example.com/b.(*T).M
0x1040 7 2
+2 8 3
* 8 0
+14 9 2
`

func TestFootprint(t *testing.T) {
	c, err := readCode(strings.NewReader(objdumpText))
	if err != nil {
		t.Fatal(err)
	}
	counts, err := readCounts(strings.NewReader(callgrindText), "prog.test")
	if err != nil {
		t.Fatal(err)
	}
	wantCounts := map[uint64]uint64{0x1000: 2, 0x1004: 1, 0x1040: 2, 0x1042: 3, 0x1050: 2}
	if !maps.Equal(counts, wantCounts) {
		t.Fatalf("counts %v, want %v", counts, wantCounts)
	}
	f := measure(c, counts, 2)
	// 0x1000 (4 bytes), 0x1040 and 0x1042 (2 each), 0x1050 (unlisted: 4),
	// in lines 0x1000/64 and 0x1040/64: 0x1004 ran once per two.
	if f.bytes != 12 || f.lines != 2 {
		t.Errorf("footprint %d bytes in %d lines, want 12 in 2", f.bytes, f.lines)
	}
	wantFns := map[string]int{"example.com/a.F": 4, "example.com/b.(*T).M": 8}
	if !maps.Equal(f.fns, wantFns) {
		t.Errorf("bytes by function %v, want %v", f.fns, wantFns)
	}
	if got := measure(c, counts, 1); got.bytes != 72 || got.lines != 2 {
		t.Errorf("at one execution: %d bytes in %d lines, want 72 in 2", got.bytes, got.lines)
	}
	wantPkgs := map[string]int{"example.com/a": 4, "example.com/b": 8}
	if got := f.byPackage(); !maps.Equal(got, wantPkgs) {
		t.Errorf("bytes by package %v, want %v", got, wantPkgs)
	}
}

func TestPackageOf(t *testing.T) {
	for _, tc := range []struct{ fn, want string }{
		{"github.com/weft-go/weft/internal/engine.(*Exec).Run", "github.com/weft-go/weft/internal/engine"},
		{"github.com/weft-go/weft.(*Value[go.shape.int]).Load", "github.com/weft-go/weft"},
		{"github.com/weft-go/weft/strategy/pages.(*Stack[go.shape.abc]).SetLen", "github.com/weft-go/weft/strategy/pages"},
		{"runtime.mallocgc", "runtime"},
		{"internal/runtime/maps.(*Map).getWithKey", "internal/runtime/maps"},
		{"aeshashbody", "aeshashbody"},
	} {
		if got := packageOf(tc.fn); got != tc.want {
			t.Errorf("packageOf(%q) = %q, want %q", tc.fn, got, tc.want)
		}
	}
}

func TestReadCountsErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"no instruction positions", "positions: line\nob=(1) /p\n10 5\n", "run callgrind with --dump-instr=yes"},
		{"bad position", "positions: instr line\nob=(1) /p\n0xzz 1 2\n", `0xzz`},
		{"bad cost", "positions: instr line\nob=(1) /p\n0x10 1 x\n", `cost "x"`},
	} {
		_, err := readCounts(strings.NewReader(tc.in), "/p")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one that says %q", tc.name, err, tc.want)
		}
	}
}

// TestTopNames checks the order of the tables: by bytes for one run, by
// the size of the change for two, names breaking ties.
func TestTopNames(t *testing.T) {
	old := footprint{fns: map[string]int{"a": 100, "b": 10, "c": 50}}
	cur := footprint{fns: map[string]int{"a": 90, "b": 70, "d": 60, "c": 50}}
	fns := func(f footprint) map[string]int { return f.fns }
	for _, tc := range []struct {
		runs []footprint
		n    int
		want []string
	}{
		{[]footprint{cur}, 3, []string{"a", "b", "d"}},
		{[]footprint{old, cur}, 3, []string{"b", "d", "a"}}, // +60, +60, -10; c is unchanged
		{[]footprint{old, cur}, 10, []string{"b", "d", "a", "c"}},
	} {
		if got := topNames(tc.runs, fns, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("%d runs, top %d: %v, want %v", len(tc.runs), tc.n, got, tc.want)
		}
	}
}
