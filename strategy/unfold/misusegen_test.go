// A generator of small programs whose threads misuse Go's primitives in
// some interleavings (unbalanced unlocks and RUnlocks, Done without Add,
// sends on and closes of a closed channel, close of a nil channel), and
// the differential test of unfold against exhaustive search on them.

package unfold_test

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/unfold"
	"github.com/weft-go/weft/trace"
)

// mkind is an operation of a misuse program.
type mkind uint8

const (
	mStore    mkind = iota // x.Store(1)
	mLock                  // mu.Lock()
	mUnlock                // mu.Unlock()
	mRLock                 // rw.RLock()
	mRUnlock               // rw.RUnlock()
	mWLock                 // rw.Lock()
	mWUnlock               // rw.Unlock()
	mAdd                   // wg.Add(1)
	mDone                  // wg.Done()
	mSend                  // ch.Send(1)
	mRecv                  // ch.Recv()
	mClose                 // ch.Close()
	mCloseNil              // close of a nil channel
	numMKinds
)

var mkindNames = [...]string{"x.Store(1)", "mu.Lock()", "mu.Unlock()", "rw.RLock()", "rw.RUnlock()", "rw.Lock()", "rw.Unlock()",
	"wg.Add(1)", "wg.Done()", "ch.Send(1)", "ch.Recv()", "ch.Close()", "nilch.Close()"}

// mop is an operation, run only if x holds 1 when guarded.
type mop struct {
	kind    mkind
	guarded bool
}

func (o mop) String() string {
	if o.guarded {
		return "if x.Load() == 1 { " + mkindNames[o.kind] + " }"
	}
	return mkindNames[o.kind]
}

// misuseProgram is a program of misuseGen: the main thread starts the
// threads, runs its own operations and joins them.
type misuseProgram struct {
	seed    uint64
	cap     int // the channel's capacity
	wgAdd   int // the WaitGroup's counter before the threads start
	main    []mop
	threads [][]mop
}

// misuseGen returns the misuse program of seed: one to three threads of
// one to three operations each, and the main thread's zero or one.
func misuseGen(seed uint64) misuseProgram {
	r := rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))
	p := misuseProgram{seed: seed, cap: r.IntN(2), wgAdd: r.IntN(2)}
	ops := func() []mop {
		var out []mop
		for range 1 + r.IntN(3) {
			out = append(out, mop{kind: mkind(r.IntN(int(numMKinds))), guarded: r.IntN(3) == 0})
		}
		return out
	}
	for range 1 + r.IntN(3) {
		p.threads = append(p.threads, ops())
	}
	p.main = ops()[:r.IntN(2)]
	return p
}

func (p misuseProgram) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "misuse program %d: ch of capacity %d, wg.Add(%d)\n", p.seed, p.cap, p.wgAdd)
	for i, th := range p.threads {
		fmt.Fprintf(&b, "  T%d: %v\n", i+1, th)
	}
	fmt.Fprintf(&b, "  main: %v\n", p.main)
	return b.String()
}

// body returns p as a test body.
func (p misuseProgram) body() func(*weft.T) {
	// The objects outlive the executions, named, as genweft's: each has
	// one name in every execution, whichever thread touches it first.
	x := weft.NewVar[int]("x")
	mu := weft.NewMutex("mu")
	rw := &weft.RWMutex{}
	rw.SetName("rw")
	ch := weft.MakeChan[int](p.cap)
	ch.SetName("ch")
	var nilch *weft.Chan[int]
	return func(w *weft.T) {
		var wg weft.WaitGroup // named by its first toucher, main
		wg.Add(p.wgAdd)
		run := func(ops []mop) {
			for _, o := range ops {
				if o.guarded && x.Load() != 1 {
					continue
				}
				switch o.kind {
				case mStore:
					x.Store(1)
				case mLock:
					mu.Lock()
				case mUnlock:
					mu.Unlock()
				case mRLock:
					rw.RLock()
				case mRUnlock:
					rw.RUnlock()
				case mWLock:
					rw.Lock()
				case mWUnlock:
					rw.Unlock()
				case mAdd:
					wg.Add(1)
				case mDone:
					wg.Done()
				case mSend:
					ch.Send(1)
				case mRecv:
					ch.Recv()
				case mClose:
					ch.Close()
				case mCloseNil:
					nilch.Close()
				}
			}
		}
		var ths []*weft.Thread
		for _, th := range p.threads {
			ths = append(ths, w.Go(func() { run(th) }))
		}
		run(p.main)
		for _, t := range ths {
			t.Join()
		}
	}
}

// misuseKinds are the failures of misuses.
var misuseKinds = []trace.FailureKind{trace.UnlockOfUnlocked, trace.NegativeWaitGroup, trace.SendOnClosed, trace.CloseOfClosed, trace.CloseOfNil}

// TestGeneratedMisuses compares unfold with exhaustive search on generated
// misuse programs: the same failure kinds, and the unfolding and the
// deadlocks of againstExhaustive. WEFT_UNFOLD_MISUSES sets the number of
// programs (60 by default, 300 with WEFT_LONG=1), WEFT_UNFOLD_MISUSES_FROM the
// first seed (0).
func TestGeneratedMisuses(t *testing.T) {
	programs := 300
	if !long.Enabled() {
		programs = 60
	}
	if v := os.Getenv("WEFT_UNFOLD_MISUSES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("WEFT_UNFOLD_MISUSES=%q: %v", v, err)
		}
		programs = n
	}
	first := uint64(0)
	if v := os.Getenv("WEFT_UNFOLD_MISUSES_FROM"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("WEFT_UNFOLD_MISUSES_FROM=%q: %v", v, err)
		}
		first = n
	}
	checked, failing, runlocks := 0, map[trace.FailureKind]int{}, 0
	for seed := first; checked < programs && seed < first+uint64(100*programs); seed++ {
		p := misuseGen(seed)
		b := p.body()
		ex, err := weft.Explore(b, weft.WithStrategy("exhaustive"), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(3000))
		if err != nil {
			t.Fatal(err)
		}
		if !ex.Exhausted {
			continue
		}
		if _, _, ok := againstExhaustive(t, fmt.Sprintf("seed %d\n%v", seed, p), b, unfold.Options{}, unfold.Options{Seed: int64(seed) + 1}, unfold.Options{Naive: true}); !ok {
			continue
		}
		checked++
		want := endsOf(t, b, exhaustive.New())
		s := unfold.New(unfold.Options{})
		got := endsOf(t, b, s)
		if !maps.Equal(got, want) || s.Err() != nil || s.Diverged() != nil {
			t.Errorf("%vexhaustive's failures %v,\nunfold's %v (%v, %v)", p, sorted(want), sorted(got), s.Err(), s.Diverged())
		}
		for _, k := range misuseKinds {
			if ex.FailureCounts[k] > 0 {
				failing[k]++
			}
		}
		for f := range want {
			if strings.Contains(f.message, "RUnlock") {
				runlocks++
				break
			}
		}
	}
	t.Logf("%d programs; with a misuse, by kind: %v; %d with an RUnlock that fails", checked, failing, runlocks)
	if checked < programs {
		t.Errorf("checked %d programs, want %d", checked, programs)
	}
	for _, k := range misuseKinds {
		if failing[k] == 0 {
			t.Errorf("no program has a failure of kind %v", k)
		}
	}
	if runlocks == 0 {
		t.Errorf("no program has an RUnlock that fails")
	}
}

// failure is a failure as TestGeneratedMisuses compares them: a misuse
// with its thread and message, any other failure by its kind alone.
type failure struct {
	kind    trace.FailureKind
	thread  trace.ThreadID
	message string
}

func (f failure) String() string { return fmt.Sprintf("%v by %v: %q", f.kind, f.thread, f.message) }

// sorted returns the failures of fs in order.
func sorted(fs map[failure]bool) []failure {
	return slices.SortedFunc(maps.Keys(fs), func(f, g failure) int {
		return cmp.Or(cmp.Compare(f.kind, g.kind), cmp.Compare(f.thread, g.thread), strings.Compare(f.message, g.message))
	})
}

// ending records the failures of the executions of the strategy it wraps.
type ending struct {
	strategy.Strategy
	failures map[failure]bool
}

func (e *ending) Unwrap() strategy.Strategy { return e.Strategy }

func (e *ending) Finish(tr *trace.Trace, end trace.End) {
	e.Strategy.Finish(tr, end)
	if end.Status != trace.Failed {
		return
	}
	f := failure{kind: end.Kind, thread: trace.NoThread}
	if slices.Contains(misuseKinds, end.Kind) {
		f.thread, f.message = end.Thread, end.Message
	}
	e.failures[f] = true
}

// endsOf returns the failures of the exploration of body by s, which it
// checks to be exhausted.
func endsOf(t *testing.T, body func(*weft.T), s strategy.Strategy) map[failure]bool {
	t.Helper()
	e := &ending{Strategy: s, failures: map[failure]bool{}}
	r, err := weft.Explore(body, weft.WithCustomStrategy(e), weft.KeepGoing(), weft.NoReplayFiles())
	if err != nil || !r.Exhausted {
		t.Fatalf("%v (exhausted %v)", err, r.Exhausted)
	}
	return e.failures
}
