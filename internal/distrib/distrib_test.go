// Tests of distributed exploration over a real NATS server embedded on
// loopback: the result equals a local exploration's, units survive
// workers that stall, duplicates are joined once, malformed messages are
// rejected.

package distrib

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft"
	_ "github.com/weft-go/weft/concolic" // the concolic strategies, when linked
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/internal/registry"
	"github.com/weft-go/weft/programs"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// embedded starts an embedded server for the test.
func embedded(t testing.TB) *Embedded {
	t.Helper()
	e, err := StartEmbedded("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}

// connect connects to e for the test.
func connect(t testing.TB, e *Embedded, name string) jetstream.JetStream {
	t.Helper()
	nc, js, err := Connect(e.URL(), name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return js
}

// forms collects the Foata normal forms of the complete executions seen,
// from any goroutine.
type forms struct {
	mu       sync.Mutex
	complete map[string]bool
}

func newForms() *forms { return &forms{complete: map[string]bool{}} }

func (f *forms) observe(tr *trace.Trace, end trace.End) {
	if end.Status != trace.Complete {
		return
	}
	form := trace.Foata(tr, trace.CR)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.complete[form] = true
}

// bodies resolves the built-in programs, "gen/SEED", a generated one
// whose objects are made by each execution, and "gen-shared/SEED", the
// same with its objects made once, outside the test body.
func bodies(s Spec) (func(), error) {
	body, err := weftBody(s)
	if err != nil {
		return nil, err
	}
	return explore.APIBody(body), nil
}

// weftBody is bodies' test body, as package weft runs it.
func weftBody(s Spec) (func(*weft.T), error) {
	if p := generated(s); p != nil {
		return genweft.Body(p), nil
	}
	p := programs.Lookup(s.Program)
	if p == nil {
		return nil, fmt.Errorf("unknown program %q", s.Program)
	}
	ps, err := p.Resolve(s.Params)
	if err != nil {
		return nil, fmt.Errorf("program %s: %w", s.Program, err)
	}
	return p.Body(ps), nil
}

// options returns the options of package weft that explore s as its
// distributed run does (Spec.config).
func (s Spec) options() []weft.Option {
	opts := []weft.Option{weft.WithSeed(s.Seed), weft.NoReplayFiles()}
	if s.Strategy != "" {
		opts = append(opts, weft.WithStrategy(s.Strategy))
	}
	if s.MaxSteps > 0 {
		opts = append(opts, weft.WithMaxSteps(s.MaxSteps))
	}
	if s.KeepGoing {
		opts = append(opts, weft.KeepGoing())
	}
	if s.Races {
		opts = append(opts, weft.WithRaces())
	}
	if s.AnyStepTime {
		opts = append(opts, weft.WithTime(weft.TimeAnyStep))
	}
	return opts
}

// apiResult returns r as package weft's Result.
func apiResult(r *explore.Result) *weft.Result {
	if r == nil {
		return nil
	}
	return explore.APIResult(r).(*weft.Result)
}

// generated returns the generated program of s, or nil.
func generated(s Spec) *gen.Program {
	var seed uint64
	if _, err := fmt.Sscanf(s.Program, "gen/%d", &seed); err == nil {
		p := gen.New(seed)
		p.Local = true
		return p
	}
	if _, err := fmt.Sscanf(s.Program, "gen-shared/%d", &seed); err == nil {
		return gen.New(seed)
	}
	return nil
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

// startWorkers starts n workers on e that show their executions to
// observe (if not nil).
func startWorkers(t *testing.T, e *Embedded, n int, observe func(*trace.Trace, trace.End)) *cluster {
	return startWorkersWith(t, e, n, func(o *WorkerOptions) { o.Observe = observe })
}

// startWorkersWith starts n workers on e, each with the options configure
// sets on top of the defaults.
func startWorkersWith(t *testing.T, e *Embedded, n int, configure func(*WorkerOptions)) *cluster {
	ctx, cancel := context.WithCancel(context.Background())
	c := &cluster{e: e, cancel: cancel}
	for i := range n {
		js := connect(t, e, fmt.Sprintf("worker %d", i))
		o := WorkerOptions{Name: fmt.Sprint(i), Bodies: bodies, Log: c.log}
		configure(&o)
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

// coordinate runs spec on e, showing the coordinator's executions to
// observe.
func coordinate(t *testing.T, e *Embedded, spec Spec, observe func(*trace.Trace, trace.End), o Options) (*weft.Result, Stats) {
	t.Helper()
	js := connect(t, e, "coordinator")
	o.Bodies = bodies
	o.Observe = observe
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, st, err := Coordinate(ctx, js, spec, o)
	if err != nil {
		t.Fatalf("%s: %v", spec.Program, err)
	}
	return apiResult(r), st
}

// local explores spec in the process, recording its executions.
func local(t *testing.T, spec Spec) (*weft.Result, *forms) {
	t.Helper()
	body, err := weftBody(spec)
	if err != nil {
		t.Fatal(err)
	}
	f := newForms()
	r, err := weft.Explore(body, append(spec.options(), weft.WithMaxRuns(5000), weft.WithObserver(f.observe))...)
	if err != nil {
		t.Fatal(err)
	}
	return r, f
}

// differ describes how the distributed exploration (r, f) differs from
// the local one: exhausted, the complete traces (as sets), the failure
// kinds, the final states, and for optimal the number of
// distinct complete traces, which must be the local count of executions.
func differ(spec Spec, want *weft.Result, wf *forms, got *weft.Result, gf *forms) string {
	var b strings.Builder
	if !got.Exhausted {
		b.WriteString("not exhausted; ")
	}
	if !maps.Equal(gf.complete, wf.complete) {
		fmt.Fprintf(&b, "%d distinct complete traces, want %d; ", len(gf.complete), len(wf.complete))
	}
	// A failing execution ends at its failure, wherever the order of
	// exploration first reaches it, so the failing traces are not
	// compared: parts explored apart reach failures by other paths (more,
	// as parallel workers do, and under flip fewer: gen seed 95, divided
	// in-process with strategytest.Divide, Every 2, Delay 10, Depth 1,
	// misses 1 of its 65 failing traces, its failure kinds all found).
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

// splitters returns the registered strategies that divide into units and
// can run here (the concolic ones need Z3 and cgo).
func splitters() []string {
	var out []string
	for _, n := range weft.Strategies() {
		mk, err := registry.Lookup(n)
		if err != nil {
			continue
		}
		s := mk(registry.Params{})
		_, split := s.(strategy.Splitter)
		if f, ok := strategy.As[strategy.Failer](s); ok && f.Err() != nil {
			split = false
		}
		if c, ok := strategy.As[strategy.Closer](s); ok {
			c.Close()
		}
		if split {
			out = append(out, n)
		}
	}
	return out
}

// switchForms is an observer that records into the forms current holds.
type switchForms struct{ current atomic.Pointer[forms] }

func (s *switchForms) observe(tr *trace.Trace, end trace.End) { s.current.Load().observe(tr, end) }

// TestDistributedEqualsLocal explores 8 built-in programs (5 unless
// WEFT_LONG=1: not fib n=3, dme and rwsem, over 1,000 executions each)
// and 100 generated ones (5 unless WEFT_LONG=1), each with its objects made by every
// execution and, again, made once outside the test body, and the timeout
// program in both time modes, with every systematic strategy that divides
// into units (but the concolic ones and unfold; con2 on the built-in
// programs only), on two workers over NATS, and
// compares with the local exploration: the same complete traces, failure
// kinds and final states, and for optimal as many distinct complete traces
// as the local exploration's executions, and exactly its executions. Explorations over 5,000
// executions are left out. indexer and filesystem make their objects
// outside the test body, named: each process names them alike. A
// generated program with objects made outside and a WaitGroup, which it
// leaves unnamed (3 of the 100), is refused (ErrSharedObject) or equal to
// local (unnamedWaitGroup).
func TestDistributedEqualsLocal(t *testing.T) {
	t.Parallel()
	n := 100
	if !long.Enabled() {
		n = 5
	}
	e := embedded(t)
	var sw switchForms
	sw.current.Store(newForms())
	startWorkers(t, e, 2, sw.observe)
	var specs []Spec
	for _, p := range []struct {
		name   string
		params map[string]int
	}{
		{"dining", map[string]int{"n": 4}}, {"fib", map[string]int{"n": 3}}, {"xy", nil},
		{"bbchan", nil}, {"rwsem", nil}, {"dme", nil},
		{"indexer", map[string]int{"n": 13}}, {"filesystem", map[string]int{"n": 18}},
	} {
		if !long.Enabled() && (p.name == "fib" || p.name == "dme" || p.name == "rwsem") {
			continue // over 1,000 executions each: with WEFT_LONG=1 only
		}
		specs = append(specs, Spec{Program: p.name, Params: p.params})
	}
	// The timeout race, found only with time at any step: the mode travels
	// in the spec.
	specs = append(specs, Spec{Program: "timeout"}, Spec{Program: "timeout", AnyStepTime: true})
	for seed := range n {
		specs = append(specs, Spec{Program: fmt.Sprintf("gen/%d", seed)}, Spec{Program: fmt.Sprintf("gen-shared/%d", seed)})
	}
	var names []string
	for _, name := range splitters() {
		// Concolic strategies: no inputs here, their schedules are their
		// inner strategies' (TestDistributedConcolic). unfold: each of its
		// units replays the splitter's log of the unfolding so far, and a
		// local exploration of 5,000 of its tests on these programs runs
		// for many minutes; its units are checked in process and apart
		// (package weft's TestDividedApart and TestUnits). con2 has a
		// small share: the built-in programs (below).
		if !strings.HasPrefix(name, "concolic") && name != "unfold" {
			names = append(names, name)
		}
	}
	if !long.Enabled() { // one strategy of each family; every one with WEFT_LONG=1
		names = slices.DeleteFunc(names, func(n string) bool { return n != "optimal" && n != "dpor-cr+sleep" && n != "flip+sleep" && n != "con2" })
	}
	compared, units, stolen, refused := 0, 0, 0, 0
	var apart *Embedded // the server of the programs that may be refused
	for _, spec := range specs {
		if p := generated(spec); p != nil && !p.Local && p.WaitGroups > 0 {
			if apart == nil {
				apart = embedded(t)
				startWorkers(t, apart, 2, nil)
			}
			c, r := unnamedWaitGroup(t, apart, spec, slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "con2" }))
			compared += c
			refused += r
			continue
		}
		for _, name := range names {
			if spec.AnyStepTime && blockedTimeOnly(t, name) {
				continue // the strategy refuses time at any step (con2)
			}
			if name == "con2" && generated(spec) != nil {
				continue // con2's share: the built-in programs (its units: TestDistributedCon2)
			}
			spec := spec
			spec.Strategy, spec.KeepGoing = name, true
			want, wf := local(t, spec)
			if !want.Exhausted {
				continue // over 5,000 executions
			}
			f := newForms()
			sw.current.Store(f)
			got, st := coordinate(t, e, spec, f.observe, Options{Batch: 2})
			compared++
			units += st.Units
			stolen += st.Stolen
			if d := differ(spec, want, wf, got, f); d != "" {
				t.Errorf("%s%v, %s on NATS (%d units): %s", spec.Program, spec.Params, name, st.Units, d)
			}
			if name == "optimal" && (got.Executions != want.Executions || got.Complete != want.Complete) {
				// Letters make its division exact (letters.go).
				t.Errorf("%s%v, optimal on NATS (%d units, %d more split off by workers): %d executions, %d complete; want exactly the local %d, %d",
					spec.Program, spec.Params, st.Units, st.Stolen, got.Executions, got.Complete, want.Executions, want.Complete)
			}
			if st.Joined != st.Units || st.Redelivered != 0 || st.Duplicates != 0 || st.Rejected != 0 {
				t.Errorf("%s%v, %s on NATS: %+v, want every unit joined once, none redelivered, duplicated or rejected", spec.Program, spec.Params, name, st)
			}
		}
	}
	t.Logf("%d explorations compared, %d units, %d more split off by workers; %d refused", compared, units, stolen, refused)
}

// unnamedWaitGroup explores spec, a generated program with a WaitGroup
// made outside the test body and unnamed, with each strategy of names,
// on e, whose workers observe nothing (a refused run's unit may still be
// explored when the next run begins): the exploration is refused with
// ErrSharedObject if a process touches the WaitGroup in two executions,
// as the order of units among the processes has it, else its failure
// kinds and final states are the local ones. It returns how many it
// compared and how many were refused.
func unnamedWaitGroup(t *testing.T, e *Embedded, spec Spec, names []string) (compared, refused int) {
	t.Helper()
	js := connect(t, e, "coordinator")
	for _, name := range names {
		spec := spec
		spec.Strategy, spec.KeepGoing = name, true
		want, _ := local(t, spec)
		if !want.Exhausted {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		got, _, err := Coordinate(ctx, js, spec, Options{Batch: 2, Bodies: bodies})
		cancel()
		if err != nil {
			if want := "waitgroup was made outside the test body"; !errors.Is(err, explore.ErrSharedObject) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s, %s: %v, want ErrSharedObject: %q", spec.Program, name, err, want)
			}
			refused++
			continue
		}
		compared++
		if k, wk := slices.Sorted(maps.Keys(got.FailureCounts)), slices.Sorted(maps.Keys(want.FailureCounts)); !got.Exhausted || !slices.Equal(k, wk) || got.FinalStates != want.FinalStates {
			t.Errorf("%s, %s: exhausted %v, failure kinds %v, %d final states; want exhausted, %v, %d", spec.Program, name, got.Exhausted, k, got.FinalStates, wk, want.FinalStates)
		}
	}
	return compared, refused
}

// fib3 is the program of the tests of lost and duplicated units: fib
// n=3 under optimal, 1698 traces.
var fib3 = Spec{Program: "fib", Params: map[string]int{"n": 3}, Strategy: "optimal", KeepGoing: true}

// takeUnit takes the next unit from the workers' consumer, as a worker
// would, waiting up to a minute for one.
func takeUnit(t *testing.T, js jetstream.JetStream) jetstream.Msg {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cons, err := workersConsumer(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	m, err := cons.Next(jetstream.FetchMaxWait(time.Minute))
	for retries := 0; transientFetch(err) && retries < fetchRetries && pause(ctx, fetchRetryPause); retries++ {
		m, err = cons.Next(jetstream.FetchMaxWait(time.Minute))
	}
	if err != nil {
		t.Fatalf("taking a unit: %v", err)
	}
	return m
}

// coordinateAsync runs spec in the background; wait returns its outcome.
func coordinateAsync(t *testing.T, e *Embedded, spec Spec, f *forms, o Options) (wait func() (*weft.Result, Stats)) {
	js := connect(t, e, "coordinator")
	o.Bodies = bodies
	o.Observe = f.observe
	var r *explore.Result
	var st Stats
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		r, st, err = Coordinate(ctx, js, spec, o)
	}()
	return func() (*weft.Result, Stats) {
		t.Helper()
		<-done
		if err != nil {
			t.Fatalf("%s: %v", spec.Program, err)
		}
		return apiResult(r), st
	}
}

// finishFib3 starts two workers for the run of fib3 that wait returns,
// checks its result against a local exploration's, and returns its
// statistics.
func finishFib3(t *testing.T, e *Embedded, f *forms, wait func() (*weft.Result, Stats)) Stats {
	t.Helper()
	startWorkers(t, e, 2, f.observe)
	got, st := wait()
	want, wf := local(t, fib3)
	if d := differ(fib3, want, wf, got, f); d != "" {
		t.Error(d)
	}
	return st
}

// stallAckWait is the ack deadline of the tests of stalled workers: short,
// but long enough that a worker starved of CPU on a loaded machine still
// reports progress in time (every third of it), so that only the stalled
// unit is redelivered.
const stallAckWait = 3 * time.Second

// TestDistributedStalledWorker has a worker take the first unit of fib
// n=3 and never acknowledge it (as a worker killed mid-unit): the unit is
// delivered again after the ack deadline (stallAckWait) and explored by
// another worker; exactly that one unit is redelivered, nothing is lost.
func TestDistributedStalledWorker(t *testing.T) {
	e := embedded(t)
	js := connect(t, e, "stalled worker")
	// The consumer is set up with the short deadline before the unit is
	// taken: a take that came first would set it up with the default one,
	// which would hold the unit for DefaultAckWait.
	if _, err := Setup(context.Background(), js, stallAckWait); err != nil {
		t.Fatal(err)
	}
	f := newForms()
	wait := coordinateAsync(t, e, fib3, f, Options{AckWait: stallAckWait, Batch: 2})
	m := takeUnit(t, js) // and never acknowledge it
	u, err := decodeUnit(m.Subject(), m.Data())
	if err != nil || u.ID != 1 {
		t.Fatalf("the stalled worker took %v (%v), want unit 1", u, err)
	}
	st := finishFib3(t, e, f, wait)
	if st.Redelivered != 1 || st.Duplicates != 0 || st.Rejected != 0 || st.Joined != st.Units {
		t.Errorf("%+v, want 1 unit redelivered, none duplicated or rejected, every unit joined", st)
	}
}

// TestDistributedDuplicate has a worker publish the result of the first
// unit of fib n=3 twice (as two workers that both finished a redelivered
// unit would): the second is dropped, the result is the local one.
func TestDistributedDuplicate(t *testing.T) {
	e := embedded(t)
	js := connect(t, e, "duplicating worker")
	f := newForms()
	wait := coordinateAsync(t, e, fib3, f, Options{Batch: 2, noMail: true}) // its unit explored alone
	u, b := exploreUnit(t, e, f)
	for range 2 {
		if _, err := js.Publish(context.Background(), ResultsSubject(u.Run), b); err != nil {
			t.Fatal(err)
		}
	}
	st := finishFib3(t, e, f, wait)
	if st.Duplicates != 1 || st.Redelivered != 0 || st.Rejected != 0 || st.Joined != st.Units {
		t.Errorf("%+v, want 1 duplicate, none redelivered or rejected, every unit joined", st)
	}
}

// TestDistributedMalformed publishes bytes that are no message of weft's
// on the results of a run and on the units: the coordinator and a worker
// each reject theirs with an error that names the subject and the cause,
// count it apart, and the result is the local one.
func TestDistributedMalformed(t *testing.T) {
	e := embedded(t)
	js := connect(t, e, "intruder")
	ctx := context.Background()
	if _, err := Setup(ctx, js, DefaultAckWait); err != nil {
		t.Fatal(err)
	}
	for _, subject := range []string{ResultsSubject("malformed"), UnitsSubject("junk")} {
		if _, err := js.Publish(ctx, subject, []byte("garbage")); err != nil {
			t.Fatal(err)
		}
	}
	f := newForms()
	c := startWorkers(t, e, 2, f.observe)
	spec := Spec{Program: "dining", Params: map[string]int{"n": 4}, Strategy: "optimal", KeepGoing: true}
	var logged []string
	got, st := coordinate(t, e, spec, f.observe, Options{Run: "malformed", Batch: 1, Log: func(format string, args ...any) {
		logged = append(logged, fmt.Sprintf(format, args...))
	}})
	want, wf := local(t, spec)
	if d := differ(spec, want, wf, got, f); d != "" {
		t.Error(d)
	}
	if st.Rejected != 1 || st.Joined != st.Units {
		t.Errorf("coordinator: %+v, want 1 message rejected, every unit joined", st)
	}
	if errs := c.stop(); len(errs) > 0 {
		t.Fatal(errs)
	}
	rejected := 0
	for _, w := range c.stats {
		rejected += w.Rejected
	}
	if rejected != 1 {
		t.Errorf("workers rejected %d messages, want 1", rejected)
	}
	for _, l := range []struct {
		who  string
		logs []string
		want string
	}{
		{"coordinator", logged, "weft coordinator: rejected a message: malformed message on weft.results.malformed: 7 bytes that are no result of weft's (weft-nats-3)"},
		{"worker", c.rejects, "rejected a message: malformed message on weft.units.junk: 7 bytes that are no unit of weft's (weft-nats-3)"},
	} {
		if len(l.logs) != 1 || !strings.Contains(l.logs[0], l.want) {
			t.Errorf("%s logged %q, want one line with %q", l.who, l.logs, l.want)
		}
	}
}

// TestDistributedSharedObject explores programs whose objects made
// outside the test body the processes cannot name alike: two of one name,
// and one unnamed (a WaitGroup), which its first toucher names in each
// process, by the path of the first execution there (refused from the
// second execution on). Each is refused with
// ErrSharedObject, naming the object.
func TestDistributedSharedObject(t *testing.T) {
	e := embedded(t)
	js := connect(t, e, "coordinator")
	a, b := weft.NewVar[int]("x"), weft.NewVar[int]("x")
	twice := func(w *weft.T) {
		w.Go(func() { a.Store(1) })
		b.Store(2)
	}
	var wg weft.WaitGroup
	unnamed := func(w *weft.T) {
		x := weft.NewVar[int]("x")
		wg.Add(2)
		for i := range 2 {
			w.Go(func() { x.Store(i); wg.Done() })
		}
		wg.Wait()
	}
	for _, tc := range []struct {
		name string
		body func(*weft.T)
		want string
	}{
		{"twice", twice, "var x and another object of that name were made outside the test body: a distributed exploration tells such objects apart by their names"},
		{"unnamed", unnamed, "waitgroup was made outside the test body (or kept from one execution to the next)"},
	} {
		bodies := func(Spec) (func(), error) { return explore.APIBody(tc.body), nil }
		_, _, err := Coordinate(context.Background(), js, Spec{Program: tc.name, KeepGoing: true}, Options{Bodies: bodies})
		if !errors.Is(err, explore.ErrSharedObject) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrSharedObject: %q", tc.name, err, tc.want)
		}
	}
}

// TestDistributedConcolic explores addall and jcute, which read inputs,
// with concolic-optimal (when Z3 is linked) on two workers, in units of
// one execution: the same traces, failures and final states as a local
// exploration; each worker's solver counts its own queries.
func TestDistributedConcolic(t *testing.T) {
	t.Parallel()
	if !slices.Contains(splitters(), "concolic-optimal") {
		t.Skip("concolic-optimal needs Z3 and cgo")
	}
	e := embedded(t)
	var sw switchForms
	sw.current.Store(newForms())
	startWorkers(t, e, 2, sw.observe)
	for _, p := range []struct {
		name                   string
		executions, assertions int
	}{
		{"addall", 12, 2},
		{"jcute", 4, 1},
	} {
		spec := Spec{Program: p.name, Strategy: "concolic-optimal", KeepGoing: true}
		want, wf := local(t, spec)
		f := newForms()
		sw.current.Store(f)
		got, st := coordinate(t, e, spec, f.observe, Options{Batch: 1})
		if d := differ(spec, want, wf, got, f); d != "" {
			t.Errorf("%s: %s", p.name, d)
		}
		if want.Executions != p.executions || got.FailureCounts[trace.Assertion] != p.assertions || st.Units == 0 || got.Solver.Queries < want.Solver.Queries {
			t.Errorf("%s: %d executions locally, %d assertions, %d units, %d solver queries (locally %d); want %d executions, %d assertions, some units, no fewer queries",
				p.name, want.Executions, got.FailureCounts[trace.Assertion], st.Units, got.Solver.Queries, want.Solver.Queries, p.executions, p.assertions)
		}
	}
}

// TestDistributedCon2 explores addall, jcute and unfold-fig9, which read
// inputs, with con2 (k = 2; when Z3 is linked) on two workers, in units
// of one scenario each, solved by the worker's solver: the exploration
// ends, with the failure kinds and the branch sides covered at each k of
// a local exploration, and the executions pinned.
func TestDistributedCon2(t *testing.T) {
	t.Parallel()
	if !slices.Contains(splitters(), "con2") {
		t.Skip("con2 needs Z3 and cgo")
	}
	e := embedded(t)
	startWorkers(t, e, 2, nil)
	for _, p := range []struct {
		name                   string
		executions, assertions int
	}{
		{"addall", 10, 2},
		{"jcute", 5, 1},
		{"unfold-fig9", 5, 1},
	} {
		spec := Spec{Program: p.name, Strategy: "con2", KeepGoing: true}
		want, _ := local(t, spec)
		got, st := coordinate(t, e, spec, nil, Options{Batch: 1})
		sides := func(r *weft.Result) string {
			var b strings.Builder
			for _, c := range r.Counters {
				if strings.HasPrefix(c.Name, "sides") {
					fmt.Fprintf(&b, "%s %d; ", c.Name, c.Value)
				}
			}
			return b.String()
		}
		if k, wk := slices.Sorted(maps.Keys(got.FailureCounts)), slices.Sorted(maps.Keys(want.FailureCounts)); !got.Exhausted || !slices.Equal(k, wk) {
			t.Errorf("%s: exhausted %v, failure kinds %v; want exhausted, %v", p.name, got.Exhausted, k, wk)
		}
		if g, w := sides(got), sides(want); g != w || w == "" {
			t.Errorf("%s: %s want %s", p.name, g, w)
		}
		if want.Executions != p.executions || want.FailureCounts[trace.Assertion] != p.assertions || st.Units == 0 {
			t.Errorf("%s: %d executions locally, %d assertions, %d units; want %d executions, %d assertions, some units",
				p.name, want.Executions, want.FailureCounts[trace.Assertion], st.Units, p.executions, p.assertions)
		}
		t.Logf("%s: %d executions (locally %d), %d units, %s", p.name, got.Executions, want.Executions, st.Units, sides(got))
	}
}

// blockedTimeOnly reports whether the strategy named name models only
// time that moves when every thread is blocked (strategy.BlockedTimeOnly).
func blockedTimeOnly(t *testing.T, name string) bool {
	t.Helper()
	b, err := registry.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	_, ok := strategy.As[strategy.BlockedTimeOnly](b(registry.Params{}))
	return ok
}
