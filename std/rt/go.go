// This file implements the go statement.

package rt

import (
	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Go runs f in a new goroutine: a weft thread inside an execution, a
// goroutine outside one.
func Go(f func()) {
	if shim.Active() {
		weft.Go(f)
		return
	}
	go f()
}
