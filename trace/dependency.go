// This file states the dependency relation between operations, one place per
// primitive (the table is in the package doc, "Dependency").

package trace

import "strconv"

// Relation selects a dependency relation.
type Relation uint8

// The relations.
const (
	// CR is the relation of Saarikivi et al. 2012, §II-D (Fig. 3): operations conflict
	// when they touch a common object and one of them writes it; two reads
	// commute. What counts as a read is stated per primitive in opMode.
	CR Relation = iota
	// Plain is the relation of Saarikivi et al. 2012, Figs. 1 and 2: operations conflict
	// when they touch a common object.
	Plain
)

func (r Relation) String() string {
	if r == Plain {
		return "plain"
	}
	return "cr"
}

// Mode is how an operation accesses an object.
type Mode uint8

// The access modes. Two accesses to one object conflict unless they have the
// same mode and it is not Write: reads commute with reads, and shared
// updates (changes that commute with each other and that no other shared
// update observes, such as a reader entering or leaving an RWMutex) commute
// with shared updates; a read and a shared update conflict, since the read
// observes what the update changes.
const (
	Read Mode = 1 + iota
	Write
	Shared
)

func (m Mode) String() string {
	switch m {
	case Read:
		return "read"
	case Write:
		return "write"
	case Shared:
		return "shared"
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// Access is one object an operation touches, and how.
type Access struct {
	Obj  ObjectID
	Mode Mode
}

// TimeObject is the pseudo-object of virtual time. When time moves only
// when every thread is blocked, every Sleep writes it, so two Sleeps are
// dependent (their deadlines order them), and nothing else touches it.
// When it moves at any step (operations of ClassClock), an advance of the
// clock writes it, and every other operation on time reads it: a read of
// the clock (KindNow), a Sleep's wake-up (whether its deadline passed), a
// timer's Stop or Reset (which change the deadlines the next advance
// moves to, a Reset from the time it reads). These commute with each
// other; each conflicts with every advance. A step that arms a deadline
// (KindNow with NowArms) writes it: the first one starts the clock's
// thread in its local code, so two of them are ordered, and the clock is
// the child of the same thread in every execution of a trace.
const TimeObject ObjectID = -2

// Conflict reports whether accesses a and b conflict: same object, and not
// both reads or both shared updates.
func Conflict(a, b Access) bool {
	return a.Obj == b.Obj && ModesConflict(a.Mode, b.Mode)
}

// RUnlockBalanced is the Op.Arg of an RWMutex RUnlock by a thread that holds
// a read lock it took itself (RLock, or TryRLock that succeeded), on an
// RWMutex no RUnlock of which, earlier in the execution, was by a thread
// that held none. Such an RUnlock cannot fail: the reader count is at least
// the thread's own readers, whatever other readers do, so it commutes with
// RLock and with other balanced RUnlocks. Any other RUnlock (Op.Arg 0) may
// take a reader count another thread relies on, or find none.
const RUnlockBalanced = 1

// TryRLockArg is the Op.Arg of an RWMutex KindTryLock that is a TryRLock.
const TryRLockArg = 1

// AddOnly reports whether op is an add whose result the program does not
// use (Int.AddOnly): a KindAdd on a variable whose Op.Arg is the size in
// bytes of the variable's integer type (1, 2, 4 or 8; 0 for an Add, whose
// result is returned). Two such adds to one variable commute: either
// order leaves the same sum (addition modulo 2^bits is commutative and
// associative), neither observes the other, and neither can block or
// fail. They are shared updates: an AddOnly conflicts with every Load,
// Store, Swap and CompareAndSwap of the variable, with an Add whose
// result is used, and with an await on it.
func AddOnly(op Op) bool { return op.Kind == KindAdd && op.Class == ClassVar && op.Arg != 0 }

// opMode is the mode in which an operation of kind k on an object of class c
// accesses it under CR. executed says whether the operation ran (then ok is
// its Event.OK); a pending operation gets the mode that covers every
// outcome it may have. This is the one place where commuting operations are
// stated; the table is in the package doc.
func opMode(k Kind, c Class, arg int64, executed, ok bool) Mode {
	switch c {
	case ClassVar:
		// Two loads commute (Saarikivi et al. 2012, §II-D); a failed CAS only read.
		if k == KindLoad || (k == KindCAS && executed && !ok) {
			return Read
		}
		// Two adds whose results are unused commute (AddOnly).
		if k == KindAdd && arg != 0 {
			return Shared
		}
	case ClassMutex:
		// A failed TryLock only read the lock, which every other
		// operation of a Mutex writes.
		if k == KindTryLock && executed && !ok {
			return Read
		}
	case ClassRWMutex:
		return rwMode(k, arg, executed, ok)
	case ClassOnce:
		// A Do after the function ran (OK false) only read the done flag.
		if k == KindOnceDo && executed && !ok {
			return Read
		}
	case ClassWaitGroup:
		// Two Waits commute; Add (and Done) writes the counter.
		if k == KindWGWait {
			return Read
		}
	case ClassChan:
		// Two Lens commute; every other channel operation writes (sends,
		// receives and close change the buffer, the partners or the closed
		// flag).
		if k == KindLen {
			return Read
		}
	}
	// Cond, Once, semaphores, monitors, timers: every operation writes its
	// object.
	return Write
}

// rwMode is opMode for an RWMutex. Its state is the writer's (held, or
// announced and waiting for the readers) and the reader count. RLock
// (enabled iff no writer holds or waits) adds a reader and a successful
// TryRLock does the same: shared updates, which commute with each other and
// with balanced RUnlocks (RUnlockBalanced), and which no writer operation
// commutes with. A failed TryLock observes the reader count and the writer
// (it fails iff either is taken) and a failed TryRLock the writer: reads,
// which commute with each other and conflict with every change of the
// reader count (RLock, RUnlock, a successful TryRLock) and of the writer.
// (A failed TryRLock does not observe the reader count; ordering it after
// the readers costs nothing, since it fails only while a writer, which the
// readers are ordered with, holds or waits.) A pending try-operation may
// succeed or fail, so it writes; so does every writer operation (Lock, both
// its steps, Unlock, a successful TryLock) and an RUnlock that is not
// balanced.
func rwMode(k Kind, arg int64, executed, ok bool) Mode {
	switch k {
	case KindRLock:
		return Shared
	case KindRUnlock:
		if arg == RUnlockBalanced {
			return Shared
		}
	case KindTryLock:
		switch {
		case !executed:
		case !ok:
			return Read
		case arg == TryRLockArg:
			return Shared
		}
	}
	return Write
}

// AppendOpAccesses appends to dst the accesses of operation op under r and
// returns the extended slice. executed and ok say whether op ran and its
// Event.OK (see opMode); a pending operation is not executed.
//
// A select touches the channel of each of its cases, as a writer: it depends
// on whatever any of its cases depends on (a select that took its default
// read every channel and found none ready). An await reads each variable it
// waits on. A Cond's Wait and Relock also
// lock or unlock their mutex (Op.Arg, if not negative). Operations on
// virtual time access TimeObject (see there); an advance of the clock also
// writes the channel of each timer it makes due (its cases). Join, Input and Branch touch no object: a join is ordered after
// the joined thread's end by happens-before, and inputs and branches are
// local.
func (r Relation) AppendOpAccesses(dst []Access, op Op, executed, ok bool) []Access {
	switch op.Kind {
	case KindNone, KindJoin, KindInput, KindBranch:
		return dst
	case KindSelect:
		return appendCases(dst, op.Cases, Write)
	case KindAwait:
		// An await reads the variables it waits on: a write of one may
		// enable it, another read does not, and it changes nothing.
		return appendCases(dst, op.Cases, Read)
	case KindSleep:
		if op.Class == ClassClock {
			return append(dst, Access{TimeObject, Read})
		}
		dst = append(dst, Access{TimeObject, Write})
	case KindNow:
		if op.Arg == NowArms {
			return append(dst, Access{TimeObject, Write})
		}
		return append(dst, Access{TimeObject, Read})
	case KindAdvance:
		// It makes the receives on the timers it makes due enabled.
		return appendCases(append(dst, Access{TimeObject, Write}), op.Cases, Write)
	case KindTimerStop:
		if op.Class == ClassClock {
			dst = append(dst, Access{TimeObject, Read})
		}
	}
	if m := ArgObject(&op); m != NoObject {
		dst = append(dst, Access{m, Write})
	}
	if op.Obj != NoObject {
		m := Write
		if r == CR {
			m = opMode(op.Kind, op.Class, op.Arg, executed, ok)
		}
		dst = append(dst, Access{op.Obj, m})
	}
	return dst
}

// appendCases appends to dst an access in mode m to the object of each
// case of cases (but a nil channel's) and returns the extended slice.
func appendCases(dst []Access, cases []Case, m Mode) []Access {
	for _, c := range cases {
		if c.Obj != NoObject {
			dst = append(dst, Access{c.Obj, m})
		}
	}
	return dst
}

// AppendEventAccesses appends to dst the accesses of executed event e under
// r: its operation's and, for a rendezvous, its partner's.
func (r Relation) AppendEventAccesses(dst []Access, e *Event) []Access {
	dst = r.AppendOpAccesses(dst, e.Op, true, e.OK)
	if e.Partner != NoThread {
		dst = r.AppendOpAccesses(dst, e.PartnerOp, true, true)
	}
	return dst
}

// Dependent reports whether executed events a and b are dependent under CR.
// See Relation.Dependent.
func Dependent(a, b *Event) bool { return CR.Dependent(a, b) }

// DependentPlain reports whether executed events a and b are dependent under
// Plain. See Relation.Dependent.
func DependentPlain(a, b *Event) bool { return Plain.Dependent(a, b) }

// Dependent reports whether executed events a and b are dependent under r:
// they share a thread (a rendezvous event belongs to its receiver and its
// sender), one joins a thread the other belongs to, or they have
// conflicting accesses.
//
// Dependent sees two events alone. The one order it cannot see is a spawn's:
// a thread's events come after the event in whose local code it was started
// (Trace.Threads[c].Step). HB and Foata take it from the trace; use
// DependentIn to ask about two events of a trace.
func (r Relation) Dependent(a, b *Event) bool {
	if shareThread(a, b) || joins(a, b) || joins(b, a) {
		return true
	}
	return r.conflict(a, b)
}

// conflict reports whether events a and b have conflicting accesses.
func (r Relation) conflict(a, b *Event) bool {
	var bufA, bufB [8]Access
	as := r.AppendEventAccesses(bufA[:0], a)
	if len(as) == 0 {
		return false
	}
	bs := r.AppendEventAccesses(bufB[:0], b)
	return anyConflict(as, bs)
}

// anyConflict reports whether some access of as conflicts with some of bs.
func anyConflict(as, bs []Access) bool {
	for _, x := range as {
		for _, y := range bs {
			if Conflict(x, y) {
				return true
			}
		}
	}
	return false
}

// shareThread reports whether events a and b belong to a common thread.
func shareThread(a, b *Event) bool {
	return a.Thread == b.Thread || a.Thread == b.Partner ||
		(a.Partner != NoThread && (a.Partner == b.Thread || a.Partner == b.Partner))
}

// joins reports whether a is a Join of a thread b belongs to.
func joins(a, b *Event) bool {
	if a.Op.Kind != KindJoin {
		return false
	}
	t := ThreadID(a.Op.Arg)
	return b.Thread == t || b.Partner == t
}

// DependentIn reports whether events i and j of tr are dependent under r:
// Relation.Dependent, plus the order of spawns (an event is dependent with
// every event of the threads started in its local code, and their
// descendants).
func (r Relation) DependentIn(tr *Trace, i, j int) bool {
	a, b := &tr.Events[i], &tr.Events[j]
	if r.Dependent(a, b) {
		return true
	}
	if i > j {
		i, j, a, b = j, i, b, a
	}
	return spawnedBefore(tr, i, b.Thread) || (b.Partner != NoThread && spawnedBefore(tr, i, b.Partner))
}

// spawnedBefore reports whether thread t descends from a thread started in
// the local code of event i.
func spawnedBefore(tr *Trace, i int, t ThreadID) bool {
	for t != NoThread && int(t) < len(tr.Threads) {
		th := tr.Threads[t]
		if int(th.Step) == i {
			return true
		}
		if int(th.Step) < i {
			return false
		}
		t = th.Parent
	}
	return false
}

// DependentOp reports whether executed event e is dependent under r with
// pending operation v of thread p (a thread other than e's, or the answer is
// true): conflicting accesses, or v joins a thread of e.
func (r Relation) DependentOp(e *Event, p ThreadID, v Op) bool {
	if e.Thread == p || e.Partner == p {
		return true
	}
	if v.Kind == KindJoin {
		t := ThreadID(v.Arg)
		if e.Thread == t || e.Partner == t {
			return true
		}
	}
	var bufA, bufB [8]Access
	as := r.AppendEventAccesses(bufA[:0], e)
	if len(as) == 0 {
		return false
	}
	return anyConflict(as, r.AppendOpAccesses(bufB[:0], v, false, false))
}

// OpsDependent reports whether pending operations a and b of two different
// threads are dependent under r: conflicting accesses.
func (r Relation) OpsDependent(a, b Op) bool {
	var bufA, bufB [8]Access
	as := r.AppendOpAccesses(bufA[:0], a, false, false)
	if len(as) == 0 {
		return false
	}
	return anyConflict(as, r.AppendOpAccesses(bufB[:0], b, false, false))
}

// MayBeCoEnabled reports whether executed event e and pending operation v
// of another thread may be enabled in one state (Saarikivi et al. 2012, Fig. 1, line 5).
// It is false only for pairs that never are: an event of a thread and a Join
// of that thread, and a successful release of a lock and an acquire of it.
// Unlocking an unlocked mutex is a step too (it fails), so a pending Unlock
// is co-enabled with a Lock; an Unlock that succeeded found the lock held,
// where no Lock, RLock or Cond Relock of it is enabled; an RUnlock that
// succeeded found a reader, where a writer's second Lock step (Arg 1: it
// announced itself and waits for the readers) is not enabled; a Cond's Wait
// released its mutex like an Unlock; a Once's Done ended its function, while
// no Do of it is enabled.
func MayBeCoEnabled(e *Event, v Op) bool {
	if v.Kind == KindJoin {
		// A Join is enabled once the joined thread has finished.
		t := ThreadID(v.Arg)
		return e.Thread != t && e.Partner != t
	}
	if !e.OK || e.Partner != NoThread {
		return true
	}
	switch e.Op.Kind {
	case KindUnlock:
		switch {
		case v.Obj == e.Op.Obj && v.Class == e.Op.Class:
			return !(v.Kind == KindLock || (v.Kind == KindRLock && v.Class == ClassRWMutex))
		case e.Op.Class == ClassMutex && v.Kind == KindRelock && v.Class == ClassCond:
			return ObjectID(v.Arg) != e.Op.Obj
		}
	case KindRUnlock:
		if v.Obj == e.Op.Obj && v.Class == ClassRWMutex && v.Kind == KindLock && v.Arg == 1 {
			return false
		}
	case KindWait:
		// A Cond Wait with a Mutex released it, held.
		if m := ObjectID(e.Op.Arg); e.Op.Class == ClassCond && m >= 0 {
			return !(v.Kind == KindLock && v.Class == ClassMutex && v.Obj == m) &&
				!(v.Kind == KindRelock && v.Class == ClassCond && ObjectID(v.Arg) == m)
		}
	case KindOnceDone:
		// The function of a Once ran: no Do of it was enabled.
		return !(v.Kind == KindOnceDo && v.Obj == e.Op.Obj)
	}
	return true
}

// VarValue returns the value of variable obj in the state reached by
// running, in their order in tr, the events before position upto for
// which in reports true: a set closed under happens-before (such as the
// events of a reversal's pre(E, e).notdep(e, E)). In tr's own order a
// variable's value is the Value of its last event; in a state where
// commuting adds (AddOnly) ran in another order, or some of them not, it
// is the Value of the last event of the set that is not an AddOnly (0
// before any), plus the delta of each AddOnly of the set after it (its
// Value less the Value of the variable's event before it in tr), modulo
// the size of the variable's type.
func VarValue(tr *Trace, obj ObjectID, upto int, in func(k int) bool) uint64 {
	var sum uint64
	mask := ^uint64(0)
	var after *Event // the variable's event after k in tr, if an AddOnly in the set
	for k := upto - 1; k >= 0; k-- {
		e := &tr.Events[k]
		if e.Op.Obj != obj || e.Op.Class != ClassVar {
			continue
		}
		if after != nil {
			sum += after.Value - e.Value
			after = nil
		}
		if !AddOnly(e.Op) {
			if in(k) {
				return (e.Value + sum) & mask
			}
			continue
		}
		if e.Op.Arg < 8 {
			mask = 1<<(8*uint(e.Op.Arg)) - 1
		}
		if in(k) {
			after = e
		}
	}
	if after != nil {
		sum += after.Value
	}
	return sum & mask
}
