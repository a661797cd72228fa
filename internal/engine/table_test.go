// This file checks that the runtime's table of enabledness has an entry for
// every operation that may block, as the model states them.

package engine

import (
	"testing"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// TestAltsTableComplete checks that an operation has its enabledness in
// the runtime's table (enabledWhen, in its primitive's file) exactly when
// the model says it may block (model.MayBlock), for every class and kind
// of trace's synchronisation table: a blocking operation added to the
// model and not to the runtime fails here.
func TestAltsTableComplete(t *testing.T) {
	n := 0
	for c := range trace.NumClasses {
		for k := range trace.NumKinds {
			cl, kd := trace.Class(c), trace.Kind(k)
			if _, ok := trace.SyncOf(cl, kd, 0); !ok {
				if altsTable[c][k] != nil {
					t.Errorf("%v %v: enabledness in the runtime's table, but no such operation in trace's", cl, kd)
				}
				continue
			}
			inRuntime, inModel := altsTable[c][k] != nil, model.MayBlock(trace.Op{Kind: kd, Class: cl})
			if inRuntime != inModel {
				t.Errorf("%v %v: enabledness in the runtime's table %t, may block in the model %t", cl, kd, inRuntime, inModel)
			}
			if inRuntime {
				n++
			}
		}
	}
	if n != 22 {
		t.Errorf("%d operations may block, want 22", n)
	}
}
