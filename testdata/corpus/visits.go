package corpus

import "sync"

// VisitsBug counts the visits of a page, from concurrent handlers, in a
// plain int.
type VisitsBug struct{ n int }

// Visit counts a visit.
func (v *VisitsBug) Visit() {
	v.n++ // want -race TestVisitsBug: data race
}

// Count returns the number of visits.
func (v *VisitsBug) Count() int { return v.n }

// Visits counts under a mutex.
type Visits struct {
	mu sync.Mutex
	n  int
}

// Visit counts a visit.
func (v *Visits) Visit() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.n++
}

// Count returns the number of visits.
func (v *Visits) Count() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.n
}
