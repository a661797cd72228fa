// Package rand is weft's stand-in for the standard library's package
// math/rand/v2, with the same API. weft test rewrites the imports of
// "math/rand/v2" in the packages under test to this package, so that the
// random numbers a test draws are the same in every execution, and a
// failure's replay draws the ones the failing execution drew.
//
// Inside a weft execution the top-level functions draw from a generator
// that each execution starts afresh, a PCG seeded with (1 + the
// execution's seed, 2), the execution's seed being the exploration's
// (weft.WithSeed, weft test -seed; 0 by default) or, with
// weft.WithVaryingSeed (weft test -vary-seed), one of its own that a
// failure's replay token records; the threads
// of the execution share it in the order weft runs them. Outside an
// execution each function is math/rand/v2's own.
//
// ChaCha8, PCG, Rand, Source and Zipf are math/rand/v2's types (aliases),
// and New, NewChaCha8, NewPCG and NewZipf its functions: a generator the
// program makes with its own seed is as reproducible as that seed.
package rand
