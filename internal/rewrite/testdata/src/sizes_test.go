package src

import (
	"testing"
	"unsafe"
)

// TestLineSize asserts what go test gives: in a test file the size keeps
// its go test value in every expression.
func TestLineSize(t *testing.T) {
	if n := unsafe.Sizeof(counterLine{}); n != cacheLine {
		t.Fatalf("size %d, want %d", n, cacheLine)
	}
}
