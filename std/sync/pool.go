// This file implements the stand-in of sync.Pool: inside an execution, a
// pool of the execution's own whose Get and Put are steps on a weft
// variable standing for the pool.

package sync

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/shim"
)

// Pool is sync.Pool. Inside an execution, Get and Put are each one step of
// the calling thread on a variable that stands for the pool (reports show
// an add to sync.Pool#n), and the pool is a stack of its own that starts
// empty in each execution: Get returns the item Put last, or, when there
// is none, what New returns (nil without New). sync.Pool may drop any item
// at any time; weft explores the pools that drop none, and a program whose
// correctness depends on which item Get returns is tested with the most
// recent one.
type Pool struct {
	r sync.Pool

	// New optionally specifies a function to generate a value when Get
	// would otherwise return nil.
	New  func() any
	name string // WeftName
}

// poolState is a Pool in one execution.
type poolState struct {
	steps *weft.Int[uint64]
	items []any
}

// poolCount keys, in the shim table, the number of Pools the execution has
// used, which names them.
var poolCount byte

// state returns p's state in the current execution.
//
//go:norace
func (p *Pool) state() *poolState {
	return shim.Lookup(unsafe.Pointer(p), func() *poolState {
		n := shim.Lookup(unsafe.Pointer(&poolCount), func() *int { return new(int) })
		*n++
		s := &poolState{steps: new(weft.Int[uint64])}
		if p.name != "" {
			s.steps.SetName(p.name)
		} else {
			s.steps.SetName(fmt.Sprintf("sync.Pool#%d", *n))
		}
		return s
	})
}

// Get selects an item from the pool, removes it from the pool and returns
// it to the caller. If there is none, it returns the result of calling
// p.New, or nil if New is nil.
func (p *Pool) Get() any {
	var x any
	if shim.Active() {
		s := p.state()
		s.steps.Add(1)
		if n := len(s.items); n > 0 {
			x, s.items = s.items[n-1], s.items[:n-1]
		}
	} else {
		x = p.r.Get()
	}
	if x == nil && p.New != nil {
		x = p.New()
	}
	return x
}

// Put adds x to the pool.
func (p *Pool) Put(x any) {
	if x == nil {
		return
	}
	if !shim.Active() {
		p.r.Put(x)
		return
	}
	s := p.state()
	s.steps.Add(1)
	s.items = append(s.items, x)
}
