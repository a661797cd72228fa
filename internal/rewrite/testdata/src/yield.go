package src

import (
	"math/rand"
	randv2 "math/rand/v2"
	rt "runtime"
	"sync/atomic"
)

// spin waits for ready, yielding, then draws a number.
func spin(ready *atomic.Bool) int {
	for !ready.Load() {
		rt.Gosched()
	}
	defer rt.Gosched()
	return rand.Intn(10) + randv2.N(10) + rt.NumCPU()*0
}
