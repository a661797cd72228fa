// This file implements Once, with sync.Once's semantics.

package weft

import "github.com/weft-go/weft/internal/engine"

// Once performs exactly one action, with sync.Once's semantics: the first Do
// runs its function; other Do calls block until it has returned, then return
// without running theirs. A function that panics still counts as done. A Do
// of the same Once inside the function deadlocks. The zero value is ready to
// use.
type Once struct {
	o engine.Obj
}

// Do calls f if and only if Do has not been called before on o.
func (o *Once) Do(f func()) {
	t := cur()
	if !t.OnceDo(&o.o) {
		return
	}
	defer t.OnceDone(&o.o)
	f()
}

// SetName names o in reports.
func (o *Once) SetName(name string) { o.o.SetName(name) }
