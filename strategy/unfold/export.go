// This file exports the unfolding built so far, as a value that encodes
// to JSON and as a Graphviz DOT graph, for pictures of it and for tools.

package unfold

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/weft-go/weft/trace"
)

// Unfolding is the unfolding a Strategy built: its conditions and its
// events, without the possible extensions no test reached. Events are
// numbered by their order of insertion into the unfolding (the paper's
// labels, from 1), conditions in the order they were made.
type Unfolding struct {
	Conditions []Condition `json:"conditions"`
	Events     []Event     `json:"events"`
}

// Condition is a condition of the unfolding: a token of a place of the
// program's net.
type Condition struct {
	ID int `json:"id"`
	// Place names the place: "t0.0" the thread of path 0.0 (the first
	// thread the body started), "x@t0.0" that thread's copy of variable
	// x, "mu" the mutex mu (or an RWMutex's, a Once's, a buffered
	// channel's state). Objects without a name are named o and a number.
	Place string `json:"place"`
	// Producer is the event that produced it, 0 for an initial condition.
	Producer int `json:"producer"`
	// State is what the condition says of its place: a thread's next
	// operation, "done" or "failed"; "free" or "held" for a mutex; empty
	// otherwise.
	State string `json:"state,omitempty"`
}

// Event is an event of the unfolding.
type Event struct {
	ID     int    `json:"id"`
	Thread string `json:"thread"` // the thread's path of spawns: "0" (the body), "0.0"...
	Op     string `json:"op"`     // the operation, with its object's name, or the side of a branch
	Pre    []int  `json:"pre"`
	Post   []int  `json:"post"`
	// Spawned are the initial conditions of the threads its step started.
	Spawned []int `json:"spawned,omitempty"`
	// Failed reports that its step failed (the execution ended there).
	Failed bool `json:"failed,omitempty"`
}

// Unfolding returns the unfolding built so far.
func (s *Strategy) Unfolding() Unfolding {
	n := s.n
	path := threadPaths(&s.tn)
	obj := func(o int32) string {
		if o >= 0 && int(o) < len(s.on.names) && s.on.names[o] != "" {
			return s.on.names[o]
		}
		return fmt.Sprintf("o%d", o)
	}
	op := func(k opKey) string {
		switch k.kind {
		case trace.KindJoin:
			return "join t" + path(k.obj)
		case trace.KindSelect:
			return "select"
		case kindBranch:
			return "branch"
		}
		return fmt.Sprintf("%v %s", k.kind, obj(k.obj))
	}
	var u Unfolding
	for c := range n.conds {
		pc := &n.conds[c]
		pl := &n.places[pc.place]
		cd := Condition{ID: c + 1}
		switch pl.kind {
		case threadPlace:
			cd.Place = "t" + path(pl.thread)
			switch pc.state {
			case done:
				cd.State = "done"
			case stopped:
				cd.State = "failed"
			case unknown:
				cd.State = "cut short"
			default:
				cd.State = op(pc.op)
			}
		case copyPlace:
			cd.Place = obj(pl.obj) + "@t" + path(pl.thread)
		default:
			cd.Place = obj(pl.obj)
			switch pc.state {
			case free:
				cd.State = "free"
			case held:
				cd.State = "held"
			}
		}
		if pc.producer >= 0 {
			cd.Producer = int(n.events[pc.producer].order) + 1
		}
		u.Conditions = append(u.Conditions, cd)
	}
	ids := func(cs []int32) []int {
		out := make([]int, len(cs))
		for i, c := range cs {
			out[i] = int(c) + 1
		}
		return out
	}
	for e := range n.events {
		ev := &n.events[e]
		if !ev.in() {
			continue
		}
		x := Event{ID: int(ev.order) + 1, Thread: path(ev.thread), Op: op(ev.op), Pre: ids(ev.pre), Post: ids(ev.post), Failed: ev.fatal}
		switch ev.side {
		case falseSide:
			x.Op = "branch false"
		case trueSide:
			x.Op = "branch true"
		}
		if p := awaitPathOf(ev.alt); condAwait(ev.op) && p != 0 {
			x.Op += fmt.Sprint(" if ", n.paths.constraints(p)) // the evaluation's path (awaitpath.go)
		}
		if len(ev.spawned) > 0 {
			x.Spawned = ids(ev.spawned)
		}
		u.Events = append(u.Events, x)
	}
	slices.SortFunc(u.Events, func(a, b Event) int { return cmp.Compare(a.ID, b.ID) })
	return u
}

// WriteDOT writes u as a Graphviz graph: conditions are circles labelled
// with their places (and states), events boxes labelled with their
// numbers, threads and operations; arcs go from each event's preset to it
// and from it to its postset.
func (u Unfolding) WriteDOT(w io.Writer) error {
	var b strings.Builder
	b.WriteString("digraph unfolding {\n\trankdir=TB;\n")
	for _, c := range u.Conditions {
		label := c.Place
		if c.State != "" {
			label += "\n" + c.State
		}
		fmt.Fprintf(&b, "\tc%d [shape=circle, label=%q];\n", c.ID, label)
	}
	for _, e := range u.Events {
		style := ""
		if e.Failed {
			style = ", color=red"
		}
		fmt.Fprintf(&b, "\te%d [shape=box, label=%q%s];\n", e.ID, fmt.Sprintf("%d: t%s %s", e.ID, e.Thread, e.Op), style)
		for _, c := range e.Pre {
			fmt.Fprintf(&b, "\tc%d -> e%d;\n", c, e.ID)
		}
		for _, c := range append(slices.Clone(e.Post), e.Spawned...) {
			fmt.Fprintf(&b, "\te%d -> c%d;\n", e.ID, c)
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
