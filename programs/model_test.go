// This file recomputes the exhaustive counts of exactTests marked "model"
// with a model of the choice tree written apart from weft: threads as lists
// of operations on mutexes, channels and threads, program counters, lock
// holders and channel lengths, and a count of the maximal paths from each
// state.

package programs

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/weft-go/weft/trace"
)

// modelOp is an operation of a modelled thread.
type modelOp struct {
	kind modelKind
	obj  int // the mutex, channel or thread
}

type modelKind uint8

const (
	mLock   modelKind = iota // enabled when the mutex is free
	mUnlock                  // always enabled
	mAccess                  // a load or store: always enabled
	mSend                    // buffered: enabled when the buffer has room; unbuffered: taken by a receive
	mRecv                    // buffered: enabled when the buffer holds an item; unbuffered: one choice per sender ready
	mJoin                    // enabled when the thread has finished
)

// model is a program: thread 0 (the test body) and the threads it starts
// before its first operation, and the capacities of its channels.
type model struct {
	threads [][]modelOp
	caps    []int
}

// modelCount is what the choice tree of a model holds: its maximal paths
// (executions), those that end in a deadlock, and their steps in all.
type modelCount struct {
	execs, deadlocks int
	events           int64
}

// count explores the choice tree of m depth-first, memoising each state's
// counts: a state is the program counters, the lock holders and the
// channel lengths.
func (m *model) count() modelCount {
	nm, nc := 0, len(m.caps)
	for _, th := range m.threads {
		for _, op := range th {
			if op.kind == mLock || op.kind == mUnlock {
				nm = max(nm, op.obj+1)
			}
		}
	}
	pc := make([]int, len(m.threads))
	held := make([]bool, nm)
	length := make([]int, nc)
	memo := map[string]modelCount{}
	done := func(t int) bool { return pc[t] == len(m.threads[t]) }
	var visit func() modelCount
	visit = func() modelCount {
		key := fmt.Sprint(pc, held, length)
		if c, ok := memo[key]; ok {
			return c
		}
		var c modelCount
		child := func() {
			d := visit()
			c.execs += d.execs
			c.deadlocks += d.deadlocks
			c.events += d.events + int64(d.execs) // the step to the child, on each of its paths
		}
		for t, th := range m.threads {
			if done(t) {
				continue
			}
			op := th[pc[t]]
			switch op.kind {
			case mLock:
				if !held[op.obj] {
					held[op.obj] = true
					pc[t]++
					child()
					pc[t]--
					held[op.obj] = false
				}
			case mUnlock:
				held[op.obj] = false
				pc[t]++
				child()
				pc[t]--
				held[op.obj] = true
			case mAccess:
				pc[t]++
				child()
				pc[t]--
			case mSend:
				if m.caps[op.obj] > 0 && length[op.obj] < m.caps[op.obj] {
					length[op.obj]++
					pc[t]++
					child()
					pc[t]--
					length[op.obj]--
				}
			case mRecv:
				if m.caps[op.obj] > 0 {
					if length[op.obj] > 0 {
						length[op.obj]--
						pc[t]++
						child()
						pc[t]--
						length[op.obj]++
					}
					break
				}
				for s, sth := range m.threads { // a rendezvous with each ready sender
					if s != t && !done(s) && sth[pc[s]] == (modelOp{mSend, op.obj}) {
						pc[t]++
						pc[s]++
						child()
						pc[s]--
						pc[t]--
					}
				}
			case mJoin:
				if done(op.obj) {
					pc[t]++
					child()
					pc[t]--
				}
			}
		}
		if c.execs == 0 { // no thread can move: the end of an execution
			c.execs = 1
			for t := range m.threads {
				if !done(t) {
					c.deadlocks = 1 // the body joins every thread: never a leak
				}
			}
		}
		memo[key] = c
		return c
	}
	return visit()
}

// repeat returns n copies of ops, in order.
func repeat(n int, ops ...modelOp) []modelOp {
	var out []modelOp
	for range n {
		out = append(out, ops...)
	}
	return out
}

// joinAll returns the body's joins of threads 1 to n, in order.
func joinAll(n int) []modelOp {
	var out []modelOp
	for t := 1; t <= n; t++ {
		out = append(out, modelOp{mJoin, t})
	}
	return out
}

// diningModel: philosopher i takes fork i then fork i+1 (the lower one
// first if fixed), meals times; the body joins them.
func diningModel(n, meals int, fixed bool) *model {
	m := &model{threads: [][]modelOp{joinAll(n)}}
	for i := range n {
		first, second := i, (i+1)%n
		if fixed && second < first {
			first, second = second, first
		}
		m.threads = append(m.threads, repeat(meals, modelOp{mLock, first}, modelOp{mLock, second}, modelOp{mUnlock, second}, modelOp{mUnlock, first}))
	}
	return m
}

// bbchanModel: producers send items each on channel 0, consumers receive
// their share; the body joins them all.
func bbchanModel(producers, consumers, capacity, items int) *model {
	m := &model{threads: [][]modelOp{joinAll(producers + consumers)}, caps: []int{capacity}}
	for range producers {
		m.threads = append(m.threads, repeat(items, modelOp{mSend, 0}))
	}
	total := producers * items
	for j := range consumers {
		share := total / consumers
		if j < total%consumers {
			share++
		}
		m.threads = append(m.threads, repeat(share, modelOp{mRecv, 0}))
	}
	return m
}

// lockedModel: threads each run rounds critical sections on mutex 0, a
// load and a store, and short threads after them one; the body joins them
// and loads the result (parallelpi's rounds are 1).
func lockedModel(threads, rounds, short int) *model {
	m := &model{threads: [][]modelOp{append(joinAll(threads+short), modelOp{mAccess, 0})}}
	for k := range threads + short {
		n := rounds
		if k >= threads {
			n = 1
		}
		m.threads = append(m.threads, repeat(n, modelOp{mLock, 0}, modelOp{mAccess, 0}, modelOp{mAccess, 0}, modelOp{mUnlock, 0}))
	}
	return m
}

// TestModelCounts checks exactTests against the model: every row of
// dining, bbchan, parallelpi (locked) and singlelock, the hand-derived ones
// (which check the model) and those marked "model" (which the model
// derives).
func TestModelCounts(t *testing.T) {
	models := 0
	for _, tc := range exactTests {
		var m *model
		p := Lookup(tc.name)
		ps, err := p.Resolve(tc.set)
		if err != nil {
			t.Fatal(err)
		}
		switch tc.name {
		case "dining":
			m = diningModel(ps["n"], ps["meals"], ps["fixed"] == 1)
		case "bbchan":
			m = bbchanModel(ps["producers"], ps["consumers"], ps["capacity"], ps["items"])
		case "parallelpi":
			if ps["locked"] == 1 {
				m = lockedModel(ps["threads"], 1, 0)
			}
		case "singlelock":
			m = lockedModel(ps["threads"], ps["rounds"], ps["short"])
		}
		if m == nil {
			continue
		}
		models++
		name := tc.name + "/" + strings.Join(p.Format(ps), ",")
		got := m.count()
		want := modelCount{execs: tc.execs, deadlocks: tc.failures[trace.Deadlock]}
		if others := maps.Clone(tc.failures); others != nil {
			delete(others, trace.Deadlock)
			if len(others) > 0 {
				t.Errorf("%s: the model has no failures but deadlocks, exactTests says %v", name, tc.failures)
			}
		}
		if got.execs != want.execs || got.deadlocks != want.deadlocks || (tc.events != 0 && got.events != tc.events) {
			t.Errorf("%s: the model has %d executions, %d deadlocks, %d events; exactTests says %d, %d, %d (0: not given)",
				name, got.execs, got.deadlocks, got.events, want.execs, want.deadlocks, tc.events)
		}
	}
	// dining 5, bbchan 4, parallelpi 2, singlelock 4.
	if models != 15 {
		t.Errorf("%d rows of exactTests modelled, want 15", models)
	}
}
