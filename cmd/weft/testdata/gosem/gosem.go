// Package gosem holds ordinary Go tests of what weft test keeps of Go's
// semantics: ranges over maps, math/rand, the race detector on atomic
// accesses, WaitGroup misuse, and the leak rule's options.
package gosem
