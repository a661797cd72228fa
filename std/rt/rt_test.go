package rt_test

import (
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/std/rt"
)

// TestOutsideExecution checks the channel operations and Select outside an
// execution: Go's own, on the real channel.
func TestOutsideExecution(t *testing.T) {
	ch := rt.MakeChan(make(chan int, 2))
	c := rt.Of("", ch)
	c.Send(1)
	rt.OfSend("", ch).Send(2)
	if c.Len() != 2 || c.Recv() != 1 {
		t.Fatal("send or receive")
	}
	c.Close()
	if v, ok := rt.OfRecv("", ch).RecvOK(); v != 2 || !ok {
		t.Fatalf("RecvOK = %d, %v", v, ok)
	}
	for range c.Range() {
		t.Fatal("a value from a drained channel")
	}
	var nilCh chan int
	in := rt.MakeChan(make(chan string, 1))
	sc, rc, nc := rt.Of("", in).SendCase("x"), rt.Of("", in).RecvCase(), rt.Of("", nilCh).RecvCase()
	if i := rt.Select(false, nc, sc); i != 1 {
		t.Errorf("Select chose case %d, want the send (1)", i)
	}
	if i := rt.Select(true, nc, rc); i != 1 || rc.V != "x" || !rc.OK {
		t.Errorf("Select chose case %d (%q, %v), want the receive (1) of x", i, rc.V, rc.OK)
	}
	if i := rt.Select(true, nc, rc); i != -1 {
		t.Errorf("Select chose case %d, want the default (-1)", i)
	}
	done := rt.MakeChan(make(chan bool))
	rt.Go(func() { done <- true })
	<-done
}

// pkgChan is made before any execution: each execution starts it empty.
var pkgChan = make(chan int, 1)

// TestChannelPerExecution checks that a channel made outside the
// exploration is a new weft channel in each execution.
func TestChannelPerExecution(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		c := rt.Of("", pkgChan)
		rt.Go(func() { c.Send(1) })
		w.Assert(c.Len() <= 1, "len %d", c.Len())
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() || r.Executions != 3 {
		t.Errorf("%d executions, failures %+v; want 3 and none (a leftover value would block the send)", r.Executions, r.Failures)
	}
}

// TestNilChannel checks that a nil channel blocks for ever inside an
// execution, as in Go.
func TestNilChannel(t *testing.T) {
	r, err := weft.Explore(func(w *weft.T) {
		var c chan int
		rt.Of("", c).Recv()
	})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Failed() || r.Failures[0].Kind.String() != "deadlock" {
		t.Errorf("want a deadlock, got %+v", r.Failures)
	}
}

// TestSelect checks a select with a send and a receive case inside an
// execution: each case is chosen in some execution.
func TestSelect(t *testing.T) {
	seen := map[int]bool{}
	_, err := weft.Explore(func(w *weft.T) {
		a, b := rt.MakeChan(make(chan int)), rt.MakeChan(make(chan int))
		rt.Go(func() { rt.Of("", a).Send(1) })
		rt.Go(func() { rt.Of("", b).Recv() })
		ra, sb := rt.Of("", a).RecvCase(), rt.Of("", b).SendCase(2)
		i := rt.Select(false, ra, sb)
		seen[i] = true
		if i == 0 {
			w.Assert(ra.V == 1 && ra.OK, "received %d, %v", ra.V, ra.OK)
			rt.Of("", b).Send(3)
		} else {
			rt.Of("", a).Recv()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !seen[0] || !seen[1] || len(seen) != 2 {
		t.Errorf("cases chosen: %v, want 0 and 1", seen)
	}
}

// TestSelectNilInterface checks Select outside an execution on a channel
// of an interface type that carries a nil value: the case receives nil,
// as Go's select does.
func TestSelectNilInterface(t *testing.T) {
	errs := rt.MakeChan(make(chan error, 1))
	errs <- nil
	rc := rt.Of("", errs).RecvCase()
	if i := rt.Select(false, rc); i != 0 || rc.V != nil || !rc.OK {
		t.Fatalf("Select = %d, received %v, %v; want 0, nil, true", i, rc.V, rc.OK)
	}
}
