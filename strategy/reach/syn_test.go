// Test helpers: the SYN-sequence of an execution in a canonical form,
// computed here independently of the package (the oracle's own reading of
// reach's model), and a recorder that keeps it for every execution a
// strategy runs.

package reach_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/reach"
	"github.com/weft-go/weft/trace"
)

// synStep is a step of a recorded execution: the object of reach's model
// it completes on ("" for none: a Join, a select on nil channels) and its
// label (its calls, named by thread paths, with their cases).
type synStep struct {
	obj, label string
}

// synRun is a recorded execution.
type synRun struct {
	steps   []synStep
	selects [][]string // the objects of every select's cases
	end     trace.End
	// place names where a failing execution failed: its kind, the label
	// of the failing thread's last step.
	place string
	// skipped marks a run reach did not analyse: partial, or run again
	// with its failing call postponed.
	skipped bool
	// stranded marks a run that left an open receive of its variant
	// unfilled (reach.Stats.Stranded): its sequence may be another run's.
	stranded bool
	// waits counts its steps that wait on a Cond, branches its branches
	// on inputs.
	waits, branches int
	// advances counts its advances of the clock (time at any step),
	// stops its Stops and Resets of timers and tickers.
	advances, stops int
}

// synRecorder wraps a strategy and records every execution it finishes.
type synRecorder struct {
	strategy.Strategy
	runs []synRun
}

func (r *synRecorder) Unwrap() strategy.Strategy { return r.Strategy }

func (r *synRecorder) Finish(tr *trace.Trace, end trace.End) {
	x := record(tr, end)
	x.waits, x.branches = condWaits(tr), len(tr.Branches)
	var before reach.Stats
	s, isReach := r.Strategy.(*reach.Strategy)
	if isReach {
		before = s.Stats()
	}
	r.Strategy.Finish(tr, end)
	if isReach {
		after := s.Stats()
		x.skipped = after.Partial > before.Partial || after.Retries > before.Retries || after.Infeasible > before.Infeasible || after.Relaxed > before.Relaxed || after.Mismatched > before.Mismatched || after.Diverted > before.Diverted || after.Probes > before.Probes || after.Behind > before.Behind
		x.stranded = after.Stranded > before.Stranded
	}
	r.runs = append(r.runs, x)
}

// synObj names the object a step of op (select case cas) completes on, in
// reach's model: a buffered channel's sends and closes complete on its
// input, its receives on its output; a select's default on its first case
// with a channel; a length on the channel's input (joined with its
// output), an await on its first variable (joined with the others); a
// variable's loads and writes on the variable; a sleep on none.
func synObj(op trace.Op, cas int32, objs []trace.ObjectInfo) string {
	ch := func(k trace.Kind, o trace.ObjectID) string {
		info := objs[o]
		switch {
		case info.Cap == 0:
			return objName(info)
		case k == trace.KindRecv:
			return objName(info) + "/out"
		}
		return objName(info) + "/in"
	}
	if op.Class == trace.ClassClock {
		return "clock" // time at any step: the clock, a shared variable
	}
	switch op.Kind {
	case trace.KindJoin:
		return ""
	case trace.KindSelect:
		if cas >= 0 {
			c := op.Cases[cas]
			return ch(c.Kind, c.Obj)
		}
		for _, c := range op.Cases {
			if c.Obj != trace.NoObject {
				return ch(c.Kind, c.Obj)
			}
		}
		return ""
	case trace.KindSend, trace.KindRecv, trace.KindClose:
		return ch(op.Kind, op.Obj)
	case trace.KindLen:
		// Both halves of a buffer, joined (see record).
		return ch(trace.KindSend, op.Obj)
	case trace.KindAwait:
		// The variables it waits on, joined (see record).
		for _, c := range op.Cases {
			if c.Obj != trace.NoObject {
				return objName(objs[c.Obj])
			}
		}
		return ""
	}
	if op.Obj == trace.NoObject {
		return "" // a sleep
	}
	return objName(objs[op.Obj])
}

// objName names an object across explorations: by the name the program
// gave it, or by its key (which names it across the executions of one
// exploration only, for an object made in each execution).
func objName(info trace.ObjectInfo) string {
	if info.Name != "" {
		return info.Name
	}
	return fmt.Sprintf("%d", info.Key)
}

// record reads the steps of tr.
func record(tr *trace.Trace, end trace.End) synRun {
	paths := make([]string, len(tr.Threads))
	kids := make([]int, len(tr.Threads))
	for t, info := range tr.Threads {
		if info.Parent == trace.NoThread {
			paths[t] = "m"
			continue
		}
		paths[t] = fmt.Sprintf("%s.%d", paths[info.Parent], kids[info.Parent])
		kids[info.Parent]++
	}
	k := make([]int, len(tr.Threads))
	run := synRun{end: end}
	addSelect := func(op trace.Op) {
		var objs []string
		for j, c := range op.Cases {
			if c.Obj != trace.NoObject {
				objs = append(objs, synObj(op, int32(j), tr.Objects))
			}
		}
		// A select that chooses depends on both ends of a buffer.
		if len(objs) > 1 || op.Arg == 1 {
			for _, c := range op.Cases {
				if c.Obj != trace.NoObject && tr.Objects[c.Obj].Cap > 0 {
					name := objName(tr.Objects[c.Obj])
					objs = append(objs, name+"/in", name+"/out")
				}
			}
		}
		run.selects = append(run.selects, objs)
	}
	// The length of a buffered channel depends on both its halves, an
	// await on each variable it waits on, a Cond's Wait and Relock on the
	// Cond and its Mutex.
	addJoin := func(op trace.Op) {
		switch op.Kind {
		case trace.KindSelect:
			addSelect(op)
		case trace.KindLen:
			if info := tr.Objects[op.Obj]; info.Cap > 0 {
				run.selects = append(run.selects, []string{objName(info) + "/in", objName(info) + "/out"})
			}
		case trace.KindAwait:
			var objs []string
			for _, c := range op.Cases {
				if c.Obj != trace.NoObject {
					objs = append(objs, objName(tr.Objects[c.Obj]))
				}
			}
			run.selects = append(run.selects, objs)
		case trace.KindWait, trace.KindRelock:
			// A Cond and the Mutex its Wait releases: one monitor.
			if op.Class == trace.ClassCond && op.Arg >= 0 {
				run.selects = append(run.selects, []string{objName(tr.Objects[op.Obj]), objName(tr.Objects[op.Arg])})
			}
		case trace.KindAdvance:
			// The clock and the timers an advance makes due.
			objs := []string{"clock"}
			for _, c := range op.Cases {
				if c.Obj != trace.NoObject {
					objs = append(objs, objName(tr.Objects[c.Obj]))
				}
			}
			run.selects = append(run.selects, objs)
		case trace.KindTimerStop:
			// A Stop or Reset that reads the clock: the clock and the
			// timer.
			if op.Class == trace.ClassClock && op.Obj != trace.NoObject {
				run.selects = append(run.selects, []string{"clock", objName(tr.Objects[op.Obj])})
			}
		}
	}
	for i := range tr.Events {
		e := &tr.Events[i]
		switch e.Op.Kind {
		case trace.KindAdvance:
			run.advances++
		case trace.KindTimerStop:
			run.stops++
		}
		label := fmt.Sprintf("%s#%d/%d", paths[e.Thread], k[e.Thread], e.Case)
		k[e.Thread]++
		if e.Partner != trace.NoThread {
			label += fmt.Sprintf("+%s#%d/%d", paths[e.Partner], k[e.Partner], e.PartnerCase)
			k[e.Partner]++
		}
		run.steps = append(run.steps, synStep{synObj(e.Op, e.Case, tr.Objects), label})
		addJoin(e.Op)
		if e.Partner != trace.NoThread {
			addJoin(e.PartnerOp)
		}
	}
	for _, op := range tr.Final {
		addJoin(op)
	}
	// The sides of each thread's branches on inputs: an object per
	// thread, each branch named by the thread's steps before it and its
	// rank among the branches after them.
	for i, b := range tr.Branches {
		before, rank := 0, 0
		for j := range tr.Events[:b.Step] {
			if e := &tr.Events[j]; e.Thread == b.Thread || e.Partner == b.Thread {
				before++
			}
		}
		for _, c := range tr.Branches[:i] {
			if c.Thread == b.Thread && c.Step == b.Step {
				rank++
			}
		}
		p := paths[b.Thread]
		run.steps = append(run.steps, synStep{"branches of " + p, fmt.Sprintf("%s@%d.%d=%v", p, before, rank, b.Taken)})
	}
	if end.Status == trace.Failed && end.Thread >= 0 {
		run.place = fmt.Sprintf("%v by %s", end.Kind, paths[end.Thread])
		for i := len(tr.Events) - 1; i >= 0; i-- {
			if e := &tr.Events[i]; e.Thread == end.Thread || e.Partner == end.Thread {
				run.place += " at " + run.steps[i].label
				break
			}
		}
	}
	return run
}

// synGroups joins the objects that some select of runs has cases on.
type synGroups map[string]string

func (g synGroups) find(x string) string {
	for {
		p, ok := g[x]
		if !ok || p == x {
			return x
		}
		x = p
	}
}

func newSynGroups(runs ...[]synRun) synGroups {
	g := synGroups{}
	for _, rs := range runs {
		for _, r := range rs {
			for _, objs := range r.selects {
				for _, o := range objs[min(1, len(objs)):] {
					a, b := g.find(objs[0]), g.find(o)
					if a != b {
						if b < a {
							a, b = b, a
						}
						g[b] = a
					}
				}
			}
		}
	}
	return g
}

// syn returns the canonical form of run r's SYN-sequence under groups g:
// for each object of the model, the labels of the steps completing on it,
// in order (Definition 1: the totally ordered sequences of the objects
// and the pairs, which the labels name).
func (g synGroups) syn(r synRun) string {
	seqs := map[string][]string{}
	for _, s := range r.steps {
		if s.obj == "" {
			continue
		}
		o := g.find(s.obj)
		seqs[o] = append(seqs[o], s.label)
	}
	keys := make([]string, 0, len(seqs))
	for o := range seqs {
		keys = append(keys, o)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, o := range keys {
		fmt.Fprintf(&b, "%s: %s\n", o, strings.Join(seqs[o], " "))
	}
	return b.String()
}
