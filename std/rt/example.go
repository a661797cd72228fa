// This file implements the bound of an Example function, which runs as
// plain Go, outside any exploration.

package rt

import (
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/weft-go/weft"
)

// Example bounds the run of the example name by weft test's -timeout (the
// environment's WEFT_TIMEOUT), and returns the function that ends the
// bound: weft test starts the body of each Example function with defer
// weftrt.Example("ExampleF")(). An example is not explored: it runs once,
// as plain Go, on the memory the explorations of the tests before it left
// (package-level variables, goroutines and channels made outside them),
// and go test's own timeout is off when -timeout is given. One that runs
// longer than the bound panics, as go test's timeout does, with the stacks
// of every goroutine, rather than hanging the test binary.
func Example(name string) func() {
	d, err := time.ParseDuration(os.Getenv(weft.TimeoutEnv))
	if err != nil || d <= 0 {
		return func() {}
	}
	t := time.AfterFunc(d, func() {
		debug.SetTraceback("all")
		panic(fmt.Sprintf("weft: %s ran longer than %v (weft test -timeout): an example runs once, as plain Go, outside any exploration, on the state that the explorations of the tests before it left in package-level variables (docs/weft-test.md, Limits)", name, d))
	})
	return func() { t.Stop() }
}
