// This file measures weft test's overhead against plain go test on the
// module testdata/bench: the build of an edited
// package, the time of one execution of a small test, and executions per
// second of a 4-goroutine channel pipeline.

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// BenchmarkTest compares weft test with go test on testdata/bench, copied
// to a temporary directory:
//
//   - build/go, build/weft: an edit of the package (a new constant in a
//     file of its own) and the build of its test binary (go test -c); for
//     weft, with what weft test does first (the temporary go.mod, the
//     rewriting, the overlay), so the difference is weft test's overhead
//     per edit and build;
//   - exec/go, exec/go-body, exec/weft: one run of TestCount's body (two
//     goroutines and a mutex), as an op, in one process: go's binary runs
//     the test b.N times (-test.count) or its body in a benchmark loop
//     (BenchmarkCount, without the testing package's cost per test), weft's
//     explores b.N executions (random strategy, -max-runs b.N);
//   - pipeline/random, pipeline/pct: one execution of TestPipeline (4 goroutines
//     joined by unbuffered channels, 3 values), reporting executions per
//     second of the exploration's own wall time.
func BenchmarkTest(b *testing.B) {
	if testing.Short() {
		b.Skip("builds test binaries with the go command")
	}
	dir := b.TempDir()
	for _, f := range []string{"go.mod", "bench.go", "bench_test.go"} {
		src, err := os.ReadFile(filepath.Join("testdata", "bench", f))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), src, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	edits := 0
	edit := func(b *testing.B) {
		edits++
		src := fmt.Sprintf("package bench\n\nconst edit = %d\n", edits)
		if err := os.WriteFile(filepath.Join(dir, "edit.go"), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	goBin, weftBin := filepath.Join(dir, "go.test"), filepath.Join(dir, "weft.test")
	buildGo := func(b *testing.B) {
		edit(b)
		benchGo(b, dir, "test", "-c", "-o", goBin, ".")
	}
	buildWeft := func(b *testing.B) {
		edit(b)
		tmp := b.TempDir()
		flags, _, err := rewriteFlags(dir, tmp, nil, []string{"."}, nil)
		if err != nil {
			b.Fatal(err)
		}
		benchGo(b, dir, append(append([]string{"test", "-c", "-o", weftBin}, flags...), ".")...)
	}
	// Warm the build cache (weft's packages, the standard library's).
	buildGo(b)
	buildWeft(b)
	b.Run("build/go", func(b *testing.B) {
		for b.Loop() {
			buildGo(b)
		}
	})
	b.Run("build/weft", func(b *testing.B) {
		for b.Loop() {
			buildWeft(b)
		}
	})
	b.Run("exec/go", func(b *testing.B) {
		benchRun(b, goBin, nil, "-test.run=^TestCount$", "-test.count="+strconv.Itoa(b.N))
	})
	b.Run("exec/go-body", func(b *testing.B) {
		benchRun(b, goBin, nil, "-test.run=^$", "-test.bench=^BenchmarkCount$", "-test.benchtime="+strconv.Itoa(b.N)+"x")
	})
	b.Run("exec/weft", func(b *testing.B) {
		out := benchRun(b, weftBin, []string{"WEFT_STRATEGY=random", "WEFT_MAX_RUNS=" + strconv.Itoa(b.N)}, "-test.run=^TestCount$", "-test.v")
		benchExecutions(b, out, b.N)
	})
	for _, s := range []string{"random", "pct"} {
		b.Run("pipeline/"+s, func(b *testing.B) {
			out := benchRun(b, weftBin, []string{"WEFT_STRATEGY=" + s, "WEFT_MAX_RUNS=" + strconv.Itoa(b.N)}, "-test.run=^TestPipeline$", "-test.v")
			n, wall := benchExecutions(b, out, b.N)
			b.ReportMetric(float64(n)/wall.Seconds(), "execs/s")
		})
	}
}

// benchGo runs the go command in dir, failing b if it fails.
func benchGo(b *testing.B, dir string, args ...string) {
	b.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go %v: %v\n%s", args, err, out)
	}
}

// benchRun runs the test binary bin with args and the environment env
// added, timing only that run, and returns its output.
func benchRun(b *testing.B, bin string, env []string, args ...string) string {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), "WEFT_REPLAY_FILES=0"), env...)
	b.ResetTimer()
	out, err := cmd.CombinedOutput()
	b.StopTimer()
	if err != nil {
		b.Fatalf("%s %v: %v\n%s", bin, args, err, out)
	}
	return string(out)
}

// summaryLine matches the executions and the wall time of Check's summary.
var summaryLine = regexp.MustCompile(`executions (\d+) .*, wall ([^:]+):`)

// benchExecutions checks that the exploration whose summary out holds ran
// want executions, and returns them and its wall time.
func benchExecutions(b *testing.B, out string, want int) (int, time.Duration) {
	b.Helper()
	m := summaryLine.FindStringSubmatch(out)
	if m == nil {
		b.Fatalf("no summary of the exploration in:\n%s", out)
	}
	n, _ := strconv.Atoi(m[1])
	wall, err := time.ParseDuration(m[2])
	if n != want || err != nil {
		b.Fatalf("executions %s, wall %q (%v): want %d executions\n%s", m[1], m[2], err, want, out)
	}
	return n, wall
}
