// The differential test of con2 against brute force on random programs
// that use every primitive besides variables and mutexes: channels
// (buffered and unbuffered, close, Len), select with and without a
// default, reader/writer mutexes, try-locks, Once, WaitGroup, Cond,
// semaphores and monitors.

package con2_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/long"
)

// syncKind is a statement of another primitive.
type syncKind int

const (
	skSend       syncKind = iota // chans[ch] <- c
	skRecv                       // v, ok := <-chans[ch]; l += v (+10 if !ok)
	skClose                      // close(chans[ch])
	skLen                        // l += len(chans[ch])
	skSelect                     // select over cases (and default): l += case+1 (+ the value received)
	skTMLock                     // tm.Lock(); then; tm.Unlock()
	skTryLock                    // if tm.TryLock() { then; tm.Unlock() } else { l += 5 }
	skRLock                      // rw.RLock(); then; rw.RUnlock()
	skWLock                      // rw.Lock(); then; rw.Unlock()
	skTryRW                      // if rw.TryLock() { then; rw.Unlock() } else { l += 5 }
	skTryRRW                     // if rw.TryRLock() { then; rw.RUnlock() } else { l += 5 }
	skOnce                       // once.Do(func() { l += 3 })
	skDone                       // wg.Done()
	skWait                       // wg.Wait()
	skCondWait                   // cm.Lock(); for flag == 0 { cond.Wait() }; cm.Unlock()
	skCondSignal                 // cm.Lock(); flag = 1; cond.Signal() (Broadcast if c == 1); cm.Unlock()
	skSem                        // sem.P(); then; sem.V()
	skBinSem                     // bsem.P(); then; bsem.V()
	skMon                        // mon.Enter(); then; mon.Exit()
	skMonWait                    // mon.Enter(); for mflag == 0 { mon.Cond(0).Wait() }; mon.Exit()
	skMonSignal                  // mon.Enter(); mflag = 1; mon.Cond(0).Signal(); mon.Exit()
	// Busy waits and time (TestDifferentialBusy).
	skAwait   // w.Await(aflag != 0) (c == 1) or w.Await(v != 0)
	skYield   // for aflag == 0 { w.Yield() } (c == 1) or for v == 0 { w.Yield() }
	skSetFlag // aflag = 1
	skSleep   // w.Sleep(c s)
	skNow     // if w.Now() >= c s { l += 1 }
	skAfter   // select { recv chans[ch]; recv w.After(c s) }: l += case+1 (+ the value received)
	skStop    // t := weft.NewTimer(c s); if t.Stop() { l += 1 }
)

var syncNames = [...]string{"send", "recv", "close", "len", "select", "tm.lock", "tm.trylock", "rw.rlock", "rw.lock", "rw.trylock", "rw.tryrlock",
	"once.do", "wg.done", "wg.wait", "cond.wait", "cond.signal", "sem", "bsem", "mon", "mon.wait", "mon.signal",
	"await", "yield", "aflag = 1", "sleep", "now", "after", "timer.stop"}

// selCase is a case of a select: a send of 1 or a receive on channel ch.
type selCase struct {
	send bool
	ch   int
}

// families are the primitives of the generator, one per program: each
// draws the statements of its primitive.
var families = []struct {
	name  string
	kinds []syncKind
	chans bool
	// busy: a family of TestDifferentialBusy, not of TestDifferentialSync;
	// anyStep: its programs run with time at any step.
	busy, anyStep bool
}{
	{"channel", []syncKind{skSend, skSend, skRecv, skRecv, skClose, skLen}, true, false, false},
	{"select", []syncKind{skSelect, skSelect, skSend, skRecv}, true, false, false},
	{"select+default", []syncKind{skSelect, skSelect, skSend, skRecv}, true, false, false},
	{"rwmutex", []syncKind{skRLock, skRLock, skWLock}, false, false, false},
	{"trylock", []syncKind{skTryLock, skTMLock, skTryRW, skTryRRW, skRLock}, false, false, false},
	{"once", []syncKind{skOnce}, false, false, false},
	{"waitgroup", []syncKind{skDone, skWait}, false, false, false},
	{"cond", []syncKind{skCondWait, skCondSignal}, false, false, false},
	{"semaphore", []syncKind{skSem, skBinSem}, false, false, false},
	{"monitor", []syncKind{skMon, skMonWait, skMonSignal}, false, false, false},
	{"await", []syncKind{skAwait, skAwait, skSetFlag}, false, true, false},
	{"yield", []syncKind{skYield, skYield, skSetFlag}, false, true, false},
	{"time", []syncKind{skSleep, skSleep, skNow, skAfter, skStop, skSend}, true, true, true},
}

// genSyncProgram draws a program of family fam: 2 or 3 threads of 2 or 3
// statements, reads followed by branches on the value read, writes, and
// statements of the family's primitive, whose outcomes flow into the
// thread's local value l.
func genSyncProgram(r *rand.Rand, fam int) *symProgram {
	fm := families[fam]
	p := &symProgram{vars: 1 + r.IntN(2), busy: fm.busy}
	if fm.anyStep {
		p.opts = []weft.Option{weft.WithTime(weft.TimeAnyStep)}
	}
	if fm.chans {
		for range 1 + r.IntN(2) {
			p.caps = append(p.caps, r.IntN(3))
		}
	}
	label := 0
	branch := func() symOp {
		label++
		return symOp{kind: opBranch, cmp: []int{0, 1, 3, 4, 4}[r.IntN(5)], in: r.IntN(2), c: int64(r.IntN(5) - 2), label: fmt.Sprint("b", label), fail: r.IntN(4) == 0}
	}
	simple := func() []symOp {
		switch r.IntN(3) {
		case 0:
			return []symOp{{kind: opRead, v: r.IntN(p.vars)}, branch()}
		case 1:
			return []symOp{{kind: opWrite, v: r.IntN(p.vars), src: r.IntN(4), in: r.IntN(2), c: int64(r.IntN(5) - 2)}}
		}
		return []symOp{branch()}
	}
	syncStmt := func() symOp {
		o := symOp{kind: opSync, sk: fm.kinds[r.IntN(len(fm.kinds))], c: int64(1 + r.IntN(2))}
		if len(p.caps) > 0 {
			o.ch = r.IntN(len(p.caps))
		}
		switch o.sk {
		case skSelect:
			for range 1 + r.IntN(2) {
				o.cases = append(o.cases, selCase{send: r.IntN(2) == 0, ch: r.IntN(len(p.caps))})
			}
			o.def = fm.name == "select+default"
		case skTMLock, skTryLock, skRLock, skWLock, skTryRW, skTryRRW, skSem, skBinSem, skMon:
			o.then = simple()
		case skDone:
			p.dones++
		case skAwait, skYield, skSetFlag:
			o.v = r.IntN(p.vars)
		case skSleep, skNow, skAfter, skStop:
			o.c = int64(1 + r.IntN(3))
		}
		return o
	}
	for range 2 + r.IntN(2) {
		var th []symOp
		for range 2 + r.IntN(2) {
			if r.IntN(5) < 2 {
				th = append(th, syncStmt())
			} else {
				th = append(th, simple()...)
			}
		}
		if r.IntN(2) == 0 {
			th = append(th, symOp{kind: opRead, v: r.IntN(p.vars)}, branch())
		}
		p.threads = append(p.threads, th)
	}
	return p
}

// syncString writes a statement of another primitive to b.
func (o symOp) syncString(b *strings.Builder, ind string, show func([]symOp, string)) {
	s := syncNames[o.sk]
	switch o.sk {
	case skSend, skRecv, skClose, skLen:
		s = fmt.Sprintf("%s c%d", s, o.ch)
		if o.sk == skSend {
			s += fmt.Sprintf(" %d", o.c)
		}
	case skSelect:
		var cs []string
		for _, c := range o.cases {
			cs = append(cs, map[bool]string{true: "send", false: "recv"}[c.send]+fmt.Sprintf(" c%d", c.ch))
		}
		if o.def {
			cs = append(cs, "default")
		}
		s = "select { " + strings.Join(cs, "; ") + " }"
	case skCondSignal:
		if o.c == 1 {
			s = "cond.broadcast"
		}
	case skAwait, skYield:
		if o.c != 1 {
			s = fmt.Sprintf("%s v%d", s, o.v)
		}
	case skSleep, skNow, skStop:
		s = fmt.Sprintf("%s %ds", s, o.c)
	case skAfter:
		s = fmt.Sprintf("select { recv c%d; after %ds }", o.ch, o.c)
	}
	fmt.Fprintf(b, "%s%s\n", ind, s)
	if len(o.then) > 0 {
		show(o.then, ind+"  ")
		fmt.Fprintf(b, "%send %s\n", ind, syncNames[o.sk])
	}
}

// syncObjs are the objects of a program's statements of other
// primitives, made by each execution.
type syncObjs struct {
	chans     []*weft.Chan[int]
	tm        weft.Mutex
	rw        weft.RWMutex
	once      weft.Once
	wg        weft.WaitGroup
	cm        weft.Mutex
	cond      *weft.Cond
	flag      *weft.Var[int]
	sem       *weft.Semaphore
	bsem      *weft.BinarySemaphore
	mon       *weft.Monitor
	monFlag   *weft.Var[int]
	aflag     *weft.Var[int]
	constants func(int64) weft.SInt
	// w and vars are the execution's test and the program's variables
	// (set by body).
	w    *weft.T
	vars []*weft.Var[weft.SInt]
}

// syncObjects makes the objects, once for all executions (as the
// variables): an object made in an execution and reached by two threads
// apart has two names until an execution shows them one, which con2
// does not join (its scenarios that mix them would not run as solved).
func (p *symProgram) syncObjects() *syncObjs {
	so := &syncObjs{constants: weft.Const[int64]}
	for _, c := range p.caps {
		so.chans = append(so.chans, weft.MakeChan[int](c))
	}
	so.cond = weft.NewCond(&so.cm)
	so.flag = weft.NewVar[int]("flag")
	so.sem = weft.NewSemaphore(1)
	so.bsem = weft.NewBinarySemaphore(1)
	so.mon = weft.NewMonitor(weft.SC)
	so.monFlag = weft.NewVar[int]("mflag")
	so.aflag = weft.NewVar[int]("aflag")
	so.tm.SetName("tm")
	so.rw.SetName("rw")
	so.once.SetName("once")
	so.wg.SetName("wg")
	so.cm.SetName("cm")
	return so
}

// reset starts an execution: the WaitGroup's count.
func (so *syncObjs) reset(p *symProgram) {
	if p.dones > 0 {
		so.wg.Add(p.dones)
	}
}

// run runs statement o on the thread's local value l; then runs o's body.
func (so *syncObjs) run(o symOp, l *weft.SInt, then func()) {
	kc := so.constants
	add := func(x int64) { *l = l.Add(kc(x)) }
	switch o.sk {
	case skSend:
		so.chans[o.ch].Send(int(o.c))
	case skRecv:
		v, ok := so.chans[o.ch].RecvOK()
		add(int64(v))
		if !ok {
			add(10)
		}
	case skClose:
		so.chans[o.ch].Close()
	case skLen:
		add(int64(so.chans[o.ch].Len()))
	case skSelect:
		got := 0
		var cs []weft.SelectCase
		for _, c := range o.cases {
			if c.send {
				cs = append(cs, weft.OnSend(so.chans[c.ch], 1, nil))
			} else {
				cs = append(cs, weft.OnRecv(so.chans[c.ch], func(v int, ok bool) {
					got = v
					if !ok {
						got = 10
					}
				}))
			}
		}
		if o.def {
			cs = append(cs, weft.OnDefault(nil))
		}
		i := weft.Select(cs...)
		if i >= len(o.cases) {
			i = -1
		}
		add(int64(i + 1 + got))
	case skTMLock:
		so.tm.Lock()
		then()
		so.tm.Unlock()
	case skTryLock:
		if so.tm.TryLock() {
			then()
			so.tm.Unlock()
		} else {
			add(5)
		}
	case skRLock:
		so.rw.RLock()
		then()
		so.rw.RUnlock()
	case skWLock:
		so.rw.Lock()
		then()
		so.rw.Unlock()
	case skTryRW:
		if so.rw.TryLock() {
			then()
			so.rw.Unlock()
		} else {
			add(5)
		}
	case skTryRRW:
		if so.rw.TryRLock() {
			then()
			so.rw.RUnlock()
		} else {
			add(5)
		}
	case skOnce:
		so.once.Do(func() { add(3) })
	case skDone:
		so.wg.Done()
	case skWait:
		so.wg.Wait()
	case skCondWait:
		so.cm.Lock()
		for so.flag.Load() == 0 {
			so.cond.Wait()
		}
		so.cm.Unlock()
	case skCondSignal:
		so.cm.Lock()
		so.flag.Store(1)
		if o.c == 1 {
			so.cond.Broadcast()
		} else {
			so.cond.Signal()
		}
		so.cm.Unlock()
	case skSem:
		so.sem.P()
		then()
		so.sem.V()
	case skBinSem:
		so.bsem.P()
		then()
		so.bsem.V()
	case skMon:
		so.mon.Enter()
		then()
		so.mon.Exit()
	case skMonWait:
		so.mon.Enter()
		for so.monFlag.Load() == 0 {
			so.mon.Cond(0).Wait()
		}
		so.mon.Exit()
	case skMonSignal:
		so.mon.Enter()
		so.monFlag.Store(1)
		so.mon.Cond(0).Signal()
		so.mon.Exit()
	case skAwait:
		if o.c == 1 {
			so.w.Await(func() bool { return so.aflag.Load() != 0 })
		} else {
			so.w.Await(func() bool { return so.vars[o.v].Load().Value() != 0 })
		}
	case skYield:
		if o.c == 1 {
			for so.aflag.Load() == 0 {
				so.w.Yield()
			}
		} else {
			for so.vars[o.v].Load().Value() == 0 {
				so.w.Yield()
			}
		}
	case skSetFlag:
		so.aflag.Store(1)
	case skSleep:
		so.w.Sleep(time.Duration(o.c) * time.Second)
	case skNow:
		if so.w.Now() >= time.Duration(o.c)*time.Second {
			add(1)
		}
	case skAfter:
		got := 0
		i := weft.Select(weft.OnRecv(so.chans[o.ch], func(v int, ok bool) { got = v }), weft.OnRecv(so.w.After(time.Duration(o.c)*time.Second), nil))
		add(int64(i + 1 + got))
	case skStop:
		if weft.NewTimer(time.Duration(o.c) * time.Second).Stop() {
			add(1)
		}
	}
}

// TestDifferentialSync: on random programs of each primitive's family,
// con2 with bound k covers exactly the branch sides brute force takes
// with at most k interferences (k = 0, 1, 2), and every scenario it
// realizes runs as solved. (Its executions may take sides with more: the
// receiver that completes a scenario with a rendezvous runs its local
// code after the receive, as every thread of a scenario does; those
// sides count for nothing.) The default run checks 2 programs per family
// (20); WEFT_LONG=1 checks 30 per family (300);
// CON2_SYNC_PROGRAMS=n checks n per family, CON2_SYNC_SEED=s only the
// programs of seed s.
func TestDifferentialSync(t *testing.T) {
	// per programs of each family, of at most refRuns executions of
	// brute force; the default run pins how many of its programs have
	// sides first reached at k = 0, 1, 2, by family.
	per, refRuns := 2, 1500
	want := map[string][3]int{"channel": {2, 1, 0}, "select": {1, 0, 0}, "select+default": {2, 0, 0}, "rwmutex": {2, 0, 1},
		"trylock": {2, 1, 0}, "once": {2, 1, 0}, "waitgroup": {2, 1, 0}, "cond": {1, 0, 0}, "semaphore": {2, 1, 0}, "monitor": {2, 0, 0}}
	if long.Enabled() {
		per, refRuns, want = 30, 6000, nil
	}
	if v, err := strconv.Atoi(os.Getenv("CON2_SYNC_PROGRAMS")); err == nil {
		per, refRuns, want = v, 6000, nil
	}
	total, skipped, disagree := 0, 0, 0
	var mu sync.Mutex // guards total, skipped and disagree
	t.Run("families", func(t *testing.T) {
		for fam := range families {
			if families[fam].busy {
				continue
			}
			t.Run(families[fam].name, func(t *testing.T) {
				t.Parallel()
				checked := 0
				var deeper [3]int
				for seed := uint64(0); checked < per && seed < uint64(4*per+40); seed++ {
					if only := os.Getenv("CON2_SYNC_SEED"); only != "" && only != fmt.Sprint(seed) {
						continue
					}
					p := genSyncProgram(rand.New(rand.NewPCG(seed, uint64(fam))), fam)
					ref, _, ok := explore(t, p.body, &bruteForce{inputs: symInputs}, refRuns)
					if !ok {
						mu.Lock()
						skipped++
						mu.Unlock()
						continue // too many schedules for brute force
					}
					checked++
					d, _ := checkBounds(t, p, seed, ref, (*recorder).upTo, &deeper)
					mu.Lock()
					disagree += d
					mu.Unlock()
				}
				mu.Lock()
				total += checked
				mu.Unlock()
				t.Logf("%d programs checked; with sides first reached at k = 0, 1, 2: %v", checked, deeper)
				if w, ok := want[families[fam].name]; ok && deeper != w {
					t.Errorf("programs with sides first reached at k = 0, 1, 2: %v, want %v", deeper, w)
				}
				if checked < per {
					t.Errorf("%d programs checked, want %d", checked, per)
				}
			})
		}
	})
	t.Logf("%d programs checked, %d too large for brute force, %d disagreements", total, skipped, disagree)
}

// TestDifferentialBusy: on random programs with busy waits (w.Await,
// loops of w.Yield) and with time that moves at any step (sleeps, reads
// of the clock, timeouts, timers stopped), con2 with bound k covers
// exactly the branch sides brute force takes with at most k
// interferences (k = 0, 1, 2). Its scenarios may diverge here: an
// await's condition is Go code, and a scenario in which it does not hold
// runs until the await blocks. The default run checks 3 programs per
// family (18); CON2_BUSY_PROGRAMS=n checks n per family, CON2_BUSY_SEED=s
// only the programs of seed s. CON2_BUSY_PROGRAMS=340 checked 1020
// programs (with sides first reached at k = 0, 1, 2 in 271, 70, 28 of
// the awaits', 273, 73, 22 of the yields', 275, 108, 41 of time's), with
// no disagreement.
func TestDifferentialBusy(t *testing.T) {
	per, refRuns := 6, 1500
	// The default run pins how many of its programs have sides first
	// reached at k = 0, 1, 2, by family.
	want := map[string][3]int{"await": {4, 1, 0}, "yield": {4, 0, 0}, "time": {4, 0, 0}}
	if v, err := strconv.Atoi(os.Getenv("CON2_BUSY_PROGRAMS")); err == nil {
		per, refRuns, want = v, 6000, nil
	}
	total, skipped, disagree, diverged := 0, 0, 0, 0
	var mu sync.Mutex // guards the counts
	t.Run("families", func(t *testing.T) {
		for fam := range families {
			if !families[fam].busy {
				continue
			}
			t.Run(families[fam].name, func(t *testing.T) {
				t.Parallel()
				checked := 0
				var deeper [3]int
				for seed := uint64(0); checked < per && seed < uint64(4*per+40); seed++ {
					if only := os.Getenv("CON2_BUSY_SEED"); only != "" && only != fmt.Sprint(seed) {
						continue
					}
					p := genSyncProgram(rand.New(rand.NewPCG(seed, uint64(fam))), fam)
					ref, _, ok := explore(t, p.body, &bruteForce{inputs: symInputs}, refRuns, p.opts...)
					if !ok {
						mu.Lock()
						skipped++
						mu.Unlock()
						continue // too many schedules for brute force
					}
					checked++
					d, dv := checkBounds(t, p, seed, ref, (*recorder).upTo, &deeper)
					mu.Lock()
					disagree += d
					diverged += dv
					mu.Unlock()
				}
				mu.Lock()
				total += checked
				mu.Unlock()
				t.Logf("%d programs checked; with sides first reached at k = 0, 1, 2: %v", checked, deeper)
				if w, ok := want[families[fam].name]; ok && deeper != w {
					t.Errorf("programs with sides first reached at k = 0, 1, 2: %v, want %v", deeper, w)
				}
				if checked < per {
					t.Errorf("%d programs checked, want %d", checked, per)
				}
			})
		}
	})
	t.Logf("%d programs checked, %d too large for brute force, %d disagreements, %d diverged", total, skipped, disagree, diverged)
}
