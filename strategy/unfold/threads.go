// This file names threads stably across executions as trace.ThreadNames
// does, by their paths of spawns, except weft's clock thread (time at any
// step): it is the child of whichever thread armed the first deadline,
// which differs between executions, so it has a path of its own and
// takes no rank among its parent's children (the threads its parent
// starts later keep their names).

package unfold

import (
	"iter"

	"github.com/weft-go/weft/trace"
)

// clockPath is the path of the clock thread.
var clockPath = trace.ThreadPath{Parent: -2}

// threadNames maps the threads of the current execution to stable
// numbers, one per path (trace.ThreadNames, with the clock thread apart).
type threadNames struct {
	ids   map[trace.ThreadPath]trace.ThreadID // path -> stable number
	cur   []trace.ThreadID                    // ThreadID of the current execution -> stable number
	inv   []trace.ThreadID                    // stable number -> ThreadID of the current execution, or NoThread
	kids  []int32                             // threads started so far, per thread of the current execution
	clock bool                                // the current execution's clock thread is named
}

// Reset starts a new execution.
func (n *threadNames) Reset() {
	n.cur, n.kids, n.clock = n.cur[:0], n.kids[:0], false
	for i := range n.inv {
		n.inv[i] = trace.NoThread
	}
}

// Sync names the threads of ts, the current execution's, not named yet;
// evs are its events: the clock thread is the first thread started in the
// local code of a step that arms a deadline (the first such step starts
// it first).
func (n *threadNames) Sync(ts []trace.ThreadInfo, evs []trace.Event) {
	for c := len(n.cur); c < len(ts); c++ {
		path := trace.ThreadPath{Parent: -1}
		p := ts[c].Parent
		switch s := ts[c].Step; {
		case !n.clock && s >= 0 && int(s) < len(evs) && evs[s].Op.Kind == trace.KindNow && evs[s].Op.Arg == trace.NowArms:
			n.clock = true
			path = clockPath
		case p != trace.NoThread && int(p) < len(n.cur):
			path = trace.ThreadPath{Parent: int32(n.cur[p]), Rank: n.kids[p]}
			n.kids[p]++
		}
		id := n.intern(path)
		n.cur = append(n.cur, id)
		n.kids = append(n.kids, 0)
		for int(id) >= len(n.inv) {
			n.inv = append(n.inv, trace.NoThread)
		}
		n.inv[id] = trace.ThreadID(c)
	}
}

// Stable returns the stable number of thread t of the current execution,
// or NoThread.
func (n *threadNames) Stable(t trace.ThreadID) trace.ThreadID {
	if t < 0 || int(t) >= len(n.cur) {
		return trace.NoThread
	}
	return n.cur[t]
}

// Current returns the ThreadID in the current execution of the thread of
// stable number t, or NoThread if it has not started.
func (n *threadNames) Current(t trace.ThreadID) trace.ThreadID {
	if t < 0 || int(t) >= len(n.inv) {
		return trace.NoThread
	}
	return n.inv[t]
}

// intern returns the stable number of path, a new one if it has none.
func (n *threadNames) intern(path trace.ThreadPath) trace.ThreadID {
	if id, ok := n.ids[path]; ok {
		return id
	}
	if n.ids == nil {
		n.ids = make(map[trace.ThreadPath]trace.ThreadID)
	}
	id := trace.ThreadID(len(n.ids))
	n.ids[path] = id
	return id
}

// Paths yields every path named and its stable number, in no order.
func (n *threadNames) Paths() iter.Seq2[trace.ThreadPath, trace.ThreadID] {
	return func(yield func(trace.ThreadPath, trace.ThreadID) bool) {
		for p, id := range n.ids {
			if !yield(p, id) {
				return
			}
		}
	}
}
