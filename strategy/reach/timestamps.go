// This file implements the vector timestamps of Lei and Carver 2006, §4, as the paper
// assigns them to the events of an execution, for each construct: the
// scheme of Fidge and Mattern for asynchronous messages, the modified one
// for synchronous messages (clocks exchanged, timestamps not), and the one
// with object clocks for semaphores and monitors. The strategy orders
// events with its own clocks (seq.go), which give the same
// happened-before relation on weft's atomic steps; these are the paper's
// numbers, for reports and for the tests of Figs. 2-5.

package reach

import "github.com/weft-go/weft/trace"

// Stamp is the §4 timestamps of the events of one step: its sending event
// (a send, or a call of a semaphore operation or a monitor method) and its
// receiving event (a receive, a completion, an entry). Either is nil when
// the step has no such event in the paper's model: a send into a buffer
// is received by a later step, a monitor's Exit, Wait and Signal are not
// events, nor a Join.
type Stamp struct {
	Send, Recv []uint32
}

// Timestamps returns the §4 timestamp of every step of tr, indexed by
// ThreadID (the test body is thread 0). Buffered channels pass messages
// asynchronously, unbuffered ones synchronously; semaphores, mutexes,
// WaitGroups and monitors are synchronisation objects with clocks of
// their own. An SC monitor updates a thread's clock when it leaves a
// method and when it is signalled; an SU monitor when it leaves a method.
func Timestamps(tr *trace.Trace) []Stamp {
	n := len(tr.Threads)
	clock := make([][]uint32, n)
	for t := range clock {
		clock[t] = make([]uint32, n)
	}
	obj := make(map[trace.ObjectID][]uint32)
	objClock := func(o trace.ObjectID) []uint32 {
		c, ok := obj[o]
		if !ok {
			c = make([]uint32, n)
			obj[o] = c
		}
		return c
	}
	join := func(dst, src []uint32) {
		for i, x := range src {
			dst[i] = max(dst[i], x)
		}
	}
	tick := func(t trace.ThreadID) []uint32 {
		clock[t][t]++
		return append([]uint32(nil), clock[t]...)
	}
	out := make([]Stamp, len(tr.Events))
	spawned := 0
	for spawned < n && tr.Threads[spawned].Step < 0 {
		spawned++
	}
	for i := range tr.Events {
		e := &tr.Events[i]
		t := e.Thread
		k, o := e.Op.Kind, e.Op.Obj
		if k == trace.KindSelect && e.Case >= 0 {
			k, o = e.Op.Cases[e.Case].Kind, e.Op.Cases[e.Case].Obj
		}
		switch {
		case e.Partner != trace.NoThread: // a rendezvous: §4's synchronous scheme
			s := tick(e.Partner)
			clock[t][t]++
			join(clock[t], s)
			out[i] = Stamp{Send: s, Recv: append([]uint32(nil), clock[t]...)}
			join(clock[e.Partner], clock[t])
		case e.Op.Class == trace.ClassChan && (k == trace.KindSend || k == trace.KindClose):
			out[i].Send = tick(t)
		case e.Op.Class == trace.ClassChan && k == trace.KindRecv:
			clock[t][t]++
			if src := e.Source(); src >= 0 && out[src].Send != nil {
				join(clock[t], out[src].Send)
			}
			out[i].Recv = append([]uint32(nil), clock[t]...)
		case e.Op.Class == trace.ClassMonitor:
			out[i] = monitorStamp(e, tick, clock, objClock(o), join, tr.Objects[o].Cap == 1)
		case o != trace.NoObject && e.Op.Kind != trace.KindJoin:
			// Semaphores and the other objects: a call, its completion on
			// the object, and the thread's clock joins the object's.
			c := tick(t)
			oc := objClock(o)
			join(oc, c)
			out[i] = Stamp{Send: c, Recv: append([]uint32(nil), oc...)}
			join(clock[t], oc)
		}
		for spawned < n && int(tr.Threads[spawned].Step) == i {
			copy(clock[spawned], clock[tr.Threads[spawned].Parent])
			spawned++
		}
	}
	return out
}

// monitorStamp stamps a step on a monitor whose clock is oc: Enter and an
// SC Reenter are a call and an entry; Exit ends a method; an SC Signal
// updates the clock of the thread it wakes (e.Value).
func monitorStamp(e *trace.Event, tick func(trace.ThreadID) []uint32, clock [][]uint32, oc []uint32, join func(dst, src []uint32), su bool) Stamp {
	t := e.Thread
	switch e.Op.Kind {
	case trace.KindMEnter:
	case trace.KindMReenter:
		if su {
			return Stamp{}
		}
	case trace.KindMExit:
		join(clock[t], oc)
		return Stamp{}
	case trace.KindMSignal:
		if !su && e.OK && int(e.Value) < len(clock) {
			join(clock[e.Value], oc)
		}
		return Stamp{}
	default:
		return Stamp{}
	}
	c := tick(t)
	join(oc, c)
	return Stamp{Send: c, Recv: append([]uint32(nil), oc...)}
}
