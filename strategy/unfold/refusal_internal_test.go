// Tests of the refusal of the operations unfold does not model.

package unfold

import (
	"errors"
	"strings"
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestRefusal: an operation unfold does not model is refused with an
// error that names the primitive and strategies that model it, wrapping
// ErrUnmodelled; a select with a default and a receive case on an
// unbuffered channel is modelled (offer.go), a select on an object that is
// no channel is not.
func TestRefusal(t *testing.T) {
	objs := []trace.ObjectInfo{{Class: trace.ClassChan}, {Class: trace.ClassMutex}}
	s := New(Options{})
	for _, c := range []struct {
		op   trace.Op
		what string // "" if modelled
	}{
		{trace.Op{Kind: trace.KindSelect, Arg: 1, Cases: []trace.Case{{Kind: trace.KindRecv, Obj: 0}}}, ""},
		{trace.Op{Kind: trace.KindSelect, Arg: 1, Cases: []trace.Case{{Kind: trace.KindSend, Obj: 0}, {Kind: trace.KindRecv, Obj: -1}}}, ""},
		{trace.Op{Kind: trace.KindSelect, Cases: []trace.Case{{Kind: trace.KindRecv, Obj: 1}}}, "selects on mutex channels"},
		{trace.Op{Kind: trace.KindLoad, Class: trace.ClassMutex, Obj: 1}, "mutex load"},
		{trace.Op{Kind: trace.KindAwait, Cases: []trace.Case{{Kind: trace.KindLoad, Obj: 1}}}, "awaits on objects other than variables"},
	} {
		err := s.refusal(c.op, objs)
		switch {
		case c.what == "" && err != nil:
			t.Errorf("%v: refused (%v), want modelled", c.op, err)
		case c.what != "" && (!errors.Is(err, ErrUnmodelled) || !strings.Contains(err.Error(), "unfold does not model "+c.what) || !strings.Contains(err.Error(), "use optimal")):
			t.Errorf("%v: error %v, want the refusal of %s", c.op, err, c.what)
		}
	}
}
