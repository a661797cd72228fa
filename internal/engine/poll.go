// This file implements clock polls: a thread that reads the clock again and
// again, with nothing between but steps that change nothing (for
// time.Since(start) < d {}, or a loop that polls channels until a
// deadline), lets virtual time move, as Go's clock moves while a
// goroutine runs. Without this, such a loop would never end: virtual time
// moves only when every thread is blocked, or by a step of the clock
// thread to the next deadline of a sleep or a timer, and a poll loop arms
// none.
//
// A read of the clock (Thread.Now) is a poll when the thread's steps since
// its previous read, if any, only observed (observes): loads
// (trace.Event.ReadOnly), selects that found no case ready and took their
// default, failed TryLocks and lens of channels. go-co-op/gocron's
// executor waits so for its jobs, until a timeout, on every shutdown (for
// time.Now().Before(timeout) { select { case <-done: ...; default: } }),
// and spun at one time until the step bound while only loads counted. The
// PollReads-th poll in a row sleeps for PollQuantum before it reads the
// time: a Sleep step, recorded in the trace as any other (so replays
// reproduce it), which blocks the thread until virtual time has moved
// by the quantum, when every other thread is blocked with time that moves
// only then, or when the clock thread advances to it with time at any
// step. A timer due earlier fires first. The quantum is fixed: a poll
// loop waiting for d of virtual time takes d/PollQuantum sleeps.
//
// With time that moves only when every thread is blocked (the default,
// as under testing/synctest), reads with no step of the thread between
// them at all (the clock read again and again, and nothing else, as a
// loop that only times calls that read the clock does) see one time for
// their first PurePolls reads before they count as polls: as under
// testing/synctest, where time does not move while a goroutine runs, and
// as in Go, where they take a fraction of a millisecond. A loop that
// times a thousand calls of go.uber.org/ratelimit's unlimited limiter,
// whose Take reads the clock, and asserts that they took less than a
// millisecond, failed: every third read slept for a millisecond. A loop
// that waits for d on the clock alone ends after PurePolls more reads.
// With time at any step a test that assumes a goroutine runs within
// some time fails by design (a real, if unlikely, outcome), and every
// read counts as a poll.
//
// A Yield whose turn read the clock (for time.Since(start) < d {
// runtime.Gosched() }) only yields: the loop waits for time, which its
// polls move, not for a write of the variables it loaded (await.go).

package engine

import "github.com/weft-go/weft/trace"

// PollReads is how many polls of the clock in a row make the last one
// sleep for PollQuantum.
const PollReads = 3

// PollQuantum is how far a polling thread's sleep moves virtual time: a
// millisecond.
const PollQuantum = int64(1_000_000)

// PurePolls is how many reads of the clock in a row with no step of the
// thread between them see one time, with time that moves only when
// every thread is blocked, before they count as polls. Go reads the
// clock in a few tens of nanoseconds: ten thousand reads take a fraction
// of a millisecond.
const PurePolls = 10_000

// poll records a read of the clock by t and reports whether it is the
// PollReads-th poll in a row, which must sleep for PollQuantum first.
func (t *Thread) poll() bool {
	if t.reads > 0 && t.announces == t.pollAnnounces {
		t.pureReads++ // no step since the last read (its poll's sleep aside)
	} else {
		t.pureReads = 0
	}
	if !t.observedSincePoll() {
		t.polls = 0
	}
	t.polls++
	if t.polls < PollReads {
		return false
	}
	if t.pureReads > 0 && t.pureReads < PurePolls && !t.e.anyStep() {
		return false // a run of reads alone: time does not move yet
	}
	t.polls = 0
	// A loop that polls gives way as one that yields does (fair.go).
	t.lastYield = t.e.fair.yields
	return true
}

// observedSincePoll reports whether every step t took since its last read
// of the clock only observed (observes): false if t never read the clock.
func (t *Thread) observedSincePoll() bool {
	if t.polls == 0 {
		return false
	}
	steps := t.announces - t.pollAnnounces
	evs := t.e.tr.Events
	for i := len(evs) - 1; steps > 0 && i >= int(t.pollStep); i-- {
		ev := &evs[i]
		if ev.Partner == t.id {
			return false
		}
		if ev.Thread != t.id {
			continue
		}
		if !observes(ev) {
			return false
		}
		steps--
	}
	return steps == 0
}

// observes reports whether ev changed nothing: a load, a failed
// compare-and-swap, a select that took its default, a failed TryLock (or
// TryRLock), or a channel's len.
func observes(ev *trace.Event) bool {
	switch ev.Op.Kind {
	case trace.KindSelect:
		return ev.Case == -1
	case trace.KindTryLock:
		return !ev.OK
	case trace.KindLen:
		return true
	}
	return ev.ReadOnly()
}

// polled marks the end of a read of the clock by t: the steps t takes from
// here on are between it and t's next read.
func (t *Thread) polled() {
	t.pollAnnounces = t.announces
	t.pollStep = int32(len(t.e.tr.Events))
	t.reads++
}

// yieldPolled reports whether t read the clock since its last call of
// Yield, and marks this call: the turn of a busy-wait loop that polls the
// clock waits for time, which its polls move, not for a write of the
// variables it loaded.
func (t *Thread) yieldPolled() bool {
	polled := t.reads != t.yieldReads
	t.yieldReads = t.reads
	return polled
}
