// This file tests the built-in programs against exact interleaving counts.

package programs

import (
	"maps"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/trace"
)

// The exhaustive strategy counts interleavings of visible operations, the
// body's joins included, not Mazurkiewicz traces. Each count below is derived
// in its comment; the few marked "model" are counted by a separate
// brute-force search over program counters, lock holders and channel
// lengths (a model of the choice tree written apart from weft,
// model_test.go: TestModelCounts, which checks every dining, bbchan,
// parallelpi and singlelock row), and agree with the engine.
var exactTests = []struct {
	name     string
	set      map[string]int
	long     bool // skipped with -short
	execs    int
	failures map[trace.FailureKind]int
	finals   int   // distinct final states; 0: not checked
	events   int64 // steps over all executions; 0: not checked
}{
	// Two threads of two steps, no join: 4!/(2!2!) = 6; x ends 1 or 4, y
	// ends 2 or 3, but x = 1 forces y = 2: 3 final states (the 3 traces).
	{name: "xy", execs: 6, finals: 3, events: 6 * 4},
	// 4!/(2!2!) = 6; x ends 2 or 3.
	{name: "dporproblem", execs: 6, finals: 2, events: 6 * 4},
	// 2n threads of one step each, no join: (2n)!.
	{name: "pairs", set: map[string]int{"n": 1}, execs: 2, finals: 1, events: 2 * 2},
	{name: "pairs", set: map[string]int{"n": 2}, execs: 24, finals: 1, events: 24 * 4},
	{name: "pairs", set: map[string]int{"n": 3}, execs: 720, finals: 1, events: 720 * 6},
	// main: store i, store j (alone), then 2 loads; T1, T2: 3n steps each:
	// (6n+2)!/(2!(3n)!(3n)!) = 560 for n=1, 84084 for n=2.
	{name: "fib", set: map[string]int{"n": 1}, execs: 560, events: 560 * 10},
	{name: "fib", set: map[string]int{"n": 2}, long: true, execs: 84084, events: 84084 * 16},
	// One thread, then its join: a single interleaving of 16 + 1 steps.
	{name: "indexer", set: map[string]int{"n": 1}, execs: 1, finals: 1, events: 17},
	// One thread of 8 steps and a join.
	{name: "filesystem", set: map[string]int{"n": 1}, execs: 1, finals: 1, events: 9},
	// Two independent threads of a = b = 8 steps; join 1 must follow A's
	// last step and join 2 ends the execution: C(a+b+1, b) = C(17, 8).
	// Threads 0 and 1 use disjoint inodes (0, 1) and blocks (0, 2): one final state.
	{name: "filesystem", set: map[string]int{"n": 2}, execs: 24310, finals: 1},
	// n=2: the philosophers deadlock when both take their left fork first
	// (2 orders); P0 eating first leaves 9 interleavings (A4 first: the
	// join of P0 falls in one of 5 places among P1's chain; B1 first: 4),
	// P1 first 2: 2 + 9 + 2 = 13. Deadlocks: one per order in which all n
	// left forks are taken, n!. n=3: model.
	{name: "dining", set: map[string]int{"n": 2}, execs: 13, failures: map[trace.FailureKind]int{trace.Deadlock: 2}},
	{name: "dining", set: map[string]int{"n": 3}, execs: 1113, failures: map[trace.FailureKind]int{trace.Deadlock: 6}},
	{name: "dining", set: map[string]int{"n": 2, "meals": 2}, execs: 105, failures: map[trace.FailureKind]int{trace.Deadlock: 20}}, // model
	// fixed=1, n=2: both take fork 0 first, so each runs its 4 steps
	// alone: P0 first leaves the join of P0 5 places among P1's steps, P1
	// first 1: 6. n=3: model.
	{name: "dining", set: map[string]int{"n": 2, "fixed": 1}, execs: 6},
	{name: "dining", set: map[string]int{"n": 3, "fixed": 1}, execs: 1205},
	// One send, one receive, two joins: the join of the producer before or
	// after the receive: 2.
	{name: "bbchan", set: map[string]int{"producers": 1, "consumers": 1, "capacity": 1}, execs: 2, events: 2 * 4},
	// Unbuffered, 2 producers, 2 consumers: the first receive picks one of
	// 4 (consumer, producer) pairs; if it met producer 1, the join of
	// producer 1 goes before or after the second rendezvous: 2*2 + 2*1.
	{name: "bbchan", set: map[string]int{"producers": 2, "consumers": 2, "capacity": 0}, execs: 6},
	{name: "bbchan", set: map[string]int{"producers": 2, "consumers": 2, "capacity": 1}, execs: 24},   // model
	{name: "bbchan", set: map[string]int{"producers": 3, "consumers": 3, "capacity": 2}, execs: 3900}, // model
	// bbmonitor: regression counts measured with exhaustive (not derived by
	// hand); SC explores more than SU, whose signaller hands the monitor
	// straight to the signalled thread.
	{name: "bbmonitor", set: map[string]int{"producers": 1, "consumers": 1, "slots": 1, "su": 1}, execs: 5},
	{name: "bbmonitor", set: map[string]int{"producers": 1, "consumers": 1, "slots": 1, "su": 0}, execs: 8},
	{name: "bbmonitor", set: map[string]int{"producers": 2, "consumers": 2, "slots": 1, "su": 1}, execs: 628},
	{name: "bbmonitor", set: map[string]int{"producers": 2, "consumers": 2, "slots": 1, "su": 0}, execs: 2380},
	// bbjava, syncqueue: regression counts measured with exhaustive (not
	// derived by hand).
	{name: "bbjava", set: map[string]int{"producers": 1, "consumers": 1, "size": 1, "items": 2}, execs: 88, finals: 1},
	{name: "bbjava", set: map[string]int{"producers": 2, "consumers": 1, "size": 1}, execs: 2992, finals: 1},
	// The node that waits is the producer's or the consumer's: 2 final states.
	{name: "syncqueue", set: map[string]int{"producers": 1, "consumers": 1}, execs: 510, finals: 2},
	// Two threads whose 4 steps are one critical section: T1 first leaves
	// the join of T1 5 places among T2's steps, T2 first 1: 6.
	{name: "parallelpi", set: map[string]int{"threads": 2}, execs: 6, finals: 1, events: 6 * 11},
	{name: "parallelpi", set: map[string]int{"threads": 3}, execs: 66, finals: 1}, // model
	// Without the lock, load and store per thread: C(4,2) = 6 orders, the
	// join of T1 after T1's store (3, 2 or 1 places); the 4 orders with both
	// loads before both stores lose an update: 6 of the 10 fail.
	{name: "parallelpi", set: map[string]int{"threads": 2, "locked": 0}, execs: 10, failures: map[trace.FailureKind]int{trace.Assertion: 6}},
	// As parallelpi: one critical section per thread.
	{name: "singlelock", set: map[string]int{"threads": 2, "rounds": 1}, execs: 6, finals: 1},
	{name: "singlelock", set: map[string]int{"threads": 3, "rounds": 1}, execs: 66, finals: 1}, // model
	{name: "singlelock", set: map[string]int{"threads": 2, "rounds": 2}, execs: 22, finals: 1}, // model
	// A short thread besides: its section before, between or after T1's
	// two (3 lock orders), times the places of the body's joins: 7.
	{name: "singlelock", set: map[string]int{"threads": 1, "rounds": 2, "short": 1}, execs: 7, finals: 1}, // model
	// The store in one of the m+1 places among the m loads, no join: m+1
	// interleavings of m+1 steps; x ends 1.
	{name: "readloop", set: map[string]int{"m": 3}, execs: 4, finals: 1, events: 4 * 4},
	{name: "readloop", set: map[string]int{"m": 100}, execs: 101, finals: 1, events: 101 * 101},
}

func TestExhaustiveCounts(t *testing.T) {
	for _, tc := range exactTests {
		p := Lookup(tc.name)
		ps, err := p.Resolve(tc.set)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tc.name+"/"+strings.Join(p.Format(ps), ","), func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("long: run without -short")
			}
			r, err := weft.Explore(p.Body(ps), weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.WithMaxRuns(0))
			if err != nil {
				t.Fatal(err)
			}
			if !r.Exhausted || r.Executions != tc.execs {
				t.Errorf("executions = %d (exhausted %v), want %d, exhausted", r.Executions, r.Exhausted, tc.execs)
			}
			want := tc.failures
			if want == nil {
				want = map[trace.FailureKind]int{}
			}
			if !maps.Equal(r.FailureCounts, want) {
				t.Errorf("failures = %v, want %v", r.FailureCounts, want)
			}
			failed := 0
			for _, n := range want {
				failed += n
			}
			if r.Complete != tc.execs-failed || r.Cut != 0 {
				t.Errorf("complete = %d, cut = %d; want %d, 0", r.Complete, r.Cut, tc.execs-failed)
			}
			if tc.finals != 0 && r.FinalStates != tc.finals {
				t.Errorf("final states = %d, want %d", r.FinalStates, tc.finals)
			}
			if tc.events != 0 && r.Events != tc.events {
				t.Errorf("events = %d, want %d", r.Events, tc.events)
			}
		})
	}
}

// TestDefaultsBounded runs every program with its default parameters for
// at most 300 executions of the default strategy, exhaustive search, and
// checks the exact result. The counts are measured (exhaustive search is
// deterministic); those exhausted within the bound are the programs' whole
// interleaving counts, and parallelpi's 66 is exactTests' (threads=3). No
// program fails in these executions: dining deadlocks only later in the
// depth-first order.
func TestDefaultsBounded(t *testing.T) {
	tests := map[string]struct {
		execs     int
		exhausted bool
		finals    int
		events    int64
	}{
		"addall":      {82, true, 1, 1640},
		"art":         {2, true, 1, 10},
		"bbchan":      {300, false, 1, 3600},
		"bbjava":      {300, false, 1, 14211},
		"bbmonitor":   {300, false, 1, 8034},
		"bbselect":    {300, false, 1, 3900},
		"bbsem":       {300, false, 1, 9000},
		"bluetooth":   {300, false, 1, 7119},
		"dining":      {300, false, 1, 4500},
		"dporproblem": {6, true, 2, 24},
		"dme":         {300, false, 1, 18000},
		"dpmonitor":   {300, false, 1, 6294},
		"fib":         {300, false, 12, 4800},
		"filesystem":  {300, false, 1, 38700},
		"indexer":     {300, false, 1, 63900},
		"jcute":       {3, true, 2, 9}, // x ends 3 or 2 (a concolic value counts by its concrete value)
		"lincomb":     {6, true, 1, 72},
		"pairs":       {300, false, 1, 1800},
		"parallelpi":  {66, true, 1, 1056},
		"reach-fig1":  {300, false, 1, 3600},
		"readloop":    {5, true, 1, 25},
		"rwmonitor":   {300, false, 1, 10929},
		"rwselect":    {300, false, 1, 4800},
		"rwsem":       {300, false, 1, 8100},
		"singlelock":  {300, false, 1, 11400},
		"syncqueue":   {300, false, 1, 18300},
		"timeout":     {5, true, 1, 40},
		"unfold-fig1": {2, true, 1, 4},
		"unfold-fig9": {3, true, 1, 12},
		"xy":          {6, true, 3, 24},
	}
	for _, p := range All() {
		t.Run(p.Name, func(t *testing.T) {
			want, ok := tests[p.Name]
			if !ok {
				t.Fatalf("no expected result for %s: add it to the table", p.Name)
			}
			r, err := weft.Explore(p.MustBody(nil), weft.WithStrategy("exhaustive"), weft.WithMaxRuns(300))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range r.Failures {
				t.Errorf("unexpected failure:\n%s", f.Report(""))
			}
			if r.Strategy != "exhaustive" || r.Executions != want.execs || r.Complete != want.execs || r.Cut != 0 || r.Exhausted != want.exhausted ||
				r.FinalStates != want.finals || r.Events != want.events {
				t.Errorf("%s: %d executions (%d complete, %d cut, exhausted %v), %d final states, %d events; want exhaustive: %d executions, all complete, exhausted %v, %d final states, %d events",
					r.Strategy, r.Executions, r.Complete, r.Cut, r.Exhausted, r.FinalStates, r.Events, want.execs, want.exhausted, want.finals, want.events)
			}
		})
	}
}

// TestCheck runs programs as ordinary Go tests with weft.Check, and checks
// the Result it returns: exhaustive search explores
// every interleaving (the counts of exactTests) without failure.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		set    map[string]int
		execs  int   // as exactTests
		finals int   // fib: i, j end (2, 3), (3, 2) or (2, 2) (by hand); the others measured
		events int64 // fib: as exactTests; the others measured
	}{
		{"fib", map[string]int{"n": 1}, 560, 3, 560 * 10},
		{"dining", map[string]int{"n": 3, "fixed": 1}, 1205, 1, 18075},
		{"bbchan", map[string]int{"producers": 2, "consumers": 2, "capacity": 1}, 24, 1, 192},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := weft.Check(t, Lookup(tc.name).MustBody(tc.set), weft.WithStrategy("exhaustive"), weft.NoReplayFiles())
			if r == nil {
				t.Fatal("Check returned no result")
			}
			if r.Strategy != "exhaustive" || !r.Exhausted || r.Executions != tc.execs || r.Complete != tc.execs || r.Cut != 0 ||
				len(r.Failures) != 0 || len(r.FailureCounts) != 0 || r.FinalStates != tc.finals || r.Events != tc.events {
				t.Errorf("%s: %d executions (%d complete, %d cut, exhausted %v), failures %v, %d final states, %d events; want exhaustive: %d executions, all complete, exhausted, no failure, %d final states, %d events",
					r.Strategy, r.Executions, r.Complete, r.Cut, r.Exhausted, r.FailureCounts, r.FinalStates, r.Events, tc.execs, tc.finals, tc.events)
			}
			for _, e := range exactTests {
				if e.name == tc.name && maps.Equal(e.set, tc.set) && e.execs != tc.execs {
					t.Errorf("exactTests says %d executions, this table %d", e.execs, tc.execs)
				}
			}
		})
	}
}

func TestRegistry(t *testing.T) {
	want := []string{"addall", "art", "bbchan", "bbjava", "bbmonitor", "bbselect", "bbsem", "bluetooth", "dining", "dme", "dpmonitor", "dporproblem", "fib", "filesystem", "indexer", "jcute", "lincomb", "pairs", "parallelpi", "reach-fig1", "readloop", "rwmonitor", "rwselect", "rwsem", "singlelock", "syncqueue", "timeout", "unfold-fig1", "unfold-fig9", "xy"}
	if got := Names(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, p := range All() {
		if p.Doc == "" || p.Source == "" || p.Body == nil {
			t.Errorf("%s: missing Doc, Source or Body", p.Name)
		}
		for _, q := range p.Params {
			if q.Default < q.Min || q.Default > q.Max || q.Doc == "" {
				t.Errorf("%s: parameter %s: default %d outside [%d, %d] or no doc", p.Name, q.Name, q.Default, q.Min, q.Max)
			}
		}
	}
	if Lookup("nosuch") != nil {
		t.Error("Lookup(nosuch) != nil")
	}
}

func TestResolve(t *testing.T) {
	dining := Lookup("dining")
	tests := []struct {
		set     map[string]int
		want    string // Format of the result, or the error's text
		wantErr bool
	}{
		{nil, "n=3 meals=1 fixed=0", false},
		{map[string]int{"n": 5, "fixed": 1}, "n=5 meals=1 fixed=1", false},
		{map[string]int{"m": 1}, `program dining has no parameter "m" (its parameters: n, meals, fixed)`, true},
		{map[string]int{"n": 1}, "parameter n=1 of program dining is out of range [2, 32]", true},
	}
	for _, tc := range tests {
		ps, err := dining.Resolve(tc.set)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = strings.Join(dining.Format(ps), " ")
		}
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("Resolve(%v) = %q, %v; want %q", tc.set, got, err, tc.want)
		}
	}
	if _, err := Lookup("xy").Resolve(map[string]int{"n": 1}); err == nil || !strings.Contains(err.Error(), "it takes none") {
		t.Errorf("xy with n: err = %v", err)
	}
}

func TestParseAssignment(t *testing.T) {
	tests := []struct {
		in      string
		name    string
		value   int
		wantErr string
	}{
		{"n=5", "n", 5, ""},
		{"fixed=-1", "fixed", -1, ""},
		{"n", "", 0, `parameter "n": want name=value`},
		{"=3", "", 0, `parameter "=3": want name=value`},
		{"n=five", "", 0, `parameter "n=five": "five" is not an integer`},
	}
	for _, tc := range tests {
		name, value, err := ParseAssignment(tc.in)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if name != tc.name || value != tc.value || gotErr != tc.wantErr {
			t.Errorf("ParseAssignment(%q) = %q, %d, %q; want %q, %d, %q", tc.in, name, value, gotErr, tc.name, tc.value, tc.wantErr)
		}
	}
}

// TestTimeoutModes runs timeout, whose bug needs a timer that fires
// before a worker sends, with time that moves only when every thread is
// blocked (never found) and at any step (a leak), under the complete
// strategies; fixed=1 never leaks.
func TestTimeoutModes(t *testing.T) {
	for _, c := range []struct {
		mode                        weft.TimeMode
		strategy                    string
		fixed                       int
		execs, complete, cut, leaks int
	}{
		{weft.TimeWhenBlocked, "exhaustive", 0, 5, 5, 0, 0},
		{weft.TimeWhenBlocked, "dpor+sleep", 0, 3, 2, 1, 0},
		{weft.TimeWhenBlocked, "optimal", 0, 5, 1, 4, 0},
		{weft.TimeAnyStep, "exhaustive", 0, 729, 355, 0, 374},
		{weft.TimeAnyStep, "dpor+sleep", 0, 34, 8, 5, 21},
		{weft.TimeAnyStep, "optimal", 0, 20, 6, 0, 14},
		{weft.TimeAnyStep, "optimal", 1, 20, 20, 0, 0},
	} {
		body := Lookup("timeout").MustBody(map[string]int{"fixed": c.fixed})
		r, err := weft.Explore(body, weft.WithStrategy(c.strategy), weft.WithTime(c.mode), weft.KeepGoing(), weft.WithMaxRuns(0))
		if err != nil {
			t.Fatal(err)
		}
		got := [4]int{r.Executions, r.Complete, r.Cut, r.FailureCounts[trace.Leak]}
		if want := [4]int{c.execs, c.complete, c.cut, c.leaks}; got != want || !r.Exhausted || len(r.FailureCounts) > min(c.leaks, 1) {
			t.Errorf("%v %s fixed=%d: executions, complete, cut, leaks %v, want %v; failures %v, exhausted %v", c.mode, c.strategy, c.fixed, got, want, r.FailureCounts, r.Exhausted)
		}
	}
}
