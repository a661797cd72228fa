// This file turns on the engine's check of its incremental view of the
// threads for the package's own tests.

package engine

func init() { CheckView = true }
