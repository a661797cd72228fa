// This file implements the clocks of objects as flat rows, for programs of
// a few threads (clocks.flatOK), with the undo log that rolls them back.

package optimal

import "github.com/weft-go/weft/trace"

// flatObjects is trace.PObjectClocks with rows of n entries for clocks:
// for each object, the last write's clock (w) and the joins of the reads
// (r) and of the shared updates (s) since the last write. A program of a
// few threads orders an access with a few loads and stores per thread,
// where a persistent clock walks and copies its parts; the rows and the
// events' rows (clocks.flat) are all the clocks such a program keeps.
type flatObjects struct {
	n int
	// rows holds part p (flatW, flatR or flatS) of object o's clocks at
	// row 3*o+p; set says which rows are not zero (a row recorded holds
	// its event's own entry, never 0).
	rows []uint32
	set  []bool
}

// The parts of an object's clocks, in the order of its rows.
const (
	flatW = iota
	flatR
	flatS
)

// flatChange is a row of an object's clocks as it was before an access
// changed it, for revert to put back: obj is the caller's name for the
// object, at the offset in flatLog.old of the row's entries, unless it was
// zero (then none are kept).
type flatChange struct {
	obj  int32
	at   int32
	part uint8
	zero bool
}

// flatLog is the undo log of flatObjects: the changes, and the entries of
// the rows they replaced.
type flatLog struct {
	ch  []flatChange
	old []uint32
}

// reset sizes f for objs objects and clocks of n entries, every clock zero.
func (f *flatObjects) reset(objs, n int) {
	f.n = n
	f.rows = reserve(f.rows[:0], 3*objs*n)[:3*objs*n]
	f.set = reserve(f.set[:0], 3*objs)[:3*objs]
	clear(f.rows)
	clear(f.set)
}

// resize sizes f for objs objects, keeping the clocks of the first ones;
// those it adds are zero.
func (f *flatObjects) resize(objs int) {
	old := len(f.set)
	f.rows = reserve(f.rows, 3*objs*f.n)[:3*objs*f.n]
	f.set = reserve(f.set, 3*objs)[:3*objs]
	if 3*objs > old {
		clear(f.rows[old*f.n:])
		clear(f.set[old:])
	}
}

// row returns row k.
func (f *flatObjects) row(k int) trace.VC { return f.rows[k*f.n : (k+1)*f.n] }

// join joins row k into cv.
func (f *flatObjects) join(cv trace.VC, k int) {
	if f.set[k] {
		cv.Join(f.row(k))
	}
}

// order joins into cv the clocks of the earlier accesses to object o that
// an access in mode m conflicts with.
func (f *flatObjects) order(o int, m trace.Mode, cv trace.VC) {
	k := 3 * o
	f.join(cv, k+flatW)
	switch m {
	case trace.Write:
		f.join(cv, k+flatR)
		f.join(cv, k+flatS)
	case trace.Read:
		f.join(cv, k+flatS)
	default:
		f.join(cv, k+flatR)
	}
}

// record records an access to object o in mode m whose clock is cv, which
// order has ordered after the accesses it conflicts with. If log is not
// nil, it appends to it the rows the access changes, as they were, named
// obj: one for a read or a shared update, up to three for a write (a zero
// row that a write leaves zero is not logged).
func (f *flatObjects) record(o int, m trace.Mode, cv trace.VC, obj int32, log *flatLog) {
	k := 3 * o
	switch m {
	case trace.Write:
		f.keep(log, obj, k, flatW)
		f.row(k + flatW).CopyFrom(cv)
		f.set[k+flatW] = true
		for _, p := range [2]int{flatR, flatS} {
			if f.set[k+p] {
				f.keep(log, obj, k, p)
				clear(f.row(k + p))
				f.set[k+p] = false
			}
		}
	case trace.Read:
		f.keep(log, obj, k, flatR)
		f.joinInto(k+flatR, cv)
	default:
		f.keep(log, obj, k, flatS)
		f.joinInto(k+flatS, cv)
	}
}

// keep appends to log, if not nil, part p of the clocks of the object
// whose rows start at row k, named obj.
func (f *flatObjects) keep(log *flatLog, obj int32, k, p int) {
	if log == nil {
		return
	}
	ch := flatChange{obj: obj, at: int32(len(log.old)), part: uint8(p), zero: !f.set[k+p]}
	if !ch.zero {
		log.old = append(log.old, f.row(k+p)...)
	}
	log.ch = append(log.ch, ch)
}

// revert puts the row ch holds back into the clocks of object o; old is
// the log's entries.
func (f *flatObjects) revert(o int, ch flatChange, old []uint32) {
	k := 3*o + int(ch.part)
	f.set[k] = !ch.zero
	if ch.zero {
		clear(f.row(k))
		return
	}
	copy(f.row(k), old[ch.at:int(ch.at)+f.n])
}

// recordBackward rebuilds the clocks of object o from its accesses taken
// latest first, as record would have left them after the earliest: k is
// the clock of an access in mode m. It reports whether o is settled (the
// access was a write: earlier ones change nothing order reads).
func (f *flatObjects) recordBackward(o int, m trace.Mode, k trace.VC) (settled bool) {
	switch m {
	case trace.Write:
		f.row(3*o + flatW).CopyFrom(k)
		f.set[3*o+flatW] = true
		return true
	case trace.Read:
		f.joinInto(3*o+flatR, k)
	default:
		f.joinInto(3*o+flatS, k)
	}
	return false
}

// joinInto joins cv into row k.
func (f *flatObjects) joinInto(k int, cv trace.VC) {
	f.set[k] = true
	f.row(k).Join(cv)
}

// move moves the clocks of object from to object to, which were zero, and
// makes from's zero.
func (f *flatObjects) move(from, to int) {
	for p := range 3 {
		a, b := 3*from+p, 3*to+p
		if f.set[a] {
			copy(f.row(b), f.row(a))
			clear(f.row(a))
		}
		f.set[b], f.set[a] = f.set[a], false
	}
}

// kclock is a clock the race analysis builds from the clocks of events
// (scan's k0, the clock of the candidates kept for an alternative): a
// persistent clock, or, where the events' clocks are flat (clocks.flatOK),
// a row of its own.
type kclock struct {
	p    trace.PClock
	v    trace.VC
	flat bool
}

// knows reports whether event i, an event of thread t, happens before (or
// is) what k describes.
func (k *kclock) knows(i int, t trace.ThreadID) bool {
	if k.flat {
		return k.v.Knows(i, t)
	}
	return k.p.Knows(i, t)
}

// setEvent sets k to the clock of event i of c, or to zero if i < 0.
func (k *kclock) setEvent(c *clocks, i int) {
	k.flat = c.flatOK
	if !k.flat {
		k.p = trace.PClock{}
		if i >= 0 {
			k.p = c.clock(i)
		}
		return
	}
	k.v = reserve(k.v[:0], c.n)[:c.n]
	if i < 0 {
		clear(k.v)
		return
	}
	k.v.CopyFrom(c.row(i))
}

// set sets k to o.
func (k *kclock) set(o *kclock) {
	k.flat, k.p = o.flat, o.p
	if o.flat {
		k.v = append(k.v[:0], o.v...)
	}
}

// joinEvent joins the clock of event i of c into k, if i >= 0.
func (k *kclock) joinEvent(c *clocks, i int) {
	switch {
	case i < 0:
	case k.flat:
		k.v.Join(c.row(i))
	default:
		k.p = k.p.Join(c.clock(i))
	}
}
