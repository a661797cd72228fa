// This file implements the children of a cancelable context, kept in the
// order they were adopted.

package context

// children are the cancelers a cancelCtx cancels with itself, in the
// order of their adoption: canceling them in that order makes an
// execution repeat itself under the same schedule, where the order of a
// range over a map (package context's own) differs from one execution to
// the next, and weft's determinism check reported the test as not
// deterministic (alitto/pond's pool, whose tasks' contexts are children
// of the pool's). A child removed leaves a hole, nil, until holes are
// half of the list.
type children struct {
	list  []canceler
	index map[canceler]int // the place of each child in list
	holes int
}

// add adds child.
func (cs *children) add(child canceler) {
	if cs.index == nil {
		cs.index = map[canceler]int{}
	}
	cs.index[child] = len(cs.list)
	cs.list = append(cs.list, child)
}

// remove removes child, if it is one.
func (cs *children) remove(child canceler) {
	i, ok := cs.index[child]
	if !ok {
		return
	}
	delete(cs.index, child)
	cs.list[i] = nil
	cs.holes++
	if cs.holes > len(cs.list)/2 {
		kept := cs.list[:0]
		for _, c := range cs.list {
			if c != nil {
				cs.index[c] = len(kept)
				kept = append(kept, c)
			}
		}
		clear(cs.list[len(kept):])
		cs.list, cs.holes = kept, 0
	}
}

// all returns the children in the order of their adoption, and forgets
// them.
func (cs *children) all() []canceler {
	list := cs.list
	*cs = children{}
	return list
}
