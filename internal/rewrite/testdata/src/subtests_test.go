package src

import (
	"sync"
	"testing"
)

// TestTable is a table-driven test: the loop runs as plain Go, each case
// as an exploration.
func TestTable(t *testing.T) {
	tests := []struct {
		name    string
		workers int
	}{{"one", 1}, {"two", 2}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var wg sync.WaitGroup
			done := make(chan int, tc.workers)
			for i := range tc.workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					done <- i
				}()
			}
			wg.Wait()
			if len(done) != tc.workers {
				t.Errorf("%d done, want %d", len(done), tc.workers)
			}
		})
	}
}

// TestNested has a group of subtests in a subtest, and parallel subtests.
func TestNested(t *testing.T) {
	t.Run("group", func(t *testing.T) {
		t.Parallel()
		t.Run("leaf", func(t *testing.T) {
			t.Parallel()
			ch := make(chan int)
			go func() { ch <- 1 }()
			<-ch
		})
		t.Run("empty", func(*testing.T) {})
	})
}

// TestCopyParallel copies its loop variable before t.Parallel(), as
// files older than go1.22 must: the copy and its neighbours, which change
// nothing but their own variables, stay before the exploration.
func TestCopyParallel(t *testing.T) {
	for _, tc := range []struct{ n int }{{1}, {2}} {
		t.Run("copy", func(t *testing.T) {
			tc := tc
			n, name := tc.n+1, string(rune('a'+tc.n))
			t.Helper()
			t.Parallel()
			ch := make(chan int, 1)
			ch <- n
			if <-ch != tc.n+1 || name == "" {
				t.Error("wrong")
			}
		})
	}
}

// TestFuncs runs subtests whose functions are values: a function that
// runs as an exploration, a function that has subtests, a helper that
// calls t.Run.
func TestFuncs(t *testing.T) {
	t.Run("plain", plain)
	t.Run("cases", cases)
	runCases(t, []int{1, 2})
}

func plain(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 1
}

func cases(t *testing.T) {
	t.Run("a", plain)
}

func runCases(t *testing.T, ns []int) {
	for _, n := range ns {
		t.Run("n", func(t *testing.T) {
			if n < 0 {
				t.Fatal("negative")
			}
		})
	}
}
