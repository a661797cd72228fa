// This file implements the top-level functions of math/rand/v2: drawn
// from the execution's generator inside an execution, math/rand/v2's
// outside.

package rand

import (
	"math/rand/v2"
	"unsafe"

	"github.com/weft-go/weft/internal/shim"
)

// The types of math/rand/v2.
type (
	ChaCha8 = rand.ChaCha8
	PCG     = rand.PCG
	Rand    = rand.Rand
	Source  = rand.Source
	Zipf    = rand.Zipf
)

// New is math/rand/v2.New.
func New(src Source) *Rand { return rand.New(src) }

// NewChaCha8 is math/rand/v2.NewChaCha8.
func NewChaCha8(seed [32]byte) *ChaCha8 { return rand.NewChaCha8(seed) }

// NewPCG is math/rand/v2.NewPCG.
func NewPCG(seed1, seed2 uint64) *PCG { return rand.NewPCG(seed1, seed2) }

// NewZipf is math/rand/v2.NewZipf.
func NewZipf(r *Rand, s, v float64, imax uint64) *Zipf { return rand.NewZipf(r, s, v, imax) }

// The seeds of the PCG each execution starts: the first plus the
// execution's seed (weft.WithSeed, weft test -seed; 0 by default).
const (
	ExecutionSeed1 = 1
	ExecutionSeed2 = 2
)

// key is the address under which an execution keeps its generator.
var key byte

// gen returns the current execution's generator, or nil outside an
// execution.
func gen() *rand.Rand {
	if !shim.Active() {
		return nil
	}
	return shim.Lookup(unsafe.Pointer(&key), func() *rand.Rand {
		seed := ExecutionSeed1 + uint64(shim.Seed())
		return rand.New(shim.HiddenSource(func() rand.Source { return rand.NewPCG(seed, ExecutionSeed2) }))
	})
}

// intType is the constraint of N's type parameter: the integer types.
type intType interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// N is math/rand/v2.N.
//
//go:norace
func N[Int intType](n Int) Int {
	g := gen()
	if g == nil {
		return rand.N(n)
	}
	if n <= 0 {
		panic("invalid argument to N")
	}
	return Int(g.Uint64N(uint64(n)))
}

// ExpFloat64 is math/rand/v2.ExpFloat64.
func ExpFloat64() float64 {
	if g := gen(); g != nil {
		return g.ExpFloat64()
	}
	return rand.ExpFloat64()
}

// Float32 is math/rand/v2.Float32.
func Float32() float32 {
	if g := gen(); g != nil {
		return g.Float32()
	}
	return rand.Float32()
}

// Float64 is math/rand/v2.Float64.
func Float64() float64 {
	if g := gen(); g != nil {
		return g.Float64()
	}
	return rand.Float64()
}

// Int is math/rand/v2.Int.
func Int() int {
	if g := gen(); g != nil {
		return g.Int()
	}
	return rand.Int()
}

// Int32 is math/rand/v2.Int32.
func Int32() int32 {
	if g := gen(); g != nil {
		return g.Int32()
	}
	return rand.Int32()
}

// Int32N is math/rand/v2.Int32N.
func Int32N(n int32) int32 {
	if g := gen(); g != nil {
		return g.Int32N(n)
	}
	return rand.Int32N(n)
}

// Int64 is math/rand/v2.Int64.
func Int64() int64 {
	if g := gen(); g != nil {
		return g.Int64()
	}
	return rand.Int64()
}

// Int64N is math/rand/v2.Int64N.
func Int64N(n int64) int64 {
	if g := gen(); g != nil {
		return g.Int64N(n)
	}
	return rand.Int64N(n)
}

// IntN is math/rand/v2.IntN.
func IntN(n int) int {
	if g := gen(); g != nil {
		return g.IntN(n)
	}
	return rand.IntN(n)
}

// NormFloat64 is math/rand/v2.NormFloat64.
func NormFloat64() float64 {
	if g := gen(); g != nil {
		return g.NormFloat64()
	}
	return rand.NormFloat64()
}

// Perm is math/rand/v2.Perm.
func Perm(n int) []int {
	if g := gen(); g != nil {
		return g.Perm(n)
	}
	return rand.Perm(n)
}

// Shuffle is math/rand/v2.Shuffle.
func Shuffle(n int, swap func(i, j int)) {
	if g := gen(); g != nil {
		g.Shuffle(n, swap)
		return
	}
	rand.Shuffle(n, swap)
}

// Uint is math/rand/v2.Uint.
func Uint() uint {
	if g := gen(); g != nil {
		return g.Uint()
	}
	return rand.Uint()
}

// Uint32 is math/rand/v2.Uint32.
func Uint32() uint32 {
	if g := gen(); g != nil {
		return g.Uint32()
	}
	return rand.Uint32()
}

// Uint32N is math/rand/v2.Uint32N.
func Uint32N(n uint32) uint32 {
	if g := gen(); g != nil {
		return g.Uint32N(n)
	}
	return rand.Uint32N(n)
}

// Uint64 is math/rand/v2.Uint64.
func Uint64() uint64 {
	if g := gen(); g != nil {
		return g.Uint64()
	}
	return rand.Uint64()
}

// Uint64N is math/rand/v2.Uint64N.
func Uint64N(n uint64) uint64 {
	if g := gen(); g != nil {
		return g.Uint64N(n)
	}
	return rand.Uint64N(n)
}

// UintN is math/rand/v2.UintN.
func UintN(n uint) uint {
	if g := gen(); g != nil {
		return g.UintN(n)
	}
	return rand.UintN(n)
}
