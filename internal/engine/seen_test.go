// This file tests the record of the threads that touched an object.

package engine

import (
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestSeen marks threads on both sides of 64 and past the length of the
// list of high threads, and checks every thread's answer after each mark.
func TestSeen(t *testing.T) {
	var o Obj
	marked := map[trace.ThreadID]bool{}
	for _, p := range []trace.ThreadID{3, 70, 70, 63, 64, 200, 1000, 127, 128, 300, 301, 302, 303, 304, 305, 306, 307, 308, 309, 310, 311, 5000, 65} {
		o.markSeen(p)
		marked[p] = true
		for q := range trace.ThreadID(5100) {
			if got := o.seenBy(q); got != marked[q] {
				t.Fatalf("after marking %v: seenBy(%v) = %t, want %t", p, q, got, marked[q])
			}
		}
	}
	if !o.seenBits {
		t.Fatal("19 threads from 64 on are still listed, not kept as bits")
	}
}
