// This file computes possible extensions the naive way (Kähkönen et al. 2014, Fig. 10,
// §4.2.1): for each condition the new event produced, every set of
// conditions with the right places that holds it is tried for concurrency.
// It is slow, and kept as the oracle of the efficient computation (§5).

package unfold

import "github.com/weft-go/weft/trace"

// naiveExtensions adds the possible extensions of the conditions cs, the
// postset of an event just added (or the initial conditions).
func (n *net) naiveExtensions(cs []int32) {
	for _, c := range cs {
		p := &n.places[n.conds[c].place]
		switch p.kind {
		case threadPlace:
			n.defaultsWith(c)
			switch k := n.conds[c].op; {
			case n.daemon(c):
				n.meets(c)
				n.timerChanged(c)
			case k.kind == kindBranch:
				n.branchExtensions(c)
			case k.kind == trace.KindSelect && n.conds[c].state == pending:
				n.selectExts(c)
				n.meets(c)
			case !k.none() && n.conds[c].state == pending:
				n.naiveFrom(c, -1, -1)
				n.meets(c)
			}
			if n.conds[c].state == done {
				for _, t := range n.joiners[p.thread] {
					n.naiveFrom(t, n.conds[c].place, c)
				}
			}
		default:
			for _, t := range n.wanting(p) {
				n.naiveFrom(t, n.conds[c].place, c)
			}
			if n.objects[p.obj].class == trace.ClassChan {
				n.selectsOf(p)
			}
		}
	}
}

// wanting returns the thread conditions whose next operation takes a
// condition of place p.
func (n *net) wanting(p *place) []int32 {
	var out []int32
	ob := n.objects[p.obj]
	for _, t := range ob.users {
		k := n.conds[t].op
		th := n.places[n.conds[t].place].thread
		if p.kind == copyPlace && accessOf(k) == readAccess && th != p.thread && !holderRUnlock(k) {
			continue // another thread's copy (a holder's RUnlock may take every one)
		}
		out = append(out, t)
	}
	out = append(out, ob.condUsers...)
	for _, t := range ob.awaiters {
		if n.threadOf(t) == p.thread {
			out = append(out, t)
		}
	}
	return out
}

// naiveFrom adds the extensions of thread condition t whose presets hold
// condition fixed of place fp (any, if fp is -1): it tries every choice of
// one condition per place the event needs.
//
// A holder's RUnlock is tried both ways: with its copy, and, once the
// RWMutex has a deficit, with every copy (runlock.go).
func (n *net) naiveFrom(t, fp, fixed int32) {
	k := n.conds[t].op
	n.naiveOf(t, k, fp, fixed)
	if holderRUnlock(k) && n.objects[k.obj].deficit {
		n.naiveOf(t, holderAll(k), fp, fixed)
	}
}

// naiveOf is naiveFrom for the event of t of operation k.
func (n *net) naiveOf(t int32, k opKey, fp, fixed int32) {
	if accessOf(k) == advanceAccess {
		n.advanceExts(t, fp, fixed) // clock.go
		return
	}
	if condAwait(k) {
		n.condAwaitExts(t, fp, fixed)
		return
	}
	if accessOf(k) == nilAccess && (k.kind == trace.KindSend || k.kind == trace.KindRecv) {
		return // it blocks forever
	}
	if k.kind == trace.KindSleep && n.sleeping(t) {
		return // only an advance wakes it (sleep.go)
	}
	ps := n.resources(nil, n.places[n.conds[t].place].thread, k)
	if fp >= 0 {
		found := false
		for _, p := range ps {
			found = found || p == fp
		}
		if !found {
			return
		}
	}
	pre := make([]int32, 1, 1+len(ps))
	pre[0] = t
	var try func(i int)
	try = func(i int) {
		if ok, fatal := n.co(pre...); !ok || fatal {
			return // no superset is a co-set either
		}
		if i == len(ps) {
			if (k.class != trace.ClassRWMutex && accessOf(k) != awaitAccess) || n.acceptsEach(k, pre[1:]) {
				n.extension(pre)
			}
			return
		}
		cands := n.places[ps[i]].conds
		if ps[i] == fp {
			cands = []int32{fixed}
		}
		for _, c := range cands {
			if !n.accepts(k, &n.conds[c]) {
				continue
			}
			pre = append(pre, c)
			try(i + 1)
			pre = pre[:len(pre)-1]
		}
	}
	try(0)
}
