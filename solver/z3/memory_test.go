//go:build cgo && linux

// This file tests that long runs of queries do not leak Go or C memory.

package z3_test

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/solver/z3"
)

// raceEnabled is set under the race detector, whose shadow memory makes
// RSS meaningless as a leak measure.
var raceEnabled bool

// rss returns the resident set size of the process from /proc/self/statm,
// which also covers Z3's C allocations.
func rss(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skipf("no /proc/self/statm: %v", err)
	}
	f := strings.Fields(string(b))
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		t.Fatalf("parsing statm %q: %v", b, err)
	}
	return pages * int64(os.Getpagesize())
}

func heap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

func TestNoLeaks(t *testing.T) {
	n := 100_000
	if !long.Enabled() {
		n = 5_000
	}
	warm := n / 5
	s := newSolver(t)
	ctx := context.Background()
	run := func(from, to int) {
		for i := from; i < to; i++ {
			q := smallQuery(i)
			var (
				r   solver.Result
				err error
			)
			if i%2 == 0 {
				r, err = s.Check(ctx, q)
			} else {
				r, _, err = s.CheckCore(ctx, q)
			}
			want := solver.Sat
			if i%3 == 0 && i%256 != 0 {
				want = solver.Unsat
			}
			if err != nil || r.Status != want {
				t.Fatalf("query %d: %v, %v; want %v", i, r.Status, err, want)
			}
		}
	}
	start := time.Now()
	run(0, warm)
	heap0, rss0, z0 := heap(), rss(t), int64(z3.AllocatedBytes())
	run(warm, n)
	heap1, rss1, z1 := heap(), rss(t), int64(z3.AllocatedBytes())
	d := time.Since(start)
	t.Logf("%d queries in %v (%v/query); after warm-up of %d: Go heap %+d B, Z3 allocations %+d B, RSS %+d KiB (%d KiB)",
		n, d.Round(time.Millisecond), d/time.Duration(n), warm, heap1-heap0, z1-z0, (rss1-rss0)>>10, rss1>>10)
	// The bounds allow for noise (Z3's accounting moves by about 100 KB
	// as internal buffers are resized), not per-query growth: at the
	// default size a leak of 50 bytes per query exceeds them.
	if growth := z1 - z0; growth > 1<<20 {
		t.Errorf("Z3 allocations grew by %d bytes over %d queries", growth, n-warm)
	}
	if growth := heap1 - heap0; growth > 256<<10 {
		t.Errorf("Go heap grew by %d bytes over %d queries", growth, n-warm)
	}
	// RSS is the coarse third check: the Go runtime's scavenger and a
	// loaded machine move it by a few MiB (4 MiB flaked once under a
	// parallel go test ./...), so its bound is 16 MiB; the two checks above
	// are the precise ones.
	if growth := rss1 - rss0; growth > 16<<20 && !raceEnabled {
		t.Errorf("RSS grew by %d KiB over %d queries", growth>>10, n-warm)
	}
}
