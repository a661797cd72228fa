// This file implements the folding of the inner steps of a stand-in's call
// (a context's WithTimeout, its cancel function, the goroutine that waits
// for its deadline) into the one step the program took: a report shows
// the call, at the program's line, not the mutex and timer steps weft's
// stand-in took for it.

package explore

import (
	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/trace"
)

// foldCalls folds, in d, the steps of each call of a stand-in that runtime
// e noted (engine.Exec.StepCall) into the first of them, which shows the
// call's label, and renumbers the references to steps (a step's Sync, a
// thread's start, the race's steps, the slow step) for the steps left.
func foldCalls(e *engine.Exec, d *described) {
	at := make([]int, len(d.steps)) // the new index of each old step
	first := map[uint32]int{}       // the new index of each call's step
	out := d.steps[:0:0]
	folded := false
	for i, st := range d.steps {
		id, label := e.StepCall(i)
		if id == 0 {
			at[i] = len(out)
			out = append(out, st)
			continue
		}
		folded = true
		if j, ok := first[id]; ok {
			at[i] = j
			continue
		}
		first[id] = len(out)
		at[i] = len(out)
		st.Op, st.Object, st.Partner, st.Value, st.Sync = label, "", trace.NoThread, 0, 0
		out = append(out, st)
	}
	if !folded {
		return
	}
	renumber := func(step int) int { // from 1; 0 for none
		if step <= 0 || step > len(at) {
			return step
		}
		return at[step-1] + 1
	}
	for i := range out {
		if s := renumber(out[i].Sync); s != i+1 {
			out[i].Sync = s
		} else {
			out[i].Sync = 0 // a step of the call it synchronised with
		}
	}
	for p := range d.threads {
		d.threads[p].Step = renumber(d.threads[p].Step)
	}
	d.raceSteps = [2]int{renumber(d.raceSteps[0]), renumber(d.raceSteps[1])}
	d.slowStep = renumber(d.slowStep)
	d.steps = out
}
