// This file implements the opt-in: Enabled reads WEFT_LONG, Skip skips a
// test that runs only with it.

package long

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long tests on when it
// is 1.
const Env = "WEFT_LONG"

// Enabled reports whether the long tests run: WEFT_LONG=1 and not -short.
func Enabled() bool {
	return os.Getenv(Env) == "1" && !testing.Short()
}

// Skip skips t unless the long tests run; what says what the test does
// and what it costs, for the skip message.
func Skip(t testing.TB, what string) {
	t.Helper()
	if !Enabled() {
		t.Skipf("%s: %s=1 runs it", what, Env)
	}
}

// N returns full if the long tests run, quick otherwise: the size of a
// sweep, such as a number of generated programs.
func N(quick, full int) int {
	if Enabled() {
		return full
	}
	return quick
}
