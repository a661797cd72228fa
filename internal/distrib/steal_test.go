// Tests of work stealing: workers split units off their own for idle
// workers, join their results, and drop the orphans of a dead worker.

package distrib

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/trace"
)

// TestDistributedStealing runs fib n=3 with a coordinator that hands all
// its work out after the first execution (HandOut) to three workers,
// which split units off their own while one of them waits (each slowed
// down so that one does, whatever the load): the result is
// the local one, for optimal, dpor-cr+sleep and flip+sleep, and the counts
// agree: the coordinator ran 1 execution; every unit a worker split off
// was joined once, by that worker; the workers explored the coordinator's
// units and their own.
func TestDistributedStealing(t *testing.T) {
	for _, name := range []string{"optimal", "dpor-cr+sleep", "flip+sleep"} {
		t.Run(name, func(t *testing.T) {
			e := embedded(t)
			f := newForms()
			// Each worker looks for idle workers after every second
			// execution, and an execution takes at least a millisecond:
			// once the coordinator's units are all taken, a worker with
			// work left sees another wait, however fast the machine and
			// however loaded.
			c := startWorkersWith(t, e, 3, func(o *WorkerOptions) {
				o.Batch = 2
				o.Observe = func(tr *trace.Trace, end trace.End) {
					f.observe(tr, end)
					time.Sleep(time.Millisecond)
				}
			})
			spec := fib3
			spec.Strategy = name
			js := connect(t, e, "coordinator")
			var own atomic.Int64
			o := Options{Bodies: bodies, HandOut: true, Observe: func(tr *trace.Trace, end trace.End) {
				own.Add(1)
				f.observe(tr, end)
			}}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			got, st, err := Coordinate(ctx, js, spec, o)
			if err != nil {
				t.Fatal(err)
			}
			if errs := c.stop(); len(errs) > 0 {
				t.Fatal(errs)
			}
			want, wf := local(t, spec)
			if d := differ(spec, want, wf, apiResult(got), f); d != "" {
				t.Error(d)
			}
			var sum WorkerStats
			for _, w := range c.stats {
				sum.Units += w.Units
				sum.Split += w.Split
				sum.Joined += w.Joined
				sum.Duplicates += w.Duplicates
				sum.Orphans += w.Orphans
				sum.Abandoned += w.Abandoned
			}
			if own.Load() != 1 || sum.Split != st.Stolen || sum.Joined != st.Stolen || sum.Units != st.Joined+st.Stolen ||
				sum.Duplicates+sum.Orphans+sum.Abandoned != 0 || st.Joined != st.Units {
				t.Errorf("coordinator: %d executions, %+v; workers: %+v; want 1 execution, every unit split off joined once, each explored once", own.Load(), st, sum)
			}
			if st.Stolen == 0 {
				t.Errorf("no worker split a unit off (coordinator %+v)", st)
			}
			t.Logf("%d units from the coordinator, %d split off by workers", st.Units, st.Stolen)
		})
	}
}

// TestDistributedOrphan puts on the queue a unit split off by a worker
// the server does not know (gone, its consumer of results with it) and a
// unit the worker that takes it would have split off a job it does not
// have: the worker drops both, as orphans, and explores nothing.
func TestDistributedOrphan(t *testing.T) {
	e := embedded(t)
	js := connect(t, e, "test")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := Setup(ctx, js, DefaultAckWait); err != nil {
		t.Fatal(err)
	}
	part := fib3Part(t)
	for i, owner := range []string{"0123456789abcdef", "fedcba9876543210"} {
		b, err := encode(&unitMsg{Magic: magic, Run: "orphans", ID: uint64(i + 1), Owner: owner, Job: 7, Spec: fib3, Part: part})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := js.Publish(ctx, UnitsSubject("orphans"), b); err != nil {
			t.Fatal(err)
		}
	}
	var logged []string
	w := &worker{ctx: ctx, js: js, o: WorkerOptions{Bodies: bodies, Log: func(format string, args ...any) {
		logged = append(logged, fmt.Sprintf(format, args...))
	}}, id: "fedcba9876543210"}
	cons, err := workersConsumer(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		m, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if err := w.begin(m); err != nil {
			t.Fatal(err)
		}
	}
	if w.stats.Orphans != 2 || len(w.jobs) != 0 || len(logged) != 2 {
		t.Errorf("%d orphans, %d jobs, logged %q; want 2 orphans, no job, 2 lines", w.stats.Orphans, len(w.jobs), logged)
	}
	// A termination is published, not requested: the consumer takes it
	// in a moment later.
	var info *jetstream.ConsumerInfo
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if info, err = cons.Info(ctx); err != nil {
			t.Fatal(err)
		}
		if info.NumAckPending == 0 || time.Now().After(deadline) {
			break
		}
	}
	if info.NumPending != 0 || info.NumAckPending != 0 {
		t.Errorf("%d units pending, %d unacknowledged; want both dropped for good", info.NumPending, info.NumAckPending)
	}
}

// fib3Part returns a part of fib n=3: the first the root splits off after
// its first execution.
func fib3Part(t *testing.T) []byte {
	t.Helper()
	body, err := bodies(fib3)
	if err != nil {
		t.Fatal(err)
	}
	k, err := explore.NewCoordinator(body, fib3.config(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if _, err := k.Explore(1); err != nil {
		t.Fatal(err)
	}
	part, ok, err := k.Split()
	if err != nil || !ok {
		t.Fatalf("no part of fib 3 (%v)", err)
	}
	return part
}

// TestDistributedWorkerDies has a worker take units of fib n=3 (from a
// coordinator that hands all its work out), split a unit off after every
// batch and die, as a killed process would, once it split two off: the
// units it split off are explored, or dropped as orphans once its consumer
// of results expires; the coordinator's units it held are delivered again
// after the ack deadline and explored whole by two other workers; the
// result is the local one, with exactly those units redelivered.
func TestDistributedWorkerDies(t *testing.T) {
	for _, name := range []string{"optimal", "dpor-cr+sleep"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each on a server of its own, mostly waiting for ack deadlines
			e := embedded(t)
			js := connect(t, e, "dying worker")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if _, err := Setup(ctx, js, stallAckWait); err != nil {
				t.Fatal(err)
			}
			f := newForms()
			died := make(chan WorkerStats, 1)
			held := 0 // the coordinator's units the worker held when it died
			go func() {
				die := func(w *worker) bool {
					if w.stats.Split < 2 {
						return false
					}
					for _, j := range w.jobs {
						if j.unit.Owner == "" {
							held++
						}
					}
					return true
				}
				o := WorkerOptions{Name: "dying", Bodies: bodies, Batch: 2, forceSplit: true,
					Observe: f.observe, die: die}
				st, err := Work(ctx, js, o)
				if err != nil {
					t.Error(err)
				}
				died <- st
			}()
			spec := fib3
			spec.Strategy = name
			wait := coordinateAsync(t, e, spec, f, Options{AckWait: stallAckWait, HandOut: true})
			dead := <-died
			if dead.Split != 2 || held == 0 {
				t.Fatalf("the dying worker split %d units off and held %d of the coordinator's; want 2 and some", dead.Split, held)
			}
			startWorkers(t, e, 2, f.observe)
			got, st := wait()
			want, wf := local(t, spec)
			if d := differ(spec, want, wf, got, f); d != "" {
				t.Error(d)
			}
			if st.Redelivered != held || st.Joined != st.Units || st.Duplicates != 0 {
				t.Errorf("%+v; want the %d units the dead worker held redelivered, every unit joined once", st, held)
			}
			t.Logf("the dead worker held %d units, finished %d", held, dead.Units)
		})
	}
}
