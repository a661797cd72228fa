// This file tests weft bench.

package main

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestBench runs one row of Fig. 8: File System (14) has 2 traces, which
// dpor-cr+sleep and optimal explore exactly; exhaustive hits the bound.
func TestBench(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"bench", "-table", "fig8", "-rows", "File System (14)", "-orders", "2", "-max-runs", "500", "-json"}, &out, &errb)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r benchResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("decoding %q: %v", out.String(), err)
	}
	got := map[string]benchCell{}
	for _, c := range r.Cells {
		got[c.Strategy] = c
	}
	if c := got["exhaustive"]; !c.Bounded || c.MeanExecs != 500 {
		t.Errorf("exhaustive: %+v, want bounded at 500", c)
	}
	for _, s := range []string{"dpor-cr+sleep", "optimal"} {
		if c := got[s]; c.Bounded || c.MeanExecs != 2 || c.MeanCut != 0 || c.Failures != 0 {
			t.Errorf("%s: %+v, want exactly 2 executions, none cut", s, c)
		}
	}
	if len(r.Paper) != 5 || r.Paper[4] != "2" {
		t.Errorf("paper figures %v, want Fig. 8's five with jCUTE 2", r.Paper)
	}
}

// TestBenchReach runs a row of Lei and Carver 2006's Table 4 and one of Fig. 13:
// reach exercises BB-select's 144 SYN-sequences, the paper's number, with
// a stack of 4 nodes, and the 9 deadlocking philosophers in 511 runs, the
// paper's, taking 22959 steps in all (the paper's RichTest 5004
// transitions count something else).
func TestBenchReach(t *testing.T) {
	for _, c := range []struct {
		table, row    string
		execs, extra0 float64
		paper0        string
	}{
		{"table4", "BB-select", 144, 4, "144"},
		{"fig13", "DP (9)", 511, 22959, "511"},
	} {
		var out, errb bytes.Buffer
		code := run([]string{"bench", "-table", c.table, "-rows", c.row, "-json"}, &out, &errb)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		var r benchResult
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("decoding %q: %v", out.String(), err)
		}
		if len(r.Cells) != 1 || r.Cells[0].Strategy != "reach" || r.Cells[0].MeanExecs != c.execs || r.Cells[0].Bounded ||
			len(r.Cells[0].Extras) == 0 || r.Cells[0].Extras[0] != c.extra0 || r.Paper[0] != c.paper0 {
			t.Errorf("%s %s: %+v, paper %v; want reach: %v executions, first extra figure %v, the paper's %s", c.table, c.row, r.Cells, r.Paper, c.execs, c.extra0, c.paper0)
		}
	}
}

// TestBenchSpeed runs the speed table's filesystem row: optimal explores
// its 128 traces without a bound (-max-runs does not apply), beside
// Nidhugg's figure and the goal.
func TestBenchSpeed(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"bench", "-table", "speed", "-rows", "filesystem", "-max-runs", "10", "-json"}, &out, &errb)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r benchResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("decoding %q: %v", out.String(), err)
	}
	if len(r.Cells) != 1 {
		t.Fatalf("cells %+v, want optimal's alone", r.Cells)
	}
	if r.Program != "filesystem" || r.Params["n"] != 20 {
		t.Errorf("row %q explores %s %v, want filesystem n=20 (scripts/speed-baseline.sh reads them)", r.Row, r.Program, r.Params)
	}
	c := r.Cells[0]
	if c.Strategy != "optimal" || c.Bounded || c.MeanExecs != 128 || c.MeanCut != 0 || c.Failures != 0 {
		t.Errorf("optimal: %+v, want exactly 128 executions, none cut", c)
	}
	if want := c.MeanExecs / c.WallS; math.Abs(c.ExecPerS-want) > want*1e-9 {
		t.Errorf("executions per second %v, want executions / wall = %v", c.ExecPerS, want)
	}
	if want := baseline.cpu["filesystem N=20"]; c.BaseCPUS != want || want <= 0 {
		t.Errorf("baseline CPU time %v, want the committed %v", c.BaseCPUS, want)
	}
	if cpuTime() > 0 && c.CPUS <= 0 {
		t.Errorf("CPU time %v, want the exploration's", c.CPUS)
	}
	want := append(nidhugg.speedCols("filesystem N=20"), genmc.countCols("filesystem N=20", c)...)
	if !slices.Equal(r.Paper, want) || slices.Contains(want, "-") {
		t.Errorf("peer figures %v, want Nidhugg's and GenMC's committed %v", r.Paper, want)
	}
}

func TestBenchBadUsage(t *testing.T) {
	for _, args := range [][]string{{"bench", "-table", "nope"}, {"bench", "-orders", "0"}, {"bench", "extra"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitUsage || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q; want %d and a message", args, code, errb.String(), exitUsage)
		}
	}
	var out, errb bytes.Buffer
	run([]string{"bench", "-table", "fig8", "-rows", "File System (14)", "-orders", "1", "-max-runs", "50"}, &out, &errb)
	if !strings.Contains(out.String(), "[jCUTE]") || !strings.Contains(out.String(), ">50") {
		t.Errorf("table output:\n%s", out.String())
	}
	out.Reset()
	run([]string{"bench", "-wide", "-table", "fig8", "-rows", "File System (14)", "-orders", "1", "-max-runs", "50"}, &out, &errb)
	if !strings.Contains(out.String(), "paper jCUTE") || !strings.Contains(out.String(), ">50 ") && !strings.Contains(out.String(), ">50\t") {
		t.Errorf("-wide table output:\n%s", out.String())
	}
}

// TestBenchFits120Columns prints every table with its widest cells (a
// bound of 10000, the slowest walls, the largest speeds) and checks that
// no line is wider than 120 columns unless -wide.
func TestBenchFits120Columns(t *testing.T) {
	for _, tb := range benchTables {
		var results []benchResult
		for _, row := range tb.rows {
			res := benchResult{Table: tb.name, Row: row.label, Paper: row.paper}
			for _, s := range tb.strategies {
				res.Cells = append(res.Cells, benchCell{Strategy: s, MeanExecs: 218243.5, WallS: 123.456789, ExecPerS: 1234567, Bounded: !tb.speed})
			}
			results = append(results, res)
			if tb.speed {
				continue
			}
			// The same row explored to the end within the default bound,
			// with its extra figures.
			res.Cells = nil
			for _, s := range tb.strategies {
				c := benchCell{Strategy: s, MeanExecs: 9999.5, WallS: 123.456789}
				for _, x := range tb.extras[s] {
					v := 1016562.5
					switch {
					case x.isTime():
						v = 3599 // 59m59s
					case x.source == "net events":
						v = 1016562 // the same unfolding in every order
					case x.source == "paper20":
						v = 9999.5 // each run bounded by 10000
					}
					c.Extras = append(c.Extras, v)
				}
				res.Cells = append(res.Cells, c)
			}
			results = append(results, res)
		}
		var out bytes.Buffer
		printBench(&out, tb, results, 10000, false)
		for _, line := range strings.Split(out.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > 120 {
				t.Errorf("table %s: a line of %d columns:\n%s", tb.name, n, line)
			}
		}
	}
}

// TestBenchTable2 runs Kähkönen et al. 2014, Table 2's Pairs row: the DPORs explore
// its 1024 traces, unfold covers it in 2 tests of an unfolding of 40
// events (4 per pair; the paper: 7 tests on average, 47 events), with no
// deadlock to search a marking for, and in 82 tests over 20 runs with
// random free parts (4.1 on average).
func TestBenchTable2(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"bench", "-table", "table2", "-rows", "Pairs", "-orders", "2", "-json"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r benchResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("decoding %q: %v", out.String(), err)
	}
	want := map[string]float64{"dpor-1": 1024, "dpor-2": 1024, "unfold": 2}
	for _, c := range r.Cells {
		if c.Bounded || c.MeanExecs != want[c.Strategy] || c.Failures != 0 {
			t.Errorf("%s: %+v, want %v executions", c.Strategy, c, want[c.Strategy])
		}
		if c.Strategy != "unfold" {
			if c.Extras != nil {
				t.Errorf("%s: extra figures %v, want none", c.Strategy, c.Extras)
			}
			continue
		}
		if len(c.Extras) != 4 || c.Extras[0] != 40 || c.Extras[1] <= 0 || c.Extras[2] < 0 || c.Extras[3] != 4.1 {
			t.Errorf("unfold: extra figures %v, want 40 events, a wall time, a deadlock search time, 4.1 tests over 20 random runs", c.Extras)
		}
	}
	if len(r.Cells) != 3 || !slices.Equal(r.Paper, []string{"1024", "1024", "7", "47", "0m 0s", "+0.0s"}) {
		t.Errorf("cells %+v, paper %v; want three strategies and the paper's Pairs row", r.Cells, r.Paper)
	}
	out.Reset()
	run([]string{"bench", "-table", "table2", "-rows", "Pairs", "-orders", "1"}, &out, &errb)
	if !strings.Contains(out.String(), "[events]") || !strings.Contains(out.String(), "absent: Test selector") {
		t.Errorf("table output:\n%s", out.String())
	}
}

// TestBenchTable1 runs Farzan et al. 2013's Table 1 row art3: con2 covers 10 sides
// alone, one more with one interference and one (the bug) with two, as
// the paper's row; every line of the table fits 120 columns.
func TestBenchTable1(t *testing.T) {
	needZ3(t)
	var out, errb bytes.Buffer
	if code := run([]string{"bench", "-table", "table1", "-rows", "art3", "-json"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r con2Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("decoding %q: %v", out.String(), err)
	}
	if !slices.Equal(r.SidesPerK, []int64{10, 1, 1, 0, 0}) || r.BugK != 2 || r.K != con2Bound || r.Paper != [4]string{"10/1/1", "2", "17942", "21.8"} {
		t.Errorf("art3: %+v, want sides 10/1/1, the bug at k = 2 and the paper's row", r)
	}
	out.Reset()
	run([]string{"bench", "-table", "table1", "-rows", "art"}, &out, &errb)
	for _, line := range strings.Split(out.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > 120 {
			t.Errorf("a line of %d columns:\n%s", n, line)
		}
	}
	if !strings.Contains(out.String(), "16/1/1/1/1") {
		t.Errorf("table output:\n%s", out.String())
	}
}

// TestSpeedBaseline checks the committed baseline: it parses, and it has
// a figure for every row of the speed table.
func TestSpeedBaseline(t *testing.T) {
	b, err := parseBaseline(speedBaselineText)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range benchTables {
		if !tb.speed {
			continue
		}
		for _, r := range tb.rows {
			if b.cpu[r.label] <= 0 {
				t.Errorf("the speed baseline has no figure for row %q", r.label)
			}
		}
	}
	for _, bad := range []string{
		"",
		"machine m\ndate d\ncommit c\n", // no rows
		"machine m\ndate d\nfib\t1\n",   // no commit
		"machine m\ndate d\ncommit c\nfib\tfast\n",  // not seconds
		"machine m\ndate d\ncommit c\nfib\t-1\n",    // not positive
		"machine m\ndate d\ncommit c\nspeed fast\n", // not a field
	} {
		if _, err := parseBaseline(bad); err == nil {
			t.Errorf("baseline %q parsed", bad)
		}
	}
	got, err := parseBaseline("# comment\nmachine a b\ndate 2026-01-02\ncommit abc\nfib N=4\t0.5\n")
	if err != nil || got.machine != "a b" || got.date != "2026-01-02" || got.commit != "abc" || got.cpu["fib N=4"] != 0.5 {
		t.Errorf("parsed %+v, %v", got, err)
	}
}

// TestNidhuggFigures checks the committed figures of Nidhugg and GenMC:
// they parse, they have a figure for every row of the speed table, and
// Nidhugg's columns are its traces per CPU second and five times that.
func TestNidhuggFigures(t *testing.T) {
	for tool, text := range map[string]string{"nidhugg": nidhuggText, "genmc": genmcText} {
		f, err := parsePeer(text, tool)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range benchTables {
			if !tb.speed {
				continue
			}
			for _, r := range tb.rows {
				if row := f.rows[r.label]; row.traces <= 0 || row.cpu <= 0 {
					t.Errorf("the %s figures have no traces and seconds for row %q", tool, r.label)
				}
			}
		}
	}
	for _, bad := range []string{
		"",
		"machine m\ndate d\nnidhugg v\n",    // no rows
		"machine m\ndate d\nfib\t1\t0\t1\n", // no version
		"machine m\ndate d\nnidhugg v\nfib\tmany\t0\t1\n", // not a count
		"machine m\ndate d\nnidhugg v\nfib\t1\t0\t-1\n",   // negative
		"machine m\ndate d\nnidhugg v\nspeed fast\n",      // not a field
	} {
		if _, err := parsePeer(bad, "nidhugg"); err == nil {
			t.Errorf("figures %q parsed", bad)
		}
	}
	if _, err := parsePeer("machine m\ndate d\nnidhugg v\nfib\t1\t0\t1\n", "genmc"); err == nil || !strings.Contains(err.Error(), "genmc.txt") {
		t.Errorf("Nidhugg's figures read as GenMC's: %v, want an error naming genmc.txt", err)
	}
	got, err := parsePeer("# c\nmachine a b\ndate 2026-01-02\nnidhugg 0aea4d23\nfib N=4\t100\t3\t0.5\nfilter\t-\t-\t-\n", "nidhugg")
	if err != nil || got.machine != "a b" || got.version != "0aea4d23" || got.rows["fib N=4"] != (peerRow{100, 3, 0.5}) || got.rows["filter"].traces != -1 {
		t.Fatalf("parsed %+v, %v", got, err)
	}
	if cols := got.speedCols("fib N=4"); !slices.Equal(cols, []string{"200", "1000"}) {
		t.Errorf("speed columns %v, want 200 traces/s and the goal 1000", cols)
	}
	if cols := got.speedCols("filter"); !slices.Equal(cols, []string{"-", "-"}) {
		t.Errorf("speed columns of a failed row %v, want - -", cols)
	}
}

// TestGenMCColumns checks the speed table's GenMC columns: its executions,
// its CPU time, and weft's CPU time per execution over GenMC's.
func TestGenMCColumns(t *testing.T) {
	f, err := parsePeer("machine m\ndate d\ngenmc GenMC v0.11.0\nfib\t200\t1\t0.5\nfilter\t-\t-\t-\nnone\t0\t0\t0.01\n", "genmc")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		label      string
		execs, cpu float64
		want       []string
	}{
		{"fib", 200, 0.25, []string{"200", "0.50s", "0.50x"}},
		{"fib", 100, 0.25, []string{"200", "0.50s", "1.00x"}}, // per execution
		{"fib", 200, 0, []string{"200", "0.50s", "-"}},
		{"filter", 4, 1, []string{"-", "-", "-"}},
		{"none", 4, 1, []string{"0", "0.01s", "-"}},
		{"absent", 4, 1, []string{"-", "-", "-"}},
	} {
		if got := f.countCols(c.label, benchCell{MeanExecs: c.execs, CPUS: c.cpu}); !slices.Equal(got, c.want) {
			t.Errorf("%s, %v executions in %vs: %v, want %v", c.label, c.execs, c.cpu, got, c.want)
		}
	}
}

// TestBenchSpeedRatio checks the ratio column: CPU time over the
// baseline's, or - when either is unknown.
func TestBenchSpeedRatio(t *testing.T) {
	for _, c := range []struct {
		cpu, base float64
		want      string
	}{{1.5, 1, "1.50x"}, {0.25, 0.5, "0.50x"}, {0, 1, "-"}, {1, 0, "-"}} {
		if got := (benchCell{CPUS: c.cpu, BaseCPUS: c.base}).ratio(); got != c.want {
			t.Errorf("cpu %v, baseline %v: %q, want %q", c.cpu, c.base, got, c.want)
		}
	}
}

// TestBenchSpeedBaselinePrograms checks that the speed table says what its
// ratio to the baseline counts besides weft's speed (the baseline's own
// programs) and how to measure weft alone, in both layouts.
func TestBenchSpeedBaselinePrograms(t *testing.T) {
	for _, tb := range benchTables {
		if !tb.speed {
			continue
		}
		for _, wide := range []bool{false, true} {
			var out bytes.Buffer
			printBench(&out, tb, nil, 0, wide)
			if !strings.Contains(out.String(), "own programs") || !strings.Contains(out.String(), "speed-baseline.sh -same-programs") {
				t.Errorf("wide %v: the speed table does not say that its baseline ran its own programs, nor how to compare on these:\n%s", wide, out.String())
			}
		}
	}
}
