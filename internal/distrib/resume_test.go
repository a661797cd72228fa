// Tests of a run whose coordinator is killed (kill -9, a process of its
// own) and resumed by another, after the server itself restarted on its
// storage; and of -max-runs on a distributed run.

package distrib

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft/internal/explore"
)

// TestMain lets the test binary act as a coordinator that kills itself
// (SIGKILL) at a chosen point: coordinate URL RUN POINT UNIT MAIL runs
// fib3 as run RUN and dies at Options.Hook's POINT for UNIT (any unit if
// 0), writing letters to its units if MAIL is "mail".
func TestMain(m *testing.M) {
	if len(os.Args) == 7 && os.Args[1] == "coordinate" {
		os.Exit(killedCoordinator(os.Args[2], os.Args[3], os.Args[4], os.Args[5], os.Args[6] == "mail"))
	}
	os.Exit(m.Run())
}

// killedCoordinator runs fib3 on the server at url and kills its process
// at point for unit (any if 0); it returns 3 if it finishes instead.
func killedCoordinator(url, run, point, unit string, mail bool) int {
	id, err := strconv.ParseUint(unit, 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	nc, js, err := Connect(url, "killed coordinator")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer nc.Close()
	hook := func(p string, u uint64) {
		if p == point && (u == id || id == 0) {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, _, err = Coordinate(ctx, js, fib3, Options{Run: run, Batch: 2, Bodies: bodies, Hook: hook, noMail: !mail})
	fmt.Fprintln(os.Stderr, "the coordinator was not killed:", err)
	return 3
}

// startKilledCoordinator runs killedCoordinator in a process and waits
// for it to be killed; before it waits, it calls meanwhile.
func startKilledCoordinator(t *testing.T, url, run, point string, unit uint64, mail bool, meanwhile func()) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	letters := "nomail"
	if mail {
		letters = "mail"
	}
	cmd := exec.Command(self, "coordinate", url, run, point, fmt.Sprint(unit), letters)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	meanwhile()
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the coordinator process ended with %v, want killed by SIGKILL at %s of unit %d", err, point, unit)
	}
}

// exploreUnit takes the next unit from the queue, explores it as a worker
// would, showing its executions to f, and returns it and the message of
// its result, to publish; it acknowledges the unit, and waits for the
// server to have the acknowledgement (a test that stops the server next
// would otherwise find the unit on the queue at times: the coordinator's
// resume then counts it done, not queued).
func exploreUnit(t *testing.T, e *Embedded, f *forms) (*unitMsg, []byte) {
	t.Helper()
	js := connect(t, e, "test worker")
	m := takeUnit(t, js)
	u, err := decodeUnit(m.Subject(), m.Data())
	if err != nil {
		t.Fatal(err)
	}
	body, err := bodies(u.Spec)
	if err != nil {
		t.Fatal(err)
	}
	x, err := explore.NewPartExplorer(body, u.Spec.config(f.observe))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	out := explorePart(t, js, x, u)
	b, err := encode(&resultMsg{Magic: magic, Run: u.Run, ID: u.ID, Delivered: 1, Worker: "test", Outcome: out})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.DoubleAck(context.Background()); err != nil {
		t.Fatal(err)
	}
	return u, b
}

// queuedUnits returns how many units of run are on the queue of e.
func queuedUnits(t *testing.T, e *Embedded, run string) int {
	t.Helper()
	js := connect(t, e, "test")
	s, err := js.Stream(context.Background(), UnitsStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(context.Background(), jetstream.WithSubjectFilter(UnitsSubject(run)))
	if err != nil {
		t.Fatal(err)
	}
	return int(info.State.Subjects[UnitsSubject(run)])
}

// explorePart explores unit u to the end with x, as a worker would, but
// without splitting, reading the letters its splitter writes to it
// whenever it waits for one, and returns its outcome.
func explorePart(t testing.TB, js jetstream.JetStream, x *explore.PartExplorer, u *unitMsg) []byte {
	t.Helper()
	p, err := x.Start(u.Part)
	if err != nil {
		t.Fatal(err)
	}
	var letters jetstream.Consumer
	for {
		over, err := p.Explore(32)
		if err != nil {
			t.Fatal(err)
		}
		if !p.AwaitsMail() {
			if over {
				break
			}
			continue
		}
		if letters == nil {
			letters, err = js.OrderedConsumer(context.Background(), LettersStream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{u.letters()}})
			if err != nil {
				t.Fatal(err)
			}
		}
		m, err := letters.Next(jetstream.FetchMaxWait(time.Minute))
		if err != nil {
			t.Fatalf("unit %d waits for a letter: %v", u.ID, err)
		}
		l, err := decodeLetter(u.Run, m.Subject(), m.Data())
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Receive(l.Data); err != nil {
			t.Fatal(err)
		}
	}
	out, err := p.Outcome()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCoordinatorKilled kills the coordinator of a run of fib n=3 (1698
// traces under optimal), a process of its own, with SIGKILL at a point
// its hook chooses, restarts the server on its storage, and resumes the
// run in this process with two workers: the result is the local one
// (the same complete traces, failure kinds and final states, and as many
// distinct complete traces as optimal's executions locally), and the
// statistics of the resume are exact:
//
//   - between units: killed once it took in the result of unit 1 (which
//     this test explored, as a worker; it explored unit 2 too, and
//     publishes that result once the coordinator is dead): the resume
//     replays 1 join, finds unit 2 done, the units on the queue queued
//     (as many as the coordinator kept waiting: counted on the stream
//     before) and publishes no unit again;
//   - between journaling and publishing: killed when about to publish
//     unit 3 of the first 4 (none taken): the resume finds units 1 and
//     2 on the queue and publishes units 3 and 4 again.
//
// The coordinators write no letters to their units, which this test
// explores one after the other (TestCoordinatorKilledLetters kills one
// that does). No unit is redelivered, no result is dropped or rejected. The second
// case first resumes with another spec (fib n=2), refused with
// ErrSpecMismatch, and a run that is not there, refused with ErrNoRun.
func TestCoordinatorKilled(t *testing.T) {
	for _, tc := range []struct {
		name                            string
		point                           string
		unit                            uint64
		replayed, queued, done, republd int
	}{
		{"between units", "handled", 1, 1, -1, 1, 0},
		{"between journal and publish", "publishing", 3, 0, 2, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			e, err := StartEmbedded(dir)
			if err != nil {
				t.Fatal(err)
			}
			f := newForms()
			var unit2 []byte
			startKilledCoordinator(t, e.URL(), "killed", tc.point, tc.unit, false, func() {
				if tc.point != "handled" {
					return
				}
				js := connect(t, e, "test")
				for want := range uint64(2) {
					u, b := exploreUnit(t, e, f)
					if u.ID != want+1 {
						t.Fatalf("took unit %d, want %d", u.ID, want+1)
					}
					if u.ID == 1 {
						if _, err := js.Publish(context.Background(), ResultsSubject("killed"), b); err != nil {
							t.Fatal(err)
						}
					} else {
						unit2 = b
					}
				}
			})
			if unit2 != nil {
				js := connect(t, e, "test")
				if _, err := js.Publish(context.Background(), ResultsSubject("killed"), unit2); err != nil {
					t.Fatal(err)
				}
			}
			e.Close() // the server stops too, and starts again on its files
			e, err = StartEmbedded(dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(e.Close)
			queued := queuedUnits(t, e, "killed")
			if tc.queued >= 0 && queued != tc.queued {
				t.Fatalf("%d units of the run on the queue, want %d", queued, tc.queued)
			}
			tc.queued = queued
			if tc.point == "publishing" {
				js := connect(t, e, "refused")
				other := fib3
				other.Params = map[string]int{"n": 2}
				_, _, err := Coordinate(context.Background(), js, other, Options{Run: "killed", Resume: true, Bodies: bodies})
				if want := "the run explores another program or options: run killed explores fib -p n=3 -strategy optimal -seed 0 -keep-going, not fib -p n=2 -strategy optimal -seed 0 -keep-going"; !errors.Is(err, ErrSpecMismatch) || !strings.Contains(err.Error(), want) {
					t.Errorf("resuming with fib n=2: %v, want ErrSpecMismatch: %q", err, want)
				}
				_, _, err = Coordinate(context.Background(), js, fib3, Options{Run: "nosuch", Resume: true, Bodies: bodies})
				if want := "run nosuch is not there (unfinished runs: killed)"; !errors.Is(err, ErrNoRun) || !strings.Contains(err.Error(), want) {
					t.Errorf("resuming run nosuch: %v, want ErrNoRun: %q", err, want)
				}
			}
			resumed := make(chan struct{})
			hook := func(point string, _ uint64) {
				if point == "resumed" {
					close(resumed)
				}
			}
			wait := coordinateAsync(t, e, fib3, f, Options{Run: "killed", Resume: true, Batch: 2, Hook: hook, noMail: true})
			<-resumed // the units found on the queue stay there until then
			startWorkers(t, e, 2, f.observe)
			got, st := wait()
			want, wf := local(t, fib3)
			if d := differ(fib3, want, wf, got, f); d != "" {
				t.Error(d)
			}
			t.Logf("%+v", st)
			if st.Replayed != tc.replayed || st.Queued != tc.queued || st.Done != tc.done || st.Republished != tc.republd ||
				st.Redelivered != 0 || st.Duplicates != 0 || st.Rejected != 0 || st.Joined != st.Units+st.Queued+st.Done {
				t.Errorf("%+v; want %d joins replayed, %d units queued, %d done, %d published again, none redelivered, duplicated or rejected, every unit joined",
					st, tc.replayed, tc.queued, tc.done, tc.republd)
			}
		})
	}
}

// TestCoordinatorKilledLetters kills the coordinator of a run of fib n=3,
// a process of its own that writes letters to its units, once it has
// joined its first result, while two workers explore its units (and wait
// for its letters), and resumes the run in this process as they go on:
// the resumed coordinator writes the letters again, which the workers
// read once each, and the run explores exactly the local executions, the
// same complete traces, none repeated.
func TestCoordinatorKilledLetters(t *testing.T) {
	e := embedded(t)
	f := newForms()
	workers := startWorkers(t, e, 2, f.observe)
	startKilledCoordinator(t, e.URL(), "letters", "handled", 0, true, func() {})
	got, st := coordinateAsync(t, e, fib3, f, Options{Run: "letters", Resume: true, Batch: 2})()
	want, wf := local(t, fib3)
	if d := differ(fib3, want, wf, got, f); d != "" {
		t.Error(d)
	}
	if got.Executions != want.Executions || got.Complete != want.Complete {
		t.Errorf("%d executions, %d complete; want exactly the local %d, %d", got.Executions, got.Complete, want.Executions, want.Complete)
	}
	if errs := workers.stop(); len(errs) > 0 {
		t.Fatal(errs)
	}
	read, again := 0, 0
	for _, ws := range workers.stats {
		read += ws.Letters
		again += ws.LettersAgain
	}
	if st.Replayed != 1 || read == 0 {
		t.Errorf("%d joins replayed, %d letters read; want 1 (the join it died at is journaled), and letters (a unit of the root reads at least its last one)", st.Replayed, read)
	}
	t.Logf("%+v; the workers read %d letters, and %d again", st, read, again)
}

// TestDistributedMaxRuns bounds runs of fib n=3 (1698 traces, more
// executions) with MaxRuns. Without workers and a bound below the root's
// first batch, the root alone explores exactly the bound and publishes
// no unit. With two workers and batches of one, the run stops at the
// bound or past it by the executions of the one unit whose result
// reached it, less one (Stats.Crossing), never more; either way its
// units left on the queue (those workers split off as it ended, by the
// workers) and its journal are removed.
func TestDistributedMaxRuns(t *testing.T) {
	e := embedded(t)
	f := newForms()
	got, st := coordinate(t, e, fib3, f.observe, Options{MaxRuns: 10, Batch: 32})
	if got.Executions != 10 || got.Exhausted || st.Units != 0 || st.Crossing != 0 {
		t.Errorf("alone: %d executions, exhausted %v, %+v; want 10, not exhausted, no unit", got.Executions, got.Exhausted, st)
	}
	startWorkers(t, e, 2, nil)
	const bound = 300
	got, st = coordinate(t, e, fib3, f.observe, Options{Run: "bounded", MaxRuns: bound, Batch: 1})
	t.Logf("%d executions, %+v", got.Executions, st)
	switch {
	case got.Exhausted:
		t.Errorf("with workers: exhausted, want stopped at %d executions", bound)
	case st.Crossing == 0 && got.Executions != bound:
		t.Errorf("with workers: %d executions, the root reached the bound (no crossing unit); want %d", got.Executions, bound)
	case st.Crossing > 0 && (got.Executions < bound || got.Executions > bound-1+st.Crossing):
		t.Errorf("with workers: %d executions, the crossing unit had %d; want %d to %d", got.Executions, st.Crossing, bound, bound-1+st.Crossing)
	}
	// A worker may split a unit off its own as the run ends: it removes
	// it once it finds its own unit gone (within checkEvery and a batch).
	n := queuedUnits(t, e, "bounded")
	for deadline := time.Now().Add(10 * time.Second); n != 0 && time.Now().Before(deadline); n = queuedUnits(t, e, "bounded") {
		time.Sleep(20 * time.Millisecond)
	}
	if n != 0 {
		t.Errorf("%d units of the run left on the queue 10s after it ended, want 0", n)
	}
	c := &coordinator{ctx: context.Background(), js: connect(t, e, "test")}
	if runs, err := c.runs(); err != nil || len(runs) != 0 {
		t.Errorf("unfinished runs %v (%v), want none", runs, err)
	}
}

// TestResumeAlive resumes a run whose coordinator is alive (it waits for
// workers): the resume is refused with ErrRunAlive, naming the live
// coordinator's process, and the run, once workers come, finishes with
// the local result.
func TestResumeAlive(t *testing.T) {
	e := embedded(t)
	f := newForms()
	started := make(chan struct{})
	var once sync.Once
	wait := coordinateAsync(t, e, fib3, f, Options{Run: "alive", Batch: 2, Hook: func(point string, _ uint64) {
		if point == "publishing" {
			once.Do(func() { close(started) })
		}
	}})
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, _, err := Coordinate(ctx, connect(t, e, "second coordinator"), fib3, Options{Run: "alive", Resume: true, Bodies: bodies})
	if !errors.Is(err, ErrRunAlive) || !strings.Contains(err.Error(), fmt.Sprintf("run alive is coordinated by process %d on ", os.Getpid())) {
		t.Errorf("resuming a live run: %v; want ErrRunAlive naming process %d", err, os.Getpid())
	}
	finishFib3(t, e, f, wait)
}
