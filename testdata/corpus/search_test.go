package corpus

import "testing"

var searchTests = []struct {
	name   string
	items  []string
	target string
	parts  int
	want   bool
}{
	{"one part", []string{"a", "b", "a"}, "a", 1, true},
	{"two parts", []string{"a", "b", "a", "c"}, "a", 2, true},
	{"missing", []string{"a", "b"}, "z", 2, false},
}

func TestSearchBug(t *testing.T) {
	for _, tc := range searchTests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SearchBug(tc.items, tc.target, tc.parts); got != tc.want {
				t.Errorf("SearchBug(%v, %q) = %v, want %v", tc.items, tc.target, got, tc.want)
			}
		})
	}
}

func TestSearchFixed(t *testing.T) {
	for _, tc := range searchTests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Search(tc.items, tc.target, tc.parts); got != tc.want {
				t.Errorf("Search(%v, %q) = %v, want %v", tc.items, tc.target, got, tc.want)
			}
		})
	}
}
