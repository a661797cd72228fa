// This file implements inputs and symbolic branches: thread-local actions
// that are recorded in the trace but are no scheduling points.

package engine

import (
	"runtime"
	"strconv"
	"strings"

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
	req.Thread = t.id
	var v uint64
	if RaceHide {
		// The strategy's state, on the dispatcher (racesync.go).
		e.hidden(func() { v = e.strat.Input(&e.view, req) })
	} else {
		v = e.strat.Input(&e.view, req)
	}
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
	b.Thread, b.Step, b.InAwait = t.id, int32(len(e.tr.Events)), t.inAwait
	b.PC = e.branchPC()
	e.tr.Branches = append(e.tr.Branches, b)
	e.publish()
}

// branchFrames is the number of return addresses that name a branch's
// call site in Exec.branchPCs: the program's frame is among the first
// few above Branch (w.If; a Sym operator and its check), and the same
// addresses always symbolise to the same frames.
const branchFrames = 4

// branchPC returns the return address of the program's frame that called
// weft to branch: the first frame outside weft's own packages and its API
// package (the operators of Sym check their operands from package weft's
// generic functions, which callerPC would take for the program's).
func (e *Exec) branchPC() uintptr {
	var key [branchFrames]uintptr
	runtime.Callers(3, key[:]) // above runtime.Callers, branchPC and Branch
	// In weft test -race's builds the threads share no map (racesync.go):
	// no cache.
	if pc, ok := e.branchPCs[key]; ok && !RaceHide {
		return pc
	}
	var pcs [16]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	var pc uintptr
	for {
		f, more := frames.Next()
		if !isWeftFrame(f.Function) && !strings.HasPrefix(f.Function, "github.com/weft-go/weft.") {
			pc = f.PC + 1
			break
		}
		if !more {
			break
		}
	}
	if RaceHide {
		return pc
	}
	if e.branchPCs == nil {
		e.branchPCs = make(map[[branchFrames]uintptr]uintptr)
	}
	e.branchPCs[key] = pc
	return pc
}

// Symbolic reports whether the execution records a symbolic trace: the
// strategy asked for one (strategy.SymbolicTracer).
func (t *Thread) Symbolic() bool { return t.e.symbolic }

// LastStep returns the index of the last step recorded: the step of an
// access the thread just ended.
func (t *Thread) LastStep() int { return len(t.e.tr.Events) - 1 }

// NoteAccess records the symbolic side of the access the thread just
// ended (its Step is filled in here), in a symbolic trace.
func (t *Thread) NoteAccess(a trace.SymAccess) {
	e := t.e
	a.Step = int32(len(e.tr.Events) - 1)
	e.tr.Accesses = append(e.tr.Accesses, a)
}

// HasInputs reports whether the execution has read an input: only then
// may a value carry an expression over inputs.
func (t *Thread) HasInputs() bool { return len(t.e.tr.Inputs) > 0 }

// NoteSymbolicWrite marks the write the thread just ended as one of a
// value whose expression depends on inputs (trace.Event.SymValue).
func (t *Thread) NoteSymbolicWrite() {
	evs := t.e.tr.Events
	evs[len(evs)-1].SymValue = true
}
