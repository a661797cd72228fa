// This file implements bluetooth, the simplified Bluetooth driver of KISS
// (Qadeer and Wu, PLDI 2004) that Farzan et al. 2013, §8 tests (Table 1, first row).

package programs

import "github.com/weft-go/weft"

func init() {
	register(&Program{
		Name: "bluetooth",
		Doc: "a driver's stopper and an I/O request share a pending-I/O count (input io), a stopping flag and event: " +
			"the request passes the flag check, the stopper stops the device, and the request then works on it (input work > 0)",
		Source: "Farzan et al. 2013, §8 and Table 1 (bluetooth, from KISS, Qadeer and Wu 2004; the paper does not print it: our port of KISS's model)",
		Body:   bluetooth,
	})
}

// bluetooth: the body sets the device extension (pendingIo = io, in [1,
// 2]; stoppingFlag, stoppingEvent and stopped false), reads work (in [0,
// 2]) and starts the stopper and one request (PnpAdd), 3 threads with the
// body and 2 inputs as in Table 1. IoIncrement fails when the device is
// stopping, else counts the request in; IoDecrement counts it out and
// signals the event at zero (both under a lock: KISS's atomic blocks).
// The stopper sets the flag, counts itself out, gives up unless the event
// is set (KISS's assume), and stops the device. The request, counted in,
// works when work > 0 and asserts the device is not stopped. The assertion
// fails when the request reads the flag before the stopper sets it and
// counts itself in after the stopper counted itself out (with io = 1):
// two interferences, pendingIo and stopped (Table 1: the bug at k = 2).
func bluetooth(Params) func(w *weft.T) {
	return func(w *weft.T) {
		pendingIo := weft.NewVar[weft.SInt]("pendingIo")
		flag, event, stopped := weft.NewVar[weft.SBool]("stoppingFlag"), weft.NewVar[weft.SBool]("stoppingEvent"), weft.NewVar[weft.SBool]("stopped")
		lk := weft.NewMutex("lk")
		zero, one := weft.Const[int64](0), weft.Const[int64](1)
		increment := func(w *weft.T) bool {
			if w.If(flag.Load()) {
				return false
			}
			lk.Lock()
			pendingIo.Store(pendingIo.Load().Add(one))
			lk.Unlock()
			return true
		}
		decrement := func(w *weft.T) {
			lk.Lock()
			p := pendingIo.Load().Sub(one)
			pendingIo.Store(p)
			lk.Unlock()
			if w.If(p.Eq(zero)) {
				event.Store(weft.Concrete(true))
			}
		}
		pendingIo.Store(w.InputRange("io", 1, 2))
		flag.Store(weft.Concrete(false))
		event.Store(weft.Concrete(false))
		stopped.Store(weft.Concrete(false))
		work := w.InputRange("work", 0, 2)
		stopper := w.Go(func() {
			flag.Store(weft.Concrete(true))
			decrement(w)
			if !w.If(event.Load()) {
				return // assume(stoppingEvent)
			}
			stopped.Store(weft.Concrete(true))
		})
		add := w.Go(func() {
			if increment(w) {
				if w.If(work.Gt(zero)) {
					w.AssertSym(stopped.Load().Not(), "the request works on a stopped device")
				}
				decrement(w)
			}
		})
		stopper.Join()
		add.Join()
	}
}
