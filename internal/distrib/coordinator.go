// This file implements the coordinator of a distributed exploration: it
// explores the root, publishes units while the queue runs short, and
// joins the results, each unit once.

package distrib

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/trace"
)

// Options tune a coordinator.
type Options struct {
	// Run names the run in subjects (default: NewRun's).
	Run string
	// Resume, with Run, takes over run Run, whose coordinator died:
	// the new one replays the run's journal, publishes again the units
	// that are neither on the queue nor done, and goes on. The run's
	// spec must be spec (else an error wrapping ErrSpecMismatch).
	Resume bool
	// WorkersGone, with Resume, says that every worker of the server
	// died with the coordinator (they were its processes, on its
	// embedded server): the units they held are delivered again at once,
	// not after their ack deadline.
	WorkersGone bool
	// MaxRuns, if not 0, stops the run once its executions (the root's
	// and those of the units joined) reach it: the root explores no more
	// than the bound leaves, and a unit, whole, can pass it (see
	// Stats.Crossing); the units not joined then are abandoned.
	MaxRuns int
	// AckWait is the ack deadline of a unit (default DefaultAckWait).
	AckWait time.Duration
	// HandOut makes the coordinator a pure joiner: it runs the root's
	// first execution, then hands out all the work the root has, and
	// whatever joins give it, as units, and runs no other execution
	// itself; the workers split the units further among themselves
	// (work stealing). Its journal then holds a single execution, which is
	// all a resume runs again.
	HandOut bool
	// Ahead is how many units the coordinator keeps waiting for a worker
	// (default 4).
	Ahead int
	// Batch is how many executions of the root it runs between two looks
	// at the queue and the results (default 32).
	Batch int
	// Bodies resolves the spec's program (required).
	Bodies Bodies
	// Log, if set, is told of rejected messages and redeliveries.
	Log func(format string, args ...any)
	// Observe, if set, sees every execution of the coordinator's own
	// (tests).
	Observe func(tr *trace.Trace, end trace.End)
	// Hook, if set, is called with "publishing" and a unit's id before
	// the unit is published (its making is in the journal), and with
	// "handled" and a unit's id once its result is taken in, and with
	// "resumed" and 0 once a resumed run has its units back on the queue
	// (tests: to kill the coordinator at a chosen point, to start
	// workers after).
	Hook func(point string, unit uint64)

	// noMail (tests that explore units by hand, in an order of their
	// own) writes no letters to the root's units, which then take none:
	// a unit of the root waits for none, and the division may repeat
	// executions.
	noMail bool
}

// Stats describe a coordinator's run.
type Stats struct {
	// Units counts the units published (a unit whose result was
	// rejected is published again and counted again); Joined the results
	// joined, one per unit.
	Units, Joined int
	// Redelivered counts the units joined from a result of a second or
	// later delivery (its first worker died or stalled past the ack
	// deadline); Duplicates the results dropped because their unit was
	// joined already; Rejected the malformed results.
	Redelivered, Duplicates, Rejected int
	// Of a resumed run: Replayed counts the joins replayed from the
	// journal; of the units that waited for a result, Done had their
	// result on the stream (removed from the queue if there still),
	// Queued were on the queue, and Republished were neither (the
	// coordinator died between journaling and publishing them) and were
	// published again (counted in Units).
	Replayed, Queued, Done, Republished int
	// Stale counts the units of a resumed run found on the queue though
	// joined (their worker died, or the server, before their
	// acknowledgement was in): removed from there.
	Stale int
	// Stolen counts the units workers split off the units they explored,
	// for workers that waited for work (and off those, all the way down),
	// as the results joined report them.
	Stolen int
	// Crossing, if MaxRuns stopped the run with a unit's result, is that
	// unit's executions: the run's are at most MaxRuns-1+Crossing. (0:
	// the root's executions reached MaxRuns, exactly.)
	Crossing int
	// Coordination is the time spent splitting, publishing, fetching and
	// joining units: 1s over Coordination/Joined is the most units per
	// second the coordinator could feed. Waiting is the time it waited for
	// results with nothing else to do, Exploring the time it spent running
	// executions itself.
	Coordination, Waiting, Exploring time.Duration
}

// coordinator is the state of a run.
type coordinator struct {
	ctx     context.Context
	js      jetstream.JetStream
	o       Options
	spec    Spec
	k       *explore.Coordinator
	workers jetstream.Consumer
	// results receives the result messages (jetstream's Consume, in the
	// background).
	results chan jetstream.Msg
	// over is whether the root's exploration was over at its last
	// Explore, and no join gave it work since.
	over bool
	// waiting estimates the units that wait for a worker: the workers'
	// consumer's count of undelivered messages at asked, plus the units
	// published since.
	waiting int
	asked   time.Time
	next    uint64            // the last unit's id
	out     map[uint64][]byte // units made and not joined, by id
	journal []entry           // noted, not yet published
	// mail numbers the units the root's Split and SplitLarge gave and
	// publishes the root's letters to them (letters.go).
	mail  outbox
	stats Stats
}

// NewRun returns a new run's name, random.
func NewRun() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Coordinate explores spec over the NATS JetStream of js, with workers
// (Work) anywhere, and returns the Result: the same as a local
// exploration's, but for the executions repeated where a unit's result
// concerned states the root had moved on from. It returns when every unit
// was joined and the root's exploration is over, or a failure (unless
// spec.KeepGoing), MaxRuns or ctx stopped it (the Result is then not
// exhausted). A run that returns is over: its messages are removed from
// the streams. A run whose coordinator died (killed, crashed, its machine
// lost) stays there, and Options.Resume finishes it.
func Coordinate(ctx context.Context, js jetstream.JetStream, spec Spec, o Options) (*explore.Result, Stats, error) {
	c, stop, err := start(ctx, js, spec, o)
	if err != nil {
		return nil, c.stats, err
	}
	defer stop()
	err = c.run()
	if ctx.Err() != nil {
		err = nil // stopped: the Result is not exhausted
	}
	return c.k.Result(len(c.out) == 0), c.stats, err
}

// start begins run o.Run of spec, or resumes it, and has its results
// come on c.results; stop ends the run. On an error, c has only stats.
func start(ctx context.Context, js jetstream.JetStream, spec Spec, o Options) (c *coordinator, stop func(), err error) {
	c = &coordinator{ctx: ctx, js: js, results: make(chan jetstream.Msg, 256), out: map[uint64][]byte{}}
	if o.Resume && o.Run == "" {
		return c, nil, errors.New("resuming a run: which? Options.Run names it")
	}
	o.Run = cmp.Or(o.Run, NewRun())
	o.AckWait = cmp.Or(o.AckWait, DefaultAckWait)
	o.Ahead = cmp.Or(o.Ahead, 4)
	o.Batch = cmp.Or(o.Batch, 32)
	if o.Bodies == nil {
		return c, nil, fmt.Errorf("distributed run of %s: %w", spec.Program, ErrNoBodies)
	}
	body, err := o.Bodies(spec)
	if err != nil {
		return c, nil, err
	}
	if c.workers, err = Setup(ctx, js, o.AckWait); err != nil {
		return c, nil, err
	}
	if c.k, err = explore.NewCoordinator(body, spec.config(o.Observe)); err != nil {
		return c, nil, err
	}
	spec.Strategy = c.k.Strategy()
	if !o.noMail {
		c.k.EnableMail() // letters go to the units it splits off (letters.go)
	}
	c.o, c.spec = o, spec
	if o.Resume {
		if err := c.refuseAlive(o.Run); err != nil {
			c.k.Close()
			return c, nil, err
		}
	}
	quiet, err := c.answerAlive()
	if err != nil {
		c.k.Close()
		return c, nil, err
	}
	var from uint64 // the results before are joined
	if o.Resume {
		from, err = c.resume()
		if err == nil && o.Hook != nil {
			o.Hook("resumed", 0)
		}
	} else {
		err = c.fresh()
	}
	if err != nil {
		quiet()
		c.k.Close()
		return c, nil, err
	}
	results, err := c.resultsConsumer(from)
	if err != nil {
		quiet()
		c.cleanup()
		c.k.Close()
		return c, nil, err
	}
	done := make(chan struct{})
	cc, err := results.Consume(func(m jetstream.Msg) {
		select {
		case c.results <- m:
		case <-done: // left unacknowledged; the consumer is deleted by cleanup
		}
	})
	if err != nil {
		quiet()
		c.cleanup()
		c.k.Close()
		return c, nil, fmt.Errorf("consuming results: %w", err)
	}
	return c, func() {
		quiet()
		close(done)
		cc.Stop()
		c.cleanup()
		c.k.Close()
	}, nil
}

// fresh begins a new run, refusing a name the server has already.
func (c *coordinator) fresh() error {
	runs, err := c.runs()
	if err != nil {
		return err
	}
	if slices.Contains(runs, c.o.Run) {
		return fmt.Errorf("run %s is on the server already: resume it, or name the new run otherwise", c.o.Run)
	}
	return c.begin()
}

// consumerName is the name of the coordinator's consumer of results.
func (c *coordinator) consumerName() string { return "weft-coordinator-" + c.o.Run }

// resultsConsumer (re)creates the coordinator's consumer of the run's
// results, from the one after sequence from on.
func (c *coordinator) resultsConsumer(from uint64) (jetstream.Consumer, error) {
	name := c.consumerName()
	cfg := jetstream.ConsumerConfig{Durable: name, FilterSubject: ResultsSubject(c.o.Run), AckPolicy: jetstream.AckExplicitPolicy}
	if from > 0 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, from+1
	}
	// A dead coordinator's consumer would give its results again only
	// after their ack deadline.
	if err := c.js.DeleteConsumer(c.ctx, ResultsStream, name); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return nil, fmt.Errorf("deleting consumer %s: %w", name, err)
	}
	cons, err := c.js.CreateConsumer(c.ctx, ResultsStream, cfg)
	if err != nil {
		return nil, fmt.Errorf("creating consumer %s: %w", name, err)
	}
	return cons, nil
}

// bounded reports whether the run's executions reached MaxRuns.
func (c *coordinator) bounded() bool {
	return c.o.MaxRuns > 0 && c.k.Executions() >= c.o.MaxRuns
}

// run explores, publishes and joins until the exploration is over.
func (c *coordinator) run() error {
	for c.ctx.Err() == nil && !c.bounded() {
		if !c.over && !c.k.Stopped() {
			n := c.o.Batch
			if c.o.HandOut {
				n = 1
			}
			if c.o.MaxRuns > 0 {
				n = min(n, c.o.MaxRuns-c.k.Executions())
			}
			began := time.Now()
			over, err := c.k.Explore(n)
			c.stats.Exploring += time.Since(began)
			if err != nil {
				return err
			}
			c.over = over
			c.note(entry{Op: opExplore, N: n, Over: over})
			if err := c.post(); err != nil {
				return err
			}
		}
		if c.k.Stopped() || c.over && len(c.out) == 0 || c.bounded() {
			return nil
		}
		began := time.Now()
		if !c.over {
			if err := c.offer(); err != nil {
				return err
			}
		}
		waited := c.stats.Waiting
		joined, err := c.collect(c.over)
		c.stats.Coordination += time.Since(began) - (c.stats.Waiting - waited)
		if err != nil {
			return err
		}
		c.over = c.over && joined == 0 // a join can give the root work again
	}
	return nil // stopped: the Result is not exhausted
}

// askEvery is how often the coordinator asks the server how many units
// wait for a worker; between two questions it counts the units it
// publishes.
const askEvery = 5 * time.Millisecond

// offer splits units off the root's work while fewer than Ahead wait for
// a worker.
func (c *coordinator) offer() error {
	if time.Since(c.asked) >= askEvery || c.waiting >= c.o.Ahead {
		info, err := c.workers.Info(c.ctx)
		if err != nil {
			return fmt.Errorf("consumer %s: %w", WorkersConsumer, err)
		}
		c.waiting, c.asked = int(info.NumPending), time.Now()
	}
	return c.fill()
}

// fill splits units off the root's work while fewer than Ahead wait for a
// worker (by the estimate c.waiting), and publishes them. They are large
// ones (explore.Coordinator.SplitLarge), as the workers split off theirs,
// unless the coordinator hands all its work out (Options.HandOut), which
// only Split's do.
func (c *coordinator) fill() error {
	split, op := c.k.SplitLarge, uint8(opSplitLarge)
	if c.o.HandOut {
		split, op = c.k.Split, opSplit
	}
	var parts [][]byte
	for c.o.HandOut || c.waiting+len(parts) < c.o.Ahead {
		part, ok, err := split()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		c.note(entry{Op: op})
		parts = append(parts, part)
	}
	if err := c.publishNew(parts); err != nil {
		return err
	}
	for id := c.next - uint64(len(parts)) + 1; id <= c.next; id++ {
		c.mail.add(LetterSubject(c.o.Run, "", 0, id))
	}
	return c.post()
}

// post publishes the letters the root wrote since the last call, after
// the journal entries of what wrote them: a coordinator that resumes the
// run writes them again, read once by their units, and no other.
func (c *coordinator) post() error {
	letters := c.k.Letters()
	if len(letters) == 0 {
		return nil
	}
	if err := c.flush(); err != nil {
		return err
	}
	return c.mail.post(c.ctx, c.js, c.o.Run, letters)
}

// publishNew gives parts the next ids, journals what made them and
// publishes them.
func (c *coordinator) publishNew(parts [][]byte) error {
	if err := c.flush(); err != nil {
		return err
	}
	first := c.next + 1
	for _, part := range parts {
		c.next++
		c.out[c.next] = part
	}
	for i, part := range parts {
		if err := c.publish(first+uint64(i), part); err != nil {
			return err
		}
	}
	return nil
}

// publish publishes unit id.
func (c *coordinator) publish(id uint64, part []byte) error {
	b, err := encode(&unitMsg{Magic: magic, Run: c.o.Run, ID: id, Spec: c.spec, Part: part})
	if err != nil {
		return err
	}
	if c.o.Hook != nil {
		c.o.Hook("publishing", id)
	}
	if _, err := c.js.Publish(c.ctx, UnitsSubject(c.o.Run), b); err != nil {
		return fmt.Errorf("publishing unit %d: %w", id, err)
	}
	c.stats.Units++
	c.waiting++
	return nil
}

// collect takes in the results that came, waiting up to a second for the
// first if wait, and returns how many it joined; it stops at MaxRuns.
func (c *coordinator) collect(wait bool) (int, error) {
	joined := 0
	take := func(m jetstream.Msg) error {
		ok, err := c.handle(m)
		if ok {
			joined++
		}
		return err
	}
	if wait {
		began := time.Now()
		select {
		case m := <-c.results:
			c.stats.Waiting += time.Since(began)
			if err := take(m); err != nil {
				return joined, err
			}
		case <-time.After(time.Second):
			c.stats.Waiting += time.Since(began)
		case <-c.ctx.Done():
			return joined, nil
		}
	}
	for !c.bounded() {
		select {
		case m := <-c.results:
			if err := take(m); err != nil {
				return joined, err
			}
		default:
			return joined, nil
		}
	}
	return joined, nil
}

// handle takes in result message m and reports whether it joined it.
func (c *coordinator) handle(m jetstream.Msg) (bool, error) {
	r, err := decodeResult(c.o.Run, m.Subject(), m.Data())
	if err != nil {
		c.reject(m, err)
		return false, nil
	}
	md, err := m.Metadata()
	if err != nil {
		return false, fmt.Errorf("the result of unit %d: %w", r.ID, err)
	}
	part, ok := c.out[r.ID]
	if !ok {
		c.stats.Duplicates++
		c.logf("weft coordinator: dropped a second result of unit %d (delivery %d, worker %s): joined already", r.ID, r.Delivered, r.Worker)
		return false, m.Ack()
	}
	if r.Err != "" {
		m.Ack()
		if r.Shared {
			return false, fmt.Errorf("unit %d on worker %s: %w: %s", r.ID, r.Worker, explore.ErrSharedObject, trimShared(r.Err))
		}
		return false, fmt.Errorf("unit %d failed on worker %s: %s", r.ID, r.Worker, r.Err)
	}
	before := c.k.Executions()
	units, err := c.k.Join(r.Outcome)
	if errors.Is(err, explore.ErrBadPart) {
		c.reject(m, err)
		return false, c.publish(r.ID, part) // its unit is still to explore
	}
	if err != nil {
		return false, err
	}
	delete(c.out, r.ID)
	c.stats.Joined++
	c.stats.Stolen += r.Split
	if c.bounded() && c.stats.Crossing == 0 {
		c.stats.Crossing = c.k.Executions() - before
	}
	if r.Delivered > 1 {
		c.stats.Redelivered++
		c.logf("weft coordinator: unit %d was delivered %d times (a worker died or stalled past the ack deadline)", r.ID, r.Delivered)
	}
	c.note(entry{Op: opJoin, ID: r.ID, Seq: md.Sequence.Stream, N: len(units)})
	if err := c.publishNew(units); err != nil {
		return true, err
	}
	if err := c.post(); err != nil {
		return true, err
	}
	if err := m.Ack(); err != nil {
		return true, err
	}
	if c.o.Hook != nil {
		c.o.Hook("handled", r.ID)
	}
	return true, nil
}

// reject refuses malformed message m, for good, and says why.
func (c *coordinator) reject(m jetstream.Msg, err error) {
	c.stats.Rejected++
	c.logf("weft coordinator: rejected a message: %v", err)
	m.Term()
}

func (c *coordinator) logf(format string, args ...any) {
	if c.o.Log != nil {
		c.o.Log(format, args...)
	}
}

// cleanup ends the run: it removes its consumer and what is left of its
// units, results and journal.
func (c *coordinator) cleanup() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c.js.DeleteConsumer(ctx, ResultsStream, c.consumerName())
	for _, p := range []struct{ stream, subject string }{
		{UnitsStream, UnitsSubject(c.o.Run)},
		{ResultsStream, ResultsSubject(c.o.Run)},
		{ResultsStream, ResultsSubject(c.o.Run) + ".>"}, // of units workers split off
		{RunsStream, RunSubject(c.o.Run)},
		{LettersStream, lettersPrefix + c.o.Run + ".>"},
	} {
		if s, err := c.js.Stream(ctx, p.stream); err == nil {
			s.Purge(ctx, jetstream.WithPurgeSubject(p.subject))
		}
	}
}
