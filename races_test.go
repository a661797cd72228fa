// This file tests race checking (WithRaces): programs whose accesses each
// synchronisation orders, and programs with a race, under every strategy
// that covers every trace.

package weft_test

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/internal/races"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
)

// raceCase is a program and the race it has: the message of the first
// one optimal finds, without the step numbers, or "" for none.
type raceCase struct {
	name string
	body func(w *weft.T)
	race string
}

var raceCases = []raceCase{
	{"unsynchronised", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		th := w.Go(func() { x.Store(1) }) // @m01
		_ = x.Load()                      // @m02
		th.Join()
	}, "data race on x: T1's write (store) at races_test.go:@m01 and T0's read (load) at races_test.go:@m02, which no synchronisation orders"},
	{"mutex", func(w *weft.T) {
		x, mu := weft.NewVar[int]("x"), weft.NewMutex("mu")
		th := w.Go(func() { mu.Lock(); x.Store(x.Load() + 1); mu.Unlock() })
		mu.Lock()
		x.Store(x.Load() + 1)
		mu.Unlock()
		th.Join()
		w.Assert(x.Load() == 2, "lost update")
	}, ""},
	{"one side locked", func(w *weft.T) {
		x, mu := weft.NewVar[int]("x"), weft.NewMutex("mu")
		th := w.Go(func() { mu.Lock(); x.Store(1); mu.Unlock() }) // @m03
		x.Store(2)                                                // @m04
		th.Join()
	}, "data race on x: T1's write (store) at races_test.go:@m03 and T0's write (store) at races_test.go:@m04, which no synchronisation orders"},
	{"rwmutex", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		var rw weft.RWMutex
		r1 := w.Go(func() { rw.RLock(); _ = x.Load(); rw.RUnlock() })
		r2 := w.Go(func() { rw.RLock(); _ = x.Load(); rw.RUnlock() })
		rw.Lock()
		x.Store(1)
		rw.Unlock()
		r1.Join()
		r2.Join()
	}, ""},
	{"write under read lock", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		var rw weft.RWMutex
		th := w.Go(func() { rw.RLock(); x.Store(1); rw.RUnlock() }) // @m05
		rw.RLock()
		_ = x.Load() // @m06
		rw.RUnlock()
		th.Join()
	}, "data race on x: T1's write (store) at races_test.go:@m05 and T0's read (load) at races_test.go:@m06, which no synchronisation orders"},
	{"unbuffered handoff", func(w *weft.T) {
		x, c := weft.NewVar[int]("x"), weft.MakeChan[int](0)
		w.Go(func() { x.Store(1); c.Send(0) })
		c.Recv()
		_ = x.Load()
	}, ""},
	{"rendezvous orders the sender too", func(w *weft.T) {
		x, c := weft.NewVar[int]("x"), weft.MakeChan[int](0)
		w.Go(func() { c.Send(0); x.Store(1) })
		_ = x.Load()
		c.Recv()
	}, ""},
	{"buffered handoff", func(w *weft.T) {
		x, c := weft.NewVar[int]("x"), weft.MakeChan[int](1)
		w.Go(func() { x.Store(1); c.Send(0) })
		c.Recv()
		_ = x.Load()
	}, ""},
	{"buffered send does not wait", func(w *weft.T) {
		x, c := weft.NewVar[int]("x"), weft.MakeChan[int](1)
		th := w.Go(func() { c.Send(0); x.Store(1) }) // @m07
		_ = x.Load()                                 // @m08
		c.Recv()
		th.Join()
	}, "data race on x: T1's write (store) at races_test.go:@m07 and T0's read (load) at races_test.go:@m08, which no synchronisation orders"},
	{"channel as a semaphore", func(w *weft.T) {
		x, sem := weft.NewVar[int]("x"), weft.MakeChan[int](1)
		inc := func() { sem.Send(0); x.Store(x.Load() + 1); sem.Recv() }
		th := w.Go(inc)
		inc()
		th.Join()
	}, ""},
	{"close", func(w *weft.T) {
		x, done := weft.NewVar[int]("x"), weft.MakeChan[int](0)
		w.Go(func() { x.Store(1); done.Close() })
		_, ok := done.RecvOK()
		w.Assert(!ok, "received a value")
		_ = x.Load()
	}, ""},
	{"select", func(w *weft.T) {
		x, a, b := weft.NewVar[int]("x"), weft.MakeChan[int](0), weft.MakeChan[int](1)
		w.Go(func() { x.Store(1); a.Send(0) }) // @m10
		w.Go(func() { x.Store(2); b.Send(0) }) // @m09
		for range 2 {
			weft.Select(weft.OnRecv(a, func(int, bool) {}), weft.OnRecv(b, func(int, bool) {}))
		}
		_ = x.Load()
	}, "data race on x: T2's write (store) at races_test.go:@m09 and T1's write (store) at races_test.go:@m10, which no synchronisation orders"},
	{"waitgroup", func(w *weft.T) {
		x, y := weft.NewVar[int]("x"), weft.NewVar[int]("y")
		var wg weft.WaitGroup
		wg.Go(func() { x.Store(1) })
		wg.Go(func() { y.Store(1) })
		wg.Wait()
		_, _ = x.Load(), y.Load()
	}, ""},
	{"waitgroup workers share", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		var wg weft.WaitGroup
		wg.Go(func() { x.Store(1) }) // @m12
		wg.Go(func() { x.Store(2) }) // @m11
		wg.Wait()
	}, "data race on x: T2's write (store) at races_test.go:@m11 and T1's write (store) at races_test.go:@m12, which no synchronisation orders"},
	{"once", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		var once weft.Once
		get := func() int { once.Do(func() { x.Store(42) }); return x.Load() }
		th := w.Go(func() { get() })
		get()
		th.Join()
	}, ""},
	{"spawn and join", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		x.Store(1)
		th := w.Go(func() { x.Store(x.Load() + 1) })
		th.Join()
		_ = x.Load()
	}, ""},
	{"write after spawn", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		th := w.Go(func() { _ = x.Load() }) // @m13
		x.Store(1)                          // @m14
		th.Join()
	}, "data race on x: T1's read (load) at races_test.go:@m13 and T0's write (store) at races_test.go:@m14, which no synchronisation orders"},
	{"atomic counter", func(w *weft.T) {
		var n weft.Int[int]
		th := w.Go(func() { n.Add(1) })
		n.AddOnly(1)
		_ = n.Load()
		th.Join()
	}, ""},
	{"plain read of a CAS", func(w *weft.T) {
		x := weft.NewVar[int]("x")
		th := w.Go(func() { x.CompareAndSwap(0, 1) }) // @m15
		_ = x.Load()                                  // @m16
		th.Join()
	}, "data race on x: T1's atomic write (cas) at races_test.go:@m15 and T0's read (load) at races_test.go:@m16, which no synchronisation orders"},
	{"atomic flag publishes", func(w *weft.T) {
		data, flag := weft.NewVar[int]("data"), weft.NewVar[bool]("flag")
		flag.SetAtomic()
		w.Go(func() { data.Store(42); flag.Store(true) })
		if flag.Load() {
			w.Assert(data.Load() == 42, "stale data")
		}
	}, ""},
	{"plain flag", func(w *weft.T) {
		data, flag := weft.NewVar[int]("data"), weft.NewVar[bool]("flag")
		w.Go(func() { data.Store(42); flag.Store(true) }) // @m17
		if flag.Load() {                                  // @m18
			_ = data.Load()
		}
	}, "data race on flag: T1's write (store) at races_test.go:@m17 and T0's read (load) at races_test.go:@m18, which no synchronisation orders"},
	{"semaphore", func(w *weft.T) {
		x, s := weft.NewVar[int]("x"), weft.NewSemaphore(1)
		inc := func() { s.P(); x.Store(x.Load() + 1); s.V() }
		th := w.Go(inc)
		inc()
		th.Join()
	}, ""},
	{"cond", func(w *weft.T) {
		x, ready := weft.NewVar[int]("x"), weft.NewVar[bool]("ready")
		var mu weft.Mutex
		c := weft.NewCond(&mu)
		w.Go(func() {
			mu.Lock()
			ready.Store(true)
			c.Signal()
			x.Store(1) // after the signal, still under the lock
			mu.Unlock()
		})
		mu.Lock()
		for !ready.Load() {
			c.Wait()
		}
		_ = x.Load()
		mu.Unlock()
	}, ""},
}

// stepNumbers matches the step numbers of a race message.
var stepNumbers = regexp.MustCompile(`, step \d+\)`)

// markedLines returns the line of each "// @name" marker of file, as
// "@name" -> "file:line", so that the messages above name lines that
// move with the file.
func markedLines(t *testing.T, file string) *strings.Replacer {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var pairs []string
	for i, line := range strings.Split(string(src), "\n") {
		if _, m, ok := strings.Cut(line, "// @"); ok {
			pairs = append(pairs, file+":@"+m, fmt.Sprintf("%s:%d", file, i+1))
		}
	}
	return strings.NewReplacer(pairs...)
}

// TestRaces checks each program under the strategies that cover every
// trace: the same race, or none, with both places named.
func TestRaces(t *testing.T) {
	lines := markedLines(t, "races_test.go")
	for _, c := range raceCases {
		c.race = lines.Replace(c.race)
		t.Run(c.name, func(t *testing.T) {
			for _, s := range []string{"optimal", "dpor+sleep", "exhaustive"} {
				r, err := weft.Explore(c.body, weft.WithStrategy(s), weft.WithRaces())
				if err != nil {
					t.Fatalf("%s: %v", s, err)
				}
				if !r.Exhausted && c.race == "" {
					t.Errorf("%s: not exhausted", s)
				}
				got := ""
				for _, f := range r.Failures {
					if f.Kind != trace.DataRace {
						t.Errorf("%s: %v: %s", s, f.Kind, f.Message)
						continue
					}
					got = stepNumbers.ReplaceAllString(f.Message, ")")
				}
				if s == "optimal" && got != c.race {
					t.Errorf("%s: race\n%q\nwant\n%q", s, got, c.race)
				}
				if (got == "") != (c.race == "") {
					t.Errorf("%s: race %q, want %q", s, got, c.race)
				}
			}
		})
	}
}

// raceRecorder records, for each execution its strategy finishes, whether
// it has a race, by the execution's Foata form.
type raceRecorder struct {
	strategy.Strategy
	det   races.Detector
	racy  map[string]bool
	mixed map[string]bool // forms whose executions disagree
	races int
}

// Unwrap implements strategy.Wrapper.
func (r *raceRecorder) Unwrap() strategy.Strategy { return r.Strategy }

// Finish implements strategy.Strategy.
func (r *raceRecorder) Finish(tr *trace.Trace, end trace.End) {
	if end.Status != trace.Cut {
		f := end.Kind.String() + ": " + trace.Foata(tr, trace.CR)
		_, racy := r.det.Find(tr)
		if was, ok := r.racy[f]; ok && was != racy {
			r.mixed[f] = true
		}
		r.racy[f] = racy
		if racy {
			r.races++
		}
	}
	r.Strategy.Finish(tr, end)
}

// racyForms explores body under the strategy called name and returns its
// recorder.
func racyForms(t *testing.T, body func(*weft.T), name string) *raceRecorder {
	t.Helper()
	rec := &raceRecorder{Strategy: weft.StrategyByName(name, 0), racy: map[string]bool{}, mixed: map[string]bool{}}
	r, err := weft.Explore(body, weft.WithCustomStrategy(rec), weft.KeepGoing(), weft.WithMaxRuns(maxRefRuns))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !r.Exhausted {
		return nil
	}
	return rec
}

// TestRacesDifferential checks, on generated programs, that whether an
// execution has a race depends only on its trace (every execution of one
// Foata form under exhaustive search agrees), and that optimal finds a
// race in exactly the traces where exhaustive search does. Loads and
// stores are plain (genweft.BodyPlain). It pins how many of the programs
// exhaustive search finishes and how many of those have a race, on 40
// programs (150 with WEFT_LONG=1).
func TestRacesDifferential(t *testing.T) {
	n, wantChecked, wantRacy := 150, 149, 89 // measured
	if !long.Enabled() {
		n, wantChecked, wantRacy = 40, 40, 19
	}
	racyPrograms, checked := 0, 0
	for seed := range uint64(n) {
		p := gen.New(seed)
		ref := racyForms(t, genweft.BodyPlain(p), "exhaustive")
		if ref == nil {
			continue // too large for exhaustive search
		}
		checked++
		if len(ref.mixed) > 0 {
			t.Errorf("seed %d: executions of one trace disagree on a race: %v\n%v", seed, slices.Collect(maps.Keys(ref.mixed)), p)
		}
		got := racyForms(t, genweft.BodyPlain(p), "optimal")
		if got == nil {
			t.Errorf("seed %d: optimal did not finish", seed)
			continue
		}
		want := map[string]bool{}
		for f, racy := range ref.racy {
			if racy {
				want[f] = true
			}
		}
		have := map[string]bool{}
		for f, racy := range got.racy {
			if racy {
				have[f] = true
			}
		}
		if d := diffSets(want, have); d != "" {
			t.Errorf("seed %d: optimal's racy traces differ from exhaustive's: %s\n%v", seed, d, p)
		}
		if got.races != len(want) {
			t.Errorf("seed %d: optimal found %d racy executions, want %d (one per racy trace)", seed, got.races, len(want))
		}
		if len(want) > 0 {
			racyPrograms++
		}
	}
	if checked != wantChecked || racyPrograms != wantRacy {
		t.Errorf("%d of %d programs checked have a race, want %d of %d", racyPrograms, checked, wantRacy, wantChecked)
	}
}
