// This file implements the distributed runs of weft run -nats and the
// worker processes of weft worker.

package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/distrib"
	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/programs"
)

// runDistributed explores p over NATS JetStream (weft run -nats): the
// process coordinates; with -nats embedded it also runs the server and
// -workers worker processes (re-executions of itself as weft worker).
func runDistributed(ctx context.Context, p *programs.Program, ps programs.Params, o *runOptions, stderr io.Writer) (*weft.Result, error) {
	// The workers' output is copied to stderr while the coordinator
	// writes there too.
	stderr = &lockedWriter{w: stderr}
	url, resumeWith := o.nats, ""
	var stopWorkers func()
	if o.natsDir != "" && url != "embedded" {
		return nil, usageErrorf("weft run: -nats-dir is the storage of -nats embedded; a server of your own (-nats %s) keeps its streams where it is told (nats-server -js -sd DIR)", url)
	}
	// startWorkers starts the worker processes of -nats embedded: before
	// the run, or, resuming, once its units are sorted out (the units on
	// the queue that are done are removed before a worker takes them).
	var startWorkers func() error
	if url == "embedded" {
		e, err := distrib.StartEmbedded(o.natsDir)
		if err != nil {
			return nil, err
		}
		defer e.Close()
		url, resumeWith = e.URL(), " -nats-dir "+e.Dir()
		n := o.workers
		if n == 0 {
			n = runtime.NumCPU()
		}
		startWorkers = func() error {
			stop, err := startWorkerProcesses(url, n, stderr)
			if err != nil {
				return err
			}
			stopWorkers = stop
			return nil
		}
	}
	defer func() {
		if stopWorkers != nil {
			stopWorkers()
		}
	}()
	if startWorkers != nil && o.resume == "" {
		if err := startWorkers(); err != nil {
			return nil, err
		}
	}
	nc, js, err := distrib.Connect(url, "weft coordinator")
	if err != nil {
		return nil, usageErrorf("weft run: %v", err)
	}
	defer nc.Close()
	strategy := o.strategy
	if strategy == defaultStrategy {
		strategy = "" // optimal
	}
	spec := distrib.Spec{Program: p.Name, Params: ps, Strategy: strategy, Seed: o.seed, MaxSteps: o.maxSteps, KeepGoing: o.keepGoing, Races: o.races, AnyStepTime: o.time == weft.TimeAnyStep}
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	log := func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	do := distrib.Options{Run: o.resume, Resume: o.resume != "", WorkersGone: o.nats == "embedded", MaxRuns: o.maxRuns, AckWait: o.ackWait, HandOut: o.handOut, Log: log}
	var hookErr error
	if startWorkers != nil && do.Resume {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		do.Hook = func(point string, _ uint64) {
			if point == "resumed" {
				if hookErr = startWorkers(); hookErr != nil {
					cancel() // no worker would come
				}
			}
		}
	}
	if !do.Resume {
		do.Run = distrib.NewRun()
		fmt.Fprintf(stderr, "weft run: run %s on NATS at %s; should this process die, finish the run with the same command and -resume %s%s\n", do.Run, url, do.Run, resumeWith)
	}
	began := time.Now()
	do.Bodies = programBody
	xr, st, err := distrib.Coordinate(ctx, js, spec, do)
	err = cmp.Or(hookErr, err)
	if err != nil {
		if errors.Is(err, distrib.ErrNoRun) || errors.Is(err, distrib.ErrSpecMismatch) || errors.Is(err, distrib.ErrRunAlive) {
			err = usageErrorf("weft run: %v", err)
		}
		return nil, err
	}
	r := explore.APIResult(xr).(*weft.Result)
	wall := time.Since(began)
	if do.Resume {
		fmt.Fprintf(stderr, "weft run: resumed run %s: %d results joined again from the journal; of the units waiting, %d were on the queue, %d done, %d published again; %d units joined already were removed from the queue\n",
			do.Run, st.Replayed, st.Queued, st.Done, st.Republished, st.Stale)
	}
	fmt.Fprintf(stderr, "weft run: distributed over NATS: %d units (%d joined, %d redelivered, %d duplicate results dropped, %d messages rejected) and %d more that workers split off theirs for idle workers, %.0f units/s; the coordinator spent %v coordinating, %v waiting for results and %v exploring in %v\n",
		st.Units, st.Joined, st.Redelivered, st.Duplicates, st.Rejected, st.Stolen, float64(st.Joined+st.Stolen)/wall.Seconds(),
		st.Coordination.Round(time.Millisecond), st.Waiting.Round(time.Millisecond), st.Exploring.Round(time.Millisecond), wall.Round(time.Millisecond))
	if st.Crossing > 0 {
		fmt.Fprintf(stderr, "weft run: -max-runs %d: the unit whose result reached it had %d executions; the units in flight were abandoned\n", o.maxRuns, st.Crossing)
	}
	return r, nil
}

// programBody resolves the program of a distributed run to its test body
// (package programs), as the runtime runs it.
func programBody(s distrib.Spec) (func(), error) {
	p := programs.Lookup(s.Program)
	if p == nil {
		return nil, fmt.Errorf("unknown program %q: the worker's weft has no such built-in program (an older or newer version?)", s.Program)
	}
	ps, err := p.Resolve(s.Params)
	if err != nil {
		return nil, fmt.Errorf("program %s: %w", s.Program, err)
	}
	body := p.Body(ps)
	return explore.APIBody(body), nil
}

// startWorkerProcesses starts n processes of weft worker on the server at
// url; stop interrupts them and waits for them (killing those still there
// after 5 seconds).
func startWorkerProcesses(url string, n int, stderr io.Writer, flags ...string) (stop func(), err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("starting workers: %w", err)
	}
	var cmds []*exec.Cmd
	stop = func() {
		for _, c := range cmds {
			c.Process.Signal(os.Interrupt)
		}
		for _, c := range cmds {
			done := make(chan struct{})
			go func() { c.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				c.Process.Kill()
				<-done
			}
		}
	}
	for i := range n {
		c := exec.Command(self, append([]string{"worker", "-nats", url, "-name", fmt.Sprintf("%d", i+1)}, flags...)...)
		c.Stdout, c.Stderr = stderr, stderr
		c.SysProcAttr = workerAttr()
		if err := c.Start(); err != nil {
			stop()
			return nil, fmt.Errorf("starting worker %d: %w", i+1, err)
		}
		cmds = append(cmds, c)
	}
	return stop, nil
}

// cmdWorker implements weft worker.
func cmdWorker(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("nats", "", "the NATS JetStream server's `URL` (nats://host:4222)")
	host, _ := os.Hostname()
	name := fs.String("name", fmt.Sprintf("%s:%d", host, os.Getpid()), "the worker's `name` in results and logs")
	noSplit := fs.Bool("no-split", false, "explore every unit whole: never split units off for workers that wait for work")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: weft worker -nats URL [-name NAME] [-no-split]\n\nTake units of work of distributed runs (weft run -nats URL) from the NATS\nJetStream server at URL and explore them, until interrupted (SIGINT, SIGTERM).\nWhile other workers wait for work and none waits for them, a worker splits\nunits off its own for them, and joins their results into its own.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stdout); err != nil {
		return report(err, stderr)
	}
	if fs.NArg() > 0 {
		return report(usageErrorf("weft worker: unexpected arguments %q", fs.Args()), stderr)
	}
	if *url == "" {
		return report(usageErrorf("weft worker: -nats URL is required (the server of 'weft run -nats URL')"), stderr)
	}
	nc, js, err := distrib.Connect(*url, "weft worker "+*name)
	if err != nil {
		return report(usageErrorf("weft worker: %v", err), stderr)
	}
	defer nc.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	began := time.Now()
	st, err := distrib.Work(ctx, js, distrib.WorkerOptions{Name: *name, Log: log, NoSplit: *noSplit, Bodies: programBody})
	fmt.Fprintf(stderr, "weft worker %s: %d units explored, %d split off for idle workers (%d of their results joined, %d dropped), %d orphans dropped, %d abandoned, %d rejected, %d letters read; busy %v of %v\n",
		*name, st.Units, st.Split, st.Joined, st.Duplicates, st.Orphans, st.Abandoned, st.Rejected, st.Letters, st.Busy.Round(time.Millisecond), time.Since(began).Round(time.Millisecond))
	if err != nil {
		return report(fmt.Errorf("weft worker %s: %w", *name, err), stderr)
	}
	return exitOK
}

// lockedWriter serialises the writes to w of several goroutines; it is no
// io.ReaderFrom, whose ReadFrom (bytes.Buffer's) would hold w's memory
// while it waits for input.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
