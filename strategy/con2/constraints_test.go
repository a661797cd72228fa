// Tests of the symbolic trace, the forest and the constraint systems of
// Fig. 5 on a synthetic trace, without the runtime.

package con2

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/golden"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/trace"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// lockedIncrement is the trace of: T0 stores 0 in x and starts T1 and T2;
// T1 locks m, reads x (r) and stores r+1; T2 locks m after T1 unlocks it,
// reads x (T1's write: an interference) and branches on it being
// positive, in its critical section (the trace ends), or after it unlocks
// m if unlock.
func lockedIncrement(unlock bool) *trace.Trace {
	x, m := trace.ObjectID(0), trace.ObjectID(1)
	ev := func(th trace.ThreadID, k trace.Kind, c trace.Class, o trace.ObjectID) trace.Event {
		return trace.Event{Thread: th, Op: trace.Op{Kind: k, Class: c, Obj: o}, Case: -1, Partner: trace.NoThread, PartnerCase: -1, OK: true}
	}
	r2, r6 := solver.Var(trace.ReadSymbol(2), 64), solver.Var(trace.ReadSymbol(6), 64)
	tr := &trace.Trace{
		Events: []trace.Event{
			ev(0, trace.KindStore, trace.ClassVar, x),
			ev(1, trace.KindLock, trace.ClassMutex, m),
			ev(1, trace.KindLoad, trace.ClassVar, x),
			ev(1, trace.KindStore, trace.ClassVar, x),
			ev(1, trace.KindUnlock, trace.ClassMutex, m),
			ev(2, trace.KindLock, trace.ClassMutex, m),
			ev(2, trace.KindLoad, trace.ClassVar, x),
		},
		Threads: []trace.ThreadInfo{{Parent: trace.NoThread, Step: -1}, {Parent: 0, Step: 0}, {Parent: 0, Step: 0}},
		Objects: []trace.ObjectInfo{{Class: trace.ClassVar, Key: 10}, {Class: trace.ClassMutex, Key: 11}},
		Accesses: []trace.SymAccess{
			{Step: 0, Write: solver.Const(0, 64)},
			{Step: 2, Read: r2},
			{Step: 3, Write: solver.Add(r2, solver.Const(1, 64))},
			{Step: 6, Read: r6},
		},
		Branches: []trace.BranchEvent{{Thread: 2, Step: 7, Cond: solver.Sgt(r6, solver.Const(0, 64)), Taken: true}},
	}
	if unlock {
		tr.Events = append(tr.Events, ev(2, trace.KindUnlock, trace.ClassMutex, m))
		tr.Branches[0].Step = 8
	}
	return tr
}

// TestConstraintsGolden builds the forest of lockedIncrement and the
// constraint systems (DC and TC of Fig. 5) of its branch's causal
// scenario, as is and completed (§7.4), and compares them with
// testdata/constraints.golden. The read of T2 couples with T1's write
// (DC_interfere, WRC_interfere), T1's with T0's (local: inherited before
// the fork); as is, the scenario leaves T1 in its critical section, which
// T2 is in at the end: LC is false; completed, T1 runs to its unlock, and
// its block comes before T2's, which has no release (LC2). With T2's
// unlock before the branch, the two blocks exclude each other (LC1, with
// the misprint of the paper corrected). The scenario has one
// interference.
func TestConstraintsGolden(t *testing.T) {
	var out strings.Builder
	for _, unlock := range []bool{false, true} {
		fmt.Fprintf(&out, "=== T2 unlocks before its branch: %v\n", unlock)
		constraints(t, &out, lockedIncrement(unlock))
	}
	golden.Check(t, filepath.Join("testdata", "constraints.golden"), out.String(), *update)
}

// constraints writes the scenario of tr's last node, as is and
// completed, with its constraint systems.
func constraints(t *testing.T, out *strings.Builder, tr *trace.Trace) {
	if ks, err := Interferences(tr); err != nil || len(ks) != 1 || ks[0] != 1 {
		t.Fatalf("Interferences = %v, %v; want [1]", ks, err)
	}
	f := newForest()
	var names trace.ThreadNames
	var b builder
	b.reset(f, &names, tr)
	b.advance()
	if b.err != nil {
		t.Fatal(b.err)
	}
	br := b.made[len(b.made)-1]
	s := New(Options{K: 1}, nil)
	s.f = f
	c := &isc{kind: iscBranch, sink: br, target: f.nodes[br].thread, tips: []int32{br}}
	done := s.complete(c)
	if len(done) != 1 {
		t.Fatalf("%d completions, want 1", len(done))
	}
	for _, sc := range []struct {
		name string
		tips []int32
	}{{"causal scenario", c.tips}, {"completed", done[0].tips}} {
		nodes := f.closure(sc.tips...)
		chains, ok := f.chains(nodes)
		if !ok {
			t.Fatalf("%s: no scenario", sc.name)
		}
		fmt.Fprintf(out, "%s, nodes (degree %d):\n", sc.name, f.degreeOf(nodes))
		for _, n := range nodes {
			fmt.Fprintf(out, "  %s\n", f.String(n))
		}
		for _, sys := range []struct {
			name string
			s    *system
		}{
			{"DC", f.data(nodes, map[string]solver.Expr{})},
			{"TC", f.time(nodes, chains)},
		} {
			fmt.Fprintf(out, "%s:\n", sys.name)
			for i, c := range sys.s.cs {
				fmt.Fprintf(out, "  %-12s %v\n", partNames[sys.s.part[i]], c)
			}
		}
	}
}

var partNames = [...]string{
	dcRange: "range", dcBranch: "DC_branch", dcInterfere: "DC_interfere", dcLocal: "DC_local",
	tcOrder: "PO", tcFork: "FC", tcJoin: "join", tcLock: "LC", tcInterfere: "WRC_interf", tcLocal: "WRC_local",
}
