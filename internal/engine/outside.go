// This file implements the objects that stand for what code outside weft's
// control made: a channel a package kept real (weft test -real) or the
// standard library made, whose other side no thread of weft's runs. A
// thread left blocked on one is reported as blocked outside weft, naming
// where the object was made, rather than as a deadlock or a leak.

package engine

import (
	"fmt"

	"github.com/weft-go/weft/trace"
)

// BeforeExecution is the origin (MadeOutside) of a channel that the
// execution uses but did not make: code outside any execution made it (a
// package-level variable's initialisation, TestMain, the test's code
// before the exploration, an earlier execution), or a package weft test
// does not rewrite did.
const BeforeExecution = "\x00before"

// MadeOutside says that the next object the running thread creates
// (Create) stands for one that origin, a function outside weft's control
// ("example.com/pool.Results"), made. Outside an execution it does
// nothing.
func MadeOutside(origin string) {
	if t := Current(); t != nil {
		t.nextOrigin = origin
	}
}

// noteOrigin records, when t created o, the origin MadeOutside gave.
func (t *Thread) noteOrigin(o *Obj) {
	if t.nextOrigin == "" {
		return
	}
	e := t.e
	if e.origins == nil {
		e.origins = map[*Obj]string{}
	}
	e.origins[o] = t.nextOrigin
	t.nextOrigin = ""
}

// blockedOutside returns the message of an execution in which no thread
// can move and thread t waits on an object made outside weft's control,
// or "" if none does; blocked lists every blocked thread's operation.
func (e *Exec) blockedOutside(blocked string) (*Thread, string) {
	if len(e.origins) == 0 {
		return nil, ""
	}
	for _, t := range e.threads {
		if t.done || t.daemon {
			continue
		}
		objs := []*Obj{t.obj}
		for _, c := range t.op.Cases {
			if int(c.Obj) >= 0 && int(c.Obj) < len(e.objs) {
				objs = append(objs, e.objs[c.Obj])
			}
		}
		for _, o := range objs {
			origin, ok := e.origins[o]
			switch {
			case !ok || o == nil:
			case origin == BeforeExecution:
				return t, fmt.Sprintf("%s blocked on %s, a channel this execution did not make, outside weft's control: it was made before the execution began (by a package-level variable's initialisation, TestMain, or an earlier execution) or by a package weft test does not rewrite, so weft does not know what happened to it outside the execution nor which goroutines, outside weft, would send on it or close it; blocked:%s",
					t.label(), e.describe(t.op), blocked)
			default:
				return t, fmt.Sprintf("%s blocked on %s, a channel made in %s, outside weft's control: the goroutines that would send on it or close it run outside weft (a package kept real with -real, or the standard library), so weft can neither schedule them nor tell whether they ever will; blocked:%s",
					t.label(), e.describe(t.op), origin, blocked)
			}
		}
	}
	return nil, ""
}

// endBlockedOutside ends the execution as blocked outside weft if a
// blocked thread waits on an object made outside weft's control, and
// reports whether it did.
func (e *Exec) endBlockedOutside(blocked string) bool {
	t, msg := e.blockedOutside(blocked)
	if t == nil {
		return false
	}
	e.finish(trace.End{Status: trace.Failed, Kind: trace.Blocked, Thread: t.id, Message: msg})
	return true
}
