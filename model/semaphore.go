// This file models counting and binary semaphores (Lei and Carver 2006, §2.3,
// internal/engine/semaphore.go): the value, and the units a P takes, in
// the order they were made: first the initial ones, then those of the V's,
// so that a P synchronises with the V whose unit it takes.

package model

import "github.com/weft-go/weft/trace"

func init() {
	for _, c := range []trace.Class{trace.ClassSemaphore, trace.ClassBinarySemaphore} {
		v := (*Object).counterVReady
		if c == trace.ClassBinarySemaphore {
			v = (*Object).binaryVReady
		}
		register(&primitive{class: c, reset: resetSemaphore, apply: (*Object).applySemaphore, ops: []opModel{
			{kind: trace.KindP, ready: (*Object).pReady, objOutcome: (*Object).semaphoreOutcome},
			{kind: trace.KindV, ready: v, objOutcome: (*Object).semaphoreOutcome},
		}})
	}
}

// resetSemaphore gives semaphore o its initial units (ObjectInfo.Cap).
func resetSemaphore(o *Object, info *trace.ObjectInfo) { o.N, o.Init = info.Cap, info.Cap }

// pReady is the enabledness of a P of semaphore o: a unit is there.
func (o *Object) pReady(trace.Op) Verdict { return verdict(o.N > 0) }

// counterVReady is the enabledness of a V of a counting semaphore: it never
// blocks.
func (o *Object) counterVReady(trace.Op) Verdict { return Enabled }

// binaryVReady is the enabledness of a V of binary semaphore o: its value
// is 0.
func (o *Object) binaryVReady(trace.Op) Verdict { return verdict(o.N < 1) }

// applySemaphore applies event e, of index i, to semaphore o.
func (o *Object) applySemaphore(e *trace.Event, i int32) {
	switch e.Op.Kind {
	case trace.KindP:
		o.N--
		switch {
		case o.Init > 0:
			o.Init--
		case len(o.Buf) > 0:
			o.Buf = o.Buf[:copy(o.Buf, o.Buf[1:])]
		}
	case trace.KindV:
		o.N++
		o.Buf = append(o.Buf, Msg{Event: i})
	}
}

// semaphoreOutcome is the outcome of op on semaphore o: Value is the value
// after it.
func (o *Object) semaphoreOutcome(_ trace.ThreadID, op trace.Op, out Outcome) Outcome {
	switch op.Kind {
	case trace.KindP:
		out.Value = uint64(o.N - 1)
		if o.Init == 0 && len(o.Buf) > 0 {
			out.Source = o.Buf[0].Event
		}
	case trace.KindV:
		out.Value = uint64(o.N + 1)
	}
	return out
}
