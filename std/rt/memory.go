// This file implements the refusal of a test that measures the memory it
// allocates inside an exploration.

package rt

import "github.com/weft-go/weft/internal/shim"

// MemoryProbe returns f, the function of the standard library called name
// (runtime.ReadMemStats, testing.AllocsPerRun), which the rewriting
// passes here before calling it. Called inside an execution, it refuses
// the test (Unsupported): the allocations and memory it measures include
// those of weft's instrumentation, each channel operation, lock and
// goroutine of the program being run by weft's own code, so a count that
// the program's code alone makes, such as jellydator/ttlcache's
// assertion that a cache hit allocates nothing, would fail for weft's
// sake. It is what tests do under the race detector, which allocates
// too: they skip such measurements.
func MemoryProbe[F any](name string, f F) F {
	if !shim.Active() {
		// Outside an execution it allocates nothing: the measurement
		// around it counts the program's allocations alone.
		return f
	}
	Unsupported(callSite() + name + " called inside an exploration: the memory it measures includes what weft's instrumentation of each channel operation, lock and goroutine allocates, not the program's alone; measure allocations with go test (weft test -skip leaves the test out), as tests that measure them skip under the race detector")
	return f
}
