// This file tests counting and binary semaphores and SU and SC monitors
// (Lei and Carver 2006, §2.3, §2.4; harness in primitives_test.go).

package weft_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

func TestSemaphoreSemantics(t *testing.T) {
	mutex1 := weft.NewSemaphore(1) // outside the body: every execution starts at 1
	dl, dls := f(trace.Deadlock, 1, 0)
	var n weft.Int[int]
	cs := func(s *weft.Semaphore) func() { return func() { s.P(); n.Add(1); s.V() } }
	// twoV runs V, V in T1 and T2 and P, P in the body.
	twoV := func(p, v func()) func(w *weft.T) {
		return func(w *weft.T) {
			w.Go(v)
			w.Go(v)
			p()
			p()
		}
	}
	bin := weft.NewBinarySemaphore(0)
	cnt := weft.NewSemaphore(0)
	runSemCases(t, []semCase{
		// P waits for the V: one order.
		{name: "p-waits", body: func(w *weft.T) {
			s := weft.NewSemaphore(0)
			w.Go(s.V)
			s.P()
		}, execs: 1, complete: 1},
		// Value 1: the critical sections P Add V of T1 and T2 do not
		// overlap: 2 orders. Value 2: they do, freely: C(6,3) = 20.
		{name: "value-1", body: spawn(cs(mutex1), cs(mutex1)), execs: 2, complete: 2},
		{name: "value-2", body: func(w *weft.T) {
			s := weft.NewSemaphore(2)
			spawn(cs(s), cs(s))(w)
		}, execs: 20, complete: 20},
		{name: "zero-p", body: func(w *weft.T) { var s weft.Semaphore; s.P() },
			execs: 1, fails: dl, steps: dls},
		// Counting: V1, V2, P, P with the P's never ahead of the V's:
		// patterns VVPP and VPVP, each with V1 or V2 first: 4.
		{name: "counting-v-v", body: twoV(cnt.P, cnt.V), execs: 4, complete: 4},
		// Binary: completions alternate, V P V P: 2 (which V is first).
		{name: "binary-alternates", body: twoV(bin.P, bin.V), execs: 2, complete: 2},
		// A binary V at 1 and P at 0 block.
		{name: "binary-v-at-1", body: func(w *weft.T) { weft.NewBinarySemaphore(1).V() },
			execs: 1, fails: dl, steps: dls},
		{name: "binary-p-at-0", body: func(w *weft.T) { var s weft.BinarySemaphore; s.P() },
			execs: 1, fails: dl, steps: dls},
	})
}

func TestMonitorSemantics(t *testing.T) {
	// signaller: T1 waits unless ready; T0 sets ready and signals; if it
	// signalled a waiter it checks that the waiter has run (true under SU,
	// false under SC, where T1 re-enters only after T0's Exit).
	signaller := func(s weft.Signalling) func(w *weft.T) {
		return func(w *weft.T) {
			m := weft.NewMonitor(s)
			c := m.Cond(0)
			var ready weft.Var[bool]
			var who weft.Var[int]
			w.Go(func() {
				m.Enter()
				if !ready.Load() {
					c.Wait()
				}
				who.Store(1)
				m.Exit()
			})
			m.Enter()
			ready.Store(true)
			had := !c.Empty()
			c.Signal()
			if had {
				v := who.Load()
				w.Assert(v == 1, "the signaller went on before the signalled thread")
			}
			m.Exit()
		}
	}
	// urgent: T1 waits unless ready; T0 signals it, flagging sig before and
	// done after the Signal; T2 must never see sig without done. Under SU
	// the signaller re-enters before any Enter (the urgent queue's
	// priority); under SC it never leaves in between.
	urgent := func(s weft.Signalling) func(w *weft.T) {
		return func(w *weft.T) {
			m := weft.NewMonitor(s)
			c := m.Cond(0)
			var ready, sig, done weft.Var[bool]
			w.Go(func() {
				m.Enter()
				for !ready.Load() {
					c.Wait()
				}
				m.Exit()
			})
			w.Go(func() {
				m.Enter()
				a, b := sig.Load(), done.Load()
				w.Assert(a == b, "entered between a Signal and the signaller's return")
				m.Exit()
			})
			m.Enter()
			ready.Store(true)
			if !c.Empty() {
				sig.Store(true)
				c.Signal()
				done.Store(true)
			}
			m.Exit()
		}
	}
	as, ass := f(trace.Assertion, 1, 7)
	pn1, pn1s := f(trace.Panic, 1, 1)
	pn2, pn2s := f(trace.Panic, 1, 2)
	dl, dls := f(trace.Deadlock, 1, 1)
	var n weft.Int[int]
	var m weft.Monitor // the zero value: SC
	cs := func() { m.Enter(); n.Add(1); m.Exit() }
	runSemCases(t, []semCase{
		// Mutual exclusion: the two sessions in either order.
		{name: "exclusion", body: spawn(cs, cs), execs: 2, complete: 2},
		// T0 enters first: T1 then finds ready (1). T1 first: it waits;
		// T0 stores, signals. SU: T1 runs at once, exits, T0 re-enters from
		// the urgent queue and finds who = 1 (1). SC: T0 goes on and
		// finds who = 0: Enter, Load, Wait (T1), Enter, Store, Signal, Load
		// (T0): an assertion after 7 steps.
		{name: "su-signaller-waits", body: signaller(weft.SU), execs: 2, complete: 2},
		{name: "sc-signaller-continues", body: signaller(weft.SC), execs: 2, complete: 1, fails: as, steps: ass},
		// Every step is inside the monitor, so an execution is its sequence
		// of sessions. T0 first: T1, T2 in 2 orders. T1 first (waits): T0
		// next (signals; SU: T1, T0, then T2) or T2 next (then T0, T1, T0):
		// 2. T2 first: T0 then T1, or T1 (waits), T0, T1, T0: 2. SU: 6.
		// Under SC, T0 keeps the monitor after its Signal and exits; T1's
		// re-entry then competes with T2's Enter in "T1, T0, then T2": 7.
		{name: "su-urgent-priority", body: urgent(weft.SU), execs: 6, complete: 6},
		{name: "sc-reentry-competes", body: urgent(weft.SC), execs: 7, complete: 7},
		// SignalAll: T1 and T2 wait unless ready; T0 sets it and signals
		// all. Sessions: T0 first, then T1, T2 in 2 orders; T1 waiting
		// before T0, then T1's re-entry and T2's Enter: 2; T2 waiting, the
		// same: 2; both waiting (2 orders), then both re-enter (2): 4. 10.
		{name: "sc-signal-all", body: func(w *weft.T) {
			var m weft.Monitor
			var ready weft.Var[bool]
			wait := func() {
				m.Enter()
				for !ready.Load() {
					m.Cond(1).Wait()
				}
				m.Exit()
			}
			w.Go(wait)
			w.Go(wait)
			m.Enter()
			ready.Store(true)
			m.Cond(1).SignalAll()
			m.Exit()
		}, execs: 10, complete: 10},
		// Signal with no waiter does nothing, and conditions are apart.
		// T0: Enter, Signal(0) (no waiter), Exit; then T0's Enter and
		// T1's compete. T0 first: T1 is not waiting, Len(0) = 0: an
		// assertion after 4 steps. T1 first: Enter, Wait(0); T0 Enter,
		// Signal(1) does not wake T1, Exit; T1 waits forever: a leak after
		// 8 steps.
		{name: "conditions-apart", body: func(w *weft.T) {
			m := weft.NewMonitor(weft.SU)
			m.Enter()
			m.Cond(0).Signal()
			w.Go(func() { m.Enter(); m.Cond(0).Wait(); m.Exit() })
			m.Exit()
			m.Enter()
			w.Assert(m.Cond(0).Len() == 1 && m.Cond(1).Empty(), "T1 is not waiting on condition 0")
			m.Cond(1).Signal()
			m.Exit()
		}, execs: 2, fails: map[trace.FailureKind]int{trace.Assertion: 1, trace.Leak: 1},
			steps: map[trace.FailureKind]int{trace.Assertion: 4, trace.Leak: 8}},
		// A one-slot bounded buffer, producer T1 putting 1, 2, consumer
		// T0 taking them; SU waits with if, SC in a loop. Executions are
		// sequences of sessions (P: producer, C: consumer).
		// SU. P puts 1 first; then P enters, waits on full, C takes 1 and
		// hands over, P puts 2, C takes 2 (1); or C takes 1, then P puts 2
		// before C enters, or C waits for it (2). C enters first and
		// waits; P puts 1 and hands over; C takes 1, P exits; then P puts 2
		// before C enters, or C waits (2). 3 + 2 = 5.
		// SC. As SU, but a signalled thread's re-entry competes with the
		// other's next Enter. P first: P waits on full, C takes 1 and
		// signals; P re-enters before C's Enter, or C enters first and
		// waits (2); or C takes 1 first (2). C first and waits, P puts 1,
		// signals and exits; C re-enters first (then 2 as before), or P
		// enters first and waits on full (then 2 as in P's case): 4 + 4 =
		// 8.
		{name: "su-bounded-buffer", body: boundedBuffer(weft.SU), execs: 5, complete: 5},
		{name: "sc-bounded-buffer", body: boundedBuffer(weft.SC), execs: 8, complete: 8},
		{name: "exit-outside", body: func(w *weft.T) { var m weft.Monitor; m.Exit() },
			execs: 1, fails: pn1, steps: pn1s},
		{name: "wait-outside", body: func(w *weft.T) { var m weft.Monitor; m.Cond(0).Wait() },
			execs: 1, fails: pn1, steps: pn1s},
		{name: "su-signal-all", body: func(w *weft.T) {
			m := weft.NewMonitor(weft.SU)
			m.Enter()
			m.Cond(0).SignalAll()
		}, execs: 1, fails: pn2, steps: pn2s},
		{name: "not-reentrant", body: func(w *weft.T) { var m weft.Monitor; m.Enter(); m.Enter() },
			execs: 1, fails: dl, steps: dls},
	})
}

// boundedBuffer is a one-slot buffer in a monitor with signalling s: T1
// puts 1 and 2, the body takes them in order.
func boundedBuffer(s weft.Signalling) func(w *weft.T) {
	return func(w *weft.T) {
		m := weft.NewMonitor(s)
		notFull, notEmpty := m.Cond(0), m.Cond(1)
		var buf []int // inside the monitor only
		await := func(c weft.MonitorCond, blocked func() bool) {
			if s == weft.SU {
				if blocked() {
					c.Wait() // SU: the condition holds on return
				}
				return
			}
			for blocked() {
				c.Wait()
			}
		}
		w.Go(func() {
			for i := 1; i <= 2; i++ {
				m.Enter()
				await(notFull, func() bool { return len(buf) == 1 })
				buf = append(buf, i)
				notEmpty.Signal()
				m.Exit()
			}
		})
		for i := 1; i <= 2; i++ {
			m.Enter()
			await(notEmpty, func() bool { return len(buf) == 0 })
			v := buf[0]
			buf = buf[1:]
			w.Assert(v == i, "took %d, want %d", v, i)
			notFull.Signal()
			m.Exit()
		}
	}
}
