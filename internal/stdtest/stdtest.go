// Package stdtest holds what the tests of weft's stand-in packages (std/...)
// share.
package stdtest

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/std/rt"
)

// Explore explores body with weft's defaults and opts and returns the
// result; an error fails t.
func Explore(t testing.TB, body func(), opts ...weft.Option) *weft.Result {
	t.Helper()
	r, err := weft.Explore(func(*weft.T) { body() }, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TwoExecutions races two sends of the current execution on a channel,
// one from a goroutine it starts: an exploration of a body that calls it
// once, and races nothing else, runs 2 executions.
func TwoExecutions() {
	ch := rt.MakeChan(make(chan int, 2))
	rt.Go(func() { rt.Of("", ch).Send(1) })
	rt.Of("", ch).Send(2)
}
