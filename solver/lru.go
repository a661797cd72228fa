// This file implements the bounded least-recently-used map behind Cached.

package solver

import "container/list"

// entry is a cached answer: a Sat model or an Unsat result with, when one
// was computed, its core.
type entry struct {
	status Status
	model  Model
	core   []Expr
}

type lruItem struct {
	key string
	ent *entry
}

// lru is a string-keyed cache holding at most max entries; max < 0
// disables it.
type lru struct {
	max   int
	order *list.List // front is most recently used
	items map[string]*list.Element
}

func newLRU(max int) lru {
	return lru{max: max, order: list.New(), items: make(map[string]*list.Element)}
}

func (l *lru) get(key string) (*entry, bool) {
	el, ok := l.items[key]
	if !ok {
		return nil, false
	}
	l.order.MoveToFront(el)
	return el.Value.(*lruItem).ent, true
}

func (l *lru) put(key string, ent *entry) {
	if l.max < 0 {
		return
	}
	if el, ok := l.items[key]; ok {
		el.Value.(*lruItem).ent = ent
		l.order.MoveToFront(el)
		return
	}
	l.items[key] = l.order.PushFront(&lruItem{key: key, ent: ent})
	for l.order.Len() > l.max {
		old := l.order.Back()
		l.order.Remove(old)
		delete(l.items, old.Value.(*lruItem).key)
	}
}

// len returns the number of cached entries.
func (l *lru) len() int { return l.order.Len() }
