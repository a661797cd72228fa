// This file implements inputs and symbolic branches: thread-local actions
// that are recorded in the trace but are no scheduling points.

package engine

import (
	"strconv"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// Input asks the strategy for the value of the input described by req
// (its Name is the program's label) and records it in the trace. The
// request the strategy sees carries the input's unique variable name: the
// label for its first use in the execution, label#2, label#3, ... after.
// It returns the value and that name. Reading an input is not a
// scheduling point.
func (t *Thread) Input(req strategy.InputRequest, ranged bool) (value uint64, name string) {
	e := t.e
	if e.aborting.Load() {
		panic(unwindSignal{})
	}
	label := req.Name
	n := 1
	for i := range e.tr.Inputs {
		if e.tr.Inputs[i].Label == label {
			n++
		}
	}
	if n > 1 {
		req.Name = label + "#" + strconv.Itoa(n)
	}
	e.view.Step = len(e.tr.Events)
	v := e.strat.Input(&e.view, req)
	if req.Bits < 64 {
		v &= 1<<req.Bits - 1
	}
	e.tr.Inputs = append(e.tr.Inputs, trace.InputEvent{
		Thread: t.id, Step: int32(len(e.tr.Events)), Label: label, Name: req.Name,
		Bits: req.Bits, Signed: req.Signed, Ranged: ranged, Min: req.Min, Max: req.Max, Value: v,
	})
	e.publish()
	return v, req.Name
}

// Branch records a branch on a symbolic condition taken by t; the Thread
// and Step of b are filled in here. It is not a scheduling point.
func (t *Thread) Branch(b trace.BranchEvent) {
	e := t.e
	if e.aborting.Load() {
		panic(unwindSignal{})
	}
	b.Thread, b.Step = t.id, int32(len(e.tr.Events))
	e.tr.Branches = append(e.tr.Branches, b)
	e.publish()
}
