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
	return rand.Intn(10) + randv2.N(10) + rt.NumCPU()*0 + rt.NumGoroutine()*0
}

// counter is a word and a plain field.
type counter struct {
	n     int32
	plain int
	next  atomic.Pointer[counter]
}

// waits are busy-wait loops: the first three are awaits, the others not.
func waits(c *counter, max int32, done *atomic.Bool) {
	for atomic.LoadInt32(&c.n) < max-1 {
	}
	for c.next.Load() == nil {
		rt.Gosched()
	}
	for !done.Load() && atomic.LoadInt32(&c.n) != 0 {
		rt.Gosched()
	}
	for c.plain < 3 { // reads a plain field
		rt.Gosched()
	}
	for !atomic.CompareAndSwapInt32(&c.n, 0, 1) { // writes
		rt.Gosched()
	}
	for !done.Load() { // does more than yield
		c.plain++
	}
	for i := 0; atomic.LoadInt32(&c.n) == 0; i++ {
	}
}

// spinLock is a word of its own type.
type spinLock uint32

// lock takes l, backing off: it stays a loop; so does wait's, whose
// back-off only yields, an await.
func (l *spinLock) lock() {
	backoff := 1
	for !atomic.CompareAndSwapUint32((*uint32)(l), 0, 1) {
		for i := 0; i < backoff; i++ {
			rt.Gosched()
		}
		if backoff < 16 {
			backoff <<= 1
		}
	}
}

// wait waits for l to be free, backing off.
func (l *spinLock) wait() {
	backoff := 1
	for atomic.LoadUint32((*uint32)(l)) != 0 {
		for i := 0; i < backoff; i++ {
			rt.Gosched()
		}
		if backoff < 16 {
			backoff <<= 1
		}
	}
}

// casLoops are compare-and-swap loops, which stay loops, and a loop
// whose body changes what its condition reads.
func casLoops(c *counter, done *atomic.Bool, next *counter) {
	for !done.CompareAndSwap(false, true) {
	}
	for !c.next.CompareAndSwap(nil, next) {
		rt.Gosched()
	}
	for !c.next.CompareAndSwap(c.next.Load(), next) { // loads in its argument
	}
	n := 0
	for n < 3 && !done.Load() { // reads what its body changes
		n++
	}
}
