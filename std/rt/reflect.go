// This file implements what package reflect reads of a channel that weft
// test models: its length.

package rt

import (
	"reflect"

	"github.com/weft-go/weft/internal/shim"
)

// lenner is a weft channel of any element type (weft.Chan), as Lookup
// makes them.
type lenner interface{ Len() int }

// ReflectLen is v.Len() (reflect.Value.Len), which the rewriting calls
// this way: for a channel that the current execution operates on, the
// number of values in its weft channel's buffer, read in a step as len of
// the channel is, rather than in the Go channel's, which weft's channel
// operations leave empty. testify's assert.Len and assert.Empty read a
// channel's length so (jellydator/ttlcache's Test_Cache_Stop found 0 for
// a buffer holding one value). A channel the execution has not operated
// on yet holds in its buffer what the Go channel holds (nothing, if the
// execution made it); its length is read without a step, the one value
// weft's model would have given then, though a send another thread makes
// later is not explored before this read.
func ReflectLen(v reflect.Value) int {
	if v.Kind() != reflect.Chan || !shim.Active() || v.IsNil() {
		return v.Len()
	}
	if o, ok := shim.Found(v.UnsafePointer()); ok {
		if c, ok := o.(lenner); ok {
			return c.Len()
		}
	}
	return v.Len()
}
