// This file implements channels.

package weft

import (
	"iter"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/trace"
)

// Chan is a channel with Go's semantics: unbuffered channels rendezvous,
// buffered ones are FIFO queues; a receive from a closed, drained channel
// gives the zero value and ok == false; a send on or close of a closed
// channel panics; a nil *Chan blocks forever. Make one with MakeChan; the
// zero value is an unbuffered channel.
type Chan[T any] struct {
	o        engine.Obj
	capacity int
	buf      []T // ring buffer of a buffered channel
	head     int
	pend     []T      // values of pending sends, parallel to the runtime's list
	enc      encoding // bitsEncoding's, once registered
	// onRecv, if set, runs after each receive from c, in the receiving
	// thread: a ticker re-arms its timer so (ticker.go).
	onRecv func()
}

// MakeChan returns a channel with the given buffer capacity, like
// make(chan T, capacity).
//
//go:norace
func MakeChan[T any](capacity int) *Chan[T] {
	if capacity < 0 {
		panic("weft: MakeChan: negative capacity")
	}
	c := &Chan[T]{capacity: capacity}
	engine.Create(&c.o)
	return c
}

// SetName names c in reports.
//
//go:norace
func (c *Chan[T]) SetName(name string) { c.o.SetName(name) }

// register registers c on its first use in the execution.
//
//go:norace
func (c *Chan[T]) register(t *engine.Thread) *engine.Obj {
	if t.Chan(&c.o, c.capacity) {
		clear(c.buf)
		clear(c.pend)
		c.head, c.pend = 0, c.pend[:0]
		if len(c.buf) != c.capacity {
			c.buf = make([]T, c.capacity)
		}
		if c.enc == encUnset {
			c.enc = bitsEncoding[T]()
		}
	}
	return &c.o
}

// obj returns c's object, or nil for a nil channel.
//
//go:norace
func (c *Chan[T]) obj(t *engine.Thread) *engine.Obj {
	if c == nil {
		return nil
	}
	return c.register(t)
}

// Send sends v on c.
//
//go:norace
func (c *Chan[T]) Send(v T) {
	t := cur()
	o := c.obj(t)
	if t.SendsOnTimer(o) {
		timerSendPanic("send on")
	}
	if o != nil {
		c.addSend(t, o, -1, v)
	}
	if t.SendBegin(o) {
		return // a receiver took v
	}
	c.removeSend(t, o, -1)
	if o.Closed() {
		t.EndOp(encode(c.enc, v), false).Src = o.CloseSrc()
		engine.Panic(trace.SendOnClosed, "send on closed channel")
	}
	c.push(t, o, v)
	t.EndOp(encode(c.enc, v), true)
	noteValue(t, v)
}

// Recv receives a value from c.
//
//go:norace
func (c *Chan[T]) Recv() T {
	v, _ := c.RecvOK()
	return v
}

// All returns an iterator over the values received from c until it is
// closed and drained: `for v := range c.All()` is Go's `for v := range ch`.
// Each receive is a step, shown at the line of the range statement.
//
//go:norace
func (c *Chan[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		for {
			v, ok := c.RecvOK()
			if !ok || !yield(v) {
				return
			}
		}
	}
}

// RecvOK receives a value from c; ok is false if c is closed and drained.
//
//go:norace
func (c *Chan[T]) RecvOK() (v T, ok bool) {
	t := cur()
	o := c.obj(t)
	alt := t.RecvBegin(o)
	v, ok = c.recv(t, o, alt, func(v T, ok bool) *trace.Event { return t.EndOp(encode(c.enc, v), ok) })
	if c.onRecv != nil {
		c.onRecv()
	}
	return v, ok
}

// recv performs a receive from c with alternative alt; end records the
// event.
//
//go:norace
func (c *Chan[T]) recv(t *engine.Thread, o *engine.Obj, alt int32, end func(T, bool) *trace.Event) (v T, ok bool) {
	if o.Buffered() {
		if o.Len() == 0 { // closed and drained
			end(v, false).Src = o.CloseSrc()
			return v, false
		}
		v = c.buf[c.head]
		var zero T
		c.buf[c.head] = zero
		c.head = (c.head + 1) % c.capacity
		src := o.Pop()
		end(v, true).Src = src
		noteValue(t, v)
		return v, true
	}
	if o.Closed() {
		end(v, false).Src = o.CloseSrc()
		return v, false
	}
	i := t.Partner(o, alt)
	v = c.pend[i]
	c.pend = deleteAt(c.pend, i)
	t.Meet(o, i, end(v, true))
	noteValue(t, v)
	return v, true
}

// push appends v to the buffer of c, sent by the step t is about to
// record.
//
//go:norace
func (c *Chan[T]) push(t *engine.Thread, o *engine.Obj, v T) {
	c.buf[(c.head+o.Len())%c.capacity] = v
	t.Push(o)
}

// addSend records a pending send of v by t for select case cas.
//
//go:norace
func (c *Chan[T]) addSend(t *engine.Thread, o *engine.Obj, cas int32, v T) {
	i := t.AddSend(o, cas)
	c.pend = insertAt(c.pend, i, v)
}

// removeSend drops t's pending send for case cas and returns its value.
//
//go:norace
func (c *Chan[T]) removeSend(t *engine.Thread, o *engine.Obj, cas int32) {
	if i := t.RemoveSend(o, cas); i >= 0 {
		var zero T
		c.pend[i] = zero
		c.pend = deleteAt(c.pend, i)
	}
}

// Close closes c.
//
//go:norace
func (c *Chan[T]) Close() {
	t := cur()
	if c == nil {
		engine.Panic(trace.CloseOfNil, "close of nil channel")
	}
	o := c.register(t)
	if t.SendsOnTimer(o) {
		timerSendPanic("close of")
	}
	t.ChanOp(o, trace.KindClose)
	if o.Closed() {
		t.EndOp(0, false).Src = o.CloseSrc()
		engine.Panic(trace.CloseOfClosed, "close of closed channel")
	}
	t.CloseChan(o)
	t.EndOp(0, true)
}

// timerSendPanic panics for a send on or close of a timer's channel, which
// only the timer sends on (what is "send on" or "close of"): as it would
// for a closed channel, before the operation is a step.
func timerSendPanic(what string) {
	engine.Panic(trace.Panic, "weft: "+what+" a timer's channel C: only the timer sends on it (time.Timer's C is receive-only)")
}

// Len returns the number of values in c's buffer.
//
//go:norace
func (c *Chan[T]) Len() int {
	if c == nil {
		return 0
	}
	t := cur()
	o := c.register(t)
	t.ChanOp(o, trace.KindLen)
	n := o.Len()
	t.EndOp(uint64(n), true)
	return n
}

// Cap returns c's buffer capacity. It is not a visible operation: the
// capacity never changes.
//
//go:norace
func (c *Chan[T]) Cap() int {
	if c == nil {
		return 0
	}
	return c.capacity
}

// insertAt is slices.Insert of one value, and deleteAt slices.Delete of
// one, element by element: slices' own copy the elements with the
// runtime's copy, which the race detector checks even in code built
// without its instrumentation (weft test -race: internal/engine's
// racesync.go); as methods of generic types are built in the package that
// instantiates them, they are marked go:norace.
//
//go:norace
func insertAt[T any](s []T, i int, v T) []T {
	var zero T
	s = append(s, zero)
	for j := len(s) - 1; j > i; j-- {
		s[j] = s[j-1]
	}
	s[i] = v
	return s
}

//go:norace
func deleteAt[T any](s []T, i int) []T {
	for j := i; j < len(s)-1; j++ {
		s[j] = s[j+1]
	}
	var zero T
	s[len(s)-1] = zero
	return s[:len(s)-1]
}
