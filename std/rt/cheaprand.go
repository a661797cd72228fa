// This file implements the runtime's cheap random numbers that a package
// reaches through go:linkname (runtime.cheaprand), repeated by every
// execution.

package rt

import (
	"math/rand/v2"
	"unsafe"

	"github.com/weft-go/weft/internal/shim"
	"github.com/weft-go/weft/trace"
)

// cheapDraws is the key of the execution's count of CheapRand's numbers.
var cheapDraws byte

// CheapRand is runtime.cheaprand (and fastrand), which a package declares
// with //go:linkname and which the rewriting gives this body: inside an
// execution, the n-th number of a sequence drawn from the execution's
// seed, the same in every execution and replay with that seed, where the
// runtime's differ from one execution to the next, so that under the same
// schedule they touched other objects and weft's determinism check
// reported the test as not deterministic (puzpuzpuz/xsync's Counter and
// RBMutex pick a stripe so). Outside an execution, a random number.
func CheapRand() uint32 { return uint32(CheapRand64()) }

// CheapRand64 is runtime.cheaprand64 (and fastrand64), as CheapRand.
func CheapRand64() uint64 {
	if !shim.Active() {
		return rand.Uint64()
	}
	n := shim.Lookup(unsafe.Pointer(&cheapDraws), func() *uint64 { return new(uint64) })
	*n++
	return trace.Mix(uint64(shim.Seed())^0x63686561707261) ^ trace.Mix(*n)
}
