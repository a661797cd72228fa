// This file tests the determinism check: a test body that does something
// else under the same choices is reported under every strategy, and no
// strategy crashes on it.

package weft_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// TestNondeterministicBody runs, under every strategy, bodies whose
// behaviour depends on state kept between executions (as math/rand or the
// time would make it): one spawns another number of threads each time, one
// runs another operation after a few steps. Each must end the exploration
// with a failure of kind Nondeterminism that says what happened and what
// to do, and nothing may panic.
func TestNondeterministicBody(t *testing.T) {
	var execs atomic.Int64
	bodies := []struct {
		name string
		body func(w *weft.T)
		want []string
	}{
		{"thread count", func(w *weft.T) {
			n := int(execs.Add(1)%3) + 1
			v := weft.NewVar[int]("v")
			var ths []*weft.Thread
			for i := range n {
				ths = append(ths, w.Go(func() { v.Store(i) }))
			}
			for _, th := range ths {
				th.Join()
			}
		}, []string{"step 1 ", "execution 1", "had 3 threads there", "T3: earlier no such thread, now store v"}},
		{"operation", func(w *weft.T) {
			odd := execs.Add(1)%2 == 1
			x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
			w.Go(func() {
				x.Store(1)
				if odd {
					y.Store(1)
				} else {
					y.Load()
				}
			})
			x.Store(2)
			y.Store(2)
		}, []string{"after the same ", "the threads differ:\n\tT1: earlier ", " y pending, now "}},
		{"object", func(w *weft.T) {
			// The same operation on x or y: the order of a range over a
			// map would so change from one execution to the next.
			odd := execs.Add(1)%2 == 1
			x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
			first, second := x, y
			if odd {
				first, second = y, x
			}
			w.Go(func() {
				x.Load()
				first.Store(1)
				second.Store(1)
			})
			x.Store(2)
		}, []string{"after the same ", "the threads differ:\n\tT1: earlier store ", "The same operation on another object", "a range over a map"}},
	}
	for _, b := range bodies {
		for _, name := range weft.Strategies() {
			t.Run(b.name+"/"+name, func(t *testing.T) {
				if name == "unfold" && b.name != "thread count" {
					// Each test of unfold runs the local configuration of a
					// new target: no two of its executions here make the
					// same choices, which is when the check compares them,
					// and the events that two executions share meet the
					// body in the same parity (unfold checks what an event
					// it has seen observes and leaves pending).
					t.Skip("unfold's executions share no prefix of choices for the check to compare")
				}
				if name == "con2" && b.name != "thread count" {
					// con2's first execution runs the body's thread alone,
					// its second the thread it starts alone: they share no
					// prefix of choices, and T1's odd operation is past
					// what the second one's scenario says of it.
					t.Skip("con2's executions share no prefix of choices for the check to compare")
				}
				execs.Store(0)
				r, err := weft.Explore(b.body, weft.WithStrategy(name), weft.WithMaxRuns(1000), weft.NoReplayFiles(), weft.KeepGoing())
				if err != nil {
					t.Skipf("strategy %s: %v", name, err) // a concolic strategy without Z3
				}
				if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Nondeterminism {
					t.Fatalf("%d executions, failures %v; want one, of kind %v", r.Executions, r.FailureCounts, trace.Nondeterminism)
				}
				if r.Exhausted {
					t.Error("Exhausted is true: the exploration was cut short by the divergence")
				}
				msg := r.Failures[0].Message
				for _, want := range append([]string{"not deterministic", "math/rand", "map iteration order", "w.Input"}, b.want...) {
					if !strings.Contains(msg, want) {
						t.Errorf("the message does not say %q:\n%s", want, msg)
					}
				}
			})
		}
	}
}
