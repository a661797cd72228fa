// Package registry maps strategy names to constructors, for weft's
// exploration driver and its command.
//
// The strategies that need nothing beyond the standard library (exhaustive,
// random, pct, the DPOR family, flip and optimal) are registered here. The
// concolic strategies need the Z3 solver through cgo, so they are opt-in:
// package github.com/weft-go/weft/concolic registers them when it is
// imported, and until then Lookup says how to enable them:
//
//	b, err := registry.Lookup("concolic")
//	// err: strategy "concolic" is not linked in: import _ "github.com/weft-go/weft/concolic" ...
//
// Register is meant for init functions; the registry is not changed after
// program start, so lookups need no lock.
package registry
