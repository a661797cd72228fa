// This file runs the regression scenarios of testdata/*.txt: each a
// program written as text (gen.Parse) and, per strategy, the executions,
// traces and failures of its exploration, as etcd's raft tests keep
// theirs. go test -run Scenarios -update rewrites the expectations.

package genweft_test

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/checktest"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy/optimal"
	"github.com/weft-go/weft/trace"
)

var update = flag.Bool("update", false, "rewrite the expectations of testdata/*.txt")

// A scenario file is a sequence of blocks, each a command line, its input
// lines, a line "----" and the expected output, up to a blank line; lines
// starting with # before a block are comments. The commands:
//
//	program
//	    the input is a program's text; it is the program of the blocks
//	    that follow; no output
//	explore STRATEGY [order=N] [max=N] [verify]
//	    explores the program to the end with STRATEGY, in the random
//	    order of seed N (0: thread order), at most N executions (200000);
//	    the output gives the executions, the distinct maximal traces
//	    (Foata normal forms) and final states, the failing executions by
//	    kind, and, but for exhaustive search, whether the maximal traces,
//	    final states and failure kinds are exhaustive search's.
//	    verify, for optimal only, makes the strategy check the work it
//	    keeps from one execution to the next against a computation from
//	    scratch (optimal.Strategy.SetVerify: an exploration that fails it
//	    fails the test), and adds a line on Optimal-DPOR's claim: one
//	    execution per trace, complete or failing (Foata normal forms of
//	    whole executions), and the traces of exhaustive search
type block struct {
	comments []string
	cmd      string
	input    []string
	output   []string
}

// readBlocks parses a scenario file.
func readBlocks(text string) ([]block, error) {
	var bs []block
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var b block
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "#"):
			b.comments = append(b.comments, line)
			continue
		case line == "":
			continue
		}
		b.cmd = line
		for i++; i < len(lines) && lines[i] != "----"; i++ {
			b.input = append(b.input, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("line %d: %q has no %q", i, b.cmd, "----")
		}
		for i++; i < len(lines) && lines[i] != ""; i++ {
			b.output = append(b.output, lines[i])
		}
		bs = append(bs, b)
		b = block{}
	}
	return bs, nil
}

// writeBlocks prints blocks as a scenario file.
func writeBlocks(bs []block) string {
	var b strings.Builder
	for i, x := range bs {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, l := range append(append(append(x.comments, x.cmd), x.input...), "----") {
			b.WriteString(l + "\n")
		}
		for _, l := range x.output {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// scenario is the state of one file's run: its program and exhaustive
// search's traces of it.
type scenario struct {
	t      *testing.T
	p      *gen.Program
	ref    *checktest.Traces
	refOut *checktest.Outcome // the same exploration, as Outcome records it
	refs   bool               // ref and refOut are computed
}

// run runs one block and returns its output.
func (sc *scenario) run(b block) ([]string, error) {
	fields := strings.Fields(b.cmd)
	switch fields[0] {
	case "program":
		p, err := gen.Parse(strings.Join(b.input, "\n") + "\n")
		if err != nil {
			return nil, err
		}
		sc.p, sc.ref, sc.refs = p, nil, false
		return nil, nil
	case "explore":
		if sc.p == nil {
			return nil, fmt.Errorf("explore before a program")
		}
		if len(fields) < 2 {
			return nil, fmt.Errorf("explore names no strategy")
		}
		name, order, maxRuns, verify := fields[1], int64(0), 200000, false
		for _, f := range fields[2:] {
			if f == "verify" {
				verify = true
				continue
			}
			k, v, _ := strings.Cut(f, "=")
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("argument %q: %v", f, err)
			}
			switch k {
			case "order":
				order = n
			case "max":
				maxRuns = int(n)
			default:
				return nil, fmt.Errorf("unknown argument %q", f)
			}
		}
		return sc.explore(name, order, maxRuns, verify)
	}
	return nil, fmt.Errorf("unknown command %q", fields[0])
}

// exploreRecorded explores body with the strategy called name, in the
// order of seed order, at most maxRuns executions, recording both the
// traces and the outcome; verify turns on optimal's verification.
func (sc *scenario) exploreRecorded(body func(*weft.T), name string, order int64, maxRuns int, verify bool) (*weft.Result, *checktest.Traces, *checktest.Outcome, error) {
	s := checktest.StrategyByName(name, order)
	if s == nil {
		return nil, nil, nil, fmt.Errorf("no strategy %q", name)
	}
	if verify {
		o, ok := s.(*optimal.Strategy)
		if !ok {
			return nil, nil, nil, fmt.Errorf("verify: strategy %q is not optimal", name)
		}
		o.SetVerify(true)
	}
	out := checktest.NewOutcome(name)
	r, c := checktest.ExploreTracesWith(sc.t, body, checktest.Recording(s, out), maxRuns)
	return r, c, out, nil
}

// explore explores the program with strategy name and describes what it
// found.
func (sc *scenario) explore(name string, order int64, maxRuns int, verify bool) ([]string, error) {
	body := genweft.Body(sc.p)
	r, c, got, err := sc.exploreRecorded(body, name, order, maxRuns, verify)
	if err != nil {
		return nil, err
	}
	out := []string{
		fmt.Sprintf("executions %d, complete %d, cut %d, exhausted %v", r.Executions, r.Complete, r.Cut, r.Exhausted),
		fmt.Sprintf("traces %d, final states %d", len(c.Maximal), len(c.Finals)),
	}
	var fails []string
	for _, k := range slices.SortedFunc(maps.Keys(r.FailureCounts), func(a, b trace.FailureKind) int { return strings.Compare(a.String(), b.String()) }) {
		fails = append(fails, fmt.Sprintf("%v %d", k, r.FailureCounts[k]))
	}
	if len(fails) == 0 {
		fails = []string{"none"}
	}
	out = append(out, "failures: "+strings.Join(fails, ", "))
	if name == "exhaustive" {
		return out, nil
	}
	if !sc.refs {
		_, sc.ref, sc.refOut, _ = sc.exploreRecorded(body, "exhaustive", 0, maxRuns, false)
		sc.refs = true
	}
	var diffs []string
	for _, d := range []struct{ what, diff string }{
		{"maximal traces", checktest.DiffSets(sc.ref.Maximal, c.Maximal)},
		{"final states", checktest.DiffSets(sc.ref.Finals, c.Finals)},
		{"failure kinds", checktest.DiffSets(sc.ref.Kinds, c.Kinds)},
	} {
		if d.diff != "" {
			diffs = append(diffs, d.what+" "+d.diff)
		}
	}
	if len(diffs) == 0 {
		out = append(out, "as exhaustive search")
	} else {
		out = append(out, "unlike exhaustive search: "+strings.Join(diffs, "; "))
	}
	if verify {
		out = append(out, sc.oncePerTrace(got))
	}
	return out, nil
}

// oncePerTrace says whether got, an exploration by optimal, ran one
// execution per trace of exhaustive search's, complete or failing, and
// no other.
func (sc *scenario) oncePerTrace(got *checktest.Outcome) string {
	var diffs []string
	for _, d := range []struct {
		what      string
		want, got map[string]int
	}{
		{"traces", sc.refOut.Forms, got.Forms},
		{"failing traces", sc.refOut.FailForms, got.FailForms},
	} {
		if diff := checktest.DiffSets(checktest.KeysOf(d.want), checktest.KeysOf(d.got)); diff != "" {
			diffs = append(diffs, d.what+" "+diff)
		}
		var again []string
		for _, f := range slices.Sorted(maps.Keys(d.got)) {
			if n := d.got[f]; n > 1 {
				again = append(again, fmt.Sprintf("%d times: %s", n, f))
			}
		}
		if len(again) > 0 {
			diffs = append(diffs, fmt.Sprintf("%d of the %s run more than once, as %s", len(again), d.what, again[0]))
		}
	}
	if len(diffs) == 0 {
		return "one execution per trace of exhaustive search, failing ones included"
	}
	return "not one execution per trace: " + strings.Join(diffs, "; ")
}

// TestScenarios runs every scenario of testdata/*.txt and compares each
// block's output with the expected one, or rewrites it with -update.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in testdata: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			bs, err := readBlocks(string(text))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			sc := &scenario{t: t}
			for i := range bs {
				got, err := sc.run(bs[i])
				if err != nil {
					t.Fatalf("%s: %s: %v", file, bs[i].cmd, err)
				}
				if *update {
					bs[i].output = got
					continue
				}
				if !slices.Equal(got, bs[i].output) {
					t.Errorf("%s: %s:\n%s\nwant\n%s", file, bs[i].cmd, strings.Join(got, "\n"), strings.Join(bs[i].output, "\n"))
				}
			}
			if *update {
				if err := os.WriteFile(file, []byte(writeBlocks(bs)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestScenarioFormat checks that a scenario file reads and prints back
// unchanged.
func TestScenarioFormat(t *testing.T) {
	text := "# a comment\nprogram\nline 1\nline 2\n----\n\nexplore x order=1\n----\nout 1\nout 2\n"
	bs, err := readBlocks(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 2 || bs[0].cmd != "program" || len(bs[0].input) != 2 || len(bs[1].output) != 2 || len(bs[0].comments) != 1 {
		t.Fatalf("read %+v", bs)
	}
	if got := writeBlocks(bs); got != text {
		t.Errorf("printed back:\n%s\nwant\n%s", got, text)
	}
	if _, err := readBlocks("program\nno separator\n"); err == nil {
		t.Errorf("a block without ---- read without error")
	}
}
