// This file implements select.

package weft

import (
	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/trace"
)

// SelectCase is one case of Select: made by OnRecv, OnSend or OnDefault.
type SelectCase struct {
	c         caser
	isDefault bool
	onDefault func()
}

// caser is the typed side of a channel case.
type caser interface {
	object(t *engine.Thread) *engine.Obj
	isSend() bool
	register(t *engine.Thread, o *engine.Obj, cas int32)
	unregister(t *engine.Thread, o *engine.Obj, cas int32)
	commit(t *engine.Thread, o *engine.Obj, cas int, alt int32)
	run()
}

// OnRecv is a select case that receives from c and calls f (if not nil)
// with the value and ok, as `case v, ok := <-c:` does.
//
//go:norace
func OnRecv[T any](c *Chan[T], f func(v T, ok bool)) SelectCase {
	return SelectCase{c: &recvCase[T]{c: c, f: f}}
}

// OnSend is a select case that sends v on c and then calls f (if not nil),
// as `case c <- v:` does.
//
//go:norace
func OnSend[T any](c *Chan[T], v T, f func()) SelectCase {
	return SelectCase{c: &sendCase[T]{c: c, v: v, f: f}}
}

// OnDefault is a select's default case: taken only when no other case is
// ready. It calls f if not nil. As in Go, a select with a default never
// waits for a partner: its cases on unbuffered channels meet only a thread
// already blocked on the other side, never another select with a default.
func OnDefault(f func()) SelectCase {
	return SelectCase{isDefault: true, onDefault: f}
}

// Select waits until one of its cases can proceed, performs it and returns
// its index among cases, as Go's select statement. When several are ready,
// which one runs is a choice the exploration makes. A select with no case
// blocks forever.
func Select(cases ...SelectCase) int {
	t := cur()
	var buf [8]engine.SelectCase
	ecases := buf[:0]
	var objs [8]*engine.Obj
	os := objs[:0]
	index := make([]int, 0, len(cases)) // position in cases of each channel case
	def := -1
	for i, c := range cases {
		if c.isDefault {
			if def >= 0 {
				panic("weft: Select with more than one default case")
			}
			def = i
			continue
		}
		o := c.c.object(t)
		if c.c.isSend() && t.SendsOnTimer(o) {
			timerSendPanic("send on")
		}
		os = append(os, o)
		ecases = append(ecases, engine.SelectCase{Obj: o, Send: c.c.isSend()})
		index = append(index, i)
	}
	for j, i := range index {
		if c := cases[i].c; c.isSend() && os[j] != nil {
			c.register(t, os[j], int32(j))
		}
	}
	ci, k, met := t.SelectBegin(ecases, def >= 0)
	for j, i := range index {
		if c := cases[i].c; c.isSend() && os[j] != nil && !(met && j == ci) {
			c.unregister(t, os[j], int32(j))
		}
	}
	if ci < 0 {
		t.EndSelect(-1, 0, true)
		if f := cases[def].onDefault; f != nil {
			f()
		}
		return def
	}
	c := cases[index[ci]].c
	if !met {
		c.commit(t, os[ci], ci, k)
	}
	c.run()
	return index[ci]
}

// recvCase is a receive case.
type recvCase[T any] struct {
	c  *Chan[T]
	f  func(T, bool)
	v  T
	ok bool
}

func (r *recvCase[T]) object(t *engine.Thread) *engine.Obj           { return r.c.obj(t) }
func (r *recvCase[T]) isSend() bool                                  { return false }
func (r *recvCase[T]) register(*engine.Thread, *engine.Obj, int32)   {}
func (r *recvCase[T]) unregister(*engine.Thread, *engine.Obj, int32) {}

func (r *recvCase[T]) commit(t *engine.Thread, o *engine.Obj, cas int, alt int32) {
	r.v, r.ok = r.c.recv(t, o, alt, func(v T, ok bool) *trace.Event {
		return t.EndSelect(cas, encode(r.c.enc, v), ok)
	})
}

func (r *recvCase[T]) run() {
	if r.c.onRecv != nil {
		r.c.onRecv()
	}
	if r.f != nil {
		r.f(r.v, r.ok)
	}
}

// sendCase is a send case.
type sendCase[T any] struct {
	c *Chan[T]
	v T
	f func()
}

func (s *sendCase[T]) object(t *engine.Thread) *engine.Obj { return s.c.obj(t) }
func (s *sendCase[T]) isSend() bool                        { return true }

func (s *sendCase[T]) register(t *engine.Thread, o *engine.Obj, cas int32) {
	s.c.addSend(t, o, cas, s.v)
}

func (s *sendCase[T]) unregister(t *engine.Thread, o *engine.Obj, cas int32) {
	s.c.removeSend(t, o, cas)
}

func (s *sendCase[T]) commit(t *engine.Thread, o *engine.Obj, cas int, _ int32) {
	if o.Closed() {
		t.EndSelect(cas, encode(s.c.enc, s.v), false).Src = o.CloseSrc()
		engine.Panic(trace.SendOnClosed, "send on closed channel")
	}
	s.c.push(t, o, s.v)
	t.EndSelect(cas, encode(s.c.enc, s.v), true)
	noteValue(t, s.v)
}

func (s *sendCase[T]) run() {
	if s.f != nil {
		s.f()
	}
}
