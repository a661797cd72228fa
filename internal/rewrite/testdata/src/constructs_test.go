package src

import (
	"sync"
	"testing"
)

func TestRun(t *testing.T) {
	t.Parallel()
	s := &server{quit: make(chan struct{})}
	if got := run(s); got != 0 {
		t.Errorf("run = %d, want 0", got)
	}
	check(t, s)
}

func check(tb testing.TB, s *server) {
	tb.Helper()
	if s.hits.Load() < 0 {
		tb.Fatal("negative hits")
	}
	tb.Log("ok")
}

func TestOnce(_ *testing.T) {
	var once sync.Once
	once.Do(func() {})
}

func TestSkip(*testing.T) {}

func helperNotATest(t *testing.T) { t.FailNow() }

func BenchmarkRun(b *testing.B) {
	for range b.N {
		go func() {}()
	}
}
