// This file dispatches, through one table that each primitive's file
// fills in, the enabledness of a pending operation: how many alternatives
// it has.

package engine

import (
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// altsTable holds, by class and kind, the enabledness of the pending
// operations that may block: the number of alternatives of thread t's
// pending operation in the current state (0: it is blocked). Each
// primitive's file fills in its own (enabledWhen) as the package is
// initialised; an operation without an entry never blocks (loads and
// stores, unlocks, signals, Add, Close, Len, inputs, ...).
var altsTable [trace.NumClasses][trace.NumKinds]func(e *Exec, t *Thread) int32

// enabledWhen sets the enabledness of the operations of class c and kind k.
func enabledWhen(c trace.Class, k trace.Kind, alts func(e *Exec, t *Thread) int32) {
	if altsTable[c][k] != nil {
		panic("weft internal error: the enabledness of " + c.String() + " " + k.String() + " is set twice")
	}
	altsTable[c][k] = alts
}

// alts returns the number of alternatives of t's pending operation in the
// current state: 0 if it is blocked.
func (e *Exec) alts(t *Thread) int32 {
	if f := altsTable[t.op.Class][t.op.Kind]; f != nil {
		return f(e, t)
	}
	return b2i(t.op.Kind != trace.KindNone)
}

// one is the enabledness of an operation of a class whose operations of
// its kind may block in another class: it never blocks.
func one(*Exec, *Thread) int32 { return 1 }

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// Alternative implements strategy.Describer: what alternative a of thread
// p's pending operation is in the current state, resolved as the operation
// resolves it when chosen (SelectBegin, Partner).
func (e *Exec) Alternative(p trace.ThreadID, a int32) strategy.Alternative {
	none := strategy.Alternative{Case: -1, Partner: trace.NoThread, PartnerCase: -1}
	if int(p) >= len(e.threads) {
		return none
	}
	t := e.threads[p]
	switch t.op.Kind {
	case trace.KindRecv:
		return e.recvAlternative(t, t.obj, a, -1)
	case trace.KindSelect:
		for i, c := range t.sel {
			n := e.caseAlts(c, t.id)
			if a < n {
				if c.send {
					return strategy.Alternative{Case: int32(i), Partner: trace.NoThread, PartnerCase: -1}
				}
				return e.recvAlternative(t, c.obj, a, int32(i))
			}
			a -= n
		}
	}
	return none
}

// recvAlternative describes alternative a of a receive by t on channel o,
// select case cas (-1 for a plain receive).
func (e *Exec) recvAlternative(t *Thread, o *Obj, a, cas int32) strategy.Alternative {
	alt := strategy.Alternative{Case: cas, Partner: trace.NoThread, PartnerCase: -1}
	if o == nil || o.cap > 0 || o.closed {
		return alt
	}
	s := o.out[t.Partner(o, a)]
	alt.Partner, alt.PartnerCase = s.tid, s.cas
	return alt
}
