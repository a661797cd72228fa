// This file shortens a failing schedule before it is reported: fewer
// context switches that still fail the same way, as CHESS and Shuttle do.

package explore

import (
	"slices"

	"github.com/weft-go/weft/internal/races"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

// schedule is a failing execution as shortening sees it: the thread and
// alternative of each step, with the steps where the thread that ran
// before could have gone on (preemptions), and the failure it ended with.
type schedule struct {
	steps    []schedStep
	preempts []int // indices of the steps that preempt
	switches int   // steps whose thread is not the previous step's
	end      trace.End
	inputs   []uint64
	rec      replay.Record // its record, which replays it
}

// schedStep is one step of a schedule.
type schedStep struct {
	thread trace.ThreadID
	alt    int32
}

// scheduleOf returns the schedule of tr, which ended with end.
func scheduleOf(tr *trace.Trace, end trace.End) *schedule {
	in := tr.InputValues()
	s := &schedule{end: end, inputs: slices.Clone(in), rec: replay.FromTrace(tr, in)}
	en := tr.EnabledWalk()
	for i := range tr.Events {
		e := &tr.Events[i]
		s.steps = append(s.steps, schedStep{e.Thread, e.Alt})
		if i == 0 || tr.Events[i-1].Thread == e.Thread {
			continue
		}
		s.switches++
		if en.At(i, tr.Events[i-1].Thread) {
			s.preempts = append(s.preempts, i)
		}
	}
	return s
}

// better reports whether s is shorter than t: fewer switches, or as many
// in fewer steps.
func (s *schedule) better(t *schedule) bool {
	return s.switches < t.switches || (s.switches == t.switches && len(s.steps) < len(t.steps))
}

// withoutPreemption returns the order of steps that removes the
// preemption at step i: the preempted thread's next run of steps moves
// to i, before the steps of the other threads that came first; if it took
// no further step, one step of it (its pending operation) runs at i.
func (s *schedule) withoutPreemption(i int) []schedStep {
	p := s.steps[i-1].thread
	start := i
	for start < len(s.steps) && s.steps[start].thread != p {
		start++
	}
	if start == len(s.steps) {
		return slices.Insert(slices.Clone(s.steps), i, schedStep{thread: p})
	}
	end := start
	for end < len(s.steps) && s.steps[end].thread == p {
		end++
	}
	out := make([]schedStep, 0, len(s.steps))
	out = append(out, s.steps[:i]...)
	out = append(out, s.steps[start:end]...)
	out = append(out, s.steps[i:start]...)
	return append(out, s.steps[end:]...)
}

// follower is the strategy of one shortening replay: it runs, at each
// step, the first step of its list whose thread is enabled (with the
// recorded alternative if the thread has it, else its first), and takes it
// off the list; once the list has no enabled thread, the thread that ran
// last while it can, else the lowest enabled one. The inputs are the
// recorded ones. Finish, which shorten calls, keeps the schedule the
// execution took.
type follower struct {
	order  []schedStep
	inputs []uint64
	input  int
	last   trace.ThreadID
	done   bool
	got    *schedule
}

func (f *follower) Next() bool { ok := !f.done; f.done = true; return ok }

func (f *follower) Choose(st *strategy.State) strategy.Choice {
	for k, s := range f.order {
		if !st.Enabled(s.thread) {
			continue
		}
		f.order = slices.Delete(f.order, k, k+1)
		alt := s.alt
		if alt < 0 || alt >= st.Threads[s.thread].Alts {
			alt = 0
		}
		f.last = s.thread
		return strategy.Choice{Thread: s.thread, Alt: alt}
	}
	if f.last != trace.NoThread && st.Enabled(f.last) {
		return strategy.Choice{Thread: f.last}
	}
	for p := range st.Threads {
		if st.Enabled(trace.ThreadID(p)) {
			f.last = trace.ThreadID(p)
			return strategy.Choice{Thread: f.last}
		}
	}
	return strategy.Cut
}

func (f *follower) Input(_ *strategy.State, in strategy.InputRequest) uint64 {
	if f.input >= len(f.inputs) {
		return in.Default
	}
	f.input++
	return f.inputs[f.input-1]
}

func (f *follower) Finish(tr *trace.Trace, end trace.End) { f.got = scheduleOf(tr, end) }

// shortenable reports whether a failure of kind k is shortened: not one
// that says weft could not run or follow the body (nondeterminism, an
// internal error, a thread blocked outside weft, a misuse), nor a possible
// livelock, whose every variant would run to the bound on steps.
func shortenable(k trace.FailureKind) bool {
	switch k {
	case trace.Nondeterminism, trace.Internal, trace.Blocked, trace.Misuse, trace.Livelock:
		return false
	}
	return true
}

// shorten looks for a schedule of body shorter than found that fails with
// the same kind, in at most c.Shorten executions, and returns the shortest
// it finds (nil if none is shorter). The executions run in a runtime of
// their own, which bounds b interrupt: once one has passed, shorten returns
// at once.
func shorten(body func(), c *Config, found *schedule, b bounds) *schedule {
	if c.Shorten == 0 || !shortenable(found.end.Kind) || len(found.preempts) == 0 || b.passed() {
		return nil
	}
	cur := found
	e := b.exec(c)
	defer e.Close()
	budget := c.Shorten
	var det races.Detector
	for improved := true; improved && budget > 0; {
		improved = false
		for _, i := range cur.preempts {
			if budget == 0 {
				break
			}
			budget--
			f := &follower{order: cur.withoutPreemption(i), inputs: cur.inputs, last: trace.NoThread}
			f.Next()
			end := e.Run(f, body, false)
			if e.Abandoned() || e.Interrupted() {
				return bestOf(found, cur)
			}
			e.TakeMisuse() // a variant's, not reported
			if c.Races {
				end = RaceEnd(&det, e.Trace(), end)
			}
			f.Finish(e.Trace(), end)
			if g := f.got; g != nil && g.end.Status == trace.Failed && g.end.Kind == found.end.Kind && g.better(cur) {
				cur, improved = g, true
				break
			}
		}
	}
	return bestOf(found, cur)
}

// bestOf returns cur if it is shorter than found, else nil.
func bestOf(found, cur *schedule) *schedule {
	if cur == found {
		return nil
	}
	return cur
}
