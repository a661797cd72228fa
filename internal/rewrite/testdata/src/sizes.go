package src

import (
	"sync/atomic"
	"unsafe"
)

// counterLine pads an atomic counter to a cache line: the file's one use
// of unsafe is the size weft test keeps, which leaves the import used.
type counterLine struct {
	n atomic.Int64
	_ [cacheLine - unsafe.Sizeof(atomic.Int64{})]byte
}

// lineBytes is the size of a counterLine in memory, under weft test
// weft's: an expression of the package's own code keeps its size.
func lineBytes() uintptr { return unsafe.Sizeof(counterLine{}) }
