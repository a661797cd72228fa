// This file implements the dispatcher: the goroutine that runs the threads
// of an Exec, each a coroutine (iter.Pull), one at a time.
//
// A hand-off between two threads is two coroutine switches, through the
// dispatcher: the running thread yields the thread to run next, and the
// dispatcher resumes it. Unlike a hand-off over channels between goroutines,
// it involves neither the scheduler's run queues nor waking another
// processor. When the execution ends (a thread yields none), the dispatcher
// unwinds the threads that have not returned and tells the driver
// (Exec.Run): two wake-ups between goroutines per execution. The driver
// stays on its own goroutine, where the watchdog runs: a thread that blocks
// outside weft's control blocks the dispatcher, not the driver.
//
// A thread that calls runtime.Goexit ends its coroutine, and iter.Pull
// passes the Goexit on to the dispatcher, which then starts its successor
// before it ends.

package engine

import "iter"

// startDispatcher starts the dispatcher, once per Exec.
func (e *Exec) startDispatcher() {
	if e.cmds == nil {
		e.cmds = make(chan *Thread)
		e.acks = make(chan struct{}, 1)
		go e.dispatcher()
	}
}

// dispatcher runs the executions the driver starts until Close, then stops
// every coroutine of the pool.
func (e *Exec) dispatcher() {
	normal := false
	defer func() {
		if !normal {
			// A thread called runtime.Goexit, which iter.Pull passed on:
			// a successor takes over, and ends the execution.
			go e.dispatcher()
		}
	}()
	if e.running {
		e.endRun()
	}
	for t := range e.cmds {
		e.running = true
		for t != nil {
			next, ok := t.resume()
			if !ok {
				break
			}
			t = next
		}
		e.endRun()
	}
	// No coroutine runs now: even one that blocked outside weft's control
	// (an abandoned Exec) has come back, since the dispatcher is here.
	for _, t := range e.pool {
		if !t.dead {
			t.stop()
		}
	}
	normal = true
	select {
	case e.acks <- struct{}{}: // Close waits for it, unless the Exec was abandoned
	default:
	}
}

// endRun unwinds the threads of the execution that ended which have not
// returned (from e.unwindAt on, should a Goexit have interrupted it), then
// tells the driver.
func (e *Exec) endRun() {
	for {
		i := int(e.unwindAt.Load())
		if i >= len(e.threads) {
			break
		}
		e.unwindAt.Store(int32(i + 1))
		t := e.threads[i]
		if t.exiting || t.dead {
			continue
		}
		// It is parked in weft (handTo or park): resumed, it unwinds
		// (e.aborting) and yields nothing.
		e.progress.Add(1)
		t.resume()
	}
	e.running = false
	e.done <- struct{}{}
}

// newCoroutine gives thread t its coroutine.
func (e *Exec) newCoroutine(t *Thread) {
	t.resume, t.stop = iter.Pull(e.coroutine(t))
}
