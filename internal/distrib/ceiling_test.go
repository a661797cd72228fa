// This file measures the coordinator's ceiling, the units per second it
// takes in when their results are there already, and models the scaling
// of a distributed run beyond this machine's two cores by replaying the
// measured times of its units through a discrete-event model of N
// workers.

package distrib

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft"
)

// A recording is a run driven one unit at a time (drive): the time of
// each batch of the root's executions, the units split off the root after
// each, and of each unit the time a worker took, the unit whose join made
// it (0: the root) and the joins before the batch that follows it.
type recording struct {
	spec        Spec
	batches     []time.Duration
	joinsBefore []int // of each batch: the joins done before it
	rootSplits  [][]uint64
	work        map[uint64]time.Duration
	parent      map[uint64]uint64
	results     [][]byte // the result messages, in the order joined
	executions  int
	finals      int
}

// drive runs c one unit at a time, deterministically: each step explores
// a batch of the root's executions (unless its exploration is over),
// fills the queue up to Ahead, counting every unit not joined as waiting,
// then, if a unit is out, has work (if not nil) explore the oldest and
// publish its result, and joins the next result that comes, which must be
// that unit's. rec, if not nil, records the steps.
func drive(c *coordinator, work func(id uint64, part []byte) error, rec *recording) error {
	joins := 0
	for {
		if !c.over && !c.k.Stopped() {
			began := time.Now()
			over, err := c.k.Explore(c.o.Batch)
			d := time.Since(began)
			c.stats.Exploring += d
			if err != nil {
				return err
			}
			c.over = over
			c.note(entry{Op: opExplore, N: c.o.Batch, Over: over})
			if rec != nil {
				rec.batches = append(rec.batches, d)
				rec.joinsBefore = append(rec.joinsBefore, joins)
				rec.rootSplits = append(rec.rootSplits, nil)
			}
		}
		if c.k.Stopped() || c.over && len(c.out) == 0 {
			return nil
		}
		if !c.over {
			first := c.next + 1
			c.waiting, c.asked = len(c.out), time.Now()
			if err := c.fill(); err != nil {
				return err
			}
			if rec != nil {
				for id := first; id <= c.next; id++ {
					rec.rootSplits[len(rec.rootSplits)-1] = append(rec.rootSplits[len(rec.rootSplits)-1], id)
				}
			}
		}
		if len(c.out) == 0 {
			continue
		}
		id := slices.Min(slices.Collect(maps.Keys(c.out)))
		if work != nil {
			if err := work(id, c.out[id]); err != nil {
				return err
			}
		}
		var m jetstream.Msg
		select {
		case m = <-c.results:
		case <-time.After(time.Minute):
			return fmt.Errorf("no result of unit %d after a minute", id)
		}
		first := c.next + 1
		joined, err := c.handle(m)
		if err != nil {
			return err
		}
		if !joined || c.out[id] != nil {
			return fmt.Errorf("the result that came is not unit %d's (the drive diverged from the recording)", id)
		}
		joins++
		if rec != nil {
			for u := first; u <= c.next; u++ {
				rec.parent[u] = id
			}
		}
		c.over = false
	}
}

// record drives a run of spec with a worker in the process (one
// PartExplorer), timing each unit and keeping each result message.
func record(b *testing.B, js jetstream.JetStream, spec Spec) *recording {
	b.Helper()
	ctx := context.Background()
	c, stop, err := start(ctx, js, spec, Options{Run: "ceiling", Batch: 1, Bodies: bodies})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	body, err := bodies(spec)
	if err != nil {
		b.Fatal(err)
	}
	x, err := weft.NewPartExplorer(body, spec.options()...)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	rec := &recording{spec: spec, work: map[uint64]time.Duration{}, parent: map[uint64]uint64{}}
	work := func(id uint64, part []byte) error {
		began := time.Now()
		out, err := x.Explore(part)
		rec.work[id] = time.Since(began)
		if err != nil {
			return err
		}
		msg, err := encode(&resultMsg{Magic: magic, Run: c.o.Run, ID: id, Delivered: 1, Worker: "recorder", Outcome: out})
		if err != nil {
			return err
		}
		rec.results = append(rec.results, msg)
		_, err = js.Publish(ctx, ResultsSubject(c.o.Run), msg)
		return err
	}
	if err := drive(c, work, rec); err != nil {
		b.Fatal(err)
	}
	r := c.k.Result(len(c.out) == 0)
	if !r.Exhausted {
		b.Fatalf("the recording of %v is not exhausted", spec)
	}
	rec.executions, rec.finals = r.Executions, r.FinalStates
	return rec
}

// replay drives the recorded run again with its results published
// beforehand, and returns the coordinator's time (its wall time but for
// its own executions) and the units it joined.
func (rec *recording) replay(b *testing.B, js jetstream.JetStream) (time.Duration, int) {
	b.Helper()
	ctx := context.Background()
	for _, msg := range rec.results {
		if _, err := js.Publish(ctx, ResultsSubject("ceiling"), msg); err != nil {
			b.Fatal(err)
		}
	}
	began := time.Now()
	c, stop, err := start(ctx, js, rec.spec, Options{Run: "ceiling", Batch: 1, Bodies: bodies})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	if err := drive(c, nil, nil); err != nil {
		b.Fatal(err)
	}
	coord := time.Since(began) - c.stats.Exploring
	if r := c.k.Result(len(c.out) == 0); !r.Exhausted || r.Executions != rec.executions || r.FinalStates != rec.finals {
		b.Fatalf("replay: exhausted %v, %d executions, %d final states; recorded %d, %d", r.Exhausted, r.Executions, r.FinalStates, rec.executions, rec.finals)
	}
	return coord, c.stats.Joined
}

// ceilingSpecs are the runs measured: fib n=4 (19,605 traces) under
// optimal and dpor-cr+sleep.
var ceilingSpecs = []struct {
	name string
	spec Spec
}{
	{"fib4", Spec{Program: "fib", Params: map[string]int{"n": 4}, Strategy: "optimal", KeepGoing: true}},
	{"fib4-dpor-cr+sleep", Spec{Program: "fib", Params: map[string]int{"n": 4}, Strategy: "dpor-cr+sleep", KeepGoing: true}},
}

// BenchmarkCoordinatorCeiling measures the units per second a coordinator
// takes in when its workers cost it nothing: a run of fib n=4, driven one
// unit at a time (drive), is recorded with a worker in the process, then
// replayed with every result on the stream before it begins. Each unit
// costs the coordinator what it does in a run (split, journal, publish,
// take in the result, decode, join, journal, publish the units the join
// gives, acknowledge), and nothing of the waiting; its own executions are
// not counted. units/s is the ceiling: the most units one coordinator
// feeds its workers.
func BenchmarkCoordinatorCeiling(b *testing.B) {
	for _, p := range ceilingSpecs {
		b.Run(p.name, func(b *testing.B) {
			e := embedded(b)
			js := connect(b, e, "coordinator")
			rec := record(b, js, p.spec)
			b.ResetTimer()
			var coord time.Duration
			units := 0
			for range b.N {
				d, n := rec.replay(b, js)
				coord += d
				units += n
			}
			b.ReportMetric(float64(units)/coord.Seconds(), "units/s")
			b.ReportMetric(float64(coord.Microseconds())/float64(units), "coord-µs/unit")
			b.ReportMetric(float64(units)/float64(b.N), "units/op")
		})
	}
}

// A model is a discrete-event simulation of a recorded run on N workers
// and a coordinator that spends cost on each unit.
type model struct {
	rec  *recording
	cost time.Duration
}

// run simulates n workers and returns the run's wall time, the workers'
// busy time and the coordinator's. The coordinator does one thing at a
// time: it joins the results that came (cost each; the units a join gave
// are then ready), or else explores the root's next batch, once the joins
// it followed in the recording are done (the units split after it are
// then ready). A worker idle takes the oldest ready unit and explores it
// for the unit's recorded time.
func (m *model) run(n int) (wall, busy, coord time.Duration) {
	rec := m.rec
	children := map[uint64][]uint64{}
	for u, p := range rec.parent {
		children[p] = append(children[p], u)
	}
	for _, c := range children {
		slices.Sort(c)
	}
	type finish struct {
		at time.Duration
		id uint64
	}
	var (
		now, coordFree time.Duration
		ready          []uint64
		running        []finish // sorted by at
		results        []uint64 // came, not joined
		idle           = n
		batch, joins   int
		units          = len(rec.work)
	)
	for joins < units || batch < len(rec.batches) {
		// The coordinator, if free, joins a result, or explores a batch.
		if now >= coordFree {
			switch {
			case len(results) > 0:
				id := results[0]
				results = results[1:]
				coordFree = now + m.cost
				coord += m.cost
				joins++
				ready = append(ready, children[id]...)
			case batch < len(rec.batches) && joins >= rec.joinsBefore[batch]:
				coordFree = now + rec.batches[batch]
				coord += rec.batches[batch]
				ready = append(ready, rec.rootSplits[batch]...)
				batch++
			}
		}
		for idle > 0 && len(ready) > 0 {
			id := ready[0]
			ready = ready[1:]
			idle--
			busy += rec.work[id]
			f := finish{now + rec.work[id], id}
			i, _ := slices.BinarySearchFunc(running, f, func(a, b finish) int { return int(a.at - b.at) })
			running = slices.Insert(running, i, f)
		}
		// The next event: the coordinator free, or a unit finished.
		next := time.Duration(-1)
		if coordFree > now {
			next = coordFree
		}
		if len(running) > 0 && (next < 0 || running[0].at < next) {
			next = running[0].at
		}
		if next < 0 {
			break // nothing runs: the remaining joins wait for nothing
		}
		now = next
		for len(running) > 0 && running[0].at <= now {
			results = append(results, running[0].id)
			running = running[1:]
			idle++
		}
	}
	return max(now, coordFree), busy, coord
}

// scaling caches, per run, its recording and the coordinator's measured
// cost per unit.
var scaling struct {
	sync.Mutex
	models map[string]*model
}

// BenchmarkScalingModel shows how a distributed run of fib n=4 would
// scale beyond this machine's two cores: it records the run one unit at a
// time (the root's batches, each unit's time on a worker, which join made
// which unit), measures the coordinator's cost per unit as
// BenchmarkCoordinatorCeiling does, and simulates 1 to 64 workers
// (model.run). It reports the speedup over one process exploring the run
// alone (the root's executions and every unit's, one after the other),
// the workers' idle share and the coordinator's busy share. The model
// keeps the recorded units (a real run with more workers splits more,
// smaller units, earlier) and charges no network latency beyond the
// measured cost.
func BenchmarkScalingModel(b *testing.B) {
	for _, p := range ceilingSpecs {
		scaling.Lock()
		m := scaling.models[p.name]
		if m == nil {
			e := embedded(b)
			js := connect(b, e, "coordinator")
			rec := record(b, js, p.spec)
			var coord time.Duration
			units := 0
			for range 3 {
				d, n := rec.replay(b, js)
				coord += d
				units += n
			}
			m = &model{rec: rec, cost: coord / time.Duration(units)}
			if scaling.models == nil {
				scaling.models = map[string]*model{}
			}
			scaling.models[p.name] = m
		}
		scaling.Unlock()
		var alone time.Duration
		for _, d := range m.rec.batches {
			alone += d
		}
		for _, d := range m.rec.work {
			alone += d
		}
		for _, n := range []int{1, 2, 4, 8, 16, 32, 64} {
			b.Run(fmt.Sprintf("%s/workers=%d", p.name, n), func(b *testing.B) {
				var wall, busy, coord time.Duration
				for range b.N {
					wall, busy, coord = m.run(n)
				}
				b.ReportMetric(alone.Seconds()/wall.Seconds(), "speedup")
				b.ReportMetric(100*(1-busy.Seconds()/(float64(n)*wall.Seconds())), "worker-idle-%")
				b.ReportMetric(100*coord.Seconds()/wall.Seconds(), "coord-busy-%")
				b.ReportMetric(float64(len(m.rec.work)), "units")
				b.ReportMetric(float64(m.cost.Microseconds()), "coord-µs/unit")
			})
		}
	}
}
