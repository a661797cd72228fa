// This file implements weft run: explore a built-in program and report what
// the exploration found.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/distrib"
	"github.com/weft-go/weft/programs"
)

// defaultStrategy is the strategy of weft run without -strategy: weft
// chooses the strongest complete strategy that handles the program
// (weft.Explore without WithStrategy): optimal, or concolic-optimal for a
// program that reads inputs. Optimal-DPOR explores each trace once and
// finds dining's deadlock in a few executions.
const defaultStrategy = "auto"

// Defaults of run's flags.
const (
	defaultMaxRuns = 100_000
	defaultSeed    = 1
	defaultDepth   = 3
	defaultK       = weft.DefaultInterferences
)

// runOptions are the flags of weft run.
type runOptions struct {
	params    paramFlag
	strategy  string
	maxRuns   int
	maxSteps  int
	seed      int64
	depth     int
	k         int
	timeout   time.Duration
	json      bool
	html      string // -html: the file of the first failure's HTML report
	keepGoing bool
	races     bool          // -races
	leaks     bool          // -leaks
	time      weft.TimeMode // -time
	shorten   int
	// workers is -workers (0: one per core); workersSet says the flag
	// was given.
	workers    int
	workersSet bool
	// nats is -nats: the NATS server of a distributed run ("embedded":
	// one in the process, with -workers worker processes); ackWait its
	// units' ack deadline; natsDir is -nats-dir, the embedded server's
	// storage, and resume is -resume, the run to finish.
	nats    string
	ackWait time.Duration
	natsDir string
	resume  string
	// handOut is -hand-out: the coordinator of a distributed run hands
	// all its work out after one execution.
	handOut bool
	// pv and symmetric are -pv and -symmetric: reach's reductions.
	pv        bool
	symmetric symmetryFlag
}

func runFlags(out io.Writer) (*flag.FlagSet, *runOptions) {
	o := &runOptions{params: paramFlag{}}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Var(o.params, "p", "set a program parameter `name=value` (repeatable; see 'weft list')")
	fs.StringVar(&o.strategy, "strategy", defaultStrategy, "exploration `strategy`: auto (optimal, or concolic-optimal for a program that reads inputs), "+strings.Join(weft.Strategies(), ", "))
	boundedInt(fs, &o.maxRuns, "max-runs", defaultMaxRuns, 0, "0: no bound", "stop after `N` executions (0: no bound; with -nats, a unit of work counts whole: see -nats)")
	boundedInt(fs, &o.maxSteps, "max-steps", 0, 0, "0: weft's default", "bound the steps of one execution to `N` (0: weft's default, 100000); an execution that reaches it proves nothing: the exploration goes on, and a run whose failing executions all reached it is inconclusive")
	fs.Int64Var(&o.seed, "seed", defaultSeed, "`seed` of the random and pct strategies, and of the order of dpor*, flip* and optimal (0: thread order)")
	fs.IntVar(&o.depth, "depth", defaultDepth, "bug `depth` of the pct strategy")
	fs.IntVar(&o.k, "k", defaultK, "bound `k` of the con2 strategy, 0 to "+strconv.Itoa(weft.MaxInterferences)+": cover every branch side reachable with at most k interferences")
	fs.BoolVar(&o.pv, "pv", false, "with -strategy reach: the P/V reduction (Lei and Carver 2006, §7): a V on a counting semaphore races with nothing, so orders of V's, and of a V and a P it did not enable, are exercised once")
	fs.Var(&o.symmetric, "symmetric", "with -strategy reach: the symmetry reduction (Lei and Carver 2006, §8) for a `group` of threads that run the same code, by their ranks among the threads the program's body starts (0 for the first), as 0,1,2 or 0-2 (repeatable, a group each): a race between two of them for the same call with the same partner is ignored")
	nonNegativeDuration(fs, &o.timeout, "timeout", 0, "0: no bound", "stop after this wall `time` (0: no bound); a time that expires before the first execution is an error")
	fs.BoolVar(&o.json, "json", false, "print one JSON object instead of reports and a table")
	fs.StringVar(&o.html, "html", "", "write the HTML report of the first failure to `file` (of the n-th, with -keep-going, to file-n.html): the interleaving drawn as lanes per thread with happens-before arrows")
	fs.BoolVar(&o.keepGoing, "keep-going", false, "continue after the first failure, counting failures by kind")
	fs.Func("time", "when virtual time may move: `blocked` (default: only when every thread is blocked, as synctest) or any (a timer may fire, a sleeper wake, at any step)", func(v string) (err error) {
		o.time, err = weft.ParseTimeMode(v)
		return err
	})
	fs.BoolVar(&o.leaks, "leaks", true, "fail an execution whose body returned while threads stay blocked (-leaks=false: complete)")
	fs.BoolVar(&o.races, "races", false, "check every execution for data races: plain loads and stores of a variable that no synchronisation orders")
	boundedInt(fs, &o.shorten, "shorten", weft.DefaultShortenReplays, 0, "0: off", "spend at most `N` replays shortening each failing schedule to fewer context switches before it is printed (0: off)")
	boundedInt(fs, &o.workers, "workers", 1, 0, "0: one per core", "explore on `N` workers (0: one per core); the strategies that divide their work (dpor*, flip*, optimal, reach, concolic*) run in parallel, the others on one")
	fs.StringVar(&o.nats, "nats", "", "explore distributed over the NATS JetStream server at `URL`, with 'weft worker -nats URL' processes anywhere; 'embedded' starts a server on loopback and -workers worker processes; -max-runs counts the units' executions as their results come, and a unit counts whole: a run can pass N by the executions of one unit, less one")
	nonNegativeDuration(fs, &o.ackWait, "ack-wait", distrib.DefaultAckWait, "", "with -nats: a unit not acknowledged for this `time` (its worker died) goes to another worker")
	fs.StringVar(&o.natsDir, "nats-dir", "", "with -nats embedded: keep the server's streams in `directory` (default: a temporary one, removed at the end), where -resume finds a run whose coordinator died")
	fs.BoolVar(&o.handOut, "hand-out", false, "with -nats: the coordinator runs one execution, hands all its work out to the workers, which split it among themselves, and explores nothing more itself (a -resume then runs that one execution again, not the coordinator's share)")
	fs.StringVar(&o.resume, "resume", "", "with -nats: finish `run` (named when it began), whose coordinator died, with the same program and flags: its results are taken in once, its lost units published again")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: weft run [-p name=value]... [flags] PROGRAM\n\nExplore PROGRAM (see 'weft list'), print each kind of failure found with its\nreplay command, then a summary (or one JSON object with -json).\nExit status: 0 no failure, 1 failures found, 2 bad usage or input, 4 every\nfailing execution reached the step bound (inconclusive).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs, o
}

// cmdRun implements weft run.
func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs, o := runFlags(stderr)
	if err := parseFlags(fs, args, stdout); err != nil {
		return report(err, stderr)
	}
	name, err := onePositional(fs, "PROGRAM")
	if err != nil {
		return report(err, stderr)
	}
	p, ps, err := lookup(name, o.params)
	if err != nil {
		return report(err, stderr)
	}
	if o.strategy != defaultStrategy && !slices.Contains(weft.Strategies(), o.strategy) {
		return report(usageErrorf("unknown strategy %q (known: %s); run 'weft list'", o.strategy, strings.Join(weft.Strategies(), ", ")), stderr)
	}
	if o.k > weft.MaxInterferences {
		return report(usageErrorf("weft run: -k %d: con2 explores at most %d interferences (its scenarios grow combinatorially with k; the programs of Farzan et al. 2013 need at most 4); give -k %d or less", o.k, weft.MaxInterferences, weft.MaxInterferences), stderr)
	}
	if (o.pv || len(o.symmetric) > 0) && o.strategy != "reach" {
		return report(usageErrorf("weft run: -pv and -symmetric are reductions of the reach strategy; give -strategy reach"), stderr)
	}
	if (o.pv || len(o.symmetric) > 0) && o.nats != "" {
		return report(usageErrorf("weft run: -pv and -symmetric do not go to the workers of a distributed run (-nats) yet; use -workers"), stderr)
	}
	if (o.strategy == "random" || o.strategy == "pct") && o.maxRuns == 0 && o.timeout == 0 {
		fmt.Fprintf(stderr, "weft run: warning: -strategy %s with -max-runs 0 never ends by itself; it runs until Ctrl-C, which prints what it found (or give -timeout)\n", o.strategy)
	}
	prog := newProgressPrinter(stderr)
	opts := []weft.Option{
		weft.WithMaxRuns(o.maxRuns), weft.WithSeed(o.seed),
		weft.WithDepth(o.depth), weft.WithInterferences(o.k), weft.WithTimeout(o.timeout), weft.WithProgress(prog.print),
		weft.WithShorten(o.shorten),
	}
	if o.strategy != defaultStrategy {
		opts = append(opts, weft.WithStrategy(o.strategy))
	}
	if o.pv {
		opts = append(opts, weft.WithReachPV())
	}
	if len(o.symmetric) > 0 {
		opts = append(opts, weft.WithReachSymmetry(o.symmetric...))
	}
	if o.maxSteps > 0 {
		opts = append(opts, weft.WithMaxSteps(o.maxSteps))
	}
	if !o.leaks {
		opts = append(opts, weft.IgnoreLeaks())
	}
	if o.races {
		opts = append(opts, weft.WithRaces())
	}
	opts = append(opts, weft.WithTime(o.time))
	if o.keepGoing {
		opts = append(opts, weft.KeepGoing())
	}
	fs.Visit(func(f *flag.Flag) { o.workersSet = o.workersSet || f.Name == "workers" })
	opts = append(opts, weft.WithWorkers(o.workers))
	// An interrupt (Ctrl-C) stops the exploration, which then reports
	// what it found; a second one kills the command as usual.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	opts = append(opts, weft.WithContext(ctx))
	var r *weft.Result
	if o.nats == "" && (o.natsDir != "" || o.resume != "" || o.handOut) {
		stop()
		return report(usageErrorf("weft run: -nats-dir, -resume and -hand-out go with -nats (a distributed run); see 'weft help run'"), stderr)
	}
	if o.nats != "" {
		r, err = runDistributed(ctx, p, ps, o, stderr)
	} else {
		r, err = weft.Explore(p.Body(ps), opts...)
	}
	stop()
	prog.done()
	if errors.Is(err, weft.ErrNoExecution) {
		return report(usageErrorf("weft run: -timeout %v expired before the first execution ended: nothing was explored; raise -timeout (0: no bound)", o.timeout), stderr)
	}
	if err != nil {
		return report(usageErrorf("%v", err), stderr)
	}
	for _, f := range r.Failures {
		f.Token = cliToken(p, ps, f.Token)
	}
	s := summarize(p, ps, o, r)
	if o.html != "" {
		for i, f := range r.Failures {
			path := htmlPath(o.html, i)
			if err := writeHTML(path, f, replayCommand(p, o.maxSteps, o.races, f.Token)); err != nil {
				return report(err, stderr)
			}
			fmt.Fprintf(stderr, "weft run: html report of the %v: %s\n", f.Kind, path)
		}
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(s); err != nil {
			return report(fmt.Errorf("writing JSON: %w", err), stderr)
		}
	} else {
		for _, f := range r.Failures {
			fmt.Fprintln(stdout, f.Report(replayCommand(p, o.maxSteps, o.races, f.Token)))
		}
		s.print(stdout)
	}
	switch {
	case r.Canceled:
		return exitInterrupted
	case r.StepBounded():
		// Every failing execution reached the step bound, which proves
		// nothing.
		fmt.Fprintln(stderr, "weft run: no failure, but the run is INCONCLUSIVE: its failing executions all reached the step bound (-max-steps)")
		return exitInconclusive
	case r.Failed():
		return exitFailure
	case r.TimedOut:
		return exitTimeout
	}
	return exitOK
}

// onePositional returns the only positional argument of fs, called what.
func onePositional(fs *flag.FlagSet, what string) (string, error) {
	switch fs.NArg() {
	case 0:
		return "", usageErrorf("weft %s: missing %s; usage: weft %s [flags] %s (see 'weft help %s')", fs.Name(), what, fs.Name(), what, fs.Name())
	case 1:
		return fs.Arg(0), nil
	}
	return "", usageErrorf("weft %s: unexpected arguments after %s: %q (flags go before %s, as with the go command)", fs.Name(), what, strings.Join(fs.Args()[1:], " "), what)
}

// replayCommand is the command line that replays token, a token of the
// weft command (cliToken): it carries the parameters.
func replayCommand(p *programs.Program, maxSteps int, races bool, token string) string {
	return formatReplay(maxSteps, races) + " " + p.Name + " " + token
}

// htmlPath is the file of the HTML report of the i-th failure (from 0) of
// a run with -html file: file itself for the first, file-(i+1).html (its
// extension kept) for the others.
func htmlPath(file string, i int) string {
	if i == 0 {
		return file
	}
	ext := filepath.Ext(file)
	return strings.TrimSuffix(file, ext) + "-" + strconv.Itoa(i+1) + ext
}

// writeHTML writes the HTML report of f, replayed by replayCmd, to path.
func writeHTML(path string, f *weft.Failure, replayCmd string) error {
	file, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("-html: %w", err)
	}
	if err := f.WriteHTML(file, replayCmd); err != nil {
		file.Close()
		return fmt.Errorf("-html: %w", err)
	}
	if err := file.Close(); err != nil {
		return fmt.Errorf("-html: %w", err)
	}
	return nil
}
