// This file implements random input values within a declared range.

package random

import (
	"math/rand/v2"

	"github.com/weft-go/weft/strategy"
)

// Value returns a value of in drawn uniformly from r: from [Min, Max]
// (compared as signed values when in.Signed, as the unsigned bits of Min and
// Max otherwise), or from the whole range of in.Bits bits when Max is below
// Min (no range declared). A signed value is returned as the
// two's-complement bits of the int64, as uint64(int64(v)).
func Value(r *rand.Rand, in strategy.InputRequest) uint64 {
	lo, hi := uint64(in.Min), uint64(in.Max)
	if (in.Signed && in.Max < in.Min) || (!in.Signed && hi < lo) {
		lo, hi = fullRange(in.Bits, in.Signed)
	}
	span := hi - lo // wraps correctly for signed ranges, since Max >= Min
	if span == ^uint64(0) {
		return r.Uint64()
	}
	return lo + r.Uint64N(span+1)
}

// fullRange returns the range of an integer of the given width, as the bits
// of its least and greatest values.
func fullRange(bits int, signed bool) (lo, hi uint64) {
	if bits <= 0 || bits > 64 {
		bits = 64
	}
	if signed {
		lo = uint64(int64(-1) << (bits - 1))
		hi = uint64(int64(1)<<(bits-1)) - 1
		return lo, hi
	}
	if bits == 64 {
		return 0, ^uint64(0)
	}
	return 0, uint64(1)<<bits - 1
}
