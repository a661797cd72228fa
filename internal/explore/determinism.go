// This file implements the determinism check that wraps every exploring
// strategy: an execution that repeats the choices of the previous one
// (threads, alternatives, input values) must reach the same states.

package explore

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// DeterminismAdvice says what to do about a nondeterministic test body.
const DeterminismAdvice = "Make the body's behaviour a function of weft's choices only: do not let math/rand, " +
	"time, map iteration order or state kept between executions decide what it does; " +
	"read values that should vary with w.Input or w.InputRange, which weft explores."

// Checked wraps a strategy with the determinism check. Under the same
// choices, a deterministic body reaches the same states: the same threads,
// with the same pending operations and alternatives, and reads the same
// inputs. The check compares each execution with the previous one for as
// long as it makes the same choices, which covers the prefix that
// depth-first strategies replay, and the first state of every execution,
// whatever the strategy. At a divergence it cuts the execution without
// asking the inner strategy, whose record of the prefix no longer describes
// the program, and ends the exploration.
//
// It is also the panic guard (guard.go): each method recovers a panic of
// the inner strategy, or of its own, and panicked returns it.
type Checked struct {
	inner strategy.Strategy
	// div is inner's strategy.Diverger, if it has one, looked up once
	// rather than after each execution.
	div   strategy.Diverger
	guard panicGuard
	// prev and cur are the marks of the previous and the current execution,
	// one per choice (markList); same reports that the current one has
	// made the previous one's choices so far.
	prev, cur markList
	// prevNames and names are the names of the inputs of the previous and
	// the current execution.
	prevNames, names []string
	prevEnd          trace.Status
	prevFinal        []trace.Op // the pending operations at the end of the previous execution
	same             bool
	choosing         bool // in Choose, for its panic guard
	execs            int
	diverged         error
	// fpOf holds the hash of each thread in the state of the last Choose,
	// and fpSum their sum (fingerprint); fpMixN is the hash of their
	// number.
	fpOf   []uint64
	fpSum  uint64
	fpMixN uint64
}

// markList is a list of marks in pages of markPage but for the first,
// which grows by doubling up to a page: a long execution grows its marks
// without copying them, and a short one takes little room.
type markList struct {
	pages [][]mark
	n     int
	// room is the rest of the page that holds mark n, from mark n on:
	// Push writes there while it has any.
	room []mark
}

// markPage is the number of marks in a page of a markList.
const markPage = 1024

// Len returns the number of marks.
func (l *markList) Len() int { return l.n }

// At returns mark k, which must be on the list.
func (l *markList) At(k int) *mark { return &l.pages[uint(k)/markPage][uint(k)%markPage] }

// Truncate drops the marks from k on, keeping their memory.
func (l *markList) Truncate(k int) {
	l.n, l.room = k, nil
	if k/markPage < len(l.pages) {
		l.room = l.pages[k/markPage][k%markPage:]
	}
}

// Push adds a mark and returns it; it holds what the one there last held.
// It runs at every step: the page it writes to is at hand.
func (l *markList) Push() *mark {
	if len(l.room) == 0 {
		l.grow()
	}
	m := &l.room[0]
	l.room = l.room[1:]
	l.n++
	return m
}

// grow makes room for mark n when its page is full (or there is none):
// it grows the first page, or moves to the next page, allocated if need
// be.
func (l *markList) grow() {
	k := l.n / markPage
	switch {
	case len(l.pages) == 0:
		l.pages = append(l.pages, make([]mark, 16))
	case k == 0:
		// Only the first page is ever short.
		p := make([]mark, 2*len(l.pages[0]))
		copy(p, l.pages[0])
		l.pages[0] = p
	case k == len(l.pages):
		l.pages = append(l.pages, make([]mark, markPage))
	}
	l.room = l.pages[k][l.n%markPage:]
}

// mark is one choice of an execution and the state it was made in.
type mark struct {
	state  uint64 // fingerprint of the state, or of the input request
	choice uint64 // the choice: thread and alternative, or the input value
	// The pending operation (kind, class, object, argument) of the thread
	// chosen (thread) and its alternatives; for an input, obj is the index
	// of its name in names.
	arg           int64
	obj           trace.ObjectID
	threads, alts int32 // threads: the number of threads in the state
	kind          trace.Kind
	class         trace.Class
	input         bool
	// ran says that the choice named a thread of the state, which ran
	// (not a cut, nor an input).
	ran bool
}

// thread returns the thread chosen at m, or trace.NoThread if none ran.
func (m *mark) thread() trace.ThreadID {
	if !m.ran {
		return trace.NoThread
	}
	return trace.ThreadID(int32(m.choice >> 32))
}

// op returns the operation of the thread chosen at m.
func (m *mark) op() trace.Op { return trace.Op{Kind: m.kind, Class: m.class, Obj: m.obj, Arg: m.arg} }

var _ strategy.Wrapper = (*Checked)(nil)

// NewChecked wraps s, called name, with the determinism check and the
// panic guard.
func NewChecked(s strategy.Strategy, name string) *Checked {
	c := new(Checked)
	c.reset(s, name)
	return c
}

// reset makes c a new check of s, called name, keeping the memory of its
// lists: a parallel exploration wraps a strategy anew for each batch of
// executions.
func (c *Checked) reset(s strategy.Strategy, name string) {
	div, _ := strategy.As[strategy.Diverger](s)
	prev, cur := c.prev, c.cur
	prev.Truncate(0)
	cur.Truncate(0)
	*c = Checked{inner: s, div: div, guard: panicGuard{name: name}, prev: prev, cur: cur,
		prevNames: c.prevNames[:0], names: c.names[:0], prevFinal: c.prevFinal[:0], fpOf: c.fpOf[:0]}
}

// Panicked returns the panic caught, as an error wrapping ErrInternal, or
// nil.
func (c *Checked) Panicked() error { return c.guard.err }

// Next implements strategy.Strategy; after a divergence or a panic the
// exploration is over.
func (c *Checked) Next() (more bool) {
	if c.guard.err != nil {
		return false
	}
	defer func() {
		if r := recover(); r != nil {
			c.guard.caught("Next", -1, r)
			more = false
		}
	}()
	c.guard.execs++
	if c.diverged != nil || !c.inner.Next() {
		return false
	}
	c.prev, c.cur = c.cur, c.prev
	c.cur.Truncate(0)
	c.prevNames, c.names = c.names, c.prevNames[:0]
	c.same = c.execs > 0
	c.execs++
	return true
}

// Choose implements strategy.Strategy; after a panic it cuts.
func (c *Checked) Choose(st *strategy.State) (ch strategy.Choice) {
	if c.diverged != nil || c.guard.err != nil {
		return strategy.Cut
	}
	// choosing is cleared on the way out: the deferred call looks for a
	// panic (a call to recover) only if it was not.
	c.choosing = true
	defer func() {
		if !c.choosing {
			return
		}
		c.choosing = false
		if r := recover(); r != nil {
			c.guard.caught("Choose", st.Step, r)
			ch = strategy.Cut
		}
	}()
	// The state's fingerprint (fingerprint), with the common case
	// inlined: a few threads changed or started, threadPrint inlined but
	// for a select's cases.
	var fp uint64
	if st.Changed == nil || st.Step == 0 || len(c.fpOf) > len(st.Threads) {
		fp = c.fingerprint(st)
	} else {
		if len(c.fpOf) < len(st.Threads) {
			c.started(len(st.Threads))
		}
		of, sum := c.fpOf, c.fpSum
		for _, p := range st.Changed {
			th := &st.Threads[p]
			b := uint64(th.Op.Arg)
			if len(th.Op.Cases) > 0 {
				b ^= casesPrint(th.Op.Cases)
			}
			x := entryPrint(p, th, b)
			sum += x - of[p]
			of[p] = x
		}
		c.fpSum = sum
		fp = sum ^ c.fpMixN
	}
	i := c.cur.Len()
	// p is the previous execution's mark at i while this one repeats its
	// choices, or nil.
	var p *mark
	if c.same {
		if i >= c.prev.Len() {
			if c.prevEnd != trace.Cut {
				c.diverge(i, st, nil, fmt.Sprintf("the earlier execution ended (%v) here, but this one has a scheduling point", c.prevEnd))
				return strategy.Cut
			}
		} else {
			p = c.prev.At(i)
			if p.input || p.state != fp {
				c.diverge(i, st, p, "")
				return strategy.Cut
			}
		}
	}
	ch = c.inner.Choose(st)
	// The mark is written in place, field by field: this runs at every
	// step.
	l := &c.cur // c.cur.Push(), inlined
	if len(l.room) == 0 {
		l.grow()
	}
	m := &l.room[0]
	l.room, l.n = l.room[1:], l.n+1
	m.state, m.choice = fp, uint64(uint32(ch.Thread))<<32|uint64(uint32(ch.Alt))
	m.threads, m.input = int32(len(st.Threads)), false
	if ch.Thread >= 0 && int(ch.Thread) < len(st.Threads) {
		th := &st.Threads[ch.Thread]
		m.ran, m.alts = true, th.Alts
		m.kind, m.class, m.obj, m.arg = th.Op.Kind, th.Op.Class, th.Op.Obj, th.Op.Arg
	} else {
		m.ran, m.alts, m.kind, m.class, m.obj, m.arg = false, 0, 0, 0, trace.NoObject, 0
	}
	c.same = p != nil && p.choice == m.choice
	c.choosing = false
	return ch
}

// Input implements strategy.Strategy; after a panic it gives the default
// value, and the next scheduling point cuts.
func (c *Checked) Input(st *strategy.State, in strategy.InputRequest) (v uint64) {
	if c.guard.err != nil {
		return in.Default
	}
	defer func() {
		if r := recover(); r != nil {
			c.guard.caught("Input", st.Step, r)
			v = in.Default
		}
	}()
	i := c.cur.Len()
	fp := inputPrint(in)
	if c.diverged == nil && c.same {
		switch {
		case i < c.prev.Len() && (!c.prev.At(i).input || c.prev.At(i).state != fp):
			c.diverge(i, st, c.prev.At(i), fmt.Sprintf("this execution reads input %q here", in.Name))
		case i >= c.prev.Len():
			c.diverge(i, st, nil, fmt.Sprintf("the earlier execution ended (%v) here, but this one reads input %q", c.prevEnd, in.Name))
		}
	}
	if c.diverged != nil {
		return in.Default
	}
	v = c.inner.Input(st, in)
	c.names = append(c.names, in.Name)
	*c.cur.Push() = mark{state: fp, choice: v, input: true, obj: trace.ObjectID(len(c.names) - 1)}
	c.same = c.same && i < c.prev.Len() && c.prev.At(i).choice == v
	return v
}

// Finish implements strategy.Strategy. The inner strategy does not see an
// execution that diverged.
func (c *Checked) Finish(tr *trace.Trace, end trace.End) {
	if c.guard.err != nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			c.guard.caught("Finish", -1, r)
		}
	}()
	if c.diverged == nil && c.same && c.cur.Len() < c.prev.Len() && end.Status != trace.Cut && end.Kind != trace.Blocked {
		p := c.prev.At(c.cur.Len())
		c.diverged = fmt.Errorf("step %d (after the same %d choices as execution %d): this execution ended (%v) there, but the earlier one went on: %s",
			len(tr.Events)+1, c.cur.Len(), c.execs-1, endText(end), c.expected(p, tr))
	}
	if c.diverged != nil {
		return
	}
	c.prevEnd = end.Status
	c.prevFinal = c.prevFinal[:0]
	for _, op := range tr.Final {
		c.prevFinal = append(c.prevFinal, trace.Op{Kind: op.Kind, Class: op.Class, Obj: op.Obj, Arg: op.Arg})
	}
	c.inner.Finish(tr, end)
}

// Diverged returns why the last execution did not repeat the earlier one,
// or why the inner strategy (a replay) says it diverged; nil if it did not.
func (c *Checked) Diverged() error {
	if c.diverged != nil {
		return c.diverged
	}
	if c.div != nil {
		return c.div.Diverged()
	}
	return nil
}

// Unwrap implements strategy.Wrapper.
func (c *Checked) Unwrap() strategy.Strategy { return c.inner }

// diverge records that the state of choice i of the current execution
// differs from that of the previous one (p, nil if the previous one had
// none there); why, if not empty, says how.
func (c *Checked) diverge(i int, st *strategy.State, p *mark, why string) {
	var b strings.Builder
	if i == 0 {
		fmt.Fprintf(&b, "step %d (the first scheduling point, as in execution %d): ", st.Step+1, c.execs-1)
	} else {
		fmt.Fprintf(&b, "step %d (after the same %d choices as execution %d): ", st.Step+1, i, c.execs-1)
	}
	if why != "" {
		b.WriteString(why)
		if p != nil {
			b.WriteString(", but the earlier one ")
			b.WriteString(c.expected(p, st.Trace))
		}
	} else {
		fmt.Fprintf(&b, "the earlier execution %s; the threads differ:", c.expected(p, st.Trace))
		n := max(int(p.threads), len(st.Threads))
		otherObj := false
		for k := range n {
			id := trace.ThreadID(k)
			was, had := c.pendingBefore(i, id), k < int(p.threads)
			if k >= len(st.Threads) {
				fmt.Fprintf(&b, "\n\t%v: earlier %s pending, now no such thread", id, opText(was, st.Trace))
				continue
			}
			th := &st.Threads[k]
			now := opText(th.Op, st.Trace) + " (" + altsText(th.Alts, th.Done) + ")"
			switch {
			case !had:
				fmt.Fprintf(&b, "\n\t%v: earlier no such thread, now %s", id, now)
			case was.Kind != th.Op.Kind || was.Obj != th.Op.Obj || was.Arg != th.Op.Arg:
				fmt.Fprintf(&b, "\n\t%v: earlier %s pending, now %s", id, opText(was, st.Trace), now)
				otherObj = otherObj || was.Kind == th.Op.Kind && was.Class == th.Op.Class && was.Obj != th.Op.Obj
			case p.thread() == id && p.alts != th.Alts:
				fmt.Fprintf(&b, "\n\t%v: earlier %s, now %s", id, altsText(p.alts, false), now)
			}
		}
		if otherObj {
			// The commonest cause in real code: the order of a range over
			// a map, which Go varies from run to run.
			b.WriteString("\nThe same operation on another object: the body took its objects in another order, as a range over a map does where weft does not fix its order (Go varies it from run to run; weft test fixes it in the code it rewrites, weft.Explore's bodies keep Go's), or state kept between executions chose them.")
		}
	}
	c.diverged = errors.New(b.String())
}

// pendingBefore returns the pending operation of thread p at choice i of
// the previous execution: the operation it ran at its next choice from
// there, or the one it was left with at the end.
func (c *Checked) pendingBefore(i int, p trace.ThreadID) trace.Op {
	for j := i; j < c.prev.Len(); j++ {
		if m := c.prev.At(j); !m.input && m.thread() == p {
			return m.op()
		}
	}
	if int(p) < len(c.prevFinal) {
		return c.prevFinal[p]
	}
	return trace.Op{}
}

// expected describes what the earlier execution did at mark p.
func (c *Checked) expected(p *mark, tr *trace.Trace) string {
	if p.input {
		return fmt.Sprintf("read input %q there", c.prevNames[p.obj])
	}
	if p.thread() == trace.NoThread {
		return fmt.Sprintf("had %d threads there and cut the execution", p.threads)
	}
	return fmt.Sprintf("had %d threads there and ran %v's %s (%s)", p.threads, p.thread(), opText(p.op(), tr), altsText(p.alts, false))
}

// opText names an operation with the names of its objects, as reports do
// (trace.Trace.ObjectName), if tr is known.
func opText(op trace.Op, tr *trace.Trace) string {
	if tr == nil {
		return op.String()
	}
	return op.Text(tr.ObjectName)
}

// altsText describes a thread's number of alternatives.
func altsText(alts int32, done bool) string {
	switch {
	case done:
		return "finished"
	case alts == 0:
		return "blocked"
	case alts == 1:
		return "enabled"
	}
	return fmt.Sprintf("enabled, %d alternatives", alts)
}

// endText describes how an execution ended.
func endText(end trace.End) string {
	if end.Status == trace.Failed {
		return end.Kind.String()
	}
	return end.Status.String()
}

// fingerprint hashes what a deterministic body repeats in state st: its
// threads, their pending operations and their alternatives. It runs at
// every step, so the hash is a sum of one hash per thread, kept from one
// Choose of an execution to the next: only the threads st.Changed lists
// are hashed again (about one a step: the engine lists those whose entry
// may differ, and new ones). That is Choose's common case, inlined there;
// fingerprint hashes every thread, at the first step, without st.Changed,
// or if there are fewer threads than at the last Choose.
func (c *Checked) fingerprint(st *strategy.State) uint64 {
	c.fpOf, c.fpSum = c.fpOf[:0], 0
	for i := range st.Threads {
		x := threadPrint(trace.ThreadID(i), &st.Threads[i])
		c.fpOf = append(c.fpOf, x)
		c.fpSum += x
	}
	c.setThreads(len(st.Threads))
	return c.fpSum ^ c.fpMixN
}

// started notes that the state has n threads, more than at the last
// Choose: the new ones count for nothing in fpSum until they are hashed
// (st.Changed lists them).
func (c *Checked) started(n int) {
	for len(c.fpOf) < n {
		c.fpOf = append(c.fpOf, 0)
	}
	c.setThreads(n)
}

// setThreads sets fpMixN, the hash of the number of threads n. It changes
// with n only (Mix(0) is 0). The sum of the threads' hashes is not mixed
// again: a mark's state is compared for equality alone, which a
// bijection such as trace.Mix keeps.
func (c *Checked) setThreads(n int) { c.fpMixN = trace.Mix(uint64(n)) }

// threadPrint hashes thread p's entry th of a state: its pending
// operation, its alternatives and whether it finished.
func threadPrint(p trace.ThreadID, th *strategy.Thread) uint64 {
	b := uint64(th.Op.Arg)
	if len(th.Op.Cases) > 0 {
		b ^= casesPrint(th.Op.Cases)
	}
	return entryPrint(p, th, b)
}

// entryPrint is threadPrint once the operation's argument and select
// cases are hashed into b. It runs for about one thread a step, so its
// latency counts: two multiplications of 64 by 64 bits, each folded (the
// high half xor the low one, as in Wang Yi's wyhash), rather than a chain
// of four.
func entryPrint(p trace.ThreadID, th *strategy.Thread, b uint64) uint64 {
	op := &th.Op
	a := uint64(op.Kind) | uint64(op.Class)<<8 | uint64(uint16(th.Alts))<<16 | uint64(uint32(op.Obj))<<32
	q := uint64(uint32(p)) << 1
	if th.Done {
		q |= 1
	}
	hi, lo := bits.Mul64(a^0x243f6a8885a308d3, b^0x13198a2e03707344)
	hi, lo = bits.Mul64(hi^lo^0xa4093822299f31d0, q^0x082efa98ec4e6c89)
	return hi ^ lo
}

// casesPrint hashes the cases of a select, for threadPrint.
func casesPrint(cases []trace.Case) uint64 {
	const prime = 0x100000001b3
	h := uint64(len(cases))
	for _, cs := range cases {
		h = (h ^ uint64(cs.Kind) ^ uint64(uint32(cs.Obj))<<8) * prime
	}
	return trace.Mix(h)
}

// inputPrint hashes an input request.
func inputPrint(in strategy.InputRequest) uint64 {
	h := trace.Mix(uint64(in.Bits) | uint64(in.Min)<<8)
	h = trace.Mix(h ^ uint64(in.Max))
	if in.Signed {
		h = trace.Mix(h ^ 1)
	}
	for i := 0; i < len(in.Name); i++ {
		h = trace.Mix(h ^ uint64(in.Name[i]))
	}
	return h
}
