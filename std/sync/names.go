// This file implements the naming of the stand-ins in reports: weft test's
// rewriting calls WeftName with the expression a method is called on
// (p.mu.WeftName("p.mu").Lock()), so that a report shows "lock p.mu"
// rather than "lock mutex#1".

package sync

import "github.com/weft-go/weft/internal/shim"

// WeftName names m in weft's reports, the first time it is called inside
// an execution, and returns m. The name is a static string: naming costs
// a call and a test of a flag on every later call. Its accesses are
// weft's, which weft test -race does not show the race detector: weft's
// packages are built without its instrumentation, and the WeftName
// methods are not inlined into the program's instrumented code.
//
//go:noinline
func (m *Mutex) WeftName(name string) *Mutex {
	if !m.named && shim.Active() {
		m.named = true
		m.w.SetName(name)
	}
	return m
}

// WeftName names rw as Mutex.WeftName does.
//
//go:noinline
func (rw *RWMutex) WeftName(name string) *RWMutex {
	if !rw.named && shim.Active() {
		rw.named = true
		rw.w.SetName(name)
	}
	return rw
}

// WeftName names wg as Mutex.WeftName does.
//
//go:noinline
func (wg *WaitGroup) WeftName(name string) *WaitGroup {
	if !wg.named && shim.Active() {
		wg.named = true
		wg.w.SetName(name)
	}
	return wg
}

// WeftName names o as Mutex.WeftName does.
//
//go:noinline
func (o *Once) WeftName(name string) *Once {
	if !o.named && shim.Active() {
		o.named = true
		o.w.SetName(name)
	}
	return o
}

// WeftName names c as Mutex.WeftName does.
//
//go:noinline
func (c *Cond) WeftName(name string) *Cond {
	if !c.named && shim.Active() {
		c.named = true
		c.w.SetName(name)
	}
	return c
}

// WeftName names m in weft's reports ("sync.Map cache.m"), if it has no
// name yet, and returns m: each execution names the variable that stands
// for the map when it first uses it.
//
//go:noinline
func (m *Map) WeftName(name string) *Map {
	if m.name == "" {
		m.name = "sync.Map " + name
	}
	return m
}

// WeftName names p as Map.WeftName does ("sync.Pool bufs").
//
//go:noinline
func (p *Pool) WeftName(name string) *Pool {
	if p.name == "" {
		p.name = "sync.Pool " + name
	}
	return p
}
