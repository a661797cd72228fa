// This file implements the calls of weft's stand-ins whose several steps a
// report shows as one: a context's WithTimeout locks the parent's mutex,
// arms a timer and unlocks, but the program made one call.

package engine

// callNote is the call of a stand-in a step belongs to: a number unique in
// its execution, and the label a report shows for the call.
type callNote struct {
	id    uint32
	label string
}

// BeginCall marks the steps the running thread takes, until the matching
// EndCall, as the inner steps of one call of a stand-in, which a report
// shows as one step labelled label ("context.WithTimeout"). Calls nest: the
// steps of an inner call belong to the outermost. Outside an execution it
// does nothing.
func BeginCall(label string) {
	t := Current()
	if t == nil {
		return
	}
	if t.callDepth == 0 {
		t.e.callSeq++
		t.callID, t.callLabel = t.e.callSeq, label
	}
	t.callDepth++
}

// EndCall ends the call BeginCall began.
func EndCall() {
	t := Current()
	if t == nil || t.callDepth == 0 {
		return
	}
	t.callDepth--
}

// noteCall notes, when sources are captured, the call of a stand-in that
// t's step k belongs to.
func (t *Thread) noteCall(k int) {
	e := t.e
	for len(e.calls) <= k {
		e.calls = append(e.calls, callNote{})
	}
	e.calls[k] = callNote{id: t.callID, label: t.callLabel}
}

// StepCall returns the call of a stand-in that step k of the last
// execution belongs to, when it captured sources: a number that the
// call's steps share and no other call's, and its label; id is 0 for a
// step of the program's own.
func (e *Exec) StepCall(k int) (id uint32, label string) {
	if k < 0 || k >= len(e.calls) {
		return 0, ""
	}
	return e.calls[k].id, e.calls[k].label
}

// PendingCall returns the label of the call of a stand-in in which thread
// p of the last execution was at its end, or "".
func (e *Exec) PendingCall(p int) string {
	if p < 0 || p >= len(e.threads) || e.threads[p].callDepth == 0 {
		return ""
	}
	return e.threads[p].callLabel
}
