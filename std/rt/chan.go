// This file implements the channel operations: a handle on a Go channel
// that performs each operation on the channel's weft.Chan inside an
// execution and on the channel itself outside one.

package rt

import (
	"iter"
	"unsafe"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Chan is a handle on a Go channel of element type T, whatever its
// direction: send is the channel if it may be sent on, recv if it may be
// received from.
type Chan[T any] struct {
	send chan<- T
	recv <-chan T
	p    unsafe.Pointer // the channel's pointer, nil for a nil channel
	cap  int
	name string // the channel's name in reports, if the execution makes its weft channel
}

// Of returns the handle of the bidirectional channel c. Name, the
// expression the rewriting found the channel operation on ("s.jobs"), or
// "", names the channel in reports if this operation is its first in the
// execution: a static string, set once per channel and execution.
//
//go:norace
func Of[T any](name string, c chan T) Chan[T] {
	return Chan[T]{send: c, recv: c, p: shim.ChanPointer(c), cap: cap(c), name: name}
}

// OfSend returns the handle of the send-only channel c, named as by Of.
//
//go:norace
func OfSend[T any](name string, c chan<- T) Chan[T] {
	return Chan[T]{send: c, p: shim.ChanPointer(c), cap: cap(c), name: name}
}

// OfRecv returns the handle of the receive-only channel c, named as by Of.
//
//go:norace
func OfRecv[T any](name string, c <-chan T) Chan[T] {
	return Chan[T]{recv: c, p: shim.ChanPointer(c), cap: cap(c), name: name}
}

// weft returns the weft channel of c in the current execution: nil for a
// nil channel.
//
//go:norace
func (c Chan[T]) weft() *weft.Chan[T] {
	if c.p == nil {
		return nil
	}
	return shim.Lookup(c.p, func() *weft.Chan[T] {
		shim.MakingOutside(c.p)
		ch := weft.MakeChan[T](c.cap)
		if c.name != "" {
			ch.SetName(c.name)
		}
		return ch
	})
}

// Send sends v on the channel.
//
//go:norace
func (c Chan[T]) Send(v T) {
	if shim.Active() {
		c.weft().Send(v)
		return
	}
	c.send <- v
}

// Recv receives a value from the channel.
//
//go:norace
func (c Chan[T]) Recv() T {
	if shim.Active() {
		return c.weft().Recv()
	}
	return <-c.recv
}

// RecvOK receives a value from the channel and reports whether it was sent
// (false: the channel is closed and drained).
//
//go:norace
func (c Chan[T]) RecvOK() (T, bool) {
	if shim.Active() {
		return c.weft().RecvOK()
	}
	v, ok := <-c.recv
	return v, ok
}

// Close closes the channel.
//
//go:norace
func (c Chan[T]) Close() {
	if shim.Active() {
		c.weft().Close()
		return
	}
	close(c.send)
}

// Len returns the number of values buffered in the channel.
//
//go:norace
func (c Chan[T]) Len() int {
	if shim.Active() {
		return c.weft().Len()
	}
	if c.recv != nil {
		return len(c.recv)
	}
	return len(c.send)
}

// Range returns the values received from the channel until it is closed,
// for a range statement.
//
//go:norace
func (c Chan[T]) Range() iter.Seq[T] {
	return func(yield func(T) bool) {
		for {
			v, ok := c.RecvOK()
			if !ok || !yield(v) {
				return
			}
		}
	}
}

// Loop returns c and the zero value of T: the first values of the
// variables of the for loop that a range over the channel becomes in a
// file whose Go version is older than go1.23, which has no range over a
// function:
//
//	for weftR_, v := rt.Of("ch", ch).Loop(); ; { weftV_, weftOK_ := weftR_.RecvOK(); if !weftOK_ { break }; v = weftV_; ... }
//
// The loop's variable is a variable of the for clause, so that it is one
// for the whole loop before go1.22 and one per iteration from go1.22 on,
// as a range's is.
//
//go:norace
func (c Chan[T]) Loop() (Chan[T], T) {
	var zero T
	return c, zero
}

// MakeChan returns c, a channel that a make of the program's just made:
// the rewriting wraps each make of a channel (weftrt.MakeChan(make(chan
// int, 1))), so that inside an execution a channel the execution made is
// told from one made before it began (by a package-level variable's
// initialisation, TestMain, an earlier execution), which a goroutine left
// blocked on is reported as blocked outside weft.
//
//go:norace
func MakeChan[C any](c C) C {
	if shim.Active() {
		if p := shim.ChanPointer(c); p != nil {
			shim.MadeInside(p)
		}
	}
	return c
}

// Made returns c, a channel that origin, a function of a package weft test
// does not rewrite (the standard library's, or one kept real with -real),
// made: the rewriting wraps such a call (weftrt.Made("example.com/pool.Results",
// pool.Results())), so that a goroutine left blocked on the channel is
// reported as blocked outside weft, naming origin.
//
//go:norace
func Made[C any](origin string, c C) C {
	if shim.Active() {
		if p := shim.ChanPointer(c); p != nil {
			shim.MadeOutside(p, origin)
		}
	}
	return c
}
