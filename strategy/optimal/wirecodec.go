// This file writes and reads the binary forms of units, handbacks and
// letters (package wire): field by field, in the order of their types'
// declarations (unitwire.go), each form starting with wireVersion.

package optimal

import (
	"github.com/weft-go/weft/internal/wire"
	"github.com/weft-go/weft/trace"
)

// wireVersion starts every binary form of this file: a change to the forms
// must change it, so that a process of another version refuses them
// (strategy.ErrBadUnit) rather than misreads them.
const wireVersion = 1

// eventMinBytes is the least number of bytes the form of a wireEvent
// takes (one per number, bool and list length): a list's length read is
// bounded by the bytes left over it.
const eventMinBytes = 28

// AppendBinary implements encoding.BinaryAppender (strategy.EncodeUnit).
func (d *unitData) AppendBinary(b []byte) ([]byte, error) {
	b = wire.AppendUint(b, wireVersion)
	b = appendNodes(b, d.Nodes)
	b = appendNames(b, &d.Names)
	b = wire.AppendBool(b, d.FailedBefore)
	b = wire.AppendBytes(b, d.Rand)
	b = wire.AppendBool(b, d.Large)
	return wire.AppendBool(b, d.Mail), nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler
// (strategy.DecodeUnit).
func (d *unitData) UnmarshalBinary(b []byte) error {
	r := wire.NewReader(b)
	readVersion(r)
	*d = unitData{Nodes: readNodes(r), Names: readNames(r), FailedBefore: r.Bool(), Rand: r.Bytes(), Large: r.Bool(), Mail: r.Bool()}
	return r.Done()
}

// AppendBinary implements encoding.BinaryAppender
// (strategy.EncodeHandback).
func (d *handbackData) AppendBinary(b []byte) ([]byte, error) {
	b = wire.AppendUint(b, wireVersion)
	b = appendNodes(b, d.Path)
	b = wire.AppendBool(b, d.Large)
	b = wire.AppendUint(b, uint64(len(d.Inserts)))
	for i := range d.Inserts {
		in := &d.Inserts[i]
		b = wire.AppendInt(b, int64(in.Depth))
		b = appendEvents(b, in.Seq)
		b = appendEvents(b, in.Branch)
		b = wire.AppendUint(b, uint64(len(in.At)))
		for _, a := range in.At {
			b = wire.AppendInt(b, int64(a))
		}
	}
	b = appendNames(b, &d.Names)
	b = wire.AppendUint(b, uint64(len(d.Merges)))
	for _, m := range d.Merges {
		b = wire.AppendUint(wire.AppendUint(b, m.From), m.To)
	}
	b = wire.AppendBool(b, d.FailedBefore)
	b = wire.AppendBytes(b, d.Rand)
	st := &d.Stats
	for _, v := range [...]int{st.Races, st.Inserted, st.SleepBlocked, st.Infeasible, st.Unmodelled,
		st.MaxDepth, st.WakeupNodes, st.Merges, st.Candidates} {
		b = wire.AppendInt(b, int64(v))
	}
	return b, nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler
// (strategy.DecodeHandback).
func (d *handbackData) UnmarshalBinary(b []byte) error {
	r := wire.NewReader(b)
	readVersion(r)
	*d = handbackData{Path: readNodes(r), Large: r.Bool()}
	if n := r.Len(4); n > 0 {
		d.Inserts = make([]wireInsert, n)
		for i := range d.Inserts {
			in := &d.Inserts[i]
			in.Depth = int(r.Int())
			in.Seq, in.Branch = readEvents(r), readEvents(r)
			if k := r.Len(1); k > 0 {
				in.At = make([]int, k)
				for j := range in.At {
					in.At[j] = int(r.Int())
				}
			}
		}
	}
	d.Names = readNames(r)
	if n := r.Len(2); n > 0 {
		d.Merges = make([]trace.KeyMerge, n)
		for i := range d.Merges {
			d.Merges[i] = trace.KeyMerge{From: r.Uint(), To: r.Uint()}
		}
	}
	d.FailedBefore, d.Rand = r.Bool(), r.Bytes()
	st := &d.Stats
	for _, v := range [...]*int{&st.Races, &st.Inserted, &st.SleepBlocked, &st.Infeasible, &st.Unmodelled,
		&st.MaxDepth, &st.WakeupNodes, &st.Merges, &st.Candidates} {
		*v = int(r.Int())
	}
	return r.Done()
}

// AppendBinary implements encoding.BinaryAppender
// (strategy.EncodeLetter).
func (d *letterData) AppendBinary(b []byte) ([]byte, error) {
	b = wire.AppendUint(b, wireVersion)
	b = wire.AppendBool(b, d.Close)
	b = appendNames(b, &d.Names)
	return appendEvents(b, d.Seq), nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler
// (strategy.DecodeLetter).
func (d *letterData) UnmarshalBinary(b []byte) error {
	r := wire.NewReader(b)
	readVersion(r)
	*d = letterData{Close: r.Bool(), Names: readNames(r), Seq: readEvents(r)}
	return r.Done()
}

// readVersion reads the version that starts a form, which must be
// wireVersion.
func readVersion(r *wire.Reader) {
	if v := r.Uint(); r.Err() == nil && v != wireVersion {
		r.Failed("version %d of the form, where this weft reads %d (made by another version of weft)", v, wireVersion)
	}
}

func appendNames(b []byte, w *wireNames) []byte {
	b = wire.AppendUint(b, uint64(len(w.Threads)))
	for _, t := range w.Threads {
		b = wire.AppendInt(wire.AppendInt(wire.AppendInt(b, int64(t.Parent)), int64(t.Rank)), int64(t.ID))
	}
	b = wire.AppendUint(b, uint64(len(w.Objects)))
	for _, o := range w.Objects {
		b = wire.AppendInt(wire.AppendUint(b, o.Key), int64(o.ID))
	}
	return b
}

func readNames(r *wire.Reader) wireNames {
	var w wireNames
	if n := r.Len(3); n > 0 {
		w.Threads = make([]wireThread, n)
		for i := range w.Threads {
			w.Threads[i] = wireThread{Parent: r.Int32(), Rank: r.Int32(), ID: trace.ThreadID(r.Int32())}
		}
	}
	if n := r.Len(2); n > 0 {
		w.Objects = make([]wireObject, n)
		for i := range w.Objects {
			w.Objects[i] = wireObject{Key: r.Uint(), ID: trace.ObjectID(r.Int32())}
		}
	}
	return w
}

func appendNodes(b []byte, ns []wireNode) []byte {
	b = wire.AppendUint(b, uint64(len(ns)))
	for i := range ns {
		n := &ns[i]
		b = appendEvent(b, &n.Ev)
		b = wire.AppendInt(b, int64(n.Alt))
		b = appendEvents(b, n.Sleep)
		b = appendForest(b, n.Wut)
		b = appendForest(b, n.Given)
	}
	return b
}

func readNodes(r *wire.Reader) []wireNode {
	n := r.Len(eventMinBytes + 4)
	if n == 0 {
		return nil
	}
	ns := make([]wireNode, n)
	for i := range ns {
		w := &ns[i]
		readEvent(r, &w.Ev)
		w.Alt = r.Int32()
		w.Sleep = readEvents(r)
		w.Wut, w.Given = readForest(r), readForest(r)
		if r.Err() != nil {
			return nil
		}
	}
	return ns
}

func appendForest(b []byte, f []wireTree) []byte {
	b = wire.AppendUint(b, uint64(len(f)))
	for i := range f {
		b = appendForest(appendEvent(b, &f[i].Ev), f[i].Children)
	}
	return b
}

// readForest reads a forest written by appendForest. Each level of a tree
// takes an event's bytes: the bytes bound its depth.
func readForest(r *wire.Reader) []wireTree {
	n := r.Len(eventMinBytes + 1)
	if n == 0 {
		return nil
	}
	f := make([]wireTree, n)
	for i := range f {
		readEvent(r, &f[i].Ev)
		f[i].Children = readForest(r)
		if r.Err() != nil {
			return nil
		}
	}
	return f
}

func appendEvents(b []byte, es []wireEvent) []byte {
	b = wire.AppendUint(b, uint64(len(es)))
	for i := range es {
		b = appendEvent(b, &es[i])
	}
	return b
}

func readEvents(r *wire.Reader) []wireEvent {
	n := r.Len(eventMinBytes)
	if n == 0 {
		return nil
	}
	es := make([]wireEvent, n)
	for i := range es {
		readEvent(r, &es[i])
	}
	return es
}

// The flags of an event's form: its bools.
const (
	flagOK = 1 << iota
	flagSymValue
	flagCached
	flagFails
	flagsAll = 1<<iota - 1
)

func appendEvent(b []byte, e *wireEvent) []byte {
	ev := &e.Event
	b = wire.AppendInt(b, int64(ev.Thread))
	b = wire.AppendInt(b, int64(ev.Alt))
	b = appendOp(b, &ev.Op)
	b = wire.AppendInt(b, int64(ev.Case))
	b = wire.AppendInt(b, int64(ev.Partner))
	b = wire.AppendInt(b, int64(ev.PartnerCase))
	b = wire.AppendInt(b, int64(ev.Src))
	b = appendOp(b, &ev.PartnerOp)
	b = wire.AppendUint(b, ev.Value)
	b = wire.AppendInt(b, int64(ev.Spawned))
	b = wire.AppendUint(b, uint64(ev.PC))
	var flags uint64
	for i, on := range [...]bool{ev.OK, ev.SymValue, e.Cached, e.Fails} {
		if on {
			flags |= 1 << i
		}
	}
	b = wire.AppendUint(b, flags)
	b = wire.AppendInt(b, int64(e.Step))
	b = wire.AppendInt(b, int64(e.PStep))
	b = wire.AppendUint(b, uint64(len(e.Ann)))
	for _, a := range e.Ann {
		b = wire.AppendUint(wire.AppendInt(b, int64(a.Obj)), uint64(a.Mode))
	}
	b = wire.AppendInt(b, int64(e.SpawnLo))
	b = wire.AppendInt(b, int64(e.Th))
	b = wire.AppendInt(b, int64(e.Part))
	b = wire.AppendInt(b, int64(e.Jn))
	b = wire.AppendUint(b, uint64(len(e.Kids)))
	for _, k := range e.Kids {
		b = wire.AppendInt(b, int64(k))
	}
	return b
}

func readEvent(r *wire.Reader, e *wireEvent) {
	ev := &e.Event
	ev.Thread, ev.Alt = trace.ThreadID(r.Int32()), r.Int32()
	readOp(r, &ev.Op)
	ev.Case, ev.Partner, ev.PartnerCase, ev.Src = r.Int32(), trace.ThreadID(r.Int32()), r.Int32(), r.Int32()
	readOp(r, &ev.PartnerOp)
	ev.Value, ev.Spawned, ev.PC = r.Uint(), r.Int32(), uintptr(r.Uint())
	flags := r.Uint()
	if flags&^flagsAll != 0 {
		r.Failed("event flags %#x", flags)
	}
	ev.OK, ev.SymValue = flags&flagOK != 0, flags&flagSymValue != 0
	e.Cached, e.Fails = flags&flagCached != 0, flags&flagFails != 0
	e.Step, e.PStep = r.Int32(), r.Int32()
	if n := r.Len(2); n > 0 {
		e.Ann = make([]trace.Access, n)
		for i := range e.Ann {
			a := &e.Ann[i]
			a.Obj, a.Mode = trace.ObjectID(r.Int32()), trace.Mode(r.Uint8())
			if a.Mode < trace.Read || a.Mode > trace.Shared {
				r.Failed("access mode %d", a.Mode)
			}
		}
	}
	e.SpawnLo, e.Th, e.Part, e.Jn = trace.ThreadID(r.Int32()), trace.ThreadID(r.Int32()), trace.ThreadID(r.Int32()), trace.ThreadID(r.Int32())
	if n := r.Len(1); n > 0 {
		e.Kids = make([]trace.ThreadID, n)
		for i := range e.Kids {
			e.Kids[i] = trace.ThreadID(r.Int32())
		}
	}
}

func appendOp(b []byte, op *trace.Op) []byte {
	b = wire.AppendUint(b, uint64(op.Kind))
	b = wire.AppendUint(b, uint64(op.Class))
	b = wire.AppendInt(b, int64(op.Obj))
	b = wire.AppendInt(b, op.Arg)
	b = wire.AppendUint(b, uint64(len(op.Cases)))
	for _, c := range op.Cases {
		b = wire.AppendInt(wire.AppendUint(b, uint64(c.Kind)), int64(c.Obj))
	}
	return b
}

func readOp(r *wire.Reader, op *trace.Op) {
	op.Kind, op.Class = kindOf(r), trace.Class(r.Uint8())
	if int(op.Class) >= trace.NumClasses {
		r.Failed("object class %d", op.Class)
	}
	op.Obj, op.Arg = trace.ObjectID(r.Int32()), r.Int()
	op.Cases = nil
	if n := r.Len(2); n > 0 {
		op.Cases = make([]trace.Case, n)
		for i := range op.Cases {
			op.Cases[i] = trace.Case{Kind: kindOf(r), Obj: trace.ObjectID(r.Int32())}
		}
	}
}

// kindOf reads an operation's kind.
func kindOf(r *wire.Reader) trace.Kind {
	k := trace.Kind(r.Uint8())
	if int(k) >= trace.NumKinds {
		r.Failed("operation kind %d", k)
	}
	return k
}
