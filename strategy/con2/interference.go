// This file defines the interferences of an execution, by which con2
// bounds its search and the tests compare it with brute force.

package con2

import "github.com/weft-go/weft/trace"

// Interferences returns, for each symbolic branch of tr (in the order of
// tr.Branches), the number of interferences in its causal past: the degree
// of its causal interference scenario in IS(π) (Farzan et al. 2013, Def. 5.1, 5.3).
//
// Precisely: a read of a shared variable is interfered when the last
// write to the variable before it in the trace is not the write it reads
// locally, which is the last write to the variable before it in its own
// thread or, before the thread started, in the thread that started it
// (and so on up the spawns: a thread inherits what its parent wrote
// before the fork; the paper's initial values). The causal past of an
// action holds the actions before it in its thread, the thread's fork and
// the causal past of the fork, for a join the joined thread's actions,
// and for an interfered read the write it reads and that write's causal
// past. Lock order is no causal edge (the paper's forest has none). A
// step of another primitive is interfered when the step it synchronises
// with is another thread's, and that step's causal past is in its own
// (doc.go, "Other primitives").
//
// A busy wait's reads and the operations on time that moves at any step
// are reads and writes of variables (doc.go, "Busy waits", "Time at any
// step"). A branch of the condition of a w.Await (trace.BranchEvent.
// InAwait) is no action of its thread: its entry is -1. A trace with an
// operation con2 does not model has no interferences so defined: the
// error wraps ErrUnsupported. tr need not be a symbolic trace.
func Interferences(tr *trace.Trace) ([]int, error) {
	f := newForest()
	var names trace.ThreadNames
	var b builder
	b.reset(f, &names, tr)
	b.advance()
	if b.err != nil {
		return nil, b.err
	}
	out := make([]int, 0, len(tr.Branches))
	j := 0
	for _, n := range b.made {
		if f.nodes[n].lab.kind != kBranch {
			continue
		}
		for ; tr.Branches[j].InAwait; j++ {
			out = append(out, -1)
		}
		out = append(out, f.degree(n))
		j++
	}
	for ; j < len(tr.Branches); j++ {
		out = append(out, -1)
	}
	return out, nil
}
