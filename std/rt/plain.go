// This file implements Plain, which runs the body of a test that makes
// explorations of its own (it calls weft.Check, weft.Explore or
// weft.Replay) as go test runs it.

package rt

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Plain runs body, the body of the Test function or subtest t runs, as go
// test runs it, outside any exploration of weft test's: weft test rewrites
// a body that runs an exploration of weft's itself (it calls weft.Check,
// weft.Explore or weft.Replay, directly or through a function of its
// package) into a call of Plain, since explorations do not nest. Its
// explorations are its own, with their own replay files, and run one at a
// time with weft test's (Test).
func Plain(t *testing.T, body func()) {
	t.Helper()
	explorations.Lock()
	defer explorations.Unlock()
	_, refused := startRefusals()
	shim.BeginExploration(t.Name())
	defer func() {
		// A function that holds a construct weft test does not run,
		// reached in an execution of the body's own exploration, cut
		// that execution (Unsupported): the test is refused. One that
		// used memory an earlier exploration left mid-way is
		// inconclusive.
		msg, taint := refused()
		if msg != "" {
			t.Skip(RefusedMarker + " " + msg)
		}
		if taint != "" {
			t.Skip(weft.Inconclusive + ": " + taint)
		}
	}()
	body()
}

// SubPlain returns the function of a subtest that runs f plainly (Plain):
// weft test rewrites t.Run(name, f), f a function of the package that runs
// an exploration of weft's, into t.Run(name, SubPlain(f)).
func SubPlain(f func(*testing.T)) func(*testing.T) {
	return func(t *testing.T) {
		t.Helper()
		Plain(t, func() { f(t) })
	}
}
