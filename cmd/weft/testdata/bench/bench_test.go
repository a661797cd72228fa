package bench

import "testing"

func TestCount(t *testing.T) {
	if n := Count(); n != 2 {
		t.Errorf("Count() = %d, want 2", n)
	}
}

func TestPipeline(t *testing.T) {
	if s := Pipeline(3); s != 17 {
		t.Errorf("Pipeline(3) = %d, want 17", s)
	}
}

func BenchmarkCount(b *testing.B) {
	for b.Loop() {
		Count()
	}
}
