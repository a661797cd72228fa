// This file implements the panic guard of the strategy: a strategy's panic
// is weft's bug, not the program's, and the test body never sees it.

package explore

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
)

// ErrInternal is wrapped by the error of an exploration that a bug in weft
// ended: a strategy panicked.
var ErrInternal = errors.New("weft internal error")

// panicGuard records a strategy's panic. The determinism check (checked,
// determinism.go), the outermost layer around every strategy, recovers a
// panic in each of its methods where the runtime calls it: Choose and
// Input run on the goroutine of a thread of the test body, inside a weft
// operation, where a panic left to unwind would be reported as the
// program's and could be stopped by a recover in the body. The guard
// records it, the execution is cut, the exploration ends, and the driver
// reports it as an error wrapping ErrInternal, with the strategy's stack.
// (A wrapper of its own would cost a call per step.)
type panicGuard struct {
	name  string // the strategy's name, for the error
	execs int    // executions started
	err   error  // the panic, once caught
}

// caught records the panic value r of method at step (-1: between
// executions); it runs in a deferred call, so the stack is the panic's.
func (g *panicGuard) caught(method string, step int, r any) {
	where := fmt.Sprintf("in %s of execution %d", method, g.execs)
	if step >= 0 {
		where = fmt.Sprintf("in %s at step %d of execution %d", method, step+1, g.execs)
	}
	g.err = fmt.Errorf("%w: strategy %s panicked %s: %v (a bug in weft, not in the program under test: please report it with this message)\n\n%s",
		ErrInternal, g.name, where, r, strings.TrimRight(string(debug.Stack()), "\n"))
}
