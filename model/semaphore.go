// This file models counting and binary semaphores (Lei and Carver 2006, §2.3,
// internal/engine/semaphore.go): the value, and the units a P takes, in
// the order they were made: first the initial ones, then those of the V's,
// so that a P synchronises with the V whose unit it takes.

package model

import "github.com/weft-go/weft/trace"

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
func (o *Object) semaphoreOutcome(op trace.Op, out *Outcome) {
	switch op.Kind {
	case trace.KindP:
		out.Value = uint64(o.N - 1)
		if o.Init == 0 && len(o.Buf) > 0 {
			out.Source = o.Buf[0].Event
		}
	case trace.KindV:
		out.Value = uint64(o.N + 1)
	}
}
