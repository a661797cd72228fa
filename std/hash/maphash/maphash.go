// This file implements MakeSeed and Hash on the seeds of the execution.

package maphash

import (
	"hash"
	"hash/maphash"
	"unsafe"

	"github.com/weft-go/weft/internal/shim"
	"github.com/weft-go/weft/trace"
)

// Seed is hash/maphash.Seed.
type Seed = maphash.Seed

// A Seed is one word (the runtime's hash seed), which MakeSeed sets.
var _ [unsafe.Sizeof(Seed{}) - 8]byte
var _ [8 - unsafe.Sizeof(Seed{})]byte

// seeds is the key of the execution's count of the seeds MakeSeed gave.
var seeds byte

// MakeSeed is maphash.MakeSeed: inside an execution, the next seed of the
// execution's sequence.
func MakeSeed() Seed {
	if !shim.Active() {
		return maphash.MakeSeed()
	}
	n := shim.Lookup(unsafe.Pointer(&seeds), func() *uint64 { return new(uint64) })
	*n++
	s := trace.Mix(uint64(shim.Seed())^0x6d617068617368) ^ trace.Mix(*n)
	s |= 1 // a zero seed is an uninitialised one
	return *(*Seed)(unsafe.Pointer(&s))
}

// Bytes is maphash.Bytes.
func Bytes(seed Seed, b []byte) uint64 { return maphash.Bytes(seed, b) }

// String is maphash.String.
func String(seed Seed, s string) uint64 { return maphash.String(seed, s) }

// Comparable is maphash.Comparable.
func Comparable[T comparable](seed Seed, v T) uint64 { return maphash.Comparable(seed, v) }

// WriteComparable is maphash.WriteComparable, for this package's Hash.
func WriteComparable[T comparable](h *Hash, x T) {
	h.init()
	maphash.WriteComparable(&h.h, x)
}

// Hash is maphash.Hash, whose seed, unless SetSeed sets one, is MakeSeed's
// on its first use.
type Hash struct {
	h      maphash.Hash
	seeded bool
}

// init gives h its seed on its first use: inside an execution, the
// execution's next; outside, hash/maphash's own choice.
func (h *Hash) init() {
	if h.seeded {
		return
	}
	h.seeded = true
	if shim.Active() {
		h.h.SetSeed(MakeSeed())
	}
}

// Seed is maphash.Hash.Seed.
func (h *Hash) Seed() Seed { h.init(); return h.h.Seed() }

// SetSeed is maphash.Hash.SetSeed.
func (h *Hash) SetSeed(seed Seed) { h.seeded = true; h.h.SetSeed(seed) }

// Reset is maphash.Hash.Reset.
func (h *Hash) Reset() { h.init(); h.h.Reset() }

// Write is maphash.Hash.Write.
func (h *Hash) Write(b []byte) (int, error) { h.init(); return h.h.Write(b) }

// WriteByte is maphash.Hash.WriteByte.
func (h *Hash) WriteByte(b byte) error { h.init(); return h.h.WriteByte(b) }

// WriteString is maphash.Hash.WriteString.
func (h *Hash) WriteString(s string) (int, error) { h.init(); return h.h.WriteString(s) }

// Sum64 is maphash.Hash.Sum64.
func (h *Hash) Sum64() uint64 { h.init(); return h.h.Sum64() }

// Sum is maphash.Hash.Sum.
func (h *Hash) Sum(b []byte) []byte { h.init(); return h.h.Sum(b) }

// Size is maphash.Hash.Size.
func (h *Hash) Size() int { return h.h.Size() }

// BlockSize is maphash.Hash.BlockSize.
func (h *Hash) BlockSize() int { return h.h.BlockSize() }

// Clone is maphash.Hash.Clone: a Hash of this package in the same state.
func (h *Hash) Clone() (hash.Cloner, error) {
	h.init()
	c := *h
	return &c, nil
}
