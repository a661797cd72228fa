// This file tests the runtime directly, without the API: what an execution
// records, how it ends, and the cleanup of its goroutines.

package engine

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// scripted makes the choices of script in order (a thread, or -1 to cut),
// then runs the lowest enabled thread. It records every state it sees.
type scripted struct {
	script []trace.ThreadID
	step   int
	states [][]strategy.Thread
}

func (s *scripted) Next() bool { return true }

func (s *scripted) Choose(st *strategy.State) strategy.Choice {
	if st.Step != s.step {
		panic("State.Step does not count the steps")
	}
	s.states = append(s.states, append([]strategy.Thread(nil), st.Threads...))
	i := s.step
	s.step++
	if i < len(s.script) {
		if s.script[i] == trace.NoThread {
			return strategy.Cut
		}
		return strategy.Choice{Thread: s.script[i]}
	}
	for p := range st.Threads {
		if st.Enabled(trace.ThreadID(p)) {
			return strategy.Choice{Thread: trace.ThreadID(p)}
		}
	}
	panic("Choose called with no enabled thread")
}

func (s *scripted) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }
func (s *scripted) Finish(*trace.Trace, trace.End)                           {}

// run runs body once under the script and returns the end and the trace.
func run(t *testing.T, cfg Config, script []trace.ThreadID, body func()) (trace.End, *trace.Trace, *scripted) {
	t.Helper()
	s := &scripted{script: script}
	e := NewExec(cfg)
	t.Cleanup(e.Close)
	end := e.Run(s, body, false)
	if e.Abandoned() {
		t.Fatalf("the execution was abandoned: %v", end)
	}
	return end, e.Trace(), s
}

// load and store announce and perform an access to variable o.
func load(o *Obj) {
	t := Current()
	t.Begin(o, trace.ClassVar, trace.KindLoad)
	t.End(0, true)
}

func store(o *Obj, v uint64) {
	t := Current()
	t.Begin(o, trace.ClassVar, trace.KindStore)
	t.End(v, true)
}

// TestTraceRecording checks the events, threads, objects, enabled sets and
// pending operations of a small execution.
func TestTraceRecording(t *testing.T) {
	var x, y Obj
	end, tr, s := run(t, Config{}, nil, func() {
		me := Current()
		u := me.Go(func() { store(&y, 7) }) // T1 registers y at its first operation: o0
		load(&x)                            // o1
		me.Join(u)
		me.Go(func() { store(&x, 8) }) // started in the local code after step 3
	})
	if end.Status != trace.Complete {
		t.Fatalf("end %+v, want complete", end)
	}
	// Lowest enabled first: T0 loads x, T1 stores y (T0's join is blocked),
	// T0 joins, then T2 stores x.
	type ev struct {
		th    trace.ThreadID
		kind  trace.Kind
		obj   trace.ObjectID
		value uint64
		spawn int32
	}
	want := []ev{{0, trace.KindLoad, 1, 0, 0}, {1, trace.KindStore, 0, 7, 0}, {0, trace.KindJoin, trace.NoObject, 0, 1}, {2, trace.KindStore, 1, 8, 0}}
	if len(tr.Events) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(tr.Events), len(want), tr.Events)
	}
	for i, w := range want {
		e := tr.Events[i]
		got := ev{e.Thread, e.Op.Kind, e.Op.Obj, e.Value, e.Spawned}
		if got != w {
			t.Errorf("event %d: %+v, want %+v", i, got, w)
		}
		if e.Partner != trace.NoThread || e.Case != -1 {
			t.Errorf("event %d: partner %v, case %d; want none", i, e.Partner, e.Case)
		}
	}
	threads := []trace.ThreadInfo{{Parent: trace.NoThread, Step: -1}, {Parent: 0, Step: -1}, {Parent: 0, Step: 2}}
	if len(tr.Threads) != len(threads) {
		t.Fatalf("threads %+v, want %+v", tr.Threads, threads)
	}
	for i := range threads {
		if tr.Threads[i] != threads[i] {
			t.Errorf("thread %d: %+v, want %+v", i, tr.Threads[i], threads[i])
		}
	}
	// Keys are canonical (tables.go): derived from the names of their
	// first touchers, the same in another Exec (another runtime).
	objects := []trace.ObjectInfo{{Class: trace.ClassVar, Creator: 1}, {Class: trace.ClassVar, Creator: 0}}
	if len(tr.Objects) != 2 {
		t.Fatalf("objects %+v, want %+v", tr.Objects, objects)
	}
	var x2, y2 Obj
	_, tr2, _ := run(t, Config{}, nil, func() {
		me := Current()
		u := me.Go(func() { store(&y2, 7) })
		load(&x2)
		me.Join(u)
	})
	for i, o := range tr.Objects {
		if o.Key == 0 || o.Key&outsideKey != 0 || o.Key != tr2.Objects[i].Key || o.Key == tr.Objects[1-i].Key {
			t.Errorf("object %d: key %#x (other Exec: %#x, other object: %#x), want a canonical key of its own, the same in another Exec",
				i, o.Key, tr2.Objects[i].Key, tr.Objects[1-i].Key)
		}
		o.Key = 0
		if o != objects[i] {
			t.Errorf("object %d: %+v, want %+v", i, o, objects[i])
		}
	}
	enabled := [][]bool{{true, true}, {false, true}, {true, false}, {false, false, true}}
	for i, row := range enabled {
		for p, w := range row {
			if got := tr.EnabledAt(i, trace.ThreadID(p)); got != w {
				t.Errorf("EnabledAt(%d, T%d) = %v, want %v", i, p, got, w)
			}
		}
	}
	pending := []struct {
		step int
		th   trace.ThreadID
		kind trace.Kind
		ok   bool
	}{
		{0, 1, trace.KindStore, true}, {1, 0, trace.KindJoin, true}, {2, 1, trace.KindNone, true},
		{2, 2, trace.KindNone, false}, {3, 2, trace.KindStore, true}, {4, 0, trace.KindNone, true},
	}
	for _, p := range pending {
		op, ok := tr.PendingAt(p.step, p.th)
		if ok != p.ok || op.Kind != p.kind {
			t.Errorf("PendingAt(%d, %v) = %v, %v; want %v, %v", p.step, p.th, op, ok, p.kind, p.ok)
		}
	}
	if len(tr.Final) != 3 {
		t.Errorf("final ops %v, want 3, all none", tr.Final)
	}
	for i, op := range tr.Final {
		if op.Kind != trace.KindNone {
			t.Errorf("final op of T%d: %v, want none", i, op)
		}
	}
	// The strategy saw the pending operations and alternatives.
	if st := s.states[1]; st[0].Op.Kind != trace.KindJoin || st[0].Alts != 0 || st[1].Op.Kind != trace.KindStore || st[1].Alts != 1 {
		t.Errorf("state before step 2: %+v", st)
	}
	if st := s.states[3]; !st[1].Done || st[1].Alts != 0 {
		t.Errorf("state before step 4: T1 %+v, want done", st[1])
	}
}

// TestEnds checks how executions end, with their statuses, kinds, steps and
// messages.
func TestEnds(t *testing.T) {
	var a, b, x Obj
	tests := []struct {
		name   string
		cfg    Config
		script []trace.ThreadID
		body   func()
		status trace.Status
		kind   trace.FailureKind
		thread trace.ThreadID
		steps  int
		msg    []string
	}{
		{name: "complete", body: func() { store(&x, 1) }, status: trace.Complete, thread: trace.NoThread, steps: 1},
		{name: "deadlock", script: []trace.ThreadID{0, 1}, body: func() {
			me := Current()
			me.Go(func() { u := Current(); u.Lock(&b, trace.ClassMutex); u.Lock(&a, trace.ClassMutex) })
			me.Lock(&a, trace.ClassMutex)
			me.Lock(&b, trace.ClassMutex)
		}, status: trace.Failed, kind: trace.Deadlock, thread: trace.NoThread, steps: 2,
			// T1 registers b (o0) as it starts, before T0 reaches a (o1).
			msg: []string{"no thread can move", "T0 blocked on lock mutex#0", "T1 blocked on lock mutex#1"}},
		{name: "leak", body: func() {
			Current().Go(func() { u := Current(); u.Lock(&a, trace.ClassMutex); u.Lock(&a, trace.ClassMutex) })
		}, status: trace.Failed, kind: trace.Leak, thread: trace.NoThread, steps: 1,
			msg: []string{"test body returned", "T1 blocked on lock mutex#0"}},
		{name: "step bound", cfg: Config{MaxSteps: 10}, body: func() {
			for {
				load(&x)
			}
		}, status: trace.Failed, kind: trace.Livelock, thread: trace.NoThread, steps: 10, msg: []string{"step bound (10 steps)"}},
		{name: "cut", script: []trace.ThreadID{0, 0, trace.NoThread}, body: func() {
			for range 5 {
				load(&x)
			}
		}, status: trace.Cut, thread: trace.NoThread, steps: 2},
		{name: "choice of a blocked thread", script: []trace.ThreadID{0, 1}, body: func() {
			Current().Lock(&a, trace.ClassMutex)
			Current().Go(func() { Current().Lock(&a, trace.ClassMutex) })
			load(&x)
		}, status: trace.Failed, kind: trace.Internal, thread: trace.NoThread, steps: 1,
			msg: []string{"weft internal error", "T1 alternative 0 at step 1", "not enabled"}},
		{name: "choice of no thread", script: []trace.ThreadID{3}, body: func() { load(&x) },
			status: trace.Failed, kind: trace.Internal, thread: trace.NoThread, steps: 0,
			msg: []string{"weft internal error", "T3 alternative 0 at step 0"}},
		{name: "fail", body: func() { store(&x, 1); Current().Fail(trace.Assertion, "boom") },
			status: trace.Failed, kind: trace.Assertion, thread: 0, steps: 1, msg: []string{"boom"}},
		{name: "fail recovered by the program", body: func() {
			defer func() { recover() }()
			Current().Fail(trace.Assertion, "stands")
		}, status: trace.Failed, kind: trace.Assertion, thread: 0, steps: 0, msg: []string{"stands"}},
		{name: "panic", body: func() {
			Current().Go(func() { store(&x, 1); panic("oops") })
		}, status: trace.Failed, kind: trace.Panic, thread: 1, steps: 1, msg: []string{"panic: oops", "exec_test.go"}},
		{name: "go panic", body: func() { store(&x, 1); Panic(trace.CloseOfNil, "close of nil channel") },
			status: trace.Failed, kind: trace.CloseOfNil, thread: 0, steps: 1, msg: []string{"close of nil channel"}},
		{name: "goexit", body: func() { runtime.Goexit() },
			status: trace.Failed, kind: trace.Goexit, thread: 0, steps: 0, msg: []string{"runtime.Goexit"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			end, tr, _ := run(t, tc.cfg, tc.script, tc.body)
			if end.Status != tc.status || end.Kind != tc.kind || end.Thread != tc.thread {
				t.Errorf("end %v %v in %v, want %v %v in %v: %s", end.Status, end.Kind, end.Thread, tc.status, tc.kind, tc.thread, end.Message)
			}
			if len(tr.Events) != tc.steps {
				t.Errorf("%d steps, want %d", len(tr.Events), tc.steps)
			}
			for _, m := range tc.msg {
				if !strings.Contains(end.Message, m) {
					t.Errorf("message %q does not contain %q", end.Message, m)
				}
			}
		})
	}
}

// TestObjectsStartAfresh checks that an object used in several executions
// is registered again and reset in each.
func TestObjectsStartAfresh(t *testing.T) {
	var mu, x Obj
	mu.SetName("mu")
	e := NewExec(Config{})
	defer e.Close()
	body := func() {
		me := Current()
		store(&x, 1)
		me.Lock(&mu, trace.ClassMutex) // left locked: the next execution must not see it
	}
	for i := range 3 {
		end := e.Run(&scripted{}, body, false)
		if end.Status != trace.Complete {
			t.Fatalf("execution %d: %v %v: %s", i, end.Status, end.Kind, end.Message)
		}
		tr := e.Trace()
		if len(tr.Objects) != 2 || tr.Objects[1].Name != "mu" || tr.Events[1].Op.Obj != 1 {
			t.Fatalf("execution %d: objects %+v, events %+v", i, tr.Objects, tr.Events)
		}
	}
}

// TestUnwind checks that the goroutines of threads still blocked at the end
// run their deferred calls before Run returns, and exit at Close.
func TestUnwind(t *testing.T) {
	var a Obj
	before := settledGoroutines()
	deferred := 0
	e := NewExec(Config{})
	for range 100 {
		e.Run(&scripted{}, func() {
			for range 3 {
				Current().Go(func() {
					defer func() { deferred++ }()
					Current().Lock(&a, trace.ClassMutex)
					Current().Lock(&a, trace.ClassMutex) // blocks: a leak
				})
			}
		}, false)
	}
	if deferred != 300 {
		t.Errorf("%d deferred calls ran, want 300", deferred)
	}
	// The Exec keeps one coroutine per thread (the body and three) and its
	// dispatcher until Close.
	if n := runtime.NumGoroutine(); n != before+5 {
		t.Errorf("%d goroutines before, %d with the Exec open; want 4 coroutines and the dispatcher", before, n)
	}
	e.Close()
	if n := settledGoroutines(); n != before {
		t.Errorf("%d goroutines before, %d after", before, n)
	}
}

// settledGoroutines returns the number of goroutines once it has not
// changed for 50ms (at most a second): goroutines of earlier tests' Execs
// may still be on their way out after Close.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	stable := time.Now()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		if m := runtime.NumGoroutine(); m != n {
			n, stable = m, time.Now()
		} else if time.Since(stable) >= 50*time.Millisecond {
			break
		}
	}
	return n
}

// TestCurrentOutside checks that no thread is current outside an execution.
func TestCurrentOutside(t *testing.T) {
	if Current() != nil {
		t.Fatal("Current() is not nil outside an execution")
	}
}

// TestGoexitLeavesNoRunning checks that letting go of the goroutine of a
// thread that called runtime.Goexit (letGoNow), while the Exec's running
// goroutine is still that one, leaves it naming no goroutine: the Go
// runtime may give the goroutine's g to a goroutine made next, in another
// Exec that runs at the same time, which Current would then take for the
// dead thread (on two parallel workers, x/sync's TestGoexitDo ran a
// thread's operations in the other worker's Exec, in one run of eight).
func TestGoexitLeavesNoRunning(t *testing.T) {
	e := NewExec(Config{})
	t.Cleanup(e.Close)
	stopped := false
	th := &Thread{g: 0x1000, stop: func() { stopped = true }}
	e.running.Store(th.g)
	e.letGoNow(th)
	if !stopped {
		t.Fatal("letGoNow did not let the goroutine go")
	}
	if g := e.running.Load(); g == th.g {
		t.Errorf("the Exec's running goroutine is still %#x, the one let go", g)
	}
}
