// Package rand is weft's stand-in for the standard library's package
// math/rand, with the same API. weft test rewrites the imports of
// "math/rand" in the packages under test to this package, so that the
// random numbers a test draws are the same in every execution, and a
// failure's replay draws the ones the failing execution drew.
//
// Inside a weft execution the top-level functions draw from a generator
// that each execution starts afresh, seeded with 1 (the sequence math/rand
// gave before Go 1.20 when nothing called Seed) plus the execution's seed:
// the exploration's (weft.WithSeed, weft test -seed; 0 by default), or one
// of each execution's own with weft.WithVaryingSeed (weft test -vary-seed),
// which a failure's replay token records. The threads of the
// execution share it, as goroutines share math/rand's, in the order weft
// runs them. Seed is math/rand.Seed, which does nothing since Go 1.24; it
// never changes the execution's generator.
// Outside an execution each function is math/rand's own.
//
// Rand, Source, Source64 and Zipf are math/rand's types (aliases), and New,
// NewSource and NewZipf its functions: a generator the program makes with
// its own seed is as reproducible as that seed.
package rand
