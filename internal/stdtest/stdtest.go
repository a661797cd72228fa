// Package stdtest holds what the tests of weft's stand-in packages (std/...)
// share.
package stdtest

import (
	"testing"

	"github.com/weft-go/weft"
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
