package model_test

import (
	"fmt"

	"github.com/weft-go/weft/model"
	"github.com/weft-go/weft/trace"
)

// Two threads and a mutex, run forward without a program: each thread's
// next operation is given by hand, the model says what is enabled, what
// each step records and which event it synchronises with.
func Example() {
	var s model.State
	s.Reset([]trace.ObjectInfo{{Class: trace.ClassMutex}}, 2)
	lock := trace.Op{Kind: trace.KindLock, Class: trace.ClassMutex, Obj: 0}
	unlock := trace.Op{Kind: trace.KindUnlock, Class: trace.ClassMutex, Obj: 0}
	s.Threads[0].Op, s.Threads[1].Op = lock, lock
	e, _ := s.Step(0, model.Single, 0)
	fmt.Println(e.Thread, e.Op, "; T1:", s.Enabled(1, s.Threads[1].Op))
	s.Threads[0].Op = unlock
	e, _ = s.Step(0, model.Single, 0)
	fmt.Println(e.Thread, e.Op, "; T1:", s.Enabled(1, s.Threads[1].Op))
	e, out := s.Step(1, model.Single, 0)
	fmt.Println(e.Thread, e.Op, "synchronises with event", out.Source)
	s.Threads[1].Op = unlock
	s.Step(1, model.Single, 0)
	s.Threads[0].Op = unlock
	out = s.Outcome(0, s.Threads[0].Op, model.Single)
	fmt.Println("T0 unlock:", out.Fail, out.Fatal)
	// Output:
	// T0 lock o0 ; T1: disabled
	// T0 unlock o0 ; T1: enabled
	// T1 lock o0 synchronises with event 1
	// T0 unlock: unlock of unlocked mutex true
}
