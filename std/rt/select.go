// This file implements the select statement: its cases, evaluated where
// the statement starts, and Select, which chooses one.

package rt

import (
	"reflect"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Case is a communication case of a select statement.
type Case interface {
	weft() weft.SelectCase
	reflect() reflect.SelectCase
	received(v reflect.Value, ok bool)
}

// RecvCase is a receive case; V and OK hold what it received once Select
// chose it.
type RecvCase[T any] struct {
	c  Chan[T]
	V  T
	OK bool
}

// RecvCase returns a receive case on the channel.
//
//go:norace
func (c Chan[T]) RecvCase() *RecvCase[T] { return &RecvCase[T]{c: c} }

//go:norace
func (r *RecvCase[T]) weft() weft.SelectCase {
	return weft.OnRecv(r.c.weft(), func(v T, ok bool) { r.V, r.OK = v, ok })
}

//go:norace

//go:norace
func (r *RecvCase[T]) reflect() reflect.SelectCase {
	return reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(r.c.recv)}
}

//go:norace
func (r *RecvCase[T]) received(v reflect.Value, ok bool) {
	r.OK = ok
	if ok {
		// Set, not v.Interface().(T): a nil interface value received on
		// a channel of an interface type asserts to nothing.
		reflect.ValueOf(&r.V).Elem().Set(v)
	}
}

// SendCase is a send case.
type SendCase[T any] struct {
	c Chan[T]
	v T
}

// SendCase returns a case that sends v on the channel.
//
//go:norace
func (c Chan[T]) SendCase(v T) *SendCase[T] { return &SendCase[T]{c: c, v: v} }

//go:norace
func (s *SendCase[T]) weft() weft.SelectCase { return weft.OnSend(s.c.weft(), s.v, nil) }

//go:norace
func (s *SendCase[T]) reflect() reflect.SelectCase {
	return reflect.SelectCase{Dir: reflect.SelectSend, Chan: reflect.ValueOf(s.c.send), Send: reflect.ValueOf(&s.v).Elem()}
}

//go:norace
func (s *SendCase[T]) received(reflect.Value, bool) {}

// Select blocks until one of the cases can proceed (or, with a default
// case, returns at once if none can) and performs it. It returns the index
// of the chosen case among cases, or -1 for the default case.
func Select(hasDefault bool, cases ...Case) int {
	if shim.Active() {
		wc := make([]weft.SelectCase, len(cases), len(cases)+1)
		for i, c := range cases {
			wc[i] = c.weft()
		}
		if hasDefault {
			wc = append(wc, weft.OnDefault(nil))
		}
		i := weft.Select(wc...)
		if i == len(cases) {
			return -1
		}
		return i
	}
	rc := make([]reflect.SelectCase, len(cases), len(cases)+1)
	for i, c := range cases {
		rc[i] = c.reflect()
	}
	if hasDefault {
		rc = append(rc, reflect.SelectCase{Dir: reflect.SelectDefault})
	}
	i, v, ok := reflect.Select(rc)
	if i == len(cases) {
		return -1
	}
	cases[i].received(v, ok)
	return i
}
