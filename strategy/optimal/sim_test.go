package optimal

import (
	"fmt"
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestLabels checks the alternatives of receives and selects, in the
// runtime's order: per case, the pending senders by thread then case.
func TestLabels(t *testing.T) {
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
	unbuffered := []trace.ObjectInfo{{Class: trace.ClassChan}, {Class: trace.ClassChan, Cap: 1}}
	cases := []struct {
		name string
		ops  []trace.Op
		objs []objState
		p    trace.ThreadID
		want string
	}{
		{"two senders", []trace.Op{recv(c0), send(c0), {}, send(c0)}, nil, 0, "[0.0/-1<-1.0/-1 0.0/-1<-3.0/-1]"},
		{"no sender", []trace.Op{recv(c0), send(c1)}, nil, 0, "[]"},
		{"closed", []trace.Op{recv(c0), send(c0)}, []objState{{closed: true}, {}}, 0, "[0.0/-1]"},
		{"select send case of a partner", []trace.Op{recv(c0), sel(false, trace.Case{Kind: trace.KindRecv, Obj: c1}, trace.Case{Kind: trace.KindSend, Obj: c0})}, nil, 0, "[0.0/-1<-1.0/1]"},
		{"select, buffered ready, default", []trace.Op{sel(true, trace.Case{Kind: trace.KindSend, Obj: c1}, trace.Case{Kind: trace.KindRecv, Obj: c1})}, nil, 0, "[0.0/0]"},
		{"select, nothing ready: default", []trace.Op{sel(true, trace.Case{Kind: trace.KindRecv, Obj: c0})}, nil, 0, "[0.0/-1]"},
		{"own send case is no partner", []trace.Op{sel(false, trace.Case{Kind: trace.KindRecv, Obj: c0}, trace.Case{Kind: trace.KindSend, Obj: c0})}, nil, 0, "[]"},
	}
	for _, c := range cases {
		w := &world{objs: c.objs, info: unbuffered, ops: c.ops, cnt: make([]int32, len(c.ops)), done: make([]bool, len(c.ops))}
		if w.objs == nil {
			w.objs = make([]objState, len(unbuffered))
		}
		var got []string
		w.labels(c.p, c.ops[c.p], func(l label) bool {
			s := fmt.Sprintf("%d.%d/%d", l.thread, l.step, l.cas)
			if l.partner != trace.NoThread {
				s += fmt.Sprintf("<-%d.%d/%d", l.partner, l.pstep, l.pcas)
			}
			got = append(got, s)
			return true
		})
		if s := fmt.Sprint(got); s != c.want {
			t.Errorf("%s: labels %s, want %s", c.name, s, c.want)
		}
	}
}
