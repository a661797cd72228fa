// This file implements the extension of scenarios by an interference on
// a step of another primitive (the counterpart of Farzan et al. 2013's
// Alg. 3 for them): a step that synchronised with no other thread's, or
// that a thread was about to take when an execution ended, is tried with
// each known step of another thread on its object as its source.

package con2

import (
	"slices"

	"github.com/weft-go/weft/trace"
)

// pending adds, for each thread of execution tr that ends with a pending
// step of another primitive, a hypothetical node of that step with no
// source (tried with sources by alternatives), and for a send on an
// unbuffered channel (or a select's send case on one) the sender's side
// of a rendezvous, a source for receives.
func (s *Strategy) pending(tr *trace.Trace) {
	f, b := s.f, &s.b
	for p, op := range tr.Final {
		if op.Kind == trace.KindNone || p >= len(b.last) || b.last[p] == none && p != 0 {
			continue
		}
		th := b.stable(trace.ThreadID(p))
		if k := [2]int32{b.last[p], int32(th)}; op.Kind != trace.KindSelect || len(op.Cases) > 0 {
			if _, ok := f.waits[k]; !ok {
				f.waits[k] = f.numOp(tr, op, b.names)
			}
		}
		if s.pendingWait(tr, p, op) || !modelled(op) {
			continue
		}
		var cases []int32
		switch {
		case op.Kind == trace.KindSend && op.Obj >= 0 && tr.Objects[op.Obj].Cap == 0:
			cases = []int32{-1}
		case op.Kind == trace.KindSelect:
			for i, c := range op.Cases {
				if c.Kind == trace.KindSend && c.Obj >= 0 && tr.Objects[c.Obj].Cap == 0 {
					cases = append(cases, int32(i))
				}
			}
		}
		for _, i := range cases {
			l := label{kind: kSync, op: op.Kind, obj: caseKey(tr, op, i), cas: i, ok: true, rdv: true}
			n, _ := f.intern(key{thread: th, up: b.last[p], src: none, lab: l})
			f.setOp(n, tr, op, b.names)
			f.addSync(n)
			f.dueSends(th, b.last[p], l, f.ops[n])
		}
		if op.Kind == trace.KindSend && len(cases) > 0 {
			continue
		}
		l := label{kind: kSync, op: op.Kind, obj: caseKey(tr, op, -1), cas: -1, ok: true}
		if op.Class == trace.ClassMutex {
			l = label{kind: kAcquire, op: op.Kind, obj: l.obj} // a TryLock that succeeds
		}
		if m := trace.ArgObject(&op); m != trace.NoObject {
			l.lock = tr.Objects[m].Key
		}
		n, fresh := f.intern(key{thread: th, up: b.last[p], src: none, lab: l})
		f.setOp(n, tr, op, b.names)
		if fresh {
			f.pend = append(f.pend, n)
			s.add(&isc{kind: iscRead, sink: n, target: th, tips: []int32{n}})
		}
	}
}

// alternatives queues the ISCs that give a step with no source (an
// observed one, or a pending one) a source: each step of another thread
// on one of its objects, once per pair. The label of the step so
// synchronised is what it would then be (the select case on the
// source's channel; a receive of a close not OK; a Do or a try-lock that
// fails); the search for an order (order.go) decides whether it is
// realizable.
func (s *Strategy) alternatives() {
	f := s.f
	var locals []int32
	for _, obj := range f.syncObjs {
		for _, n := range f.syncs[obj] {
			if nd := &f.nodes[n]; nd.observed && nd.src == none && !nd.lab.rdv && !slices.Contains(locals, n) {
				locals = append(locals, n)
			}
		}
	}
	locals = append(locals, f.pend...)
	for _, n := range locals {
		if s.stop.Poll() {
			return
		}
		s.otherCases(n)
		for _, obj := range f.objects(n) {
			for _, w := range f.syncs[obj] {
				pair := [2]int32{n, w}
				if f.tried[pair] {
					continue
				}
				f.tried[pair] = true
				nd, wn := &f.nodes[n], &f.nodes[w]
				if wn.thread == nd.thread || f.before(w, nd.up) || !f.compatible(w, nd.thread, nd.depth) {
					continue
				}
				l, ok := f.synchronised(n, w)
				if !ok {
					continue
				}
				k := nd.key
				k.src, k.lab = w, l
				m, _ := f.intern(k)
				f.ops[m] = f.ops[n]
				f.addReceiver(m)
				s.add(&isc{kind: iscRead, sink: m, target: nd.thread, tips: []int32{m}})
				if wn.lab.rdv {
					// The sender goes on from its send (extract).
					s.add(&isc{kind: iscRead, sink: w, target: wn.thread, tips: []int32{w}})
				}
			}
		}
	}
}

// compatible reports whether write or step w can be a source of a step
// of thread th at depth d: no node of th at depth d or beyond is in w's
// causal past (the source would come after the step it is the source
// of, or they need different paths of th).
func (f *forest) compatible(w int32, th trace.ThreadID, d int32) bool {
	for _, n := range f.closure(w) {
		if m := &f.nodes[n]; m.thread == th && m.depth >= d {
			return false
		}
	}
	return true
}

// objects returns the keys of the objects step n touches: a select's
// channels, or its object.
func (f *forest) objects(n int32) []uint64 {
	op, ok := f.ops[n]
	if !ok || op.Kind != trace.KindSelect {
		return []uint64{f.nodes[n].lab.obj}
	}
	var out []uint64
	for _, c := range op.Cases {
		if c.Obj >= 0 && int(c.Obj) < len(f.keys) && !slices.Contains(out, f.keys[c.Obj]) {
			out = append(out, f.keys[c.Obj])
		}
	}
	return out
}

// synchronised returns the label of step n synchronised with step w, or
// false if n's operation cannot take w as its source.
func (f *forest) synchronised(n, w int32) (label, bool) {
	l, wl := f.nodes[n].lab, &f.nodes[w].lab
	op := f.ops[n]
	wop := f.ops[w]
	if op.Kind == trace.KindTryLock {
		// A try-lock fails when another thread holds the lock: its
		// source is that thread's acquire.
		if _, d := lockEffect(wl); d <= 0 || l.kind == kSync && !l.ok {
			return l, false
		}
		l.kind, l.ok, l.cas = kSync, false, -1
		return l, true
	}
	if l.kind != kSync || wl.kind != kSync {
		return l, false // the paper's locks synchronise with no step
	}
	wSend := wl.op == trace.KindSend || wl.op == trace.KindSelect && wl.cas >= 0 && int(wl.cas) < len(wop.Cases) && wop.Cases[wl.cas].Kind == trace.KindSend
	wRecv := wl.op == trace.KindRecv || wl.op == trace.KindSelect && wl.cas >= 0 && int(wl.cas) < len(wop.Cases) && wop.Cases[wl.cas].Kind == trace.KindRecv
	wClose := wl.op == trace.KindClose
	switch op.Kind {
	case trace.KindLen:
		return l, false // the length it would observe is not known
	case trace.KindSelect:
		for i, c := range op.Cases {
			if c.Obj < 0 || int(c.Obj) >= len(f.keys) || f.keys[c.Obj] != wl.obj {
				continue
			}
			if c.Kind == trace.KindRecv && (wSend || wClose) || c.Kind == trace.KindSend && (wRecv || wClose) {
				l.cas, l.obj, l.ok = int32(i), wl.obj, !wClose || c.Kind == trace.KindSend
				return l, true
			}
		}
		return l, false
	case trace.KindRecv:
		l.ok = !wClose
		return l, wSend || wClose
	case trace.KindSend:
		return l, wRecv || wClose
	case trace.KindOnceDo:
		l.ok = false
	}
	return l, true
}

// otherCases queues, once for a select step n with no source, the ISCs of
// n taking each of its other cases (and its default, if it has one)
// with no source either: a case another thread makes ready is tried by
// alternatives, one ready in the thread's own right (a send with room, a
// receive of its own value) here.
func (s *Strategy) otherCases(n int32) {
	f := s.f
	op, ok := f.ops[n]
	nd := &f.nodes[n]
	if !ok || op.Kind != trace.KindSelect || f.tried[[2]int32{n, none}] {
		return
	}
	f.tried[[2]int32{n, none}] = true
	for i := -1; i < len(op.Cases); i++ {
		l := nd.lab
		switch {
		case i == -1 && op.Arg != 1, int32(i) == l.cas:
			continue
		case i >= 0:
			if op.Cases[i].Obj < 0 || int(op.Cases[i].Obj) >= len(f.keys) {
				continue
			}
			l.obj = f.keys[op.Cases[i].Obj]
		case len(op.Cases) > 0 && op.Cases[0].Obj >= 0 && int(op.Cases[0].Obj) < len(f.keys):
			l.obj = f.keys[op.Cases[0].Obj]
		}
		l.cas, l.ok = int32(i), true
		k := nd.key
		k.lab = l
		m, _ := f.intern(k)
		f.ops[m] = op
		s.add(&isc{kind: iscRead, sink: m, target: nd.thread, tips: []int32{m}})
	}
}
