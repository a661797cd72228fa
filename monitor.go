// This file implements monitors with condition variables under the
// signal-and-continue (SC) and signal-and-urgent-wait (SU) disciplines of
// Lei and Carver 2006, §2.4.

package weft

import (
	"fmt"

	"github.com/weft-go/weft/internal/engine"
)

// Signalling is a monitor's signalling discipline.
type Signalling uint8

const (
	// SC is signal-and-continue: the signaller stays inside the monitor;
	// the signalled thread competes with the others to re-enter it.
	SC Signalling = iota
	// SU is signal-and-urgent-wait: the signalled thread enters the monitor
	// at once; the signaller waits in the urgent queue, which has priority
	// over threads entering when the monitor is released.
	SU
)

func (s Signalling) String() string {
	if s == SU {
		return "SU"
	}
	return "SC"
}

// Monitor is a monitor (Lei and Carver 2006, §2.4): at most one thread is inside at a
// time, between Enter and Exit; threads wait inside it on its condition
// variables (Cond), which are FIFO queues. The zero value is an SC monitor;
// NewMonitor chooses the discipline. internal/engine/monitor.go states the
// model.
//
// A monitor method is written
//
//	func (b *Buffer) Put(x int) {
//		b.m.Enter()
//		defer b.m.Exit()
//		for b.full() { // SU: if b.full()
//			b.m.Cond(notFull).Wait()
//		}
//		...
//		b.m.Cond(notEmpty).Signal()
//	}
type Monitor struct {
	o  engine.Obj
	su bool
}

// NewMonitor returns a monitor with signalling discipline s.
func NewMonitor(s Signalling) *Monitor {
	m := &Monitor{su: s == SU}
	engine.Create(&m.o)
	return m
}

// Signalling returns m's discipline.
func (m *Monitor) Signalling() Signalling {
	if m.su {
		return SU
	}
	return SC
}

// Enter enters m, blocking while another thread is inside.
func (m *Monitor) Enter() { cur().MEnter(&m.o, m.su) }

// Exit leaves m. Under SU, a signaller in the urgent queue enters next.
func (m *Monitor) Exit() { cur().MExit(&m.o, m.su) }

// Cond returns m's condition variable number i (i >= 0). Conditions need no
// declaration: Cond(i) names the same queue every time.
func (m *Monitor) Cond(i int) MonitorCond {
	if i < 0 {
		panic(fmt.Sprintf("weft: Monitor.Cond(%d): negative condition number", i))
	}
	return MonitorCond{m: m, i: i}
}

// SetName names m in reports.
func (m *Monitor) SetName(name string) { m.o.SetName(name) }

// MonitorCond is a condition variable of a Monitor. Its operations must be
// called inside the monitor.
type MonitorCond struct {
	m *Monitor
	i int
}

// Wait releases the monitor and waits until signalled; it returns inside the
// monitor again. Under SC the condition may have changed since the signal,
// so check it in a loop; under SU it holds when Wait returns.
func (c MonitorCond) Wait() { cur().MWait(&c.m.o, c.m.su, c.i) }

// Signal wakes the thread that has waited longest on c, if any. Under SU the
// caller waits in the urgent queue until the monitor is released to it.
func (c MonitorCond) Signal() { cur().MSignal(&c.m.o, c.m.su, c.i) }

// SignalAll wakes every thread waiting on c (SC only).
func (c MonitorCond) SignalAll() { cur().MSignalAll(&c.m.o, c.m.su, c.i) }

// Len returns the number of threads waiting on c. It is not a step: inside
// the monitor no other thread changes the queue.
func (c MonitorCond) Len() int { return cur().MWaiters(&c.m.o, c.m.su, c.i) }

// Empty reports whether no thread waits on c.
func (c MonitorCond) Empty() bool { return c.Len() == 0 }
