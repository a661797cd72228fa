// This file implements runtime.NumGoroutine.

package rt

import (
	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/shim"
)

// NumGoroutine is runtime.NumGoroutine, which weft test passes as num (so
// that the file's import of runtime stays used): inside an execution it
// counts the goroutines of the execution that have not finished, the
// test's own included, and one for the test binary's main goroutine, as
// a test running alone sees; the goroutines of weft and of other tests
// are not counted, so that counts taken before and after are comparable,
// and the same in every execution and replay (allegro/bigcache's
// TestClosing compares two, which the goroutines weft keeps for its
// threads made fail). Outside one it calls num.
func NumGoroutine(num func() int) int {
	if shim.Active() {
		return 1 + engine.Current().Exec().Live()
	}
	return num()
}
