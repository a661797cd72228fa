package src

import _ "unsafe"

// runtime_cheaprand is the runtime's cheap random number, reached as
// puzpuzpuz/xsync reaches it: the rewriting gives it weft's body, which
// every execution repeats, and blanks its directives in place.
//
//go:noescape
//go:linkname runtime_cheaprand runtime.cheaprand
func runtime_cheaprand() uint32

// stripe picks one of n stripes at random.
func stripe(n uint32) uint32 { return runtime_cheaprand() % n }
