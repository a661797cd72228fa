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
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft"
)

// Options tune a coordinator.
type Options struct {
	// Run names the run in subjects (default: random).
	Run string
	// AckWait is the ack deadline of a unit (default DefaultAckWait).
	AckWait time.Duration
	// Ahead is how many units the coordinator keeps waiting for a worker
	// (default 4).
	Ahead int
	// Batch is how many executions of the root it runs between two looks
	// at the queue and the results (default 32).
	Batch int
	// Bodies resolves the spec's program (default ProgramBody).
	Bodies Bodies
	// Log, if set, is told of rejected messages and redeliveries.
	Log func(format string, args ...any)
	// Extra are options of the coordinator's own executions (tests:
	// weft.WithObserver).
	Extra []weft.Option
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
	k       *weft.Coordinator
	workers jetstream.Consumer
	// results receives the result messages (jetstream's Consume, in the
	// background).
	results chan jetstream.Msg
	// waiting estimates the units that wait for a worker: the workers'
	// consumer's count of undelivered messages at asked, plus the units
	// published since.
	waiting int
	asked   time.Time
	next    uint64
	out     map[uint64][]byte // units published and not joined, by id
	stats   Stats
}

// Coordinate explores spec over the NATS JetStream of js, with workers
// (Work) anywhere, and returns the Result: the same as a local
// exploration's, but for the executions repeated where a unit's result
// concerned states the root had moved on from. It returns when every unit
// was joined and the root's exploration is over, or a failure (unless
// spec.KeepGoing) or ctx stopped it (the Result is then not exhausted).
func Coordinate(ctx context.Context, js jetstream.JetStream, spec Spec, o Options) (*weft.Result, Stats, error) {
	if o.Run == "" {
		var b [8]byte
		rand.Read(b[:])
		o.Run = hex.EncodeToString(b[:])
	}
	o.AckWait = cmp.Or(o.AckWait, DefaultAckWait)
	o.Ahead = cmp.Or(o.Ahead, 4)
	o.Batch = cmp.Or(o.Batch, 32)
	if o.Bodies == nil {
		o.Bodies = ProgramBody
	}
	body, err := o.Bodies(spec)
	if err != nil {
		return nil, Stats{}, err
	}
	workers, err := Setup(ctx, js, o.AckWait)
	if err != nil {
		return nil, Stats{}, err
	}
	k, err := weft.NewCoordinator(body, append(spec.options(), o.Extra...)...)
	if err != nil {
		return nil, Stats{}, err
	}
	defer k.Close()
	spec.Strategy = k.Strategy()
	name := "weft-coordinator-" + o.Run
	results, err := js.CreateOrUpdateConsumer(ctx, ResultsStream, jetstream.ConsumerConfig{
		Durable: name, FilterSubject: ResultsSubject(o.Run), AckPolicy: jetstream.AckExplicitPolicy,
	})
	if err != nil {
		return nil, Stats{}, fmt.Errorf("creating consumer %s: %w", name, err)
	}
	c := &coordinator{ctx: ctx, js: js, o: o, spec: spec, k: k, workers: workers, results: make(chan jetstream.Msg, 256), out: map[uint64][]byte{}}
	defer c.cleanup(name)
	done := make(chan struct{})
	cc, err := results.Consume(func(m jetstream.Msg) {
		select {
		case c.results <- m:
		case <-done: // left unacknowledged, purged by cleanup
		}
	})
	if err != nil {
		return nil, Stats{}, fmt.Errorf("consuming results: %w", err)
	}
	defer cc.Stop()
	defer close(done)
	err = c.run()
	return k.Result(len(c.out) == 0), c.stats, err
}

// run explores, publishes and joins until the exploration is over.
func (c *coordinator) run() error {
	over := false
	for c.ctx.Err() == nil {
		if !over && !c.k.Stopped() {
			began := time.Now()
			var err error
			over, err = c.k.Explore(c.o.Batch)
			c.stats.Exploring += time.Since(began)
			if err != nil {
				return err
			}
		}
		if c.k.Stopped() || over && len(c.out) == 0 {
			return nil
		}
		began := time.Now()
		if !over {
			if err := c.offer(); err != nil {
				return err
			}
		}
		waited := c.stats.Waiting
		joined, err := c.collect(over)
		c.stats.Coordination += time.Since(began) - (c.stats.Waiting - waited)
		if err != nil {
			return err
		}
		over = over && joined == 0 // a join can give the root work again
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
	for c.waiting < c.o.Ahead {
		part, ok, err := c.k.Split()
		if err != nil || !ok {
			return err
		}
		c.next++
		if err := c.publish(c.next, part); err != nil {
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
	if _, err := c.js.Publish(c.ctx, UnitsSubject(c.o.Run), b); err != nil {
		return fmt.Errorf("publishing unit %d: %w", id, err)
	}
	c.out[id] = part
	c.stats.Units++
	c.waiting++
	return nil
}

// collect takes in the results that came, waiting up to a second for the
// first if wait, and returns how many it joined.
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
	for {
		select {
		case m := <-c.results:
			if err := take(m); err != nil {
				return joined, err
			}
		default:
			return joined, nil
		}
	}
}

// handle takes in result message m and reports whether it joined it.
func (c *coordinator) handle(m jetstream.Msg) (bool, error) {
	r, err := decodeResult(c.o.Run, m.Subject(), m.Data())
	if err != nil {
		c.reject(m, err)
		return false, nil
	}
	part, ok := c.out[r.ID]
	if !ok {
		c.stats.Duplicates++
		c.logf("weft coordinator: dropped a second result of unit %d (delivery %d, worker %s): joined already", r.ID, r.Delivered, r.Worker)
		return false, m.Ack()
	}
	if r.Err != "" {
		m.Ack()
		return false, fmt.Errorf("unit %d failed on worker %s: %s", r.ID, r.Worker, r.Err)
	}
	units, err := c.k.Join(r.Outcome)
	if errors.Is(err, weft.ErrBadPart) {
		c.reject(m, err)
		// Its unit is still to explore.
		delete(c.out, r.ID)
		return false, c.publish(r.ID, part)
	}
	if err != nil {
		return false, err
	}
	delete(c.out, r.ID)
	c.stats.Joined++
	if r.Delivered > 1 {
		c.stats.Redelivered++
		c.logf("weft coordinator: unit %d was delivered %d times (a worker died or stalled past the ack deadline)", r.ID, r.Delivered)
	}
	for _, u := range units {
		c.next++
		if err := c.publish(c.next, u); err != nil {
			return true, err
		}
	}
	return true, m.Ack()
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

// cleanup removes the run's consumer and what is left of its units.
func (c *coordinator) cleanup(consumer string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c.js.DeleteConsumer(ctx, ResultsStream, consumer)
	if s, err := c.js.Stream(ctx, UnitsStream); err == nil {
		s.Purge(ctx, jetstream.WithPurgeSubject(UnitsSubject(c.o.Run)))
	}
	if s, err := c.js.Stream(ctx, ResultsStream); err == nil {
		s.Purge(ctx, jetstream.WithPurgeSubject(ResultsSubject(c.o.Run)))
	}
}
