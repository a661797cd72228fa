// This file implements a worker's jobs: a unit being explored a batch at
// a time, the units it split off for idle workers, and the result it
// publishes once it and they are done.

package distrib

import (
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft/internal/explore"
)

// job is a unit a worker explores.
type job struct {
	id        uint64 // the worker's number for it
	unit      *unitMsg
	msg       jetstream.Msg
	delivered uint64 // the unit's deliveries so far
	seq       uint64 // its sequence on UnitsStream
	part      *explore.Part
	stopAlive func()
	over      bool // its exploration was over at its last batch, and no join came since
	// children holds the units it split off whose result it has not
	// joined, by id, with their sequences on UnitsStream; inbox the
	// results that came for them, not joined yet.
	children  map[uint64]child
	lastChild uint64
	inbox     []jetstream.Msg
	split     int       // units split off it and off those, all the way down
	checked   time.Time // when the worker last looked whether its unit is on the queue
	// out numbers the units its part split off and publishes its letters
	// to them; mail holds the letters to its own unit (letters.go).
	out  outbox
	mail mailbox
}

// child is a unit a job split off.
type child struct {
	part []byte
	seq  uint64
}

// begin takes unit message m: it rejects one that is malformed, drops an
// orphan, and begins a job for the others.
func (w *worker) begin(m jetstream.Msg) error {
	u, err := decodeUnit(m.Subject(), m.Data())
	if err != nil {
		w.stats.Rejected++
		w.logf("weft worker %s: rejected a message: %v", w.o.Name, err)
		return m.Term()
	}
	md, err := m.Metadata()
	if err != nil {
		return fmt.Errorf("unit %d: %w", u.ID, err)
	}
	if orphan, err := w.orphan(u); err != nil {
		return err
	} else if orphan {
		return w.dropOrphan(u, m, "")
	}
	w.lastJob++
	j := &job{id: w.lastJob, unit: u, msg: m, delivered: md.NumDelivered, seq: md.Sequence.Stream,
		stopAlive: keepAlive(m, w.ackWait), children: map[uint64]child{}}
	x, err := w.explorer(u.Spec)
	if err == nil {
		j.part, err = x.Start(u.Part)
	}
	if err != nil {
		return w.publish(j, nil, err)
	}
	w.jobs = append(w.jobs, j)
	return nil
}

// dropOrphan counts and logs unit u, an orphan (when: while it did
// what, or ""), and terminates its message m: no worker explores it.
func (w *worker) dropOrphan(u *unitMsg, m jetstream.Msg, when string) error {
	w.stats.Orphans++
	w.logf("weft worker %s: dropped unit %d of run %s%s: worker %s, which split it off, is gone, and its own unit is explored again whole", w.o.Name, u.ID, u.Run, when, u.Owner)
	return m.Term()
}

// orphan reports whether unit u was split off a job of a worker that is
// gone: its consumer of results is gone from the server (a worker's
// consumer outlives it by its inactive threshold), or the job is no
// longer this worker's.
func (w *worker) orphan(u *unitMsg) (bool, error) {
	switch {
	case u.Owner == "":
		return false, nil
	case u.Owner == w.id:
		for _, j := range w.jobs {
			if j.id == u.Job {
				return false, nil
			}
		}
		return true, nil
	}
	_, err := w.js.Consumer(w.ctx, ResultsStream, childConsumer(u.Owner))
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("looking for worker %s's consumer: %w", u.Owner, err)
	}
	return false, nil
}

// step joins the results job j received, explores a batch of it, splits
// units off it for idle workers, and publishes its result once it is
// done.
func (w *worker) step(j *job) error {
	began := time.Now()
	defer func() { w.stats.Busy += time.Since(began) }()
	if began.Sub(j.checked) >= checkEvery {
		j.checked = began
		if gone, err := w.abandoned(j); gone || err != nil {
			return err
		}
	}
	if err := w.joinInbox(j); err != nil {
		return w.fail(j, err)
	}
	if err := w.receive(j); err != nil {
		return w.fail(j, err)
	}
	if !j.over && !j.mail.awaiting && !j.part.Stopped() {
		over, err := j.part.Explore(w.o.Batch)
		if err != nil {
			return w.fail(j, err)
		}
		// A part that waits for a letter is not over: the letter gives
		// it work.
		j.mail.awaiting = over && j.part.AwaitsMail()
		j.over = over && !j.mail.awaiting
		if j.mail.awaiting {
			if err := w.subscribe(j); err != nil {
				return err
			}
		}
		if !over && !w.o.NoSplit {
			if gone, err := w.steal(j); gone || err != nil {
				return err
			}
		}
	}
	if err := j.out.post(w.ctx, w.js, j.unit.Run, j.part.Letters()); err != nil {
		return fmt.Errorf("%w: unit %d: %v", errWorker, j.unit.ID, err)
	}
	if j.part.Stopped() || j.over && len(j.children) == 0 && len(j.inbox) == 0 {
		out, err := j.part.Outcome()
		if err != nil {
			return w.fail(j, err)
		}
		return w.publish(j, out, nil)
	}
	return nil
}

// checkEvery is how often a worker looks whether a job's unit is still on
// the queue: a run that ends (its coordinator removes its units) or a unit
// another worker finished after this one's ack deadline leaves the job
// with no one to take its result.
const checkEvery = 100 * time.Millisecond

// abandoned reports whether j's unit is gone from the queue, and then ends
// j, with the units it split off.
func (w *worker) abandoned(j *job) (bool, error) {
	gone, err := w.gone(j.seq)
	if err != nil || !gone {
		return false, err
	}
	w.end(j)
	w.dropped(j)
	return true, nil
}

// dropped counts and logs job j, ended, as abandoned.
func (w *worker) dropped(j *job) {
	w.stats.Abandoned++
	w.logf("weft worker %s: unit %d of run %s was removed from the queue while explored (its run ended, or another worker finished it): it is dropped", w.o.Name, j.unit.ID, j.unit.Run)
}

// fail publishes err as job j's result, unless it concerns the worker
// rather than the job.
func (w *worker) fail(j *job, err error) error {
	if errors.Is(err, errWorker) {
		return err
	}
	if !errors.Is(err, explore.ErrBadPart) {
		defer w.dropExplorer(j.unit.Spec)
	}
	return w.publish(j, nil, err)
}

// errWorker is wrapped by the errors of a job's step that concern the
// worker (the server), not the job's exploration.
var errWorker = errors.New("worker")

// joinInbox joins the results j received.
func (w *worker) joinInbox(j *job) error {
	for len(j.inbox) > 0 {
		m := j.inbox[0]
		j.inbox = j.inbox[1:]
		if err := w.joinChild(j, m); err != nil {
			return err
		}
	}
	return nil
}

// joinChild joins result message m of a unit j split off.
func (w *worker) joinChild(j *job, m jetstream.Msg) error {
	r, err := decodeResult(j.unit.Run, m.Subject(), m.Data())
	if err != nil {
		w.stats.Rejected++
		w.logf("weft worker %s: rejected a message: %v", w.o.Name, err)
		m.Term()
		return nil
	}
	c, ok := j.children[r.ID]
	if !ok {
		w.stats.Duplicates++
		return ackWorker(m)
	}
	if r.Err != "" {
		ackWorker(m)
		if r.Shared {
			return fmt.Errorf("unit %d split off unit %d, on worker %s: %w: %s", r.ID, j.unit.ID, r.Worker, explore.ErrSharedObject, trimShared(r.Err))
		}
		return fmt.Errorf("unit %d split off unit %d failed on worker %s: %s", r.ID, j.unit.ID, r.Worker, r.Err)
	}
	parts, err := j.part.Join(r.Outcome)
	if errors.Is(err, explore.ErrBadPart) {
		w.stats.Rejected++
		w.logf("weft worker %s: rejected a message: %v", w.o.Name, err)
		m.Term()
		return w.publishChild(j, r.ID, c.part) // it is still to explore
	}
	if err != nil {
		return err
	}
	delete(j.children, r.ID)
	j.over = false // a join can give it work again
	j.split += r.Split
	w.stats.Joined++
	for _, part := range parts {
		if err := w.newChild(j, part); err != nil {
			return err
		}
	}
	return ackWorker(m)
}

// steal splits units off j while workers wait for work and none waits
// for a worker: large ones (explore.Part.SplitLarge, the branches left at
// the shallowest state of j's path that has any), as the workers of a
// parallel exploration do, since a unit must hold enough work to pay for
// its messages. If j's unit is gone it ends j instead, and reports it.
func (w *worker) steal(j *job) (gone bool, err error) {
	n, err := w.wanted()
	if err != nil || n == 0 {
		return false, err
	}
	// Units split off a unit that is gone would stay on the queue.
	if gone, err := w.abandoned(j); gone || err != nil {
		return gone, err
	}
	for range n {
		part, ok, err := j.part.SplitLarge()
		if err != nil {
			return false, err
		}
		if !ok {
			break
		}
		if err := w.newChild(j, part); err != nil {
			return false, err
		}
		j.out.add(LetterSubject(j.unit.Run, w.id, j.id, j.lastChild))
	}
	return false, nil
}

// newChild publishes part, split off j (or given by a join), as a unit
// of its own.
func (w *worker) newChild(j *job, part []byte) error {
	if w.children == nil {
		c, err := startChildResults(w)
		if err != nil {
			return err
		}
		w.children = c
	}
	j.lastChild++
	w.stats.Split++
	j.split++
	return w.publishChild(j, j.lastChild, part)
}

// publishChild publishes unit id of j.
func (w *worker) publishChild(j *job, id uint64, part []byte) error {
	b, err := encode(&unitMsg{Magic: magic, Run: j.unit.Run, ID: id, Owner: w.id, Job: j.id, Spec: j.unit.Spec, Part: part})
	if err != nil {
		return err
	}
	ack, err := w.js.Publish(w.ctx, UnitsSubject(j.unit.Run), b)
	if err != nil {
		return fmt.Errorf("%w: publishing a unit split off unit %d: %v", errWorker, j.unit.ID, err)
	}
	j.children[id] = child{part: part, seq: ack.Sequence}
	return nil
}

// publish publishes job j's result, its outcome out or the error that
// stopped it, on its unit's reply subject, then acknowledges the unit, and
// ends the job. The units it split off and has not joined (a failure
// stopped it) are removed from the queue.
func (w *worker) publish(j *job, out []byte, jobErr error) error {
	w.end(j)
	r := resultMsg{Magic: magic, Run: j.unit.Run, ID: j.unit.ID, Delivered: j.delivered, Worker: w.o.Name, Outcome: out, Split: j.split}
	if jobErr != nil {
		r.Err, r.Shared = jobErr.Error(), errors.Is(jobErr, explore.ErrSharedObject)
	}
	gone, err := w.gone(j.seq)
	switch {
	case err != nil && w.ctx.Err() != nil:
		return nil // stopped: the unit goes to another worker
	case err != nil:
		return err
	case gone:
		w.dropped(j)
		return nil
	}
	b, err := encode(&r)
	if err != nil {
		return err
	}
	if _, err := w.js.Publish(w.ctx, j.unit.reply(), b); err != nil {
		if w.ctx.Err() != nil {
			return nil // stopped: the unit goes to another worker
		}
		return fmt.Errorf("publishing the result of unit %d: %w", j.unit.ID, err)
	}
	w.stats.Units++
	return j.msg.Ack()
}

// end removes job j from the worker's, with the units it split off and
// has not joined.
func (w *worker) end(j *job) {
	j.stopAlive()
	j.unsubscribe()
	for i, k := range w.jobs {
		if k == j {
			w.jobs = append(w.jobs[:i], w.jobs[i+1:]...)
			break
		}
	}
	w.removeChildren(j)
}

// removeChildren removes from the queue the units j split off and has
// not joined: no one will join their results. (One a worker holds is
// found an orphan, or its result is dropped.)
func (w *worker) removeChildren(j *job) {
	for id, c := range j.children {
		if s, err := w.unitsStream(); err == nil {
			s.DeleteMsg(w.ctx, c.seq)
		}
		delete(j.children, id)
	}
	for _, m := range j.inbox {
		m.Ack()
	}
	j.inbox = nil
}

// unitsStream returns UnitsStream.
func (w *worker) unitsStream() (jetstream.Stream, error) {
	if w.units == nil {
		s, err := w.js.Stream(w.ctx, UnitsStream)
		if err != nil {
			return nil, fmt.Errorf("stream %s: %w", UnitsStream, err)
		}
		w.units = s
	}
	return w.units, nil
}

// gone reports whether the unit at sequence seq of UnitsStream is gone:
// its run ended (the coordinator removes its units), or another worker
// took it after this one's ack deadline and finished it. Its result
// would be a duplicate, or remain on ResultsStream with no run to take
// it in.
func (w *worker) gone(seq uint64) (bool, error) {
	s, err := w.unitsStream()
	if err != nil {
		return false, err
	}
	_, err = s.GetMsg(w.ctx, seq)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("looking for message %d on %s: %w", seq, UnitsStream, err)
	}
	return false, nil
}

// ackWorker acknowledges m, an error wrapping errWorker if it fails.
func ackWorker(m jetstream.Msg) error {
	if err := m.Ack(); err != nil {
		return fmt.Errorf("%w: acknowledging a result: %v", errWorker, err)
	}
	return nil
}
