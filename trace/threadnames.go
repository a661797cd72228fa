// This file names threads stably across executions, for the strategies
// that keep events from one execution to the next.

package trace

import "iter"

// ThreadPath names a thread by how it was started: its parent's stable
// number (-1 for the first thread) and its rank among the threads its
// parent started.
type ThreadPath struct{ Parent, Rank int32 }

// ThreadNames maps the threads of the current execution to stable numbers,
// one per ThreadPath, kept for the whole exploration. A trace numbers
// threads in the order they start, which depends on the interleaving (a
// reordered prefix may start two threads in the other order); a path of
// spawns does not. The zero value is ready to use.
type ThreadNames struct {
	ids  map[ThreadPath]ThreadID // path -> stable number
	cur  []ThreadID              // ThreadID of the current execution -> stable number
	inv  []ThreadID              // stable number -> ThreadID of the current execution, or NoThread
	kids []int32                 // threads started so far, per thread of the current execution
}

// Reset starts a new execution.
func (n *ThreadNames) Reset() {
	n.cur, n.kids = n.cur[:0], n.kids[:0]
	for i := range n.inv {
		n.inv[i] = NoThread
	}
}

// Sync names the threads of ts, the current execution's, not named yet.
func (n *ThreadNames) Sync(ts []ThreadInfo) {
	for c := len(n.cur); c < len(ts); c++ {
		path := ThreadPath{-1, 0}
		if p := ts[c].Parent; p != NoThread && int(p) < len(n.cur) {
			path = ThreadPath{int32(n.cur[p]), n.kids[p]}
			n.kids[p]++
		}
		id := n.Intern(path)
		n.cur = append(n.cur, id)
		n.kids = append(n.kids, 0)
		for int(id) >= len(n.inv) {
			n.inv = append(n.inv, NoThread)
		}
		n.inv[id] = ThreadID(c)
	}
}

// Stable returns the stable number of thread t of the current execution,
// or NoThread if t is none of its threads named so far.
func (n *ThreadNames) Stable(t ThreadID) ThreadID {
	if t < 0 || int(t) >= len(n.cur) {
		return NoThread
	}
	return n.cur[t]
}

// Current returns the ThreadID in the current execution of the thread of
// stable number t, or NoThread if it has not started.
func (n *ThreadNames) Current(t ThreadID) ThreadID {
	if t < 0 || int(t) >= len(n.inv) {
		return NoThread
	}
	return n.inv[t]
}

// Intern returns the stable number of path, a new one if it has none.
func (n *ThreadNames) Intern(path ThreadPath) ThreadID {
	if id, ok := n.ids[path]; ok {
		return id
	}
	if n.ids == nil {
		n.ids = make(map[ThreadPath]ThreadID)
	}
	id := ThreadID(len(n.ids))
	n.ids[path] = id
	return id
}

// Lookup returns the stable number of path, if it has one.
func (n *ThreadNames) Lookup(path ThreadPath) (ThreadID, bool) {
	id, ok := n.ids[path]
	return id, ok
}

// Paths yields every path named and its stable number, in no order.
func (n *ThreadNames) Paths() iter.Seq2[ThreadPath, ThreadID] {
	return func(yield func(ThreadPath, ThreadID) bool) {
		for p, id := range n.ids {
			if !yield(p, id) {
				return
			}
		}
	}
}

// SetPaths replaces the names with paths (a table another exploration
// made: a unit of work's), which must give distinct paths distinct
// numbers, dense from 0; it reports false, and changes nothing, if they do
// not.
func (n *ThreadNames) SetPaths(paths map[ThreadPath]ThreadID) bool {
	seen := make(map[ThreadID]bool, len(paths))
	for _, id := range paths {
		if id < 0 || id >= ThreadID(len(paths)) || seen[id] {
			return false
		}
		seen[id] = true
	}
	n.ids = paths
	return true
}
