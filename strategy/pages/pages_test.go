// This file tests the paged stack: values keep their addresses once the
// first page is full, and memory is reused after a shrink.

package pages

import "testing"

func TestStack(t *testing.T) {
	var s Stack[int]
	for i := range 3000 {
		*s.Push() = i
	}
	if s.Len() != 3000 {
		t.Fatalf("len %d, want 3000", s.Len())
	}
	p := s.At(1500)
	for i := range 3000 {
		if *s.At(i) != i {
			t.Fatalf("value %d is %d", i, *s.At(i))
		}
	}
	s.Truncate(1000)
	s.SetLen(4000)
	if s.At(1500) != p || *p != 1500 {
		t.Errorf("value 1500 moved or was not kept: %d", *s.At(1500))
	}
	if s.Len() != 4000 || len(s.pages) != 4 || len(s.pages[0]) != Size {
		t.Errorf("len %d, %d pages, first of %d; want 4000, 4, %d", s.Len(), len(s.pages), len(s.pages[0]), Size)
	}
}
