// This file implements a worker of a distributed exploration: it takes
// one unit at a time, explores it, publishes the result and only then
// acknowledges the unit.

package distrib

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft"
)

// WorkerOptions tune a worker.
type WorkerOptions struct {
	// Name names the worker in results and logs.
	Name string
	// Bodies resolves the specs' programs (default ProgramBody).
	Bodies Bodies
	// Log, if set, is told of rejected units.
	Log func(format string, args ...any)
	// MaxUnits, if not 0, ends Work after that many units.
	MaxUnits int
	// Extra are options of the worker's executions (tests:
	// weft.WithObserver).
	Extra []weft.Option
}

// WorkerStats describe a worker's run.
type WorkerStats struct {
	// Units counts the units explored, Rejected the malformed ones,
	// Abandoned those whose run ended while they were explored (their
	// result is not published).
	Units, Rejected, Abandoned int
	// Busy is the time spent exploring.
	Busy time.Duration
}

// worker is the state of Work.
type worker struct {
	ctx       context.Context
	js        jetstream.JetStream
	o         WorkerOptions
	ackWait   time.Duration
	units     jetstream.Stream // UnitsStream, once gone looked
	explorers map[string]*weft.PartExplorer
	stats     WorkerStats
}

// Work takes units from the NATS JetStream of js and explores them until
// ctx is done (or MaxUnits were explored), then returns nil.
func Work(ctx context.Context, js jetstream.JetStream, o WorkerOptions) (WorkerStats, error) {
	if o.Bodies == nil {
		o.Bodies = ProgramBody
	}
	cons, err := workersConsumer(ctx, js)
	if ctx.Err() != nil {
		return WorkerStats{}, nil // stopped before it began
	}
	if err != nil {
		return WorkerStats{}, err
	}
	w := &worker{ctx: ctx, js: js, o: o, ackWait: cons.CachedInfo().Config.AckWait, explorers: map[string]*weft.PartExplorer{}}
	defer func() {
		for _, x := range w.explorers {
			x.Close()
		}
	}()
	for ctx.Err() == nil && (o.MaxUnits == 0 || w.stats.Units < o.MaxUnits) {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return w.stats, fmt.Errorf("fetching units: %w", err)
		}
		for m := range batch.Messages() {
			if err := w.handle(m); err != nil {
				return w.stats, err
			}
		}
	}
	return w.stats, nil
}

// handle explores unit message m, publishes its result and acknowledges
// it.
func (w *worker) handle(m jetstream.Msg) error {
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
	r := resultMsg{Magic: magic, Run: u.Run, ID: u.ID, Delivered: md.NumDelivered, Worker: w.o.Name}
	began := time.Now()
	stop := keepAlive(m, w.ackWait)
	out, err := w.explore(u)
	stop()
	w.stats.Busy += time.Since(began)
	if err != nil {
		r.Err, r.Shared = err.Error(), errors.Is(err, weft.ErrSharedObject)
	}
	r.Outcome = out
	gone, err := w.gone(md.Sequence.Stream)
	switch {
	case err != nil && w.ctx.Err() != nil:
		return nil // stopped: the unit goes to another worker
	case err != nil:
		return err
	case gone:
		w.stats.Abandoned++
		w.logf("weft worker %s: unit %d of run %s was removed from the queue while explored (its run ended, or another worker finished it): its result is dropped", w.o.Name, u.ID, u.Run)
		return nil
	}
	b, err := encode(&r)
	if err != nil {
		return err
	}
	if _, err := w.js.Publish(w.ctx, ResultsSubject(u.Run), b); err != nil {
		if w.ctx.Err() != nil {
			return nil // stopped: the unit goes to another worker
		}
		return fmt.Errorf("publishing the result of unit %d: %w", u.ID, err)
	}
	w.stats.Units++
	return m.Ack()
}

// gone reports whether the unit at sequence seq of UnitsStream is gone:
// its run ended (the coordinator removes its units), or another worker
// took it after this one's ack deadline and finished it. Its result
// would be a duplicate, or remain on ResultsStream with no run to take
// it in.
func (w *worker) gone(seq uint64) (bool, error) {
	if w.units == nil {
		s, err := w.js.Stream(w.ctx, UnitsStream)
		if err != nil {
			return false, fmt.Errorf("stream %s: %w", UnitsStream, err)
		}
		w.units = s
	}
	_, err := w.units.GetMsg(w.ctx, seq)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("looking for message %d on %s: %w", seq, UnitsStream, err)
	}
	return false, nil
}

// explore explores u's part with the explorer of its spec.
func (w *worker) explore(u *unitMsg) ([]byte, error) {
	key := u.Spec.key()
	x := w.explorers[key]
	if x == nil {
		body, err := w.o.Bodies(u.Spec)
		if err != nil {
			return nil, err
		}
		x, err = weft.NewPartExplorer(body, append(u.Spec.options(), w.o.Extra...)...)
		if err != nil {
			return nil, err
		}
		w.explorers[key] = x
	}
	out, err := x.Explore(u.Part)
	if err != nil && !errors.Is(err, weft.ErrBadPart) {
		// Its runtime may be left in any state: the next unit gets a
		// new one.
		x.Close()
		delete(w.explorers, key)
	}
	return out, err
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
	return func() { close(done); wg.Wait() }
}

func (w *worker) logf(format string, args ...any) {
	if w.o.Log != nil {
		w.o.Log(format, args...)
	}
}
