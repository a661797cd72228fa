// This file implements a parallel exploration: one strategy's exploration
// spread over several workers, each a goroutine with a runtime of its own,
// which hand each other units of work (strategy.Splitter) and, for a
// strategy.Mailer, the letters a strategy writes to the units it split
// off.

package explore

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/solver"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// parallelBatch is how many executions a worker runs between two looks at
// the others: whether one is idle and wants a unit of its work, and
// whether a unit it handed out came back.
const parallelBatch = 32

// exploreParallel explores body with s, a strategy that c.build makes, on
// n workers. Worker 0 starts with s; every worker makes its own strategy
// with c.build to resume the units others split off (a strategy and the
// ones it resumes share resources, such as a solver, that one goroutine
// at a time may use). A strategy resumed from a unit (a job) stays with
// the worker that resumed it: the handbacks of the units it split off are
// joined there, between two batches of executions. The runtimes of the
// workers share their naming tables (engine.Names), so a unit split off
// in one runtime is explored in another with the same names of threads
// and objects. With a mailer (strategy.Mailer), the letters a job's
// strategy writes, collected after each batch, split and join, go to the
// jobs of the units they are for (kept for a unit no worker has taken
// yet), which receive them before their next batch; a job whose strategy
// waits for a letter parks as one that waits for its units does, and a
// letter wakes it. A worker with nothing to do splits a unit off one of
// its parked jobs, if one has branches left above the state where it
// waits (splitParked), before it waits for work.
func exploreParallel(body func(), s strategy.Splitter, c *Config, n int) (*Result, error) {
	start := time.Now()
	p := &parallel{body: body, c: c, names: engine.NewNames(), start: start}
	p.wake = sync.NewCond(&p.mu)
	p.total = newResult(c.Strategy)
	part := *c
	part.Progress = nil // reported for the whole exploration (progress)
	part.MaxRuns = 0    // bounded here, over every worker
	if obs := c.Observe; obs != nil {
		var mu sync.Mutex
		part.Observe = func(tr *trace.Trace, end trace.End) {
			mu.Lock()
			defer mu.Unlock()
			obs(tr, end)
		}
	}
	p.names.Solo()
	p.workers = make([]*worker, n)
	for i := range p.workers {
		w := &worker{p: p, session: newSession(body, c, p.names)}
		w.part = part
		w.part.finals = &w.finals
		defer w.session.Close()
		if i == 0 {
			w.template = s
		}
		p.workers[i] = w
	}
	p.mail = enableMail(s)
	root := &job{s: s, w: p.workers[0]}
	p.pending = 1
	p.workers[0].ready = append(p.workers[0].ready, root)
	stopProgress := p.progress()
	var wg sync.WaitGroup
	for _, w := range p.workers {
		wg.Go(w.loop)
	}
	wg.Wait()
	stopProgress()
	r := p.total
	for _, w := range p.workers {
		r.finals.Merge(&w.finals)
		if msg, ok := w.session.Exec().TakeMisuse(); ok {
			r.lateMisuse(msg) // after the worker's last batch
		}
	}
	r.FinalStates = r.finals.Count()
	r.Exhausted = !p.stopped && p.err == nil && p.pending == 0
	r.Wall = time.Since(start)
	if p.solo != "" {
		r.NotParallel = p.solo + ", made outside the test body (or kept from one execution to the next), is used by its executions: on several workers they would run at the same time and share it"
	}
	r.Solver = solver.Stats{}
	for _, w := range p.workers {
		if w.template != nil {
			r.Solver = r.Solver.Add(solverStats(w.template)) // shared by its jobs
			release(w.template)
		}
		w.stats.Idle = r.Wall - w.stats.Busy
		if p.solo == "" {
			r.Workers = append(r.Workers, w.stats)
		}
	}
	return r, p.err
}

// parallel is the state the workers of a parallel exploration share,
// under mu.
type parallel struct {
	body  func()
	c     *Config // the exploration's options
	names *engine.Names
	start time.Time

	mu   sync.Mutex
	wake *sync.Cond // work was queued, a job came back, or the exploration ended
	// units are the units split off and not yet taken, with the jobs
	// that split them off.
	units []queuedUnit
	// pending counts the jobs not finished and the units not taken: the
	// exploration is over when it is 0.
	pending int
	// idle counts the workers waiting for work.
	idle int
	// runs counts the executions run and reserved by running batches.
	runs    int
	total   *Result
	stopped bool // a failure, a bound, the timeout or an error ended it
	err     error
	workers []*worker
	// mail: the strategies are mailers, whose letters go to their units
	// (strategy.Mailer).
	mail bool
	// shared says that units may go out: the first worker's executions,
	// alone until then, touched no object made outside the test body
	// (engine.Names.KeepSolo). solo names the object one touched: no unit
	// goes out, and the first worker explores alone.
	shared bool
	solo   string
}

// queuedUnit is a unit of work waiting for a worker, and the job that
// split it off.
type queuedUnit struct {
	u     strategy.Unit
	owner *job
	// number is the unit's among those its owner's Split and SplitLarge
	// gave, to which its letters are addressed; -1 for one Join gave.
	number int
}

// job is a strategy exploring the whole program (the root) or a unit of
// it, on the worker that made it.
type job struct {
	s      strategy.Splitter
	parent *job // nil for the root
	w      *worker
	// children counts the units it split off whose handbacks have not
	// been joined; inbox holds the handbacks that came back, not yet
	// joined; parked says it is over but waits for its children.
	children int
	inbox    []strategy.Handback
	parked   bool
	// units counts the units its Split and SplitLarge gave; kids are
	// those taken, by number, and letters those written to units not
	// taken yet. mail holds the letters for it not received yet
	// (strategy.Mailer).
	units   int
	kids    map[int]*job
	letters map[int][][]byte
	mail    [][]byte
}

// worker is one goroutine of a parallel exploration with its runtime.
type worker struct {
	p        *parallel
	session  *Session
	template strategy.Splitter // resumes the units this worker takes
	// part holds the options of a batch (no bound, no progress
	// report), with the worker's own final states (Config.finals).
	part   Config
	finals FinalStates
	// ready are jobs of this worker with handbacks to join; parked its
	// jobs that wait for their units or for a letter.
	ready  []*job
	parked []*job
	stats  WorkerStats
}

// loop runs jobs until the exploration is over.
func (w *worker) loop() {
	p := w.p
	for {
		if w.splitParked() {
			continue
		}
		p.mu.Lock()
		for !p.stopped && p.pending > 0 && len(w.ready) == 0 && len(p.units) == 0 {
			p.idle++
			p.wake.Wait()
			p.idle--
		}
		if p.stopped || p.pending == 0 {
			p.mu.Unlock()
			return
		}
		var j *job
		if len(w.ready) > 0 {
			j, w.ready = w.ready[0], w.ready[1:]
		} else {
			q := p.units[0]
			p.units = p.units[1:]
			j = &job{parent: q.owner, w: w}
			p.mu.Unlock()
			s, err := w.resume(q.u)
			p.mu.Lock()
			if err != nil {
				p.fail(fmt.Errorf("%w: resuming a unit of %s: %v", ErrInternal, p.c.Strategy, err))
				p.mu.Unlock()
				return
			}
			j.s = s
			if o := q.owner; q.number >= 0 {
				if o.kids == nil {
					o.kids = map[int]*job{}
				}
				o.kids[q.number] = j
				j.mail = o.letters[q.number]
				delete(o.letters, q.number)
			}
			w.stats.Units++
		}
		p.mu.Unlock()
		began := time.Now()
		err := w.run(j)
		w.stats.Busy += time.Since(began)
		if err != nil {
			p.mu.Lock()
			p.fail(err)
			p.mu.Unlock()
			return
		}
	}
}

// resume returns a strategy that explores unit u, made by the worker's
// template strategy, which it builds on the first unit it takes (a
// concolic strategy's solver costs tens of milliseconds to start).
func (w *worker) resume(u strategy.Unit) (strategy.Splitter, error) {
	if w.template == nil {
		t, err := w.p.c.build()
		if err != nil {
			return nil, err
		}
		if err := refused(t, w.p.c.Strategy); err != nil {
			return nil, err
		}
		sp, ok := t.(strategy.Splitter)
		if !ok {
			return nil, fmt.Errorf("strategy %s built without units of work", w.p.c.Strategy)
		}
		if w.p.mail {
			enableMail(sp)
		}
		w.template = sp
	}
	return w.template.Resume(u)
}

// fail ends the exploration with err; p.mu is held.
func (p *parallel) fail(err error) {
	if p.err == nil {
		p.err = err
	}
	p.stopped = true
	p.wake.Broadcast()
}

// ErrSharedObject is wrapped by the error of a parallel exploration
// (WithWorkers) or a distributed one (Coordinator, PartExplorer) whose
// test body uses a weft object made outside it, or keeps one from one
// execution to the next: executions that run at the same time would share
// it, and processes would name it each their own way. (A distributed
// exploration, whose processes each make the objects of their own test
// body, takes one made outside the body with a name of its own, given by
// its constructor or SetName: it is named by its class and name. Two of
// one name are refused.) It is also wrapped by the error of an exploration
// that used such an object while another exploration used it
// (engine.Exec.SharedObject).
var ErrSharedObject = errors.New("an object made outside the test body is shared by executions that run at the same time")

// run explores with job j until it is over (it then hands back to its
// parent, or waits parked for its children) or the exploration stops.
func (w *worker) run(j *job) error {
	p := w.p
	for {
		if err := w.join(j); err != nil {
			return err
		}
		if err := w.receive(j); err != nil {
			return err
		}
		n, ok := p.reserve()
		if !ok {
			return nil // stopped
		}
		b := &Batch{Strategy: j.s, N: n}
		r, err := ExplorePart(w.session, p.body, b, &w.part)
		r.Solver = solver.Stats{} // counted once per worker, at the end
		r.Counters = nil          // counted once per job, when it ends
		w.stats.Executions += r.Executions
		err = sharedObject(p.names, err)
		p.post(j)
		if stop := p.record(r, n, err); stop {
			return nil
		}
		if b.Over {
			if done := w.finish(j); done {
				return nil
			}
			continue
		}
		w.offer(j)
	}
}

// join joins the handbacks j received and queues the units that adds.
func (w *worker) join(j *job) error {
	p := w.p
	for _, h := range takeAll(p, &j.inbox) {
		us, err := j.s.Join(h)
		if err != nil {
			return fmt.Errorf("%w: joining a unit of %s: %v", ErrInternal, p.c.Strategy, err)
		}
		p.mu.Lock()
		j.children--
		for _, u := range us {
			p.queue(u, j, -1)
		}
		p.mu.Unlock()
		p.post(j)
	}
	return nil
}

// takeAll empties the list *q, a job's, under p.mu, and returns what it
// held.
func takeAll[T any](p *parallel, q *[]T) []T {
	p.mu.Lock()
	defer p.mu.Unlock()
	all := *q
	*q = nil
	return all
}

// receive gives j's strategy the letters for it.
func (w *worker) receive(j *job) error {
	p := w.p
	for _, l := range takeAll(p, &j.mail) {
		if err := mailer(j.s).Receive(l); err != nil {
			return fmt.Errorf("%w: a letter of %s: %v", ErrInternal, p.c.Strategy, err)
		}
	}
	return nil
}

// post routes the letters j's strategy wrote: to the job of the unit
// they are for, which they wake if it waits for them, or, if no worker
// has taken that unit yet, to j's letters for it.
func (p *parallel) post(j *job) {
	if !p.mail {
		return
	}
	letters := mailer(j.s).Letters()
	if len(letters) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range letters {
		k := j.kids[l.Unit]
		if k == nil {
			if j.letters == nil {
				j.letters = map[int][][]byte{}
			}
			j.letters[l.Unit] = append(j.letters[l.Unit], l.Data)
			continue
		}
		k.mail = append(k.mail, l.Data)
		p.unpark(k)
	}
}

// mailer returns the mailer s is or wraps (strategy.Mailer), or nil.
func mailer(s strategy.Strategy) strategy.Mailer {
	m, _ := strategy.As[strategy.Mailer](s)
	return m
}

// enableMail makes s, if it is a mailer, and the strategies it resumes
// write letters to the large units they split off, which the caller
// routes; it reports whether s is one.
func enableMail(s strategy.Strategy) bool {
	m := mailer(s)
	if m != nil {
		m.EnableMail()
	}
	return m != nil
}

// queue queues unit u, split off by j (number is its number there, or
// -1 for a unit a Join gave); p.mu is held.
func (p *parallel) queue(u strategy.Unit, j *job, number int) {
	p.units = append(p.units, queuedUnit{u: u, owner: j, number: number})
	j.children++
	p.pending++
	p.wake.Broadcast()
}

// reserve returns how many executions the next batch may run, and false if
// the exploration is stopped or its bound on executions is reached (which
// stops it).
func (p *parallel) reserve() (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return 0, false
	}
	n := parallelBatch
	if p.c.Batch > 0 {
		n = p.c.Batch
	}
	if m := p.c.MaxRuns; m > 0 {
		n = min(n, m-p.runs)
		if n <= 0 {
			p.stopped = true
			p.wake.Broadcast()
			return 0, false
		}
	}
	p.runs += n
	return n, true
}

// record merges r, a batch's result that reserved n executions, into the
// total, and reports whether the exploration stops: err (a strategy's
// panic or refusal), a failure, a divergence, the timeout or the context
// stopped it.
func (p *parallel) record(r *Result, n int, err error) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.runs -= n - r.Executions
	for _, f := range r.Failures {
		f.Execution += p.total.Executions // numbered over the whole exploration
	}
	p.total.Merge(r)
	switch {
	case err != nil:
		p.fail(err)
	case r.TimedOut, r.Canceled, p.total.StopsAt(p.c.StopOnFail):
		p.stopped = true
		p.wake.Broadcast()
	}
	return p.stopped
}

// finish handles job j whose exploration is over: with handbacks to join
// it goes on (false); with units out it waits parked for them; otherwise
// it hands back to its parent and ends.
func (w *worker) finish(j *job) (done bool) {
	p := w.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(j.inbox) > 0 || len(j.mail) > 0 {
		return false
	}
	if j.children > 0 || p.mail && mailer(j.s).AwaitsMail() {
		j.parked = true
		w.parked = append(w.parked, j)
		return true
	}
	p.total.addCounters(counters(j.s))
	p.pending--
	if j.parent != nil {
		p.deliver(j.parent, j.s.Handback())
	}
	p.wake.Broadcast()
	return true
}

// deliver gives handback h to job j, and wakes j's worker for it if j is
// parked; p.mu is held.
func (p *parallel) deliver(j *job, h strategy.Handback) {
	j.inbox = append(j.inbox, h)
	p.unpark(j)
}

// unpark makes j, if parked, ready for its worker; p.mu is held.
func (p *parallel) unpark(j *job) {
	if !j.parked {
		return
	}
	j.parked = false
	w := j.w
	w.parked = slices.DeleteFunc(w.parked, func(k *job) bool { return k == j })
	w.ready = append(w.ready, j)
	p.wake.Broadcast()
}

// splitParked splits a unit off a parked job of w's, for w itself or
// another idle worker, when w has nothing else to do, as offer does off a
// running job: a job that waits for its units at a state may have
// branches left above it (strategy.LargeSplitter). It reports whether it
// queued one. (The parked jobs are w's: no other worker touches their
// strategies.)
func (w *worker) splitParked() bool {
	p := w.p
	p.mu.Lock()
	idle := p.shared && !p.stopped && p.pending > 0 && len(w.ready) == 0 && len(p.units) == 0
	parked := slices.Clone(w.parked)
	p.mu.Unlock()
	if !idle {
		return false // with work, or before the first unit went out (offer decides that)
	}
	for _, j := range parked {
		if l, ok := j.s.(strategy.LargeSplitter); ok {
			if u, ok := l.SplitLarge(); ok {
				p.handOut(j, u)
				return true
			}
		}
	}
	return false
}

// handOut queues unit u, which j's strategy split off, numbered among
// j's units, and routes the letters j wrote.
func (p *parallel) handOut(j *job, u strategy.Unit) {
	p.mu.Lock()
	p.queue(u, j, j.units)
	j.units++
	p.mu.Unlock()
	p.post(j)
}

// offer splits a unit off j's work when a worker is idle and no unit
// waits for one, unless the executions run until the first unit goes out
// touched an object made outside the test body: the exploration then stays
// on one worker (parallel.solo).
func (w *worker) offer(j *job) {
	p := w.p
	p.mu.Lock()
	want := p.idle > len(p.units) && p.solo == ""
	if want && !p.shared {
		// The first unit to go out: from now on, executions of several
		// workers may run at the same time.
		p.solo = p.names.KeepSolo()
		p.shared = p.solo == ""
		want = p.shared
	}
	p.mu.Unlock()
	if !want {
		return
	}
	split := j.s.Split
	if l, ok := j.s.(strategy.LargeSplitter); ok {
		split = l.SplitLarge
	}
	if u, ok := split(); ok {
		p.handOut(j, u)
	}
}

// progress reports the progress of the whole exploration about once a
// second (WithProgress), until the returned function is called.
func (p *parallel) progress() (stop func()) {
	if p.c.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.mu.Lock()
				pr := Progress{Executions: p.total.Executions, Failures: len(p.total.Failures), Elapsed: time.Since(p.start)}
				p.mu.Unlock()
				p.c.Progress(pr)
			}
		}
	})
	return func() { close(done); wg.Wait() }
}
