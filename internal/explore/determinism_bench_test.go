// This file benchmarks the determinism check's cost per step.

package explore

import (
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// firstEnabled is a strategy that runs the first enabled thread.
type firstEnabled struct{}

func (firstEnabled) Next() bool { return true }
func (firstEnabled) Choose(st *strategy.State) strategy.Choice {
	return strategy.Choice{Thread: st.NextEnabled(0)}
}
func (firstEnabled) Input(*strategy.State, strategy.InputRequest) uint64 { return 0 }
func (firstEnabled) Finish(*trace.Trace, trace.End)                      {}

// BenchmarkCheckedChoose measures Checked.Choose on a state of three
// threads of which one changed since the last step, as in a replayed
// prefix (the previous execution made the same choices): executions of
// 28 steps, the length of fib's with n=4.
func BenchmarkCheckedChoose(b *testing.B) {
	const steps = 28
	c := NewChecked(firstEnabled{}, "first")
	threads := []strategy.Thread{
		{Op: trace.Op{Kind: trace.KindLoad, Class: trace.ClassVar, Obj: 1}, Alts: 1},
		{Op: trace.Op{Kind: trace.KindStore, Class: trace.ClassVar, Obj: 2, Arg: 3}, Alts: 1},
		{Op: trace.Op{Kind: trace.KindJoin, Class: trace.ClassThread, Obj: 0}, Alts: 0},
	}
	st := &strategy.State{Threads: threads, Changed: []trace.ThreadID{0}}
	tr := &trace.Trace{}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%steps == 0 {
			if i > 0 {
				c.Finish(tr, trace.End{})
			}
			c.Next()
		}
		st.Step = i % steps
		if c.Choose(st).Thread != 0 {
			b.Fatal("the check cut the execution")
		}
	}
}
