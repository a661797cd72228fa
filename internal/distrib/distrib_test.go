// Tests of distributed exploration over a real NATS server embedded on
// loopback: the result equals a local exploration's, units survive
// workers that stall, duplicates are joined once, malformed messages are
// rejected.

package distrib

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/trace"
)

// embedded starts an embedded server for the test.
func embedded(t *testing.T) *Embedded {
	t.Helper()
	e, err := StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

// connect connects to e for the test.
func connect(t *testing.T, e *Embedded, name string) jetstream.JetStream {
	t.Helper()
	nc, js, err := Connect(e.URL(), name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return js
}

// forms collects the Foata normal forms of the complete and failing
// executions seen, from any goroutine.
type forms struct {
	mu       sync.Mutex
	complete map[string]bool
	failing  map[string]bool
}

func newForms() *forms { return &forms{complete: map[string]bool{}, failing: map[string]bool{}} }

func (f *forms) observe(tr *trace.Trace, end trace.End) {
	form := trace.Foata(tr, trace.CR)
	f.mu.Lock()
	defer f.mu.Unlock()
	switch end.Status {
	case trace.Complete:
		f.complete[form] = true
	case trace.Failed:
		f.failing[end.Kind.String()+": "+form] = true
	}
}

// bodies resolves the built-in programs and "gen/SEED", a generated one.
func bodies(s Spec) (func(*weft.T), error) {
	var seed uint64
	if _, err := fmt.Sscanf(s.Program, "gen/%d", &seed); err == nil {
		return genweft.Body(gen.New(seed)), nil
	}
	return ProgramBody(s)
}

// cluster is a server and in-process workers, each with a connection of
// its own.
type cluster struct {
	e       *Embedded
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	mu      sync.Mutex
	stats   []WorkerStats
	errs    []error
	rejects []string
}

// startWorkers starts n workers on e that record their executions in f.
func startWorkers(t *testing.T, e *Embedded, n int, f *forms) *cluster {
	ctx, cancel := context.WithCancel(context.Background())
	c := &cluster{e: e, cancel: cancel}
	for i := range n {
		js := connect(t, e, fmt.Sprintf("worker %d", i))
		o := WorkerOptions{Name: fmt.Sprint(i), Bodies: bodies, Log: c.log}
		if f != nil {
			o.Extra = []weft.Option{weft.WithObserver(f.observe)}
		}
		c.wg.Go(func() {
			st, err := Work(ctx, js, o)
			c.mu.Lock()
			defer c.mu.Unlock()
			c.stats = append(c.stats, st)
			if err != nil {
				c.errs = append(c.errs, err)
			}
		})
	}
	t.Cleanup(func() { c.stop() })
	return c
}

func (c *cluster) log(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rejects = append(c.rejects, fmt.Sprintf(format, args...))
}

// stop stops the workers and returns their errors.
func (c *cluster) stop() []error {
	c.cancel()
	c.wg.Wait()
	return c.errs
}

// coordinate runs spec on c's server, recording the coordinator's
// executions in f.
func coordinate(t *testing.T, e *Embedded, spec Spec, f *forms, o Options) (*weft.Result, Stats) {
	t.Helper()
	js := connect(t, e, "coordinator")
	o.Bodies = bodies
	o.Extra = []weft.Option{weft.WithObserver(f.observe)}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, st, err := Coordinate(ctx, js, spec, o)
	if err != nil {
		t.Fatalf("%s: %v", spec.Program, err)
	}
	return r, st
}

// local explores spec in the process, recording its executions.
func local(t *testing.T, spec Spec) (*weft.Result, *forms) {
	t.Helper()
	body, err := bodies(spec)
	if err != nil {
		t.Fatal(err)
	}
	f := newForms()
	r, err := weft.Explore(body, append(spec.options(), weft.WithMaxRuns(0), weft.WithObserver(f.observe))...)
	if err != nil {
		t.Fatal(err)
	}
	return r, f
}

// differ describes how the distributed exploration (r, f) differs from
// the local one: exhausted, the complete and failing traces (as sets),
// the failure kinds, the final states, and for optimal the number of
// distinct complete traces, which must be the local count of executions.
func differ(spec Spec, want *weft.Result, wf *forms, got *weft.Result, gf *forms) string {
	var b strings.Builder
	if !got.Exhausted {
		b.WriteString("not exhausted; ")
	}
	if !maps.Equal(gf.complete, wf.complete) {
		fmt.Fprintf(&b, "%d distinct complete traces, want %d; ", len(gf.complete), len(wf.complete))
	}
	if !maps.Equal(gf.failing, wf.failing) {
		fmt.Fprintf(&b, "%d distinct failing traces, want %d; ", len(gf.failing), len(wf.failing))
	}
	if k, wk := slices.Sorted(maps.Keys(got.FailureCounts)), slices.Sorted(maps.Keys(want.FailureCounts)); !slices.Equal(k, wk) {
		fmt.Fprintf(&b, "failure kinds %v, want %v; ", k, wk)
	}
	if got.FinalStates != want.FinalStates {
		fmt.Fprintf(&b, "%d final states, want %d; ", got.FinalStates, want.FinalStates)
	}
	if spec.Strategy == "optimal" && len(gf.complete) != want.Complete {
		fmt.Fprintf(&b, "%d distinct complete traces, want optimal's %d complete executions; ", len(gf.complete), want.Complete)
	}
	return b.String()
}

func TestDistributedSmoke(t *testing.T) {
	e := embedded(t)
	f := newForms()
	startWorkers(t, e, 2, f)
	spec := Spec{Program: "fib", Params: map[string]int{"n": 3}, Strategy: "optimal", KeepGoing: true}
	got, st := coordinate(t, e, spec, f, Options{Batch: 4})
	want, wf := local(t, spec)
	if d := differ(spec, want, wf, got, f); d != "" {
		t.Error(d)
	}
	t.Logf("%+v %+v", got.Executions, st)
}
