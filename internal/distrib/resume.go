// This file implements the restart of a run whose coordinator died: the
// new coordinator replays the run's journal, then republishes the units
// that are neither on the queue nor done, and joins the results that came
// meanwhile.

package distrib

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrNoRun is wrapped by the error of a resume of a run the server does
// not hold (it ended, or never began there).
var ErrNoRun = errors.New("no such unfinished run on the server")

// ErrSpecMismatch is wrapped by the error of a resume whose spec is not
// the run's.
var ErrSpecMismatch = errors.New("the run explores another program or options")

// ErrDiverged is wrapped by the error of a resume whose replay of the
// journal does not do what the first coordinator did (another version of
// weft, or a program whose executions depend on more than the schedule).
var ErrDiverged = errors.New("the replay of the run's journal diverged")

// runs returns the runs on the server whose coordinator has not finished
// them (it is running, or died), sorted.
func (c *coordinator) runs() ([]string, error) {
	s, err := c.js.Stream(c.ctx, RunsStream)
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", RunsStream, err)
	}
	info, err := s.Info(c.ctx, jetstream.WithSubjectFilter(runsPrefix+">"))
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", RunsStream, err)
	}
	var runs []string
	for subject := range info.State.Subjects {
		runs = append(runs, strings.TrimPrefix(subject, runsPrefix))
	}
	slices.Sort(runs)
	return runs, nil
}

// each calls fn with every message on subject of stream, from sequence
// from on, in order.
func (c *coordinator) each(stream, subject string, from uint64, fn func(m *jetstream.RawStreamMsg) error) error {
	s, err := c.js.Stream(c.ctx, stream)
	if err != nil {
		return fmt.Errorf("stream %s: %w", stream, err)
	}
	for seq := max(from, 1); ; {
		m, err := s.GetMsg(c.ctx, seq, jetstream.WithGetMsgSubject(subject))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", subject, err)
		}
		if err := fn(m); err != nil {
			return err
		}
		seq = m.Sequence + 1
	}
}

// resume brings the root to where the run's journal left it, and the
// units to explore back on the queue; it returns the sequence on
// ResultsStream after which the results are still to take in.
func (c *coordinator) resume() (uint64, error) {
	run := c.o.Run
	var entries []entry
	header := true
	err := c.each(RunsStream, RunSubject(run), 1, func(raw *jetstream.RawStreamMsg) error {
		m, err := decodeJournal(run, raw.Subject, raw.Data)
		if err != nil {
			return err
		}
		if header != (m.Spec != nil) {
			return fmt.Errorf("%w on %s: message %d is no header", ErrMalformed, raw.Subject, raw.Sequence)
		}
		if header && m.Spec.key() != c.spec.key() {
			return fmt.Errorf("%w: run %s explores %v, not %v; resume it with the same program, parameters and flags, or start a new run without -resume", ErrSpecMismatch, run, m.Spec, c.spec)
		}
		header = false
		entries = append(entries, m.Entries...)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("resuming run %s: %w", run, err)
	}
	if header {
		runs, err := c.runs()
		if err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("%w: run %s is not there (unfinished runs: %s); a run that ended, or was interrupted, cannot be resumed", ErrNoRun, run, list(runs))
	}
	last, err := c.replay(entries)
	if err != nil {
		return 0, fmt.Errorf("resuming run %s: %w", run, err)
	}
	if c.o.WorkersGone {
		// A new consumer delivers every unit on the queue, the ones the
		// dead workers held among them.
		if err := c.js.DeleteConsumer(c.ctx, UnitsStream, WorkersConsumer); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			return 0, fmt.Errorf("deleting consumer %s: %w", WorkersConsumer, err)
		}
		if c.workers, err = Setup(c.ctx, c.js, c.o.AckWait); err != nil {
			return 0, err
		}
	}
	return last, c.requeue(last)
}

func list(runs []string) string {
	if len(runs) == 0 {
		return "none"
	}
	return strings.Join(runs, ", ")
}

// replay does again what entries record, and returns the sequence of the
// last result joined.
func (c *coordinator) replay(entries []entry) (uint64, error) {
	results, err := c.js.Stream(c.ctx, ResultsStream)
	if err != nil {
		return 0, fmt.Errorf("stream %s: %w", ResultsStream, err)
	}
	var last uint64
	for i, e := range entries {
		switch e.Op {
		case opExplore:
			began := time.Now()
			over, err := c.k.Explore(e.N)
			c.stats.Exploring += time.Since(began)
			if err != nil {
				return 0, err
			}
			if over != e.Over {
				return 0, fmt.Errorf("%w: entry %d, %d executions of the root, over %v, was %v", ErrDiverged, i, e.N, over, e.Over)
			}
		case opSplit, opSplitLarge:
			split := c.k.Split
			if e.Op == opSplitLarge {
				split = c.k.SplitLarge
			}
			part, ok, err := split()
			if err != nil {
				return 0, err
			}
			if !ok {
				return 0, fmt.Errorf("%w: entry %d, the root has no unit to split off as unit %d", ErrDiverged, i, c.next+1)
			}
			c.next++
			c.out[c.next] = part
			c.mail.add(LetterSubject(c.o.Run, "", 0, c.next))
		case opJoin:
			raw, err := results.GetMsg(c.ctx, e.Seq)
			if err != nil {
				return 0, fmt.Errorf("the result of unit %d (message %d on %s): %w", e.ID, e.Seq, ResultsStream, err)
			}
			r, err := decodeResult(c.o.Run, raw.Subject, raw.Data)
			if err != nil {
				return 0, err
			}
			if r.ID != e.ID {
				return 0, fmt.Errorf("%w: entry %d, message %d on %s is the result of unit %d, not %d", ErrDiverged, i, e.Seq, ResultsStream, r.ID, e.ID)
			}
			units, err := c.k.Join(r.Outcome)
			if err != nil {
				return 0, err
			}
			if len(units) != e.N {
				return 0, fmt.Errorf("%w: entry %d, the join of unit %d gave %d units, was %d", ErrDiverged, i, e.ID, len(units), e.N)
			}
			delete(c.out, e.ID)
			for _, u := range units {
				c.next++
				c.out[c.next] = u
			}
			c.stats.Replayed++
			last = max(last, e.Seq)
		default:
			return 0, fmt.Errorf("%w: entry %d has no operation %d", ErrMalformed, i, e.Op)
		}
		// The letters written again: those their units read already
		// are dropped there.
		if err := c.post(); err != nil {
			return 0, err
		}
	}
	return last, nil
}

// requeue sorts the units that wait for their result: done (their result
// came after the last joined, at sequence last; one still on the queue,
// whose worker died before it acknowledged it, is removed from there), on
// the queue (a worker will take them, or has), or neither (their
// coordinator died between journaling and publishing them), which it
// publishes again. A unit joined already that is still on the queue (its
// worker died, or the server, before the acknowledgement was in) is
// removed from there.
func (c *coordinator) requeue(last uint64) error {
	// Units first: a worker publishes a unit's result before it
	// acknowledges the unit, so a unit gone from the queue before this
	// look has its result there before the next.
	queued := map[uint64]uint64{} // the sequence of each unit on the queue
	err := c.each(UnitsStream, UnitsSubject(c.o.Run), 1, func(raw *jetstream.RawStreamMsg) error {
		if u, err := decodeUnit(raw.Subject, raw.Data); err == nil && u.Owner == "" {
			queued[u.ID] = raw.Sequence
		}
		return nil
	})
	if err != nil {
		return err
	}
	done := map[uint64]bool{}
	err = c.each(ResultsStream, ResultsSubject(c.o.Run), last+1, func(raw *jetstream.RawStreamMsg) error {
		if r, err := decodeResult(c.o.Run, raw.Subject, raw.Data); err == nil {
			done[r.ID] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	units, err := c.js.Stream(c.ctx, UnitsStream)
	if err != nil {
		return fmt.Errorf("stream %s: %w", UnitsStream, err)
	}
	for _, id := range slices.Sorted(maps.Keys(queued)) {
		if _, waits := c.out[id]; waits {
			continue
		}
		// Joined already: its worker died before the server had its
		// acknowledgement (or the server died first).
		c.stats.Stale++
		if err := units.DeleteMsg(c.ctx, queued[id]); err != nil {
			if _, gerr := units.GetMsg(c.ctx, queued[id]); !errors.Is(gerr, jetstream.ErrMsgNotFound) {
				return fmt.Errorf("removing unit %d, joined, from the queue: %w", id, err)
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(c.out)) {
		seq, onQueue := queued[id]
		switch {
		case done[id]:
			c.stats.Done++
			if onQueue {
				// Its worker died between publishing the result and
				// acknowledging the unit: no one need explore it again.
				if err := units.DeleteMsg(c.ctx, seq); err != nil {
					if _, gerr := units.GetMsg(c.ctx, seq); !errors.Is(gerr, jetstream.ErrMsgNotFound) {
						return fmt.Errorf("removing unit %d, done, from the queue: %w", id, err)
					} // a worker took it and acknowledged it since
				}
			}
		case onQueue:
			c.stats.Queued++
		default:
			if err := c.publish(id, c.out[id]); err != nil {
				return err
			}
			c.stats.Republished++
		}
	}
	return nil
}
