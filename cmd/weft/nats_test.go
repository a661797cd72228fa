// This file tests distributed runs: weft run -nats embedded with worker
// processes, and a worker process killed (kill -9) mid-unit.

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/weft-go/weft/internal/distrib"
	"github.com/weft-go/weft/internal/long"
)

// TestMain lets the test binary act as weft's processes: as weft itself
// (worker ..., run ..., test ...), or as a worker that takes one unit and then
// hangs until killed (stall-worker URL).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "worker", "run":
			os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
		case "test":
			os.Exit(cmdTest(os.Args[2:], os.Stdout, os.Stderr))
		case "stall-worker":
			stallWorker(os.Args[2])
		}
	}
	// The tests' runs of weft test do not need go vet's checks of their
	// small modules (about half a CPU-second each); a test that passes
	// -vet itself overrides this.
	os.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -vet=off"))
	code := m.Run()
	removeBatch()
	os.Exit(code)
}

// stallWorker takes one unit from the server at url, prints its subject
// and hangs without acknowledging it.
func stallWorker(url string) {
	nc, js, err := distrib.Connect(url, "stalled worker")
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	defer nc.Close()
	c, err := js.Consumer(context.Background(), distrib.UnitsStream, distrib.WorkersConsumer)
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	m, err := c.Next(jetstream.FetchMaxWait(time.Minute))
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("took a unit on", m.Subject())
	select {}
}

// TestRunNATSEmbedded runs fib n=3 on an embedded server and two worker
// processes: every trace explored (its 92 final states), nothing lost;
// with -max-runs 10 (below the coordinator's first batch of 32), exactly
// 10 executions, with no unit published.
func TestRunNATSEmbedded(t *testing.T) {
	code, stdout, stderr := runCmd(t, "run", "-workers", "2", "-nats", "embedded", "-keep-going", "-p", "n=3", "fib")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"(the strategy explored everything it covers)", "final states  92 distinct", "failures      none", "strategy      optimal"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, want := range []string{"weft run: distributed over NATS: ", "0 redelivered, 0 duplicate results dropped, 0 messages rejected", "; should this process die, finish the run with the same command and -resume "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%q", want, stderr)
		}
	}
	// Each worker process says what it did when it stops: the units its
	// workers split off add up to what the coordinator counted.
	stolen := regexp.MustCompile(`and (\d+) more that workers split off theirs`).FindStringSubmatch(stderr)
	lines := regexp.MustCompile(`weft worker \d: \d+ units explored, (\d+) split off for idle workers \((\d+) of their results joined, 0 dropped\), 0 orphans dropped, 0 abandoned, 0 rejected, \d+ letters read; busy `).FindAllStringSubmatch(stderr, -1)
	split := 0
	for _, l := range lines {
		n, _ := strconv.Atoi(l[1])
		joined, _ := strconv.Atoi(l[2])
		if joined != n {
			t.Errorf("a worker split %d units off and joined %d results: %q", n, joined, l[0])
		}
		split += n
	}
	if len(lines) != 2 || stolen == nil || stolen[1] != strconv.Itoa(split) {
		t.Errorf("the workers' lines %q split %d units off, the coordinator's says %q; want 2 lines and the same count:\n%s", lines, split, stolen, stderr)
	}
	code, stdout, stderr = runCmd(t, "run", "-workers", "2", "-nats", "embedded", "-keep-going", "-max-runs", "10", "-p", "n=3", "fib")
	if code != 0 {
		t.Fatalf("-max-runs 10: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if want := "executions    10 (stopped at -max-runs)"; !strings.Contains(stdout, want) {
		t.Errorf("-max-runs 10: stdout lacks %q:\n%s", want, stdout)
	}
	if want := "weft run: distributed over NATS: 0 units (0 joined"; !strings.Contains(stderr, want) {
		t.Errorf("-max-runs 10: stderr lacks %q:\n%q", want, stderr)
	}
}

// TestRunNATSResumeRefused resumes runs that cannot be: one not on the
// server, and any without -nats.
func TestRunNATSResumeRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-workers", "1", "-nats", "embedded", "-nats-dir", t.TempDir(), "-resume", "nosuch"},
			"weft run: no such unfinished run on the server: run nosuch is not there (unfinished runs: none); a run that ended, or was interrupted, cannot be resumed"},
		{[]string{"-resume", "nosuch"}, "weft run: -nats-dir, -resume and -hand-out go with -nats (a distributed run); see 'weft help run'"},
		{[]string{"-hand-out"}, "weft run: -nats-dir, -resume and -hand-out go with -nats (a distributed run); see 'weft help run'"},
		{[]string{"-nats", "nats://127.0.0.1:1", "-nats-dir", "x"}, "weft run: -nats-dir is the storage of -nats embedded; a server of your own (-nats nats://127.0.0.1:1) keeps its streams where it is told (nats-server -js -sd DIR)"},
	} {
		code, stdout, stderr := runCmd(t, append(append([]string{"run"}, tc.args...), "fib")...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing, %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// TestRunNATSResume kills (SIGKILL) a weft run process exploring fib n=4
// (19,605 traces, 490 final states) over -nats embedded, with its storage
// in a directory of the test, once its journal holds units; its worker
// process dies with it. The same command with -resume and the run's name
// (from its standard error) finishes the run: exhausted, every final
// state found, and no unit redelivered: the units the dead worker held go
// to the new workers at once (distrib.Options.WorkersGone), not after
// the ack deadline.
func TestRunNATSResume(t *testing.T) {
	long.Skip(t, "runs an exploration, kills its coordinator and resumes it")
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "-nats", "embedded", "-nats-dir", dir, "-workers", "1", "-keep-going", "-max-runs", "0", "-p", "n=4", "fib"}
	cmd := exec.Command(self, args...)
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(errPipe).ReadString('\n')
	var run, url string
	if _, serr := fmt.Sscanf(line, "weft run: run %s on NATS at %s", &run, &url); err != nil || serr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the first line on stderr is %q (%v, %v), want the run's name and URL", line, err, serr)
	}
	url = strings.TrimSuffix(url, ";")
	nc, js, err := distrib.Connect(url, "test")
	if err != nil {
		t.Fatal(err)
	}
	// Wait for the journal to hold a published unit: the header, then
	// at least one flush.
	for deadline := time.Now().Add(time.Minute); ; {
		if n := subjectCount(t, js, distrib.RunsStream, distrib.RunSubject(run)); n >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no unit journaled after a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
	nc.Close()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	args = append(args[:len(args)-3], "-resume", run, "-workers", "2", "-p", "n=4", "fib")
	code, stdout, stderr := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("resuming: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"(the strategy explored everything it covers)", "final states  490 distinct", "failures      none"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, want := range []string{"weft run: resumed run " + run + ": ", " 0 redelivered, 0 duplicate results dropped, 0 messages rejected"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// subjectCount returns how many messages subject has on stream.
func subjectCount(t *testing.T, js jetstream.JetStream, stream, subject string) int {
	t.Helper()
	s, err := js.Stream(context.Background(), stream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(context.Background(), jetstream.WithSubjectFilter(subject))
	if err != nil {
		t.Fatal(err)
	}
	return int(info.State.Subjects[subject])
}

// stallAckWait is the ack deadline of TestWorkerKilled: short, but long
// enough that a worker starved of CPU on a loaded machine still reports
// progress in time, so that only the killed worker's unit is redelivered.
const stallAckWait = 3 * time.Second

// TestWorkerKilled kills (SIGKILL) a worker process that holds the first
// unit of fib n=3: after the ack deadline (stallAckWait) the unit goes to one
// of two other worker processes; exactly one unit is redelivered, and the
// exploration is complete (92 final states, as a local one).
func TestWorkerKilled(t *testing.T) {
	e, err := distrib.StartEmbedded("")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	nc, js, err := distrib.Connect(e.URL(), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := distrib.Setup(ctx, js, stallAckWait); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	stall := exec.Command(self, "stall-worker", e.URL())
	out, err := stall.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := stall.Start(); err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		units, redelivered, finals int
		exhausted                  bool
		err                        error
	}
	done := make(chan outcome)
	go func() {
		spec := distrib.Spec{Program: "fib", Params: map[string]int{"n": 3}, KeepGoing: true}
		r, st, err := distrib.Coordinate(ctx, js, spec, distrib.Options{AckWait: stallAckWait, Batch: 2, Bodies: programBody})
		o := outcome{units: st.Units, redelivered: st.Redelivered, err: err}
		if r != nil {
			o.finals, o.exhausted = r.FinalStates, r.Exhausted
		}
		done <- o
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "took a unit on weft.units.") {
		t.Fatalf("the stalled worker said %q (%v)", line, err)
	}
	if err := stall.Process.Kill(); err != nil { // kill -9, mid-unit
		t.Fatal(err)
	}
	stall.Wait()
	stop, err := startWorkerProcesses(e.URL(), 2, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	o := <-done
	stop()
	if o.err != nil {
		t.Fatal(o.err)
	}
	if o.redelivered != 1 || !o.exhausted || o.finals != 92 {
		t.Errorf("%d units, %d redelivered, exhausted %v, %d final states; want 1 redelivered, exhausted, 92 final states", o.units, o.redelivered, o.exhausted, o.finals)
	}
}

// BenchmarkNATSWorkers explores fib n=4 (19,605 traces) with optimal and
// dpor-cr+sleep over an embedded server with 1, 2 and 4 worker processes,
// and reports the executions per second, the units joined per second, and
// the coordinator's time per unit spent splitting, publishing, fetching
// and joining (its ceiling is 1s over that: the units per second it could
// feed), in three modes: whole (workers explore each unit whole, -no-split),
// steal (workers split units off theirs for idle ones, the default) and
// handout (as steal, with a coordinator that hands all its work out after
// one execution, -hand-out).
func BenchmarkNATSWorkers(b *testing.B) {
	// fib4FinalStates is fib n=4's number of final states, as a local
	// exploration finds them: every run must find them all.
	const fib4FinalStates = 490
	for _, p := range []struct {
		name string
		spec distrib.Spec
	}{
		{"fib4", distrib.Spec{Program: "fib", Params: map[string]int{"n": 4}, KeepGoing: true}},
		{"fib4-dpor-cr+sleep", distrib.Spec{Program: "fib", Params: map[string]int{"n": 4}, Strategy: "dpor-cr+sleep", KeepGoing: true}},
	} {
		for _, m := range []struct {
			name    string
			flags   []string
			handOut bool
		}{{"whole", []string{"-no-split"}, false}, {"steal", nil, false}, {"handout", nil, true}} {
			for _, n := range []int{1, 2, 4} {
				b.Run(fmt.Sprintf("%s/%s/processes=%d", p.name, m.name, n), func(b *testing.B) {
					e, err := distrib.StartEmbedded("")
					if err != nil {
						b.Fatal(err)
					}
					defer e.Close()
					stop, err := startWorkerProcesses(e.URL(), n, os.Stderr, m.flags...)
					if err != nil {
						b.Fatal(err)
					}
					defer stop()
					nc, js, err := distrib.Connect(e.URL(), "coordinator")
					if err != nil {
						b.Fatal(err)
					}
					defer nc.Close()
					var execs, units, stolen int
					var coord, wall time.Duration
					b.ResetTimer()
					for range b.N {
						began := time.Now()
						r, st, err := distrib.Coordinate(context.Background(), js, p.spec, distrib.Options{HandOut: m.handOut, Bodies: programBody})
						if err != nil {
							b.Fatal(err)
						}
						if !r.Exhausted || r.Failed() || r.FinalStates != fib4FinalStates {
							b.Fatalf("exhausted %v, failures %v, %d final states; want exhausted, none, %d", r.Exhausted, r.FailureCounts, r.FinalStates, fib4FinalStates)
						}
						wall += time.Since(began)
						execs += r.Executions
						units += st.Joined
						stolen += st.Stolen
						coord += st.Coordination
					}
					b.ReportMetric(float64(execs)/wall.Seconds(), "execs/s")
					b.ReportMetric(float64(units)/wall.Seconds(), "units/s")
					if units > 0 {
						b.ReportMetric(float64(coord.Microseconds())/float64(units), "coord-µs/unit")
					}
					b.ReportMetric(float64(execs)/float64(b.N), "execs/op")
					b.ReportMetric(float64(stolen)/float64(b.N), "stolen/op")
				})
			}
		}
	}
}
