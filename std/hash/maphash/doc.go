// Package maphash is weft's stand-in for the standard library's package
// hash/maphash, with the same API. weft test rewrites the imports of
// "hash/maphash" in the packages under test to this package, so that the
// seeds a test's hashes use are the same in every execution, as its map
// orders and random numbers are.
//
// Go's MakeSeed, and a Hash used without SetSeed, draw a random seed, so
// that where a value hashes (the bucket of a concurrent map, the stripe
// of a counter) differs from one run to the next; under weft, from one
// execution to the next, which then touch other objects under the same
// schedule, and weft's determinism check reported the test as not
// deterministic (puzpuzpuz/xsync's Map, whose tables take a seed from
// MakeSeed). Inside a weft execution MakeSeed returns the n-th seed of a
// sequence drawn from the execution's seed (weft.WithSeed, weft test
// -seed; weft.WithVaryingSeed gives each execution its own), the same in
// every execution and replay with that seed; a Hash used without SetSeed
// takes the next one on its first use. Any seed is one Go may draw.
// Outside an execution each function is hash/maphash's own.
//
// Seed is hash/maphash's type (an alias); Bytes, String, Comparable and
// WriteComparable are its functions (WriteComparable for this package's
// Hash). Hash is this package's: hash/maphash's Hash, seeded as above.
package maphash
