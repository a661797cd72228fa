package a

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weft-go/weft"
)

func TestBad(t *testing.T) {
	go func() {}() // not in a body: not reported
	weft.Check(t, func(w *weft.T) {
		go func() {}() // want `go statement in a weft test body`
		c := make(chan int, 1)
		c <- 1        // want `send on a Go channel`
		<-c           // want `receive from a Go channel`
		for range c { // want `range over a Go channel`
		}
		close(c) // want `close of a Go channel`
		select { // want `select over Go channels`
		case v := <-c:
			_ = v
			<-c // want `receive from a Go channel`
		default:
		}
		var mu sync.Mutex // want `sync.Mutex in a weft test body`
		mu.Lock()         // want `\(\*sync.Mutex\).Lock in a weft test body`
		var n int64
		atomic.AddInt64(&n, 1)         // want `sync/atomic.AddInt64 in a weft test body`
		time.Sleep(time.Millisecond)   // want `time.Sleep in a weft test body waits on real time`
		<-time.After(time.Millisecond) // want `time.After in a weft test body` `receive from a Go channel`
		_ = time.Now()                 // not real time waiting: not reported
		_ = time.Duration(3) * time.Second
	})
}

func TestShared(t *testing.T) {
	weft.Check(t, func(w *weft.T) {
		x, y, z := 0, 0, 0
		var s struct{ f int }
		var wg weft.WaitGroup
		th := w.Go(func() {
			x = 1   // want `x is written by a thread started with Go and used outside it`
			s.f = 2 // want `s is written by a thread`
			z++     // only this thread uses z: not reported
			local := 3
			local++
			_ = local
		})
		wg.Go(func() {
			y++ // want `y is written by a thread`
		})
		weft.Go(func() {
			_ = y
		})
		th.Join()
		wg.Wait()
		_ = x + s.f
	})
}

func body(w *weft.T) {
	go func() {}() // want `go statement in a weft test body`
}

// good is a body that uses weft's own primitives only.
func good(w *weft.T) {
	v := &weft.Var[int]{}
	c := &weft.Chan[int]{}
	w.Go(func() {
		v.Store(1)
		c.Send(2)
	})
	_ = v.Load()
}
