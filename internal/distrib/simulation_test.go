// This file implements the discrete-event model of a distributed run with
// N workers that BenchmarkScalingModel runs: a real Coordinator and real
// Parts do the work on a virtual clock.

package distrib

import (
	"slices"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/strategy"
)

// A simulation runs a distributed exploration in the process on a
// virtual clock: a real explore.Coordinator and real explore.Parts do the work,
// and each step takes, on the clock, the time it took for real (a batch
// of executions, a join) or, for the coordinator's handling of a unit and
// for a worker's publishing of a unit it split off, the cost measured by
// BenchmarkCoordinatorCeiling. Only the order of events is simulated:
// which worker is free when, which result comes first; so the units are
// those a real run with that many workers would split, as many and as
// large.
type simulation struct {
	spec  Spec
	cost  time.Duration // the coordinator's, per unit
	batch int           // executions between two looks, the root's and the workers'
	ahead int           // units kept waiting for a worker
	steal bool          // workers split units off theirs for idle ones
	large bool          // and split large ones (explore.Part.SplitLarge), as the root does
	mail  bool          // and write letters to them, as a real run does (letters.go)
}

// simMail holds the letters to a unit, each readable from its time on.
type simMail struct {
	at   []time.Duration
	data [][]byte
}

// post adds the letters ls, written at time at by a splitter whose units
// take their letters in units, by number.
func post(units []*simMail, ls []strategy.Letter, at time.Duration) {
	for _, l := range ls {
		m := units[l.Unit]
		m.at = append(m.at, at)
		m.data = append(m.data, l.Data)
	}
}

// simulated is what a simulation found: its wall time on the virtual
// clock, the workers' busy time, the coordinator's (its own executions
// and its handling of units), the units off the root and off workers'
// units, and the Result.
type simulated struct {
	wall, busy, coord time.Duration
	largest           time.Duration // the longest time a unit of the root kept a worker busy
	units, stolen     int
	r                 *weft.Result
}

// simUnit is a unit waiting for a worker from time at, and the job that
// split it off (nil: the root).
type simUnit struct {
	at     time.Duration
	part   []byte
	parent *simJob
	mail   *simMail
}

func (u simUnit) time() time.Duration { return u.at }

// simResult is an outcome that reaches the job that split its unit off
// (nil: the coordinator) at time at.
type simResult struct {
	at  time.Duration
	out []byte
}

func (r simResult) time() time.Duration { return r.at }

// byTime inserts x into s, sorted by time, after those of its time.
func byTime[E interface{ time() time.Duration }](s []E, x E) []E {
	i, _ := slices.BinarySearchFunc(s, x, func(a, b E) int {
		if a.time() <= b.time() {
			return -1
		}
		return 1
	})
	return slices.Insert(s, i, x)
}

// simJob is a unit a worker explores.
type simJob struct {
	p        *explore.Part
	parent   *simJob
	children int
	inbox    []simResult
	over     bool
	busy     time.Duration // the worker's time on it
	// mail holds the letters to its unit, read holds how many it
	// received, awaiting says it waits for the next; units are the
	// letters of the units its Split and SplitLarge gave, by number.
	mail     *simMail
	read     int
	awaiting bool
	units    []*simMail
}

// letter returns when j can receive its next letter, false if none is
// written yet.
func (j *simJob) letter() (time.Duration, bool) {
	if j.read < len(j.mail.at) {
		return j.mail.at[j.read], true
	}
	return 0, false
}

// simWorker is a worker: free from time free on, with its jobs.
type simWorker struct {
	free  time.Duration
	jobs  []*simJob
	asked time.Duration // when it last looked for idle workers
}

// simState is a simulation's run.
type simState struct {
	*simulation
	x         *explore.PartExplorer
	k         *explore.Coordinator
	sim       simulated
	coordFree time.Duration
	rootOver  bool
	waiting   []simUnit
	results   []simResult // for the coordinator
	workers   []*simWorker
	rootUnits []*simMail // the letters of the root's units, by number
}

// run simulates n workers. The coordinator does one thing at a time: it
// joins the result that came first (cost), or else explores a batch of
// the root's executions if its exploration is not over; after either it
// splits units off while fewer than ahead wait for a worker. A worker does
// one thing at a time too: it joins a result that came for one of its
// jobs, or explores a batch of its newest job with work left, after which
// (with steal, and at most every askEvery) it splits units off that job
// while more workers wait for work than units for a worker, at cost each; or it takes the oldest unit
// waiting. A job over, with no unit of its own out, sends its outcome to
// whoever split it off.
func (s *simulation) run(n int) (simulated, error) {
	body, err := bodies(s.spec)
	if err != nil {
		return simulated{}, err
	}
	st := &simState{simulation: s}
	if st.k, err = explore.NewCoordinator(body, s.spec.config(nil)); err != nil {
		return simulated{}, err
	}
	defer st.k.Close()
	if st.x, err = explore.NewPartExplorer(body, s.spec.config(nil)); err != nil {
		return simulated{}, err
	}
	defer st.x.Close()
	if s.mail {
		st.k.EnableMail()
		st.x.EnableMail()
	}
	for range n {
		st.workers = append(st.workers, &simWorker{})
	}
	for {
		// The next actor: the one that can act first.
		next, who := time.Duration(-1), -2
		if at, ok := st.coordNext(); ok {
			next, who = at, -1
		}
		for i, w := range st.workers {
			if at, ok := st.workerNext(w); ok && (next < 0 || at < next) {
				next, who = at, i
			}
		}
		if who == -2 {
			break // the exploration is over
		}
		if who == -1 {
			err = st.coordAct(next)
		} else {
			err = st.workerAct(st.workers[who], next)
		}
		if err != nil {
			return st.sim, err
		}
	}
	st.sim.wall = st.coordFree
	for _, w := range st.workers {
		st.sim.wall = max(st.sim.wall, w.free)
	}
	st.sim.r = apiResult(st.k.Result(true))
	return st.sim, nil
}

// coordNext returns when the coordinator can act next, false if it has
// nothing to do until something comes.
func (st *simState) coordNext() (time.Duration, bool) {
	if !st.rootOver {
		return st.coordFree, true
	}
	if len(st.results) > 0 {
		return max(st.coordFree, st.results[0].at), true
	}
	return 0, false
}

// coordAct has the coordinator act at time now.
func (st *simState) coordAct(now time.Duration) error {
	if len(st.results) > 0 && st.results[0].at <= now {
		parts, err := st.k.Join(st.results[0].out)
		if err != nil {
			return err
		}
		st.results = st.results[1:]
		st.coordFree = now + st.cost
		for _, part := range parts {
			st.waiting = byTime(st.waiting, simUnit{st.coordFree, part, nil, &simMail{}})
		}
		st.sim.units += len(parts)
		st.rootOver = false
	} else {
		began := time.Now()
		over, err := st.k.Explore(st.batch)
		st.coordFree = now + time.Since(began)
		if err != nil {
			return err
		}
		st.rootOver = over
	}
	st.sim.coord += st.coordFree - now
	split := st.k.Split
	if st.large {
		split = st.k.SplitLarge // as a real coordinator does (fill)
	}
	for !st.rootOver && len(st.waiting) < st.ahead {
		part, ok, err := split()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		m := &simMail{}
		st.rootUnits = append(st.rootUnits, m)
		st.waiting = byTime(st.waiting, simUnit{st.coordFree, part, nil, m})
		st.sim.units++
	}
	post(st.rootUnits, st.k.Letters(), st.coordFree)
	return nil
}

// workerNext returns when worker w can act next, false if it has nothing
// to do until something comes.
func (st *simState) workerNext(w *simWorker) (time.Duration, bool) {
	at, ok := time.Duration(-1), false
	early := func(t time.Duration) {
		if !ok || t < at {
			at, ok = t, true
		}
	}
	for _, j := range w.jobs {
		if !j.over && !j.awaiting {
			early(w.free)
		}
		for _, r := range j.inbox {
			early(max(w.free, r.at))
		}
		if at, ok := j.letter(); ok {
			early(max(w.free, at))
		}
	}
	if len(st.waiting) > 0 {
		early(max(w.free, st.waiting[0].at))
	}
	return at, ok
}

// idle returns how many workers other than w wait for work at time t.
func (st *simState) idle(w *simWorker, t time.Duration) int {
	n := 0
	for _, o := range st.workers {
		if o == w || o.free > t {
			continue
		}
		if at, ok := st.workerNext(o); !ok || at > t {
			n++
		}
	}
	return n
}

// workerAct has worker w act at time now.
func (st *simState) workerAct(w *simWorker, now time.Duration) error {
	began := time.Now()
	var j *simJob
	for i := len(w.jobs) - 1; i >= 0 && j == nil; i-- {
		if k := w.jobs[i]; len(k.inbox) > 0 && k.inbox[0].at <= now {
			j = k
			parts, err := j.p.Join(j.inbox[0].out)
			if err != nil {
				return err
			}
			j.inbox = j.inbox[1:]
			j.children += len(parts) - 1
			j.over = false
			st.sim.stolen += len(parts)
			w.free = now + time.Since(began) + time.Duration(len(parts))*st.cost
			for _, part := range parts {
				st.waiting = byTime(st.waiting, simUnit{w.free, part, j, &simMail{}})
			}
			post(j.units, j.p.Letters(), w.free)
		}
	}
	for i := len(w.jobs) - 1; i >= 0 && j == nil; i-- {
		k := w.jobs[i]
		received := false
		for {
			at, ok := k.letter()
			if !ok || at > now {
				break
			}
			if err := k.p.Receive(k.mail.data[k.read]); err != nil {
				return err
			}
			k.read++
			k.awaiting, received = false, true
		}
		if received && k.over {
			// It waits for its units: the letters are all it does.
			j = k
			w.free = now + time.Since(began)
		}
		if !k.over && !k.awaiting {
			j = k
			over, err := j.p.Explore(st.batch)
			if err != nil {
				return err
			}
			j.awaiting = over && j.p.AwaitsMail()
			j.over = over && !j.awaiting
			w.free = now + time.Since(began)
			if st.steal && !over && (w.asked == 0 || w.free-w.asked >= askEvery) {
				w.asked = w.free // as a worker asks the server at most every askEvery
				want := min(st.idle(w, w.free)-st.available(w.free), 4)
				for range want {
					split := j.p.Split
					if st.large {
						split = j.p.SplitLarge
					}
					part, ok, err := split()
					if err != nil {
						return err
					}
					if !ok {
						break
					}
					w.free += st.cost
					j.children++
					st.sim.stolen++
					m := &simMail{}
					j.units = append(j.units, m)
					st.waiting = byTime(st.waiting, simUnit{w.free, part, j, m})
				}
			}
			post(j.units, j.p.Letters(), w.free)
		}
	}
	if j == nil {
		u := st.waiting[0]
		st.waiting = st.waiting[1:]
		p, err := st.x.Start(u.part)
		if err != nil {
			return err
		}
		j = &simJob{p: p, parent: u.parent, mail: u.mail}
		w.jobs = append(w.jobs, j)
		w.free = now + time.Since(began)
	}
	d := w.free - now
	st.sim.busy += d
	j.busy += d
	if j.over && j.children == 0 && len(j.inbox) == 0 {
		out, err := j.p.Outcome()
		if err != nil {
			return err
		}
		for i, k := range w.jobs {
			if k == j {
				w.jobs = append(w.jobs[:i], w.jobs[i+1:]...)
				break
			}
		}
		if j.parent == nil {
			st.results = byTime(st.results, simResult{w.free, out})
			st.sim.largest = max(st.sim.largest, j.busy)
		} else {
			j.parent.inbox = byTime(j.parent.inbox, simResult{w.free, out})
		}
	}
	return nil
}

// available returns how many units wait for a worker at time t.
func (st *simState) available(t time.Duration) int {
	n := 0
	for _, u := range st.waiting {
		if u.at <= t {
			n++
		}
	}
	return n
}
