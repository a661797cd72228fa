package src

import "sync"

// The objects of these methods are named in reports by the expression
// they are applied to: a promoted method through the embedded field's
// path, since a type that embeds two of sync's types has two WeftName.
type guarded struct {
	sync.Mutex
	*sync.WaitGroup
	wg    sync.WaitGroup
	cache sync.Map
	bufs  sync.Pool
	cond  *sync.Cond
}

func (g *guarded) use(all []*guarded, i int) {
	g.Lock()
	g.Done()
	g.Unlock()
	all[i].wg.Add(1)
	g.cache.Store(i, i)
	g.bufs.Put(i)
	g.cond.Signal()
	(&sync.Once{}).Do(func() {}) // a literal: no name
	lookup(all, i, i, i).wg.Done()
	lookupWithAVeryLongName(all, i, i, i+1).wg.Wait() // too long to name
}

func lookup(all []*guarded, i, _, _ int) *guarded { return all[i] }

func lookupWithAVeryLongName(all []*guarded, i, _, _ int) *guarded { return all[i] }
