// This file implements what a worker needs besides its jobs: a fetcher
// that takes units from the queue in the background, the consumer of the
// results of the units it split off, the look at the queue that tells it
// other workers wait for work, and the progress reports that keep its
// units its own.

package distrib

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft/internal/explore"
)

// fetched is a unit message the fetcher took, or the error that stopped
// it.
type fetched struct {
	msg jetstream.Msg
	err error
}

// fetcher takes one unit from the workers' consumer each time the worker
// wants one, in the background, so that the worker waits for a unit and
// for results at once.
type fetcher struct {
	req    chan struct{}
	got    chan fetched
	asked  bool // a unit is wanted and not yet received (the worker's goroutine only)
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// A fetch that finds no responder (the consumer being created or updated
// by a coordinator at that moment, or its leader not yet elected) is
// tried again fetchRetries times, fetchRetryPause apart, before the
// worker gives up.
const (
	fetchRetries    = 50
	fetchRetryPause = 100 * time.Millisecond
)

// transientFetch reports whether err is a fetch error that passes once
// the consumer is in place.
func transientFetch(err error) bool {
	return errors.Is(err, nats.ErrNoResponders)
}

// pause waits d, and reports false if ctx ends first.
func pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func startFetcher(ctx context.Context, cons jetstream.Consumer) *fetcher {
	ctx, cancel := context.WithCancel(ctx)
	f := &fetcher{req: make(chan struct{}, 1), got: make(chan fetched), cancel: cancel}
	f.wg.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-f.req:
			}
			for received, retries := false, 0; !received; {
				batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
				if transientFetch(err) && retries < fetchRetries && pause(ctx, fetchRetryPause) {
					retries++
					continue
				}
				if err != nil {
					if ctx.Err() == nil {
						f.got <- fetched{err: err}
					}
					return
				}
				retries = 0
				for m := range batch.Messages() {
					received = true
					select {
					case f.got <- fetched{msg: m}:
					case <-ctx.Done():
						m.Nak() // taken as the worker stopped: to another worker at once
						return
					}
				}
				if ctx.Err() != nil {
					return
				}
			}
		}
	})
	return f
}

// want asks for a unit, unless one is asked for already.
func (f *fetcher) want() {
	if !f.asked {
		f.asked = true
		f.req <- struct{}{}
	}
}

// take returns a unit the fetcher received, if one waits.
func (f *fetcher) take() (fetched, bool) {
	select {
	case x := <-f.got:
		f.asked = false
		return x, true
	default:
		return fetched{}, false
	}
}

func (f *fetcher) stop() {
	f.cancel()
	f.wg.Wait()
}

// childConsumer names the consumer of the results of the units worker
// split off.
func childConsumer(worker string) string { return "weft-worker-" + worker }

// childResults consumes the results of the units a worker split off: all
// its runs' and jobs' (ChildSubject(*, worker, *)).
type childResults struct {
	w       *worker
	msgs    chan jetstream.Msg
	done    chan struct{}
	consume jetstream.ConsumeContext
}

// startChildResults creates the worker's consumer of results. It goes
// when the worker stops, or, if the worker dies, once it has been
// inactive for the ack deadline of units: a unit split off one of the
// dead worker's jobs is then an orphan, dropped by the worker that takes
// it, while the dead worker's own unit goes to another worker whole.
func startChildResults(w *worker) (*childResults, error) {
	name := childConsumer(w.id)
	cons, err := w.js.CreateOrUpdateConsumer(w.ctx, ResultsStream, jetstream.ConsumerConfig{
		Durable:           name,
		FilterSubject:     resultsPrefix + "*." + w.id + ".*",
		AckPolicy:         jetstream.AckExplicitPolicy,
		InactiveThreshold: max(w.ackWait, time.Second),
	})
	if err != nil {
		return nil, fmt.Errorf("%w: creating consumer %s: %v", errWorker, name, err)
	}
	c := &childResults{w: w, msgs: make(chan jetstream.Msg, 256), done: make(chan struct{})}
	c.consume, err = cons.Consume(func(m jetstream.Msg) {
		select {
		case c.msgs <- m:
		case <-c.done: // unacknowledged; the consumer is deleted
		}
	})
	if err != nil {
		return nil, fmt.Errorf("%w: consuming results: %v", errWorker, err)
	}
	return c, nil
}

// stop stops consuming and, if remove, removes the consumer: the units
// split off and not joined are orphans from now on.
func (c *childResults) stop(remove bool) {
	close(c.done)
	c.consume.Stop()
	if !remove {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c.w.js.DeleteConsumer(ctx, ResultsStream, childConsumer(c.w.id))
}

// takeResults gives the results that came to their jobs, without
// waiting.
func (w *worker) takeResults() error {
	if w.children == nil {
		return nil
	}
	for {
		select {
		case m := <-w.children.msgs:
			if err := w.route(m); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// route gives result message m to the job whose unit it is of; one of a
// job that is over (a failure stopped it, or its explorer failed) is
// dropped.
func (w *worker) route(m jetstream.Msg) error {
	tokens := strings.Split(m.Subject(), ".")
	id, err := strconv.ParseUint(tokens[len(tokens)-1], 10, 64)
	if err == nil {
		for _, j := range w.jobs {
			if j.id == id {
				j.inbox = append(j.inbox, m)
				return nil
			}
		}
	}
	w.stats.Duplicates++
	return ackWorker(m)
}

// wanted returns how many units w should split off now: as many as
// workers wait for a unit beyond the units waiting for a worker (at most
// 4), as the workers' consumer says, asked at most once per askEvery.
func (w *worker) wanted() (int, error) {
	if w.o.forceSplit {
		return 1, nil
	}
	if time.Since(w.askedIdle) < askEvery {
		return 0, nil
	}
	w.askedIdle = time.Now()
	info, err := w.cons.Info(w.ctx)
	if err != nil {
		return 0, fmt.Errorf("%w: consumer %s: %v", errWorker, WorkersConsumer, err)
	}
	waiting := info.NumWaiting
	if w.fetcher.asked {
		waiting-- // the worker's own request
	}
	return min(max(waiting-int(info.NumPending), 0), 4), nil
}

// keepAlive reports progress on m every third of the ack deadline, until
// the returned function is called.
func keepAlive(m jetstream.Msg, ackWait time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(max(ackWait/3, 10*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				m.InProgress()
			}
		}
	})
	var once sync.Once
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}

// trimShared returns the message of an error wrapping
// explore.ErrSharedObject, without the sentinel's own.
func trimShared(msg string) string {
	return strings.TrimPrefix(msg, explore.ErrSharedObject.Error()+": ")
}
