package model

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestAlternatives checks the alternatives of receives and selects, in the
// runtime's order: per case, the pending senders by thread then case.
func TestAlternatives(t *testing.T) {
	c0, c1 := trace.ObjectID(0), trace.ObjectID(1)
	send := func(o trace.ObjectID) trace.Op { return trace.Op{Kind: trace.KindSend, Class: trace.ClassChan, Obj: o} }
	recv := func(o trace.ObjectID) trace.Op { return trace.Op{Kind: trace.KindRecv, Class: trace.ClassChan, Obj: o} }
	sel := func(def bool, cs ...trace.Case) trace.Op {
		op := trace.Op{Kind: trace.KindSelect, Class: trace.ClassChan, Obj: trace.NoObject, Cases: cs}
		if def {
			op.Arg = 1
		}
		return op
	}
	objs := []trace.ObjectInfo{{Class: trace.ClassChan}, {Class: trace.ClassChan, Cap: 1}}
	cases := []struct {
		name   string
		ops    []trace.Op
		closed bool // c0 is closed
		p      trace.ThreadID
		want   string
	}{
		{"two senders", []trace.Op{recv(c0), send(c0), {}, send(c0)}, false, 0, "[-1<-1/-1 -1<-3/-1]"},
		{"no sender", []trace.Op{recv(c0), send(c1)}, false, 0, "[]"},
		{"closed", []trace.Op{recv(c0), send(c0)}, true, 0, "[-1]"},
		{"select send case of a partner", []trace.Op{recv(c0), sel(false, trace.Case{Kind: trace.KindRecv, Obj: c1}, trace.Case{Kind: trace.KindSend, Obj: c0})}, false, 0, "[-1<-1/1]"},
		{"select, buffered ready, default", []trace.Op{sel(true, trace.Case{Kind: trace.KindSend, Obj: c1}, trace.Case{Kind: trace.KindRecv, Obj: c1})}, false, 0, "[0]"},
		{"select, nothing ready: default", []trace.Op{sel(true, trace.Case{Kind: trace.KindRecv, Obj: c0})}, false, 0, "[-1]"},
		{"own send case is no partner", []trace.Op{sel(false, trace.Case{Kind: trace.KindRecv, Obj: c0}, trace.Case{Kind: trace.KindSend, Obj: c0})}, false, 0, "[]"},
		{"two selects with default never meet", []trace.Op{sel(true, trace.Case{Kind: trace.KindRecv, Obj: c0}), sel(true, trace.Case{Kind: trace.KindSend, Obj: c0})}, false, 0, "[-1]"},
		{"a select with default meets a plain send", []trace.Op{sel(true, trace.Case{Kind: trace.KindRecv, Obj: c0}), send(c0)}, false, 0, "[0<-1/-1]"},
		{"nil channel", []trace.Op{recv(trace.NoObject), send(trace.NoObject)}, false, 0, "[]"},
	}
	for _, c := range cases {
		var s State
		s.Reset(objs, len(c.ops))
		s.Objects[0].Closed = c.closed
		for i, op := range c.ops {
			s.Threads[i].Op = op
		}
		var got []string
		v := s.Alternatives(c.p, c.ops[c.p], func(a Alt) bool {
			x := fmt.Sprint(a.Case)
			if a.Partner != trace.NoThread {
				x += fmt.Sprintf("<-%d/%d", a.Partner, a.PartnerCase)
			}
			got = append(got, x)
			return true
		})
		want := Enabled
		if c.want == "[]" {
			want = Disabled
		}
		if s := fmt.Sprint(got); s != c.want || v != want {
			t.Errorf("%s: alternatives %s (%v), want %s (%v)", c.name, s, v, c.want, want)
		}
	}
}

// TestPartners checks that a receive looks for senders among the threads
// of State.Partners only, when it is set, in the runtime's order.
func TestPartners(t *testing.T) {
	c0 := trace.ObjectID(0)
	send := trace.Op{Kind: trace.KindSend, Class: trace.ClassChan, Obj: c0}
	recv := trace.Op{Kind: trace.KindRecv, Class: trace.ClassChan, Obj: c0}
	for _, c := range []struct {
		partners []trace.ThreadID
		want     []trace.ThreadID
	}{
		{nil, []trace.ThreadID{1, 3, 4}},
		{[]trace.ThreadID{}, nil},
		{[]trace.ThreadID{3}, []trace.ThreadID{3}},
		{[]trace.ThreadID{0, 2, 4}, []trace.ThreadID{4}}, // the receiver, a thread without a send
		{[]trace.ThreadID{1, 4}, []trace.ThreadID{1, 4}},
	} {
		var s State
		s.Reset([]trace.ObjectInfo{{Class: trace.ClassChan}}, 5)
		for i, op := range []trace.Op{recv, send, {}, send, send} {
			s.Threads[i].Op = op
		}
		s.Partners = c.partners
		var got []trace.ThreadID
		s.Alternatives(0, recv, func(a Alt) bool { got = append(got, a.Partner); return true })
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("partners %v: the receive meets %v, want %v", c.partners, got, c.want)
		}
	}
}
