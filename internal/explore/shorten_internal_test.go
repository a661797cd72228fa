package explore

import (
	"slices"
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestWithoutPreemption checks the orders that remove a preemption: the
// preempted thread's next run moves to the preemption, or one step of it
// is inserted there if it took no further step.
func TestWithoutPreemption(t *testing.T) {
	sched := func(ts ...trace.ThreadID) *schedule {
		s := &schedule{}
		for _, p := range ts {
			s.steps = append(s.steps, schedStep{thread: p})
		}
		return s
	}
	threads := func(ss []schedStep) []trace.ThreadID {
		var out []trace.ThreadID
		for _, s := range ss {
			out = append(out, s.thread)
		}
		return out
	}
	for _, c := range []struct {
		steps []trace.ThreadID
		at    int
		want  []trace.ThreadID
	}{
		{[]trace.ThreadID{1, 2, 2, 1, 1, 2, 1}, 1, []trace.ThreadID{1, 1, 1, 2, 2, 2, 1}},
		{[]trace.ThreadID{1, 2, 3, 1, 2}, 2, []trace.ThreadID{1, 2, 2, 3, 1}},
		{[]trace.ThreadID{1, 2, 2}, 1, []trace.ThreadID{1, 1, 2, 2}},
	} {
		if got := threads(sched(c.steps...).withoutPreemption(c.at)); !slices.Equal(got, c.want) {
			t.Errorf("%v without the preemption at %d: %v, want %v", c.steps, c.at, got, c.want)
		}
	}
}
