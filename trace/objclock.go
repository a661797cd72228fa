// This file implements per-object clocks, which order the accesses of
// dependent steps (Saarikivi et al. 2012, Fig. 3), for happens-before, Foata levels and
// the strategies that compute them their own way.

package trace

// ObjectClocks orders accesses to objects by the access modes of
// dependency.go: an access comes after every earlier access to its object
// that it conflicts with. For each object it keeps four clocks of one
// width: the last write's (w), the join of every access (a), and the joins
// of the reads (r) and of the shared updates (s) since the last write,
// which that write's clock dominates. A write comes after a, a read after w
// and s, a shared update after w and r.
//
// A clock is a VC (vector clocks, width the number of threads) or, with
// width 1, a level (Foata levels: the join is the maximum). Its memory is
// reused across Resets.
type ObjectClocks struct {
	width      int
	w, a, r, s []uint32
}

// Reset sizes c for objs objects and clocks of the given width, all zero.
func (c *ObjectClocks) Reset(objs, width int) {
	c.width = width
	n := objs * width
	c.w, c.a, c.r, c.s = grow(c.w, n), grow(c.a, n), grow(c.r, n), grow(c.s, n)
	clear(c.w)
	clear(c.a)
	clear(c.r)
	clear(c.s)
}

func (c *ObjectClocks) clock(x []uint32, o int) VC { return VC(x[o*c.width : (o+1)*c.width]) }

// Order joins into cv the clocks of the earlier accesses to object o that
// an access in mode m conflicts with.
func (c *ObjectClocks) Order(o int, m Mode, cv VC) {
	switch m {
	case Write:
		cv.Join(c.clock(c.a, o))
	case Read:
		cv.Join(c.clock(c.w, o))
		cv.Join(c.clock(c.s, o))
	default:
		cv.Join(c.clock(c.w, o))
		cv.Join(c.clock(c.r, o))
	}
}

// Record records an access to object o in mode m whose clock is cv, which
// Order has ordered after the accesses it conflicts with.
func (c *ObjectClocks) Record(o int, m Mode, cv VC) {
	c.clock(c.a, o).Join(cv)
	switch m {
	case Write:
		c.clock(c.w, o).CopyFrom(cv)
	case Read:
		c.clock(c.r, o).Join(cv)
	default:
		c.clock(c.s, o).Join(cv)
	}
}

// RecordBackward rebuilds the clocks of object o from its accesses taken
// latest first, as Record would have left them after the earliest: k is
// the clock of an access in mode m. It reports whether o is settled (the
// access was a write: earlier ones change nothing Order reads); the caller
// skips o's earlier accesses then.
func (c *ObjectClocks) RecordBackward(o int, m Mode, k VC) (settled bool) {
	c.clock(c.a, o).Join(k)
	switch m {
	case Write:
		c.clock(c.w, o).CopyFrom(k)
		return true
	case Read:
		c.clock(c.r, o).Join(k)
	default:
		c.clock(c.s, o).Join(k)
	}
	return false
}

// ModesConflict reports whether accesses in modes a and b to one object
// conflict (Conflict without the objects).
func ModesConflict(a, b Mode) bool { return a != b || a == Write }
