// This file implements the refusals of weft test: a test whose body holds a
// construct weft test does not run is skipped with the reason (Refuse), and
// a function of the package that holds one refuses the test whose
// exploration reaches it (Unsupported).

package rt

import (
	"context"
	"sync"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// RefusedMarker starts the message with which a test that weft test
// refuses is skipped: weft test looks for it to print the message and exit
// with its status for bad input.
const RefusedMarker = "weft test refused this test:"

// refusal is the refusal of the exploration that runs (explorations run
// one at a time): its message, the message of its use of memory an
// earlier exploration left mid-way (taint.go), and the cancellation of
// its context, which stops it.
var refusal struct {
	sync.Mutex
	msg, taint string
	cancel     context.CancelFunc
}

// Refuse skips t, whose body holds the constructs msg describes (each with
// its file:line and the way out), which weft test does not run: the
// rewriting leaves the body as it was and calls Refuse first.
func Refuse(t testing.TB, msg string) {
	t.Helper()
	if shim.Active() {
		Unsupported(msg)
		return
	}
	t.Skip(RefusedMarker + " " + msg)
}

// Unsupported refuses the test whose exploration calls it (nothing outside
// an execution): the rewriting leaves a function that holds the
// constructs msg describes as it was, and calls Unsupported first. The
// execution is cut, the exploration stops, and the test is skipped with
// msg.
func Unsupported(msg string) {
	if !shim.Active() {
		return
	}
	refusal.Lock()
	if refusal.msg == "" {
		refusal.msg = msg
	}
	if refusal.cancel != nil {
		refusal.cancel()
	}
	refusal.Unlock()
	weft.Assume(false)
}

// startRefusals makes the exploration that starts refusable: it returns
// the context that stops it and the function that ends it and returns its
// refusal and its use of tainted memory ("": none).
func startRefusals() (context.Context, func() (msg, taint string)) {
	ctx, cancel := context.WithCancel(context.Background())
	refusal.Lock()
	refusal.msg, refusal.taint, refusal.cancel = "", "", cancel
	refusal.Unlock()
	return ctx, func() (string, string) {
		cancel()
		refusal.Lock()
		defer refusal.Unlock()
		msg, taint := refusal.msg, refusal.taint
		refusal.msg, refusal.taint, refusal.cancel = "", "", nil
		return msg, taint
	}
}
