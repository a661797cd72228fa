// This file implements the top-level functions of math/rand: drawn from the
// execution's generator inside an execution, math/rand's outside.

package rand

import (
	"math/rand"
	"unsafe"

	"github.com/weft-go/weft/internal/shim"
)

// The types of math/rand.
type (
	Rand     = rand.Rand
	Source   = rand.Source
	Source64 = rand.Source64
	Zipf     = rand.Zipf
)

// New is math/rand.New.
func New(src Source) *Rand { return rand.New(src) }

// NewSource is math/rand.NewSource.
func NewSource(seed int64) Source { return rand.NewSource(seed) }

// NewZipf is math/rand.NewZipf.
func NewZipf(r *Rand, s, v float64, imax uint64) *Zipf { return rand.NewZipf(r, s, v, imax) }

// ExecutionSeed is the seed of the generator each execution starts, plus
// the execution's seed (weft.WithSeed, weft test -seed; 0 by default).
const ExecutionSeed = 1

// key is the address under which an execution keeps its generator.
var key byte

// gen returns the current execution's generator, or nil outside an
// execution.
func gen() *rand.Rand {
	if !shim.Active() {
		return nil
	}
	return shim.Lookup(unsafe.Pointer(&key), func() *rand.Rand {
		seed := ExecutionSeed + shim.Seed()
		return rand.New(shim.HiddenSource64(func() rand.Source64 { return rand.NewSource(seed).(rand.Source64) }))
	})
}

// ExpFloat64 is math/rand.ExpFloat64.
func ExpFloat64() float64 {
	if g := gen(); g != nil {
		return g.ExpFloat64()
	}
	return rand.ExpFloat64()
}

// Float32 is math/rand.Float32.
func Float32() float32 {
	if g := gen(); g != nil {
		return g.Float32()
	}
	return rand.Float32()
}

// Float64 is math/rand.Float64.
func Float64() float64 {
	if g := gen(); g != nil {
		return g.Float64()
	}
	return rand.Float64()
}

// Int is math/rand.Int.
func Int() int {
	if g := gen(); g != nil {
		return g.Int()
	}
	return rand.Int()
}

// Int31 is math/rand.Int31.
func Int31() int32 {
	if g := gen(); g != nil {
		return g.Int31()
	}
	return rand.Int31()
}

// Int31n is math/rand.Int31n.
func Int31n(n int32) int32 {
	if g := gen(); g != nil {
		return g.Int31n(n)
	}
	return rand.Int31n(n)
}

// Int63 is math/rand.Int63.
func Int63() int64 {
	if g := gen(); g != nil {
		return g.Int63()
	}
	return rand.Int63()
}

// Int63n is math/rand.Int63n.
func Int63n(n int64) int64 {
	if g := gen(); g != nil {
		return g.Int63n(n)
	}
	return rand.Int63n(n)
}

// Intn is math/rand.Intn.
func Intn(n int) int {
	if g := gen(); g != nil {
		return g.Intn(n)
	}
	return rand.Intn(n)
}

// NormFloat64 is math/rand.NormFloat64.
func NormFloat64() float64 {
	if g := gen(); g != nil {
		return g.NormFloat64()
	}
	return rand.NormFloat64()
}

// Perm is math/rand.Perm.
func Perm(n int) []int {
	if g := gen(); g != nil {
		return g.Perm(n)
	}
	return rand.Perm(n)
}

// Read is math/rand.Read.
//
// Deprecated: as math/rand.Read, use crypto/rand.Read.
func Read(p []byte) (n int, err error) {
	if g := gen(); g != nil {
		return g.Read(p)
	}
	return rand.Read(p)
}

// Seed is math/rand.Seed (which does nothing since Go 1.24); it leaves the
// execution's generator as it is.
//
// Deprecated: as math/rand.Seed, use New(NewSource(seed)).
func Seed(seed int64) {
	rand.Seed(seed)
}

// Shuffle is math/rand.Shuffle.
func Shuffle(n int, swap func(i, j int)) {
	if g := gen(); g != nil {
		g.Shuffle(n, swap)
		return
	}
	rand.Shuffle(n, swap)
}

// Uint32 is math/rand.Uint32.
func Uint32() uint32 {
	if g := gen(); g != nil {
		return g.Uint32()
	}
	return rand.Uint32()
}

// Uint64 is math/rand.Uint64.
func Uint64() uint64 {
	if g := gen(); g != nil {
		return g.Uint64()
	}
	return rand.Uint64()
}
