// This file implements a worker of a distributed exploration: it takes
// units, explores them a batch at a time, splits units off its own while
// other workers wait for work (work stealing), joins their results, and
// publishes each unit's result before it acknowledges the unit.

package distrib

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/trace"
)

// WorkerOptions tune a worker.
type WorkerOptions struct {
	// Name names the worker in results and logs.
	Name string
	// Bodies resolves the specs' programs (required).
	Bodies Bodies
	// Log, if set, is told of rejected units.
	Log func(format string, args ...any)
	// MaxUnits, if not 0, ends Work after that many units (once the units
	// it has begun are done).
	MaxUnits int
	// Batch is how many executions the worker runs between two looks at
	// the server: whether other workers wait for work, and whether the
	// results of units it split off came (default 32).
	Batch int
	// NoSplit explores every unit whole: the worker never splits units
	// off its own for idle workers.
	NoSplit bool
	// Observe, if set, sees every execution of the worker (tests).
	Observe func(tr *trace.Trace, end trace.End)

	// Tests: forceSplit splits a unit off the job after every batch,
	// whether workers wait or not; die, called after every step, makes
	// the worker stop as a killed process would (no acknowledgement, its
	// consumer of results left to expire) when it returns true.
	forceSplit bool
	die        func(*worker) bool
}

// WorkerStats describe a worker's run.
type WorkerStats struct {
	// Units counts the units explored, Rejected the malformed ones,
	// Abandoned those whose run ended while they were explored (their
	// result is not published), Orphans those skipped because the worker
	// that split them off is gone (its own unit goes to another worker,
	// which explores it all again).
	Units, Rejected, Abandoned, Orphans int
	// Split counts the units the worker split off its own for idle
	// workers (and those the joins of their results gave), Joined their
	// results it joined, Duplicates the results it dropped: a second
	// result of one of them, or the result of one whose job was over
	// (stopped by a failure).
	Split, Joined, Duplicates int
	// Letters counts the letters read for the units explored (from
	// those that split them off), LettersAgain those dropped as read
	// already (written again by a coordinator that resumed its run).
	Letters, LettersAgain int
	// Busy is the time spent exploring and joining.
	Busy time.Duration
}

// worker is the state of Work.
type worker struct {
	ctx       context.Context
	js        jetstream.JetStream
	o         WorkerOptions
	id        string // the worker's id on the server: its jobs' results come on ChildSubject(run, id, job)
	cons      jetstream.Consumer
	ackWait   time.Duration
	units     jetstream.Stream // UnitsStream, once gone or steal looked
	explorers map[string]*explore.PartExplorer
	jobs      []*job // begun, not done: the last is explored first
	lastJob   uint64
	fetcher   *fetcher
	children  *childResults // nil until the worker first splits a unit off
	letters   chan letterIn // the letters read for its jobs' units
	askedIdle time.Time     // when it last asked whether workers wait for work
	stats     WorkerStats
	dead      bool // stopped as if killed (tests)
}

// Work takes units from the NATS JetStream of js and explores them until
// ctx is done (or MaxUnits were explored), then returns nil.
func Work(ctx context.Context, js jetstream.JetStream, o WorkerOptions) (WorkerStats, error) {
	if o.Bodies == nil {
		return WorkerStats{}, fmt.Errorf("worker %s: %w", o.Name, ErrNoBodies)
	}
	if o.Batch <= 0 {
		o.Batch = 32
	}
	cons, err := workersConsumer(ctx, js)
	if ctx.Err() != nil {
		return WorkerStats{}, nil // stopped before it began
	}
	if err != nil {
		return WorkerStats{}, err
	}
	w := &worker{ctx: ctx, js: js, o: o, id: NewRun(), cons: cons, ackWait: cons.CachedInfo().Config.AckWait,
		explorers: map[string]*explore.PartExplorer{}, letters: make(chan letterIn, 256)}
	w.fetcher = startFetcher(ctx, cons)
	defer w.close()
	err = w.loop()
	if ctx.Err() != nil {
		err = nil // stopped: its units go to other workers
	}
	return w.stats, err
}

// loop explores jobs and takes units until ctx is done or MaxUnits are
// explored.
func (w *worker) loop() error {
	for w.ctx.Err() == nil {
		if err := w.takeResults(); err != nil {
			return err
		}
		if err := w.takeLetters(); err != nil {
			return err
		}
		if err := w.checkAwaiting(); err != nil {
			return err
		}
		if f, ok := w.fetcher.take(); ok {
			if err := w.took(f); err != nil {
				return err
			}
		}
		if j := w.runnable(); j != nil {
			if err := w.step(j); err != nil {
				return err
			}
			if w.o.die != nil && w.o.die(w) {
				w.dead = true
				return nil
			}
			continue
		}
		fetch := w.o.MaxUnits == 0 || w.stats.Units+len(w.jobs) < w.o.MaxUnits
		if !fetch && len(w.jobs) == 0 {
			return nil
		}
		if err := w.wait(fetch); err != nil {
			return err
		}
	}
	return nil
}

// wait waits for a result, a letter or, if fetch, a unit, and takes it
// in: nothing is left to explore.
func (w *worker) wait(fetch bool) error {
	var units <-chan fetched
	if fetch {
		w.fetcher.want()
		units = w.fetcher.got
	}
	var results <-chan jetstream.Msg
	if w.children != nil {
		results = w.children.msgs
	}
	var check <-chan time.Time
	if w.awaiting() {
		// Its letters may never come (checkAwaiting).
		check = time.After(checkEvery)
	}
	select {
	case <-w.ctx.Done():
	case f := <-units:
		w.fetcher.asked = false
		return w.took(f)
	case m := <-results:
		return w.route(m)
	case in := <-w.letters:
		return w.takeLetter(in)
	case <-check: // the loop looks (checkAwaiting)
	}
	return nil
}

// took begins a job for the unit the fetcher took.
func (w *worker) took(f fetched) error {
	if f.err != nil {
		return fmt.Errorf("fetching units: %w", f.err)
	}
	return w.begin(f.msg)
}

// runnable returns the job to explore next: the newest with results to
// join, letters to receive or work left; nil if every job waits for the
// results of units it split off or for a letter.
func (w *worker) runnable() *job {
	for i := len(w.jobs) - 1; i >= 0; i-- {
		if j := w.jobs[i]; len(j.inbox) > 0 || len(j.mail.inbox) > 0 || !j.over && !j.mail.awaiting {
			return j
		}
	}
	return nil
}

// awaiting reports whether a job waits for a letter.
func (w *worker) awaiting() bool {
	for _, j := range w.jobs {
		if j.mail.awaiting {
			return true
		}
	}
	return false
}

// checkAwaiting ends the jobs that wait for a letter that will not come,
// looking at each at most every checkEvery: their unit is gone from the
// queue (the run ended, or another worker finished it), or the worker
// that split it off is gone (its own unit is explored again whole, with
// units of its own).
func (w *worker) checkAwaiting() error {
	for _, j := range slices.Clone(w.jobs) {
		if !j.mail.awaiting || time.Since(j.checked) < checkEvery {
			continue
		}
		j.checked = time.Now()
		if gone, err := w.abandoned(j); gone || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		orphan, err := w.orphan(j.unit)
		if err != nil {
			return err
		}
		if orphan {
			w.end(j)
			if err := w.dropOrphan(j.unit, j.msg, " while it waited for a letter"); err != nil && w.ctx.Err() == nil {
				return fmt.Errorf("%w: dropping unit %d: %v", errWorker, j.unit.ID, err)
			}
		}
	}
	return nil
}

// close ends the worker's jobs (their units go to other workers), its
// explorers and its consumer of results.
func (w *worker) close() {
	w.fetcher.stop()
	for _, j := range w.jobs {
		j.stopAlive()
	}
	for _, x := range w.explorers {
		x.Close()
	}
	if w.children != nil {
		w.children.stop(!w.dead)
	}
}

func (w *worker) logf(format string, args ...any) {
	if w.o.Log != nil {
		w.o.Log(format, args...)
	}
}

// explorer returns the PartExplorer of spec, made on first use.
func (w *worker) explorer(spec Spec) (*explore.PartExplorer, error) {
	key := spec.key()
	if x := w.explorers[key]; x != nil {
		return x, nil
	}
	body, err := w.o.Bodies(spec)
	if err != nil {
		return nil, err
	}
	x, err := explore.NewPartExplorer(body, spec.config(w.o.Observe))
	if err != nil {
		return nil, err
	}
	x.EnableMail() // letters go to the units its parts split off (letters.go)
	w.explorers[key] = x
	return x, nil
}

// dropExplorer closes the explorer of spec after an error that may have
// left its runtime in any state, and abandons its other jobs: their units
// go to other workers after their ack deadline (the run ends on the
// error anyway).
func (w *worker) dropExplorer(spec Spec) {
	key := spec.key()
	if x := w.explorers[key]; x != nil {
		x.Close()
		delete(w.explorers, key)
	}
	var left []*job
	for _, j := range w.jobs {
		if j.unit.Spec.key() == key {
			j.stopAlive()
			w.removeChildren(j)
			continue
		}
		left = append(left, j)
	}
	w.jobs = left
}
