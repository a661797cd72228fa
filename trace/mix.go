// This file implements Mix, the 64-bit scrambling that weft's hashes and
// seeds share.

package trace

// Mix is SplitMix64's finaliser: a bijective scrambling of 64 bits, so that
// nearby inputs give unrelated outputs. Hashes of sets sum it over their
// members; seeds go through it.
func Mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
