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
	"github.com/weft-go/weft/internal/explore"
)

// A recording is a run driven one unit at a time (drive): its result
// messages, in the order joined, and its Result's executions and final
// states.
type recording struct {
	spec       Spec
	results    [][]byte
	executions int
	finals     int
}

// drive runs c one unit at a time, deterministically: each step explores
// a batch of the root's executions (unless its exploration is over),
// fills the queue up to Ahead, counting every unit not joined as waiting,
// then, if a unit is out, has work (if not nil) explore the oldest and
// publish its result, and joins the next result that comes, which must be
// that unit's.
func drive(c *coordinator, work func(id uint64, part []byte) error) error {
	for {
		if !c.over && !c.k.Stopped() {
			began := time.Now()
			over, err := c.k.Explore(c.o.Batch)
			c.stats.Exploring += time.Since(began)
			if err != nil {
				return err
			}
			c.over = over
			c.note(entry{Op: opExplore, N: c.o.Batch, Over: over})
		}
		if c.k.Stopped() || c.over && len(c.out) == 0 {
			return nil
		}
		if !c.over {
			c.waiting, c.asked = len(c.out), time.Now()
			if err := c.fill(); err != nil {
				return err
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
		joined, err := c.handle(m)
		if err != nil {
			return err
		}
		if !joined || c.out[id] != nil {
			return fmt.Errorf("the result that came is not unit %d's (the drive diverged from the recording)", id)
		}
		c.over = false
	}
}

// record drives a run of spec with a worker in the process (one
// PartExplorer), keeping each result message.
func record(b *testing.B, js jetstream.JetStream, spec Spec) *recording {
	b.Helper()
	ctx := context.Background()
	c, stop, err := start(ctx, js, spec, Options{Run: "ceiling", Batch: 1, Bodies: bodies, noMail: true})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	body, err := bodies(spec)
	if err != nil {
		b.Fatal(err)
	}
	x, err := explore.NewPartExplorer(body, spec.config(nil))
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	rec := &recording{spec: spec}
	work := func(id uint64, part []byte) error {
		out, err := x.Explore(part)
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
	if err := drive(c, work); err != nil {
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
	c, stop, err := start(ctx, js, rec.spec, Options{Run: "ceiling", Batch: 1, Bodies: bodies, noMail: true})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	if err := drive(c, nil); err != nil {
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

// coordCost caches, per run, the coordinator's measured cost per unit.
var coordCost struct {
	sync.Mutex
	of map[string]time.Duration
}

// BenchmarkScalingModel shows how a distributed run of fib n=4 would
// scale beyond this machine's two cores: it measures the coordinator's
// cost per unit as BenchmarkCoordinatorCeiling does, then simulates the
// run with 1 to 64 workers (simulation) and reports the speedup over a
// local exploration on one core (its wall time here), the workers' idle
// share, the coordinator's busy share, the units off the root and off
// workers' units, the executions (all 490 final states found, or it
// fails), and the bound the longest unit of the root puts on the speedup
// (the local time over the longest time one worker spent on one of them),
// with workers that explore each unit whole (whole), workers that split
// units off theirs for idle workers (steal), large ones as the root does
// (steal-large), and large ones that take letters from their splitters, as
// a real run's do (steal-letters). No network latency is
// charged but the coordinator's measured cost, per unit it handles and per
// unit a worker splits off; a worker process needs no start.
func BenchmarkScalingModel(b *testing.B) {
	const fib4FinalStates = 490
	for _, p := range ceilingSpecs {
		coordCost.Lock()
		cost, ok := coordCost.of[p.name]
		if !ok {
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
			cost = coord / time.Duration(units)
			if coordCost.of == nil {
				coordCost.of = map[string]time.Duration{}
			}
			coordCost.of[p.name] = cost
		}
		coordCost.Unlock()
		body, err := weftBody(p.spec)
		if err != nil {
			b.Fatal(err)
		}
		began := time.Now()
		if _, err := weft.Explore(body, append(p.spec.options(), weft.WithMaxRuns(0))...); err != nil {
			b.Fatal(err)
		}
		alone := time.Since(began)
		for _, mode := range []string{"whole", "steal", "steal-large", "steal-letters"} {
			s := &simulation{spec: p.spec, cost: cost, batch: 4, ahead: 4, steal: mode != "whole",
				large: mode == "steal-large" || mode == "steal-letters", mail: mode == "steal-letters"}
			for _, n := range []int{1, 2, 4, 8, 16, 32, 64} {
				b.Run(fmt.Sprintf("%s/%s/workers=%d", p.name, mode, n), func(b *testing.B) {
					var sim simulated
					for range b.N {
						if sim, err = s.run(n); err != nil {
							b.Fatal(err)
						}
						if !sim.r.Exhausted || sim.r.FinalStates != fib4FinalStates {
							b.Fatalf("exhausted %v, %d final states; want exhausted, %d", sim.r.Exhausted, sim.r.FinalStates, fib4FinalStates)
						}
					}
					b.ReportMetric(alone.Seconds()/sim.wall.Seconds(), "speedup")
					b.ReportMetric(100*(1-sim.busy.Seconds()/(float64(n)*sim.wall.Seconds())), "worker-idle-%")
					b.ReportMetric(100*sim.coord.Seconds()/sim.wall.Seconds(), "coord-busy-%")
					b.ReportMetric(float64(sim.units), "units")
					b.ReportMetric(float64(sim.stolen), "stolen")
					b.ReportMetric(float64(sim.r.Executions), "execs")
					b.ReportMetric(float64(cost.Microseconds()), "coord-µs/unit")
					b.ReportMetric(alone.Seconds()/sim.largest.Seconds(), "largest-unit-bound")
				})
			}
		}
	}
}
