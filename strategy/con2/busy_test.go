// Tests of busy waits (w.Await, w.Yield) and of time that moves at any
// step under con2: small programs with exact counts, against brute force.

package con2_test

import (
	"slices"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/con2"
)

// flagged returns a program in which T1 writes input i0 to v and then
// sets a flag, T2 waits for the flag with wait and branches on v == 1
// (marks "one", "other"), and, if local, first branches on v == 1 before
// waiting (marks "early+", "early-"): the sides after the wait need T1's
// flag, and v's value with it.
func flagged(wait func(w *weft.T, flag *weft.Var[int]), early bool) func(m *marks) func(w *weft.T) {
	return func(m *marks) func(w *weft.T) {
		v, flag := weft.NewVar[weft.SInt]("v"), weft.NewVar[int]("flag")
		one := weft.Const[int64](1)
		side := func(th int, name string, taken bool) {
			m.mark(th, name+map[bool]string{true: "+", false: "-"}[taken])
		}
		return func(w *weft.T) {
			i0 := w.InputRange("i0", -2, 2)
			v.Store(weft.Const[int64](0))
			flag.Store(0)
			a := w.Go(func() {
				v.Store(i0)
				flag.Store(1)
			})
			b := w.Go(func() {
				if early {
					side(1, "early", w.If(v.Load().Eq(one)))
				}
				wait(w, flag)
				side(1, "late", w.If(v.Load().Eq(one)))
			})
			a.Join()
			b.Join()
		}
	}
}

// awaitFlag waits with w.Await; yieldFlag with a loop of w.Yield.
func awaitFlag(w *weft.T, flag *weft.Var[int]) { w.Await(func() bool { return flag.Load() != 0 }) }

func yieldFlag(w *weft.T, flag *weft.Var[int]) {
	for flag.Load() == 0 {
		w.Yield()
	}
}

// sleeper: T1 sleeps a second, then writes input i0 to v; T2 branches on
// v == 1 ("late"), and T3 reads the time and branches on v == 1 too
// after a sleep of two seconds ("slept"). With time at any step, T2's
// "late+" needs T1's wake-up to observe the clock's advance and T2 to
// read T1's write: two interferences.
func sleeper(m *marks) func(w *weft.T) {
	v := weft.NewVar[weft.SInt]("v")
	one := weft.Const[int64](1)
	side := func(th int, name string, taken bool) {
		m.mark(th, name+map[bool]string{true: "+", false: "-"}[taken])
	}
	return func(w *weft.T) {
		i0 := w.InputRange("i0", -2, 2)
		v.Store(weft.Const[int64](0))
		a := w.Go(func() {
			w.Sleep(time.Second)
			v.Store(i0)
		})
		b := w.Go(func() {
			side(1, "late", w.If(v.Load().Eq(one)))
		})
		c := w.Go(func() {
			w.Sleep(2 * time.Second)
			side(2, "slept", w.If(v.Load().Eq(one)))
		})
		a.Join()
		b.Join()
		c.Join()
	}
}

// exploreOpts is explore with more options.
func exploreOpts(t *testing.T, body func(*marks) func(*weft.T), s strategy.Strategy, maxRuns int, opts ...weft.Option) (*recorder, *weft.Result) {
	t.Helper()
	m := &marks{}
	rec := newRecorder(s, m)
	opts = append([]weft.Option{weft.WithCustomStrategy(rec), weft.KeepGoing(), weft.NoReplayFiles(), weft.WithMaxRuns(maxRuns)}, opts...)
	r, err := weft.Explore(body(m), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if rec.err != nil {
		t.Fatal(rec.err)
	}
	if !r.Exhausted {
		t.Fatalf("%d executions did not finish the exploration", r.Executions)
	}
	return rec, r
}

// TestBusyWaits: con2 takes busy waits (w.Await, a loop of w.Yield) and
// time at any step. For each k, the sides it covers are those brute force
// takes with at most k interferences, and it runs the executions pinned
// here; sides[k] is the number of sides brute force first takes at k. On
// the await, T2's sides after it need T1's flag and T1's v: k = 2; the
// early branch before it takes "-" alone and "+" with T1's v (k = 1). With
// time at any step, T3's sides need its wake-up to observe the clock's
// advance: one interference more than with T1's write alone.
func TestBusyWaits(t *testing.T) {
	anyStep := []weft.Option{weft.WithTime(weft.TimeAnyStep)}
	for _, c := range []struct {
		name  string
		body  func(*marks) func(*weft.T)
		opts  []weft.Option
		sides [3]int
		execs [3]int
		// part: con2 covers a part of brute force's sides only.
		part bool
	}{
		{"await", flagged(awaitFlag, false), nil, [3]int{0, 0, 2}, [3]int{4, 5, 7}, false},
		{"await-early", flagged(awaitFlag, true), nil, [3]int{1, 1, 2}, [3]int{3, 6, 10}, false},
		{"yield", flagged(yieldFlag, false), nil, [3]int{0, 0, 2}, [3]int{3, 4, 6}, false},
		{"sleep-any", sleeper, anyStep, [3]int{1, 1, 1}, [3]int{8, 17, 19}, false},
		// Time that moves when every thread is blocked: a scenario's
		// prefix does not arrange it, and the sides behind T3's sleep
		// stay uncovered (doc.go, "Limits").
		{"sleep-blocked", sleeper, nil, [3]int{1, 2, 0}, [3]int{6, 6, 6}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ref, _ := exploreOpts(t, c.body, &bruteForce{inputs: []inputRange{{"i0", -2, 2}}}, 20000, c.opts...)
			var sides, execs [3]int
			for k := 0; k <= 2; k++ {
				sides[k] = len(ref.upTo(k))
				if k > 0 {
					sides[k] -= len(ref.upTo(k - 1))
				}
				s := newCon2(t, con2.Options{K: k})
				got, r := exploreOpts(t, c.body, s, 1000, c.opts...)
				execs[k] = r.Executions
				want := ref.upTo(k)
				if c.part {
					for _, side := range got.upTo(k) {
						if !slices.Contains(want, side) {
							t.Errorf("k=%d: con2 covers %s, which brute force takes with more interferences", k, side)
						}
					}
				} else if !slices.Equal(got.upTo(k), want) {
					t.Errorf("k=%d: con2 covers %v, brute force %v (all %v)", k, got.upTo(k), want, ref.sides)
				}
			}
			if sides != c.sides || execs != c.execs {
				t.Errorf("sides first reached per k %v, executions per k %v; want %v, %v", sides, execs, c.sides, c.execs)
			}
		})
	}
}
