// This file tests the index of the steps' accesses (Steps).

package trace

import "testing"

// TestStepsNumAccesses checks that NumAccesses counts the accesses of the
// first n steps, as Accesses gives them: in T1 T1 T2 T2 of x=1 y=2 y=3
// x=4, each step writes its variable (a store announces nothing).
func TestStepsNumAccesses(t *testing.T) {
	x, y := ObjectID(0), ObjectID(1)
	tr := synth([][]Op{{store(x), store(y)}, {store(y), store(x)}}, []ThreadID{1, 1, 2, 2})
	var s Steps
	s.Reset(tr, CR)
	want := []int{0, 1, 2, 3, 4}
	for n, w := range want {
		sum := 0
		for i := range n {
			sum += len(s.Accesses(i))
		}
		if got := s.NumAccesses(n); got != w || got != sum {
			t.Errorf("NumAccesses(%d) = %d, want %d (sum of Accesses %d)", n, got, w, sum)
		}
	}
}
