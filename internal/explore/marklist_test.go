// This file tests the paged list of the determinism check's marks.

package explore

import "testing"

// TestMarkList pushes marks across the growth of the first page and
// several full pages, reads them back, and pushes again after a truncation.
func TestMarkList(t *testing.T) {
	var l markList
	const n = 5*markPage + 7
	for k := range n {
		*l.Push() = mark{state: uint64(k)}
	}
	if l.Len() != n || len(l.pages) != 6 {
		t.Fatalf("%d marks in %d pages, want %d in 6", l.Len(), len(l.pages), n)
	}
	for k := range n {
		if got := l.At(k).state; got != uint64(k) {
			t.Fatalf("mark %d holds %d", k, got)
		}
	}
	l.Truncate(3)
	m := l.Push()
	if l.Len() != 4 || m.state != 3 || len(l.pages) != 6 {
		t.Fatalf("after a truncation to 3, push gives mark %d of %d in %d pages, want 3 of 4 in 6", m.state, l.Len(), len(l.pages))
	}
}
