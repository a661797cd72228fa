// This file implements the end of an exploration that uses memory an
// earlier exploration's last execution left mid-way (internal/shim's
// taints): the test is skipped as inconclusive.

package rt

import (
	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

func init() { shim.OnTainted = tainted }

// tainted stops the exploration that runs, whose execution uses memory an
// earlier exploration left mid-way (msg says which): the execution is cut,
// the exploration stops, and the test is skipped as inconclusive, as
// nothing it would report is a behaviour of the program under go test.
func tainted(msg string) {
	refusal.Lock()
	if refusal.taint == "" {
		refusal.taint = msg
	}
	if refusal.cancel != nil {
		refusal.cancel()
	}
	refusal.Unlock()
	weft.Assume(false)
}
