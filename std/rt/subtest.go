// This file implements the subtests of the rewritten tests: t.Run, which
// runs as Go's outside an execution and is refused inside one, and Sub,
// which runs a subtest's function as a weft exploration.

package rt

import (
	"testing"

	"github.com/weft-go/weft/internal/shim"
)

// Run is t.Run. Outside an execution it runs f as the subtest name of t,
// as t.Run does (weft test has wrapped f's body in Test, or f in Sub,
// unless f has subtests of its own). Inside an execution it refuses the
// test (Unsupported): each subtest is an exploration of its own, and
// explorations do not nest. The rewriting calls t.Run only from code that
// runs outside executions; a call inside one comes through a function
// weft test could not follow, as a suite of tests in another package
// (ThreeDotsLabs/watermill's pubsub tests), which made the test fail
// before.
func Run(t *testing.T, name string, f func(*testing.T)) bool {
	t.Helper()
	if shim.Active() {
		refuseCall("Run", "called inside an exploration, through a function weft test could not follow, a function value or one of another package (each subtest is an exploration of its own, and explorations do not nest): call t.Run directly, or through a function of the test's package named in the call, in the body of the Test function or subtest")
		return false
	}
	return t.Run(name, f)
}

// Sub returns the function of a subtest that runs f's body as a weft
// exploration: weft test rewrites t.Run(name, f), f a function value that
// calls no t.Run, into t.Run(name, Sub(f)).
func Sub(f func(*testing.T)) func(*testing.T) {
	return func(t *testing.T) {
		t.Helper()
		Test(t, func() { f(t) })
	}
}
