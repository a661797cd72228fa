package atomic_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/std/sync/atomic"
)

// TestOutsideExecution checks the functions and types outside an
// execution: the standard library's.
func TestOutsideExecution(t *testing.T) {
	var n int64
	if atomic.AddInt64(&n, 2) != 2 || !atomic.CompareAndSwapInt64(&n, 2, 5) || atomic.SwapInt64(&n, 7) != 5 || atomic.LoadInt64(&n) != 7 {
		t.Errorf("int64 functions: n = %d", n)
	}
	var u atomic.Uint32
	u.Store(6)
	if u.And(3) != 6 || u.Or(8) != 2 || u.Load() != 10 {
		t.Errorf("Uint32 = %d, want 10", u.Load())
	}
	var b atomic.Bool
	if b.Swap(true) || !b.Load() {
		t.Error("Bool")
	}
	x := 3
	var p atomic.Pointer[int]
	p.Store(&x)
	var v atomic.Value
	v.Store("s")
	if *p.Load() != 3 || v.Load() != "s" {
		t.Error("Pointer or Value")
	}
}

// counter is two threads incrementing a counter: with load and store (a
// lost update) or with add.
func counter(add bool) func(w *weft.T) {
	return func(w *weft.T) {
		var n atomic.Int64
		th := [2]*weft.Thread{}
		for i := range th {
			th[i] = weft.Go(func() {
				if add {
					n.Add(1)
				} else {
					n.Store(n.Load() + 1)
				}
			})
		}
		th[0].Join()
		th[1].Join()
		w.Assert(n.Load() == 2, "n = %d", n.Load())
	}
}

// TestInsideExecution checks that each atomic access is a step: the lost
// update is found, and the addition explores as weft.Int's does.
func TestInsideExecution(t *testing.T) {
	r, err := weft.Explore(counter(false))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Failed() || r.Failures[0].Kind.String() != "assertion" {
		t.Errorf("load and store: want the lost update, got %+v", r.Failures)
	}
	r, err = weft.Explore(counter(true))
	if err != nil {
		t.Fatal(err)
	}
	own, err := weft.Explore(func(w *weft.T) {
		var n weft.Int[int64]
		a, b := weft.Go(func() { n.Add(1) }), weft.Go(func() { n.Add(1) })
		a.Join()
		b.Join()
		w.Assert(n.Load() == 2, "n = %d", n.Load())
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() || r.Executions != own.Executions || r.Executions != 2 {
		t.Errorf("add: %d executions (failed %v), weft.Int: %d; want 2 each", r.Executions, r.Failed(), own.Executions)
	}
}

// TestInitialValue checks that a word's value from before its first
// atomic access in an execution is the one its weft variable starts from.
func TestInitialValue(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		n := int32(5)
		ok := atomic.CompareAndSwapInt32(&n, 5, 6)
		w.Assert(ok && atomic.LoadInt32(&n) == 6, "n = %d", n)
	})
	if err != nil || r.Failed() {
		t.Fatalf("err %v, failures %+v", err, r.Failures)
	}
}

// words are atomic words that outlive the executions that use them, as a
// package-level variable's.
var words struct {
	state int32
	flag  atomic.Bool
	last  atomic.Pointer[int]
	val   atomic.Value
}

// TestRestore checks that every execution finds the words as they were
// before the exploration, though each changes them, and that after it they
// hold what its last execution left.
func TestRestore(t *testing.T) {
	one, two := 1, 2
	words.state = 7
	words.val.Store("before")
	r, err := weft.Explore(func(w *weft.T) {
		w.Assert(atomic.CompareAndSwapInt32(&words.state, 7, 8), "state = %d", words.state)
		w.Assert(!words.flag.Swap(true), "flag set")
		w.Assert(words.last.Load() == nil, "last set")
		w.Assert(words.val.Swap("after") == "before", "val changed")
		a := weft.Go(func() { words.last.Store(&one) })
		b := weft.Go(func() { words.last.Store(&two) })
		a.Join()
		b.Join()
	})
	if err != nil || r.Failed() || r.Executions != 2 {
		t.Fatalf("err %v, %d executions, failures %+v; want 2 executions, none failing", err, r.Executions, r.Failures)
	}
	if words.state != 8 || !words.flag.Load() || words.last.Load() == nil || words.val.Load() != "after" {
		t.Errorf("after the exploration: state %d, flag %v, last %v, val %v; want 8, true, a pointer, after",
			words.state, words.flag.Load(), words.last.Load(), words.val.Load())
	}
}
