// This file implements runtime.Gosched.

package rt

import (
	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Gosched is runtime.Gosched, which weft test passes as gosched (so that
// the file's import of runtime stays used): inside an execution it is
// weft.Yield, the end of a turn of a busy-wait loop (a turn that only
// loaded, or failed to CompareAndSwap, and that the thread starts again
// blocks it for good, its next turn another execution's; Goscheds in a row, as a back-off makes,
// are one pause, and a loop of nothing but Goscheds blocks for good);
// outside one it calls gosched.
func Gosched(gosched func()) {
	if shim.Active() {
		weft.Yield()
		return
	}
	gosched()
}
