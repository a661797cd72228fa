// This file implements a summary of a sequence of events that tells, in a
// few operations, that an event is independent of all of them, so that a
// walk of a wakeup tree need not compare it with each.

package optimal

import "github.com/weft-go/weft/trace"

// The summary counts threads and objects by their stable numbers modulo
// these sizes: a count may include others, never misses one.
const (
	sumThreads = 64
	sumObjects = 256
)

// depSum summarises the events of a sequence for dependent: an event c for
// which mayDepend is false is independent of each of them. Events leave
// the summary as a walk drops them from the sequence (remove).
type depSum struct {
	// threads counts each event's thread and partner (sth, spart if any),
	// joined the threads its Joins wait for (sjoin), kids the threads
	// started in its local code.
	threads, joined, kids [sumThreads]int32
	// objs[m] counts the accesses of the events' steps in mode m
	// (trace.Read, Write, Shared) to each object; odd counts those of
	// another mode, fails the failing events.
	objs       [trace.Shared + 1][sumObjects]int32
	odd, fails int32
}

// sumClear is the length of a sequence whose removal from a depSum costs
// about as much as clearing it (some 4 KB): a longer one is cleared.
const sumClear = 32

func tslot(t trace.ThreadID) uint32 { return uint32(t) % sumThreads }

func oslot(o trace.ObjectID) uint32 { return uint32(o) % sumObjects }

// reset sets s to the summary of seq.
func (s *depSum) reset(seq []*event) {
	*s = depSum{}
	s.add(seq)
}

// add adds the events of seq to the summary.
func (s *depSum) add(seq []*event) {
	for _, x := range seq {
		s.apply(x, 1)
	}
}

// remove takes event x, an element of the sequence, out of the summary.
func (s *depSum) remove(x *event) { s.apply(x, -1) }

// apply adds d to the counts of event x.
func (s *depSum) apply(x *event, d int32) {
	s.threads[tslot(x.sth)] += d
	if x.spart != trace.NoThread {
		s.threads[tslot(x.spart)] += d
	}
	if x.sjoin != trace.NoThread {
		s.joined[tslot(x.sjoin)] += d
	}
	for _, k := range x.kids() {
		s.kids[tslot(k)] += d
	}
	acc, ok := x.cachedSteps()
	if !ok {
		var buf [8]trace.Access
		acc = x.steps(buf[:0])
	}
	for _, y := range acc {
		if y.Mode < trace.Read || y.Mode > trace.Shared {
			s.odd += d
			continue
		}
		s.objs[y.Mode][oslot(y.Obj)] += d
	}
	if x.fails {
		s.fails += d
	}
}

// mayDepend reports whether c may be dependent (names.dependent) with an
// event of the summarised sequence: false only if it is with none. Each
// test is a clause of dependent, asked of the whole sequence at once.
func (s *depSum) mayDepend(c *event) bool {
	switch {
	case s.fails > 0 || c.fails || s.odd > 0:
		return true
	case s.threads[tslot(c.sth)] > 0 || s.threads[tslot(c.spart)] > 0:
		return true // shareThread
	case s.joined[tslot(c.sth)] > 0 || (c.spart != trace.NoThread && s.joined[tslot(c.spart)] > 0):
		return true // a Join of c's thread
	case c.sjoin != trace.NoThread && s.threads[tslot(c.sjoin)] > 0:
		return true // c joins a thread of the sequence
	case s.kids[tslot(c.sth)] > 0 || (c.spart != trace.NoThread && s.kids[tslot(c.spart)] > 0):
		return true // an event of the sequence started c's thread
	}
	for _, k := range c.kids() {
		if s.threads[tslot(k)] > 0 {
			return true // c started a thread of the sequence
		}
	}
	// conflict: two accesses to one object conflict unless both are reads
	// or both shared updates.
	acc, ok := c.cachedSteps()
	if !ok {
		var buf [8]trace.Access
		acc = c.steps(buf[:0])
	}
	for _, y := range acc {
		if y.Mode < trace.Read || y.Mode > trace.Shared {
			return true
		}
		for m := trace.Read; m <= trace.Shared; m++ {
			if (m != y.Mode || m == trace.Write) && s.objs[m][oslot(y.Obj)] > 0 {
				return true
			}
		}
	}
	return false
}
