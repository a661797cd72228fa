// This file implements per-object clocks over persistent vector clocks
// (ObjectClocks' order, at a cost that does not grow with the number of
// threads).

package trace

// PObjectClocks is ObjectClocks with persistent clocks (PClock): for each
// object, the last write's clock (w) and the joins of the reads (r) and of
// the shared updates (s) since the last write. The join of every access,
// which ObjectClocks keeps apart, is the join of the three (a write comes
// after every earlier access), so it is not kept: a read or shared update,
// the common accesses, changes one clock. Resetting it costs the number of
// objects, and an access the parts of the clocks it changes. Its memory is
// reused across Resets.
type PObjectClocks struct {
	o []pobj
}

// pobj holds the clocks of one object.
type pobj struct{ w, r, s PClock }

// Reset sizes c for objs objects, every clock zero.
func (c *PObjectClocks) Reset(objs int) {
	if cap(c.o) < objs {
		c.o = make([]pobj, objs, objs+objs/8)
	}
	c.o = c.o[:objs]
	clear(c.o)
}

// Order returns cv joined with the clocks of the earlier accesses to object
// o that an access in mode m conflicts with.
func (c *PObjectClocks) Order(o int, m Mode, cv PClock) PClock {
	x := &c.o[o]
	switch m {
	case Write:
		return cv.Join(x.w).Join(x.r).Join(x.s)
	case Read:
		return cv.Join(x.w).Join(x.s)
	default:
		return cv.Join(x.w).Join(x.r)
	}
}

// Record records an access to object o in mode m whose clock is cv, which
// Order has ordered after the accesses it conflicts with.
func (c *PObjectClocks) Record(o int, m Mode, cv PClock) {
	x := &c.o[o]
	switch m {
	case Write:
		// cv comes after every access to o; the reads and shared
		// updates since the write are none.
		x.w, x.r, x.s = cv, PClock{}, PClock{}
	case Read:
		x.r = x.r.Join(cv)
	default:
		x.s = x.s.Join(cv)
	}
}

// PObjectChange is a clock of an object as it was before an access changed
// it (PObjectClocks.RecordLogged), for Revert to put back. Obj is the
// caller's name for the object.
type PObjectChange struct {
	Obj  int32
	part uint8 // 'w', 'r' or 's'
	old  PClock
}

// RecordLogged is Record that also appends to log the clocks of object o
// that the access changes, as they were, each named obj: one for a read or
// a shared update, up to three for a write (a zero clock that a write
// leaves zero is not logged). Reverting the changes of the accesses after
// some point, latest first, gives back the clocks at that point.
func (c *PObjectClocks) RecordLogged(o int, m Mode, cv PClock, obj int32, log []PObjectChange) []PObjectChange {
	x := &c.o[o]
	switch m {
	case Write:
		log = append(log, PObjectChange{obj, 'w', x.w})
		if x.r.top != 0 {
			log = append(log, PObjectChange{obj, 'r', x.r})
		}
		if x.s.top != 0 {
			log = append(log, PObjectChange{obj, 's', x.s})
		}
		x.w, x.r, x.s = cv, PClock{}, PClock{}
	case Read:
		log = append(log, PObjectChange{obj, 'r', x.r})
		x.r = x.r.Join(cv)
	default:
		log = append(log, PObjectChange{obj, 's', x.s})
		x.s = x.s.Join(cv)
	}
	return log
}

// Revert puts the clock ch holds back into the clocks of object o.
func (c *PObjectClocks) Revert(o int, ch PObjectChange) {
	x := &c.o[o]
	switch ch.part {
	case 'w':
		x.w = ch.old
	case 'r':
		x.r = ch.old
	default:
		x.s = ch.old
	}
}

// RecordBackward rebuilds the clocks of object o from its accesses taken
// latest first, as Record would have left them after the earliest: k is
// the clock of an access in mode m. It reports whether o is settled (the
// access was a write: earlier ones change nothing Order reads); the caller
// skips o's earlier accesses then.
func (c *PObjectClocks) RecordBackward(o int, m Mode, k PClock) (settled bool) {
	x := &c.o[o]
	switch m {
	case Write:
		x.w = k
		return true
	case Read:
		x.r = x.r.Join(k)
	default:
		x.s = x.s.Join(k)
	}
	return false
}

// PObjectState is the state of the clocks of one object, as Save takes it
// for Restore to put back: the clocks are persistent, so a state costs
// three clocks' headers, whatever the number of threads.
type PObjectState struct{ x pobj }

// Save returns the state of the clocks of object o.
func (c *PObjectClocks) Save(o int) PObjectState { return PObjectState{c.o[o]} }

// Restore sets the clocks of object o to state s.
func (c *PObjectClocks) Restore(o int, s PObjectState) { c.o[o] = s.x }

// Len returns the number of objects c is sized for.
func (c *PObjectClocks) Len() int { return len(c.o) }

// Resize sizes c for objs objects, keeping the clocks of the first ones;
// those it adds are zero.
func (c *PObjectClocks) Resize(objs int) {
	old := len(c.o)
	if cap(c.o) < objs {
		o := make([]pobj, objs, objs+objs/2)
		copy(o, c.o)
		c.o = o
		return
	}
	c.o = c.o[:objs]
	if objs > old {
		clear(c.o[old:])
	}
}
