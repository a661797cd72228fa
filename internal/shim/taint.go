// This file implements the memory that an exploration's last execution
// left mid-way (cut by the timeout, the step bound or the strategy, or
// ended by a failure): no run of the test leaves it so under go test, so
// a later exploration that uses it is stopped, as inconclusive, rather
// than report what that state makes it do.

package shim

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/weft-go/weft/trace"
)

// OnTainted, if set, is called in a thread of an execution that uses, for
// the first time in the execution, memory that an earlier exploration
// left mid-way; msg says which exploration and how its last execution
// ended. It must end the execution (std/rt stops the exploration and
// skips the test as inconclusive). Set it before the first exploration.
var OnTainted func(msg string)

// taints holds the memory left mid-way: pending, added when an Exec
// closes, and active, which the executions read, set between explorations
// (BeginExploration), when no execution runs. active is a ptrTable, not a
// Go map, for the race detector (see ptrTable); its keys keep the memory
// they name alive, so that no later allocation reuses an address.
var taints struct {
	mu      sync.Mutex
	pending []taint
	test    string // the test whose exploration runs (BeginExploration)
	active  ptrTable
	// hit is the message of the taint the running exploration used, if
	// any: the memory it leaves mid-way is said to come from there.
	hit string
}

// taint is the memory one execution left mid-way, and what to say of it.
type taint struct {
	keys []unsafe.Pointer
	msg  string
}

// BeginExploration tells the shim that the exploration of the test named
// test is about to start, and that no execution runs: the memory earlier
// explorations left mid-way is tainted from now on.
func BeginExploration(test string) {
	taints.mu.Lock()
	defer taints.mu.Unlock()
	taints.test, taints.hit = test, ""
	for _, tt := range taints.pending {
		for _, p := range tt.keys {
			if _, ok := taints.active.get(p); !ok {
				taints.active.put(p, tt.msg)
			}
		}
	}
	clear(taints.pending)
	taints.pending = taints.pending[:0]
}

// checkTaint calls OnTainted if p is memory an earlier exploration left
// mid-way.
func checkTaint(p unsafe.Pointer) {
	if taints.active.n == 0 || OnTainted == nil {
		return
	}
	if msg, ok := taints.active.get(p); ok {
		taints.mu.Lock()
		if taints.hit == "" {
			taints.hit = msg.(string)
		}
		taints.mu.Unlock()
		OnTainted(msg.(string))
	}
}

// dirty returns how an execution that ended with end (interrupted: cut
// by the deadline) left memory mid-way, or "" if it did not: it ran to
// its end, or to goroutines blocked for ever after the test's body
// returned (a leak), as a run under go test does.
func dirty(end trace.End, interrupted bool) string {
	switch {
	case interrupted:
		return "cut by the timeout"
	case end.Status == trace.Complete:
		return ""
	case end.Status == trace.Failed && end.Kind == trace.Leak:
		return ""
	case end.Status == trace.Failed && end.Kind == trace.Livelock:
		return "stopped at the step bound"
	case end.Status == trace.Failed:
		return "ended by its failure (" + end.Kind.String() + ")"
	case end.Status == trace.Cut:
		return "cut by the strategy"
	}
	return "ended by an assumption that did not hold"
}

// addTaint records keys, the memory of an Exec's last execution, which
// ended as why says, as left mid-way.
func addTaint(keys []unsafe.Pointer, why string) {
	if len(keys) == 0 || OnTainted == nil {
		return
	}
	taints.mu.Lock()
	defer taints.mu.Unlock()
	if taints.hit != "" {
		// The exploration stopped at memory an earlier one left
		// mid-way: what it leaves comes from there.
		taints.pending = append(taints.pending, taint{keys: keys, msg: taints.hit})
		return
	}
	test := taints.test
	if test == "" {
		test = "an earlier test"
	}
	msg := fmt.Sprintf("this test uses memory (an atomic word, a channel) that the last execution of %s changed and left mid-way (%s): no run of %s leaves it so under go test; run this test alone (-run)", test, why, test)
	taints.pending = append(taints.pending, taint{keys: keys, msg: msg})
}
