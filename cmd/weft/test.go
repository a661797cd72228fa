// This file implements weft test: a package's ordinary Go tests, rewritten
// so that their goroutines, channels and sync objects are weft's, run by
// go test with -overlay, each Test function as a weft exploration.

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/failjson"
	"github.com/weft-go/weft/internal/racemark"
	"github.com/weft-go/weft/internal/rewrite"
	"github.com/weft-go/weft/std/rt"
)

const testUsage = `usage: weft test [build flags] [go test flags] [packages] [-run regexp]
	[-strategy S] [-max-runs N] [-max-steps N] [-seed N] [-vary-seed] [-timeout D]
	[-workers N] [-time any|blocked] [-keep-going] [-strict] [-leaks=false]
	[-ignore-leak F,...]
	[-replay NAME=TOKEN] [-replay-files on|off|check|update] [-race]
	[-real MODULE,...] [-json] [-html DIR] [-v]

Run the ordinary Go tests of the packages (default: the current directory)
under weft's control: weft rewrites their source, and that of every
package they import but the standard library's (their dependencies too:
modules in the module cache, vendored, or replaced), (go statements,
channel operations, select, sync, sync/atomic, time, context, math/rand
and runtime.Gosched; see docs/weft-test.md) and runs go test with
-overlay, each Test
function's body, or each subtest's of a test that calls t.Run, as a weft
exploration on virtual time. A failure prints weft's report, with the
original file:line, and the weft test command that replays it. Flags may
come before or after the packages.

	-run regexp      run only the tests matching regexp, as go test -run
	-strategy S      exploration strategy (WEFT_STRATEGY): ` + "%s" + `
	-max-runs N      stop each exploration after N executions (0: no bound)
	-max-steps N     bound the steps of one execution (WEFT_MAX_STEPS,
	                 default 100000): one that reaches it proves nothing
	                 (a long loop or an endless one?); the exploration goes
	                 on, and a test whose failing executions all reached it
	                 is INCONCLUSIVE, with the first one's report
	-seed N          seed of the random strategies and of the order of the
	                 others, and of the program's math/rand numbers and map
	                 range orders in every execution (default 0)
	-vary-seed       give each execution a seed of its own for math/rand and
	                 map orders (recorded in its replay token); needs
	                 -strategy random or pct
	-timeout D       stop each exploration after D of wall time (0: no bound);
	                 go test's own -timeout (of the whole test binary) is
	                 -go-timeout D, and is off when -timeout is given
	-workers N       explore each test on N workers (0: one per core); they
	                 share package-level variables: for code that keeps none
	-time M          when virtual time may move (WEFT_TIME): blocked (default:
	                 only when every goroutine is blocked, as testing/synctest)
	                 or any (a timer may fire, a sleeper wake, at any step:
	                 finds bugs that need the scheduler to be slower than a
	                 timeout, and fails tests that assume it is not)
	-keep-going      explore on after a failure (WEFT_KEEP_GOING)
	-strict          exit with status 3 if an exploration was stopped by a
	                 bound (-timeout, -max-runs) before it finished
	-leaks=false     do not fail an execution whose test body returned while
	                 goroutines stay blocked (default: a leak fails)
	-ignore-leak F   do not count as leaked the goroutines blocked in the
	                 functions F (comma-separated: pkg.Func, pkg.(*T).Method;
	                 WEFT_IGNORE_LEAK), as goleak's IgnoreTopFunction
	-replay TOKEN    replay TOKEN (NAME=TOKEN, from a report; NAME=FILE for a
	                 replay file) instead of exploring
	-replay-files M  what to do with the replay files under testdata/weft
	                 (WEFT_REPLAY_FILES): on (default: run them first, write
	                 one per new failure), check (run them, write nothing:
	                 for CI), update (as on, and delete those whose failure
	                 no longer happens) or off
	-race            build with Go's race detector: a race it reports fails
	                 the execution in which it happened (see the README);
	                 one worker
	-real MODULES    keep the packages of these modules (comma-separated
	                 module paths, or all: every dependency) as they are:
	                 their goroutines, channels and locks run outside
	                 weft's control (faster builds; a thread blocked in
	                 them is reported as blocked outside weft)
	-json            print go test's JSON events (go test -json); a failing
	                 test's "fail" event carries weft's failure as
	                 WeftFailures (its interleaving and blocked threads)
	-html DIR        write each failure's HTML report into DIR (the
	                 interleaving drawn as lanes per goroutine, with
	                 happens-before arrows); the test's output names the file
	-v               print the output of every test, not only of those that fail

Build flags passed to go build: -tags, -ldflags, -gcflags, -mod, -p, -a,
-trimpath. go test flags passed to go test: -count, -failfast, -short,
-list, -shuffle, -vet, -cover, -covermode, -coverpkg, -coverprofile,
-parallel, -cpu, -skip; without -count weft test passes -count=1: results
are never cached. On a terminal each running exploration shows a progress
line; an interrupt (Ctrl-C) stops the running exploration, prints its
summary, runs no further test and exits with status 130. Exit status: 0 no
failure (explorations a bound stopped pass), 1 failures found (or a test
failed), 2 bad usage or input (such as code that does not build, or a
construct weft test does not support), 3 with -strict, an exploration a
bound stopped before it finished (or an INCONCLUSIVE one), 4 a test
INCONCLUSIVE: its exploration was stopped before its first execution
ended, or its failing executions all reached the step bound, or its
only failure may come from state the body keeps between executions, 130
an interrupt.
`

// testOptions are the flags of weft test.
type testOptions struct {
	pkgs       []string
	buildFlags []string
	run        string
	env        []string // WEFT_* settings
	replay     string
	real       []string // -real: the modules kept as they are
	json       bool
	html       string // -html: the directory of the HTML reports
	verbose    bool
	timeout    bool
	// goFlags are the flags that go to go test alone (goTestBoolFlags,
	// goTestValueFlags, -go-timeout as -timeout); strict is -strict.
	goFlags []string
	strict  bool
}

// testValueFlags maps the weft flags that take a value to the environment
// variable that passes them to Check ("" for those weft test handles).
var testValueFlags = map[string]string{
	"run": "", "replay": "", "html": "", "real": "", "strategy": weft.StrategyEnv, "max-runs": weft.MaxRunsEnv,
	"seed": weft.SeedEnv, "timeout": weft.TimeoutEnv, "workers": weft.WorkersEnv, "ignore-leak": weft.IgnoreLeakEnv,
	"time": weft.TimeEnv, "replay-files": weft.ReplayFilesEnv, "max-steps": weft.MaxStepsEnv,
	"go-timeout": "",
}

var (
	buildValueFlags = []string{"tags", "ldflags", "gcflags", "mod", "p"}
	buildBoolFlags  = []string{"a", "trimpath", "race"}
	// goTestBoolFlags and goTestValueFlags are go test's flags that weft
	// test passes to it as they are.
	goTestBoolFlags  = []string{"failfast", "short", "cover"}
	goTestValueFlags = []string{"count", "shuffle", "vet", "list", "covermode", "coverpkg", "coverprofile", "parallel", "cpu", "skip"}
	// goTestUnsupported are go test's flags weft test refuses.
	goTestUnsupported = []string{"bench", "benchtime", "benchmem", "fuzz", "fuzztime", "fuzzminimizetime",
		"cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace"}
)

// parseTestArgs parses weft test's command line.
func parseTestArgs(args []string) (*testOptions, error) {
	o := &testOptions{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			o.pkgs = append(o.pkgs, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		value := func() (string, error) {
			if hasVal {
				return val, nil
			}
			if i+1 == len(args) {
				return "", usageErrorf("weft test: flag -%s needs a value (see 'weft help test')", name)
			}
			i++
			return args[i], nil
		}
		switch {
		case name == "h" || name == "help":
			return nil, errHelp
		case name == "vary-seed":
			b, err := boolFlag(name, hasVal, val)
			if err != nil {
				return nil, err
			}
			if b {
				o.env = append(o.env, weft.VarySeedEnv+"=1")
			}
		case name == "leaks":
			b, err := boolFlag(name, hasVal, val)
			if err != nil {
				return nil, err
			}
			if !b {
				o.env = append(o.env, weft.LeaksEnv+"=0")
			}
		case name == "json" || name == "v":
			b := true
			if hasVal {
				var err error
				if b, err = strconv.ParseBool(val); err != nil {
					return nil, usageErrorf("weft test: -%s=%q: want true or false", name, val)
				}
			}
			if name == "json" {
				o.json = b
			} else {
				o.verbose = b
			}
		case name == "keep-going" || name == "strict":
			b := true
			if hasVal {
				var err error
				if b, err = strconv.ParseBool(val); err != nil {
					return nil, usageErrorf("weft test: -%s=%q: want true or false", name, val)
				}
			}
			if name == "strict" {
				o.strict = b
			} else if b {
				o.env = append(o.env, weft.KeepGoingEnv+"=1")
			}
		case slices.Contains(goTestBoolFlags, name):
			o.goFlags = append(o.goFlags, a)
		case slices.Contains(goTestValueFlags, name):
			v, err := value()
			if err != nil {
				return nil, err
			}
			o.goFlags = append(o.goFlags, "-"+name+"="+v)
		case slices.Contains(buildBoolFlags, name):
			o.buildFlags = append(o.buildFlags, a)
		case slices.Contains(buildValueFlags, name):
			v, err := value()
			if err != nil {
				return nil, err
			}
			o.buildFlags = append(o.buildFlags, "-"+name+"="+v)
		case slices.Contains(goTestUnsupported, name):
			return nil, usageErrorf("weft test: -%s: go test's flag for benchmarks, fuzzing or profiles, which weft test does not run (it explores Test functions): use go test for them", name)
		default:
			env, ok := testValueFlags[name]
			if !ok {
				return nil, usageErrorf("weft test: unknown flag -%s (see 'weft help test')", name)
			}
			v, err := value()
			if err != nil {
				return nil, err
			}
			switch name {
			case "run":
				o.run = v
			case "replay":
				o.replay = v
			case "real":
				for m := range strings.SplitSeq(v, ",") {
					if m = strings.TrimSpace(m); m == "" || strings.ContainsAny(m, " \t") {
						return nil, usageErrorf("weft test: -real %q: want module paths separated by commas, or all", v)
					}
					o.real = append(o.real, m)
				}
			case "html":
				abs, err := filepath.Abs(v)
				if err != nil {
					return nil, usageErrorf("weft test: -html %q: %v", v, err)
				}
				o.html = abs
			case "strategy":
				if !slices.Contains(weft.Strategies(), v) {
					return nil, usageErrorf("weft test: unknown strategy %q (known: %s)", v, strings.Join(weft.Strategies(), ", "))
				}
			case "time":
				if _, err := weft.ParseTimeMode(v); err != nil {
					return nil, usageErrorf("weft test: -time: %v", err)
				}
			case "replay-files":
				if !slices.Contains([]string{"on", "off", "check", "update"}, v) {
					return nil, usageErrorf("weft test: -replay-files %q: want on, off, check or update", v)
				}
			case "timeout", "go-timeout":
				d, err := time.ParseDuration(v)
				if err != nil || d < 0 {
					return nil, usageErrorf("weft test: -%s %q: want a duration such as 30s (0: no bound)", name, v)
				}
				if name == "go-timeout" {
					o.goFlags = append(o.goFlags, "-timeout="+v)
				} else {
					o.timeout = d > 0
				}
			case "ignore-leak":
				if slices.Contains(strings.Split(v, ","), "") || strings.ContainsAny(v, " \t") {
					return nil, usageErrorf("weft test: -ignore-leak %q: want functions separated by commas, as a stack names them (example.com/pool.(*Pool).worker)", v)
				}
			case "max-steps":
				if n, err := strconv.Atoi(v); err != nil || n <= 0 {
					return nil, usageErrorf("weft test: -max-steps %q: want a positive number", v)
				}
			default:
				if n, err := strconv.ParseInt(v, 10, 64); err != nil || (n < 0 && name != "seed") {
					return nil, usageErrorf("weft test: -%s %q: want a non-negative number", name, v)
				}
			}
			if env != "" {
				o.env = append(o.env, env+"="+v)
			}
		}
	}
	if len(o.pkgs) == 0 {
		o.pkgs = []string{"."}
	}
	return o, nil
}

// boolFlag returns the value of the boolean flag -name, given as
// -name=val if hasVal.
func boolFlag(name string, hasVal bool, val string) (bool, error) {
	if !hasVal {
		return true, nil
	}
	b, err := strconv.ParseBool(val)
	if err != nil {
		return false, usageErrorf("weft test: -%s=%q: want true or false", name, val)
	}
	return b, nil
}

// replayFlags returns the flags a replay command needs to build what this
// run built: the build flags, and -real.
func (o *testOptions) replayFlags() []string {
	if len(o.real) == 0 {
		return o.buildFlags
	}
	return append(slices.Clone(o.buildFlags), "-real="+strings.Join(o.real, ","))
}

// errHelp asks for the help.
var errHelp = errors.New("help")

// cmdTest implements weft test, in the current directory.
func cmdTest(args []string, stdout, stderr io.Writer) int {
	return runTest("", args, stdout, stderr)
}

// runTest runs weft test in dir with args.
func runTest(dir string, args []string, stdout, stderr io.Writer) int {
	return runTestEnv(dir, nil, args, stdout, stderr)
}

// runTestEnv is runTest with env (KEY=value settings) added to the
// environment of go test, before those of the flags, so that a flag wins.
func runTestEnv(dir string, env, args []string, stdout, stderr io.Writer) int {
	o, err := parseTestArgs(args)
	if errors.Is(err, errHelp) {
		fmt.Fprintf(stdout, testUsage, strings.Join(weft.Strategies(), ", "))
		return exitOK
	}
	if err != nil {
		return report(err, stderr)
	}
	tmp, err := os.MkdirTemp("", "weft-test-")
	if err != nil {
		return report(err, stderr)
	}
	defer os.RemoveAll(tmp)
	flags, notices, err := rewriteFlags(dir, tmp, raceBuildFlags(o.buildFlags), o.pkgs, o.real)
	if err != nil {
		return report(err, stderr)
	}
	for _, n := range notices {
		fmt.Fprintln(stderr, n)
	}
	goArgs := append([]string{"test", "-json"}, flags...)
	if o.run != "" {
		goArgs = append(goArgs, "-run="+o.run)
	}
	if o.timeout && !hasFlag(o.goFlags, "timeout") {
		goArgs = append(goArgs, "-timeout=0") // each exploration has its bound
	}
	if !hasFlag(o.goFlags, "count") {
		goArgs = append(goArgs, "-count=1") // explore again: no cached results
	}
	goArgs = append(goArgs, o.goFlags...)
	goArgs = append(goArgs, o.pkgs...)
	cmd := exec.Command("go", goArgs...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), o.env...)
	if slices.Contains(o.buildFlags, "-race") && !slices.ContainsFunc(o.env, func(s string) bool { return strings.HasPrefix(s, weft.WorkersEnv+"=") }) {
		// The race detector's count of reports is the process's: one
		// execution at a time tells which one raced.
		cmd.Env = append(cmd.Env, weft.WorkersEnv+"=1")
	}
	cmd.Env = append(cmd.Env, weft.CommandEnv+"="+replayPrefix)
	progress := progressWriter(stderr, o)
	if progress != nil {
		cmd.Env = append(cmd.Env, rt.ProgressEnv+"=1")
	}
	if o.replay != "" {
		cmd.Env = append(cmd.Env, weft.ReplayEnv+"="+o.replay)
	}
	if o.html != "" {
		cmd.Env = append(cmd.Env, weft.HTMLEnv+"="+o.html)
	}
	failDir := ""
	if o.json {
		// Check writes each failure there as JSON, which the failing
		// test's event carries (WeftFailures).
		failDir = filepath.Join(tmp, "failures")
		cmd.Env = append(cmd.Env, weft.FailuresEnv+"="+failDir)
	}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return report(err, stderr)
	}
	// An interrupt (Ctrl-C) reaches the test binary, whose exploration
	// stops and logs its summary; weft test waits for go test to end.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	if err := cmd.Start(); err != nil {
		return report(fmt.Errorf("running go test: %w", err), stderr)
	}
	res := printEvents(out, stdout, progress, o, failDir)
	werr := cmd.Wait()
	select {
	case <-sig:
		res.interrupted = true
	default:
	}
	switch {
	case res.interrupted:
		fmt.Fprintln(stderr, "weft test: interrupted")
		return exitInterrupted
	case res.buildFailed:
		return exitUsage
	case res.failed:
		return exitFailure
	case werr != nil:
		fmt.Fprintf(stderr, "weft test: go test: %v\n", werr)
		return exitFailure
	case res.refused:
		return exitUsage
	case o.strict && (res.bounded || res.inconclusive):
		fmt.Fprintln(stderr, "weft test: -strict: no failure, but an exploration was stopped by a bound before it finished (-v shows which)")
		return exitTimeout
	case res.inconclusive:
		fmt.Fprintln(stderr, "weft test: no failure, but a test is INCONCLUSIVE: its exploration was stopped before its first execution ended, or its failing executions all reached the step bound (-max-steps) or blocked outside weft's control, or its only failure may come from state the body keeps between executions")
		return exitInconclusive
	}
	return exitOK
}

// progressWriter returns where the progress lines of the explorations go:
// stderr if it is a terminal and the output is not JSON, else nil (none).
func progressWriter(stderr io.Writer, o *testOptions) io.Writer {
	if o.json || !isTerminal(stderr) {
		return nil
	}
	return stderr
}

// hasFlag reports whether flags holds go test's flag -name.
func hasFlag(flags []string, name string) bool {
	return slices.ContainsFunc(flags, func(f string) bool { return strings.HasPrefix(f, "-"+name+"=") })
}

// rewriteFlags rewrites the packages pkgs of the module in dir, and the
// packages they import but the standard library's and those of the modules
// real lists ("all": every dependency), writes the rewritten files and the
// overlay to tmp, and returns the flags of the go command that build them:
// -overlay, buildFlags, and those of moduleFlags; and moduleFlags'
// notices.
func rewriteFlags(dir, tmp string, buildFlags, pkgs, real []string) ([]string, []string, error) {
	modFlags, goVersion, notices, err := moduleFlags(dir, tmp, pkgs)
	if err != nil {
		return nil, nil, usageErrorf("weft test: %v", err)
	}
	flags := append(slices.Clone(buildFlags), modFlags...)
	cfg := rewrite.Config{Dir: dir, BuildFlags: flags, GoVersion: goVersion, Real: real, AllReal: slices.Contains(real, "all")}
	res, err := rewrite.Load(cfg, pkgs...)
	if err != nil {
		return nil, nil, usageErrorf("weft test: %v", err)
	}
	if flags, err = cachedModules(dir, tmp, flags, res); err != nil {
		return nil, nil, err
	}
	overlay, err := rewrite.Overlay(tmp, res.Files)
	if err != nil {
		return nil, nil, err
	}
	return append([]string{"-overlay=" + overlay}, flags...), notices, nil
}

// raceBuildFlags returns flags, with what -race needs besides if it holds
// -race: the build tag weftrace, which makes weft's threads hide their
// hand-offs from the race detector (internal/engine/racesync.go), and no
// instrumentation of weft's own packages, whose memory the threads share
// with no order the detector sees, but for internal/racemark, whose frames
// the detector must see to tell which goroutine is which of weft's threads,
// and std/sync/atomic, whose calls of sync/atomic on the program's words
// the detector must see as atomic accesses (the compiler turns them into
// plain instructions in a package built without it).
func raceBuildFlags(flags []string) []string {
	if !slices.Contains(flags, "-race") {
		return flags
	}
	out := slices.Clone(flags)
	tags := "weftrace"
	for i, f := range out {
		if t, ok := strings.CutPrefix(f, "-tags="); ok && t != "" {
			tags = t + "," + tags
			out = slices.Delete(out, i, i+1)
			break
		}
	}
	return append(out, "-tags="+tags, "-gcflags="+weftModule+"/...=-race=false", "-gcflags="+racemark.Path+"=", "-gcflags="+rewrite.AtomicPath+"=")
}

// replayPrefix is the command of the replay commands that the reports
// print (weft.CommandEnv); printEvents adds the build flags and the
// package.
const replayPrefix = "weft test"

// event is an event of go test -json (cmd/test2json).
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	FailedBuild string
}

// testResult is what printEvents saw: refused says that a test was
// skipped for constructs weft test does not run (rt.Refuse), bounded
// that an exploration was stopped by a bound before it finished
// (rt.BoundMarker), inconclusive that one was stopped before its first
// execution ended or that its failing executions all reached the step
// bound (weft.Inconclusive), interrupted that an interrupt
// stopped one (rt.InterruptedMarker).
type testResult struct {
	failed, buildFailed, bounded, inconclusive, refused, interrupted bool
}

// printEvents reads go test's JSON events from r and prints the output of
// the tests that failed (of all with -v), or the events themselves with
// -json, with each replay command completed with the test's package, and
// weft's threads named in the race detector's reports (raceReports). The
// progress lines of the explorations go to progress, if not nil, each in
// place of the one before. Without -json, each package's output is
// printed whole, in the order the packages started, as go test prints it
// (packageOrder).
func printEvents(r io.Reader, w io.Writer, progress io.Writer, o *testOptions, failDir string) testResult {
	p := &eventPrinter{w: w, enc: json.NewEncoder(w), o: o, held: map[[2]string][]string{}, running: map[[2]string]bool{},
		progress: progress, marked: map[[2]string]string{}, failDir: failDir, tokens: map[[2]string][]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	var races raceReports
	order := newPackageOrder(w)
	defer order.flush()
	print := func(e raceEvent) bool {
		if o.json {
			return p.print(e) // events name their package: go test interleaves them
		}
		p.w = order.writer(e.ev.Package)
		ok := p.print(e)
		if packageEnd(e.ev) {
			order.end(e.ev.Package)
		}
		return ok
	}
	for sc.Scan() {
		var ev event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			fmt.Fprintln(w, sc.Text()) // not an event: go's own message
			continue
		}
		for _, e := range races.add(raceEvent{ev, bytes.Clone(sc.Bytes())}) {
			if !print(e) {
				return p.res
			}
		}
	}
	for _, e := range races.flush() {
		if !print(e) {
			break
		}
	}
	return p.res
}

// eventPrinter prints go test's events for printEvents.
type eventPrinter struct {
	w    io.Writer
	enc  *json.Encoder
	o    *testOptions
	held map[[2]string][]string // the output of each running test
	// running holds the tests started and not ended, by package and name;
	// crashed those of them that printed a panic or a fatal error (with
	// -v, whose output is not held).
	running map[[2]string]bool
	crashed map[[2]string]bool
	res     testResult
	// failDir is where Check writes its failures as JSON (-json), and
	// tokens the replay tokens of each test's reports, which name them.
	failDir string
	tokens  map[[2]string][]string
	// progress, if not nil, is the terminal the progress lines go to;
	// progressShown says one is on it.
	progress      io.Writer
	progressShown bool
	// marked holds, for each test skipped as inconclusive or interrupted,
	// the word its "--- SKIP" line says instead.
	marked map[[2]string]string
}

// print prints event e and records what it says; it reports false if
// writing it failed.
func (p *eventPrinter) print(e raceEvent) bool {
	ev, o := e.ev, p.o
	ev.Output = completeReplay(ev.Output, ev.Package, o.replayFlags())
	key := [2]string{ev.Package, ev.Test}
	if strings.HasPrefix(ev.Output, rt.ProgressMarker) {
		if p.progress != nil {
			fmt.Fprintf(p.progress, "\r\x1b[K%s", strings.TrimSpace(strings.TrimPrefix(ev.Output, rt.ProgressMarker)))
			p.progressShown = true
		}
		return true
	}
	if p.progressShown && ev.Action == "output" {
		fmt.Fprint(p.progress, "\r\x1b[K")
		p.progressShown = false
	}
	switch {
	case strings.Contains(ev.Output, rt.BoundMarker):
		p.res.bounded = true
	case strings.Contains(ev.Output, weft.Inconclusive+": "):
		p.res.inconclusive = true
		p.marked[key] = "INCONCLUSIVE"
	case strings.Contains(ev.Output, rt.InterruptedMarker):
		p.res.interrupted = true
		p.marked[key] = "INTERRUPTED"
	}
	if m := p.marked[key]; m != "" && !o.json && strings.Contains(ev.Output, "--- SKIP: ") {
		ev.Output = strings.Replace(ev.Output, "--- SKIP: ", "--- "+m+": ", 1)
	}
	if refusal(ev.Output) {
		p.res.refused = true
	}
	switch ev.Action {
	case "fail":
		if ev.FailedBuild != "" {
			p.res.buildFailed = true
		}
		p.res.failed = true
	case "build-fail":
		p.res.buildFailed = true
	}
	if o.json {
		// The event as go test wrote it, every field kept, but for the
		// completed replay commands and the named threads, and with
		// weft's failures on a failing test's.
		key := [2]string{ev.Package, ev.Test}
		if _, tok, ok := strings.Cut(ev.Output, "replay token: "); ok && ev.Test != "" {
			p.tokens[key] = append(p.tokens[key], strings.TrimSpace(tok))
		}
		var raw map[string]any
		if err := json.Unmarshal(e.raw, &raw); err == nil {
			if _, ok := raw["Output"]; ok {
				raw["Output"] = ev.Output
			}
			if ev.Action == "fail" && ev.Test != "" {
				if fs := p.failures(key); len(fs) > 0 {
					raw["WeftFailures"] = fs
				}
			}
			if err := p.enc.Encode(raw); err != nil {
				return false
			}
		}
		return true
	}
	switch {
	case ev.Action == "run" && ev.Test != "":
		p.running[key] = true
	case ev.Action == "fail" && ev.Test == "":
		p.unfinished(ev.Package)
	case ev.Action == "output" && ev.Test != "" && !o.verbose:
		if noLonger(ev.Output) {
			io.WriteString(p.w, ev.Output) // whatever the test's outcome
			break
		}
		if !isRunLine(ev.Output) {
			p.held[key] = append(p.held[key], ev.Output)
		}
	case ev.Action == "output" || ev.Action == "build-output":
		if ev.Test == "" && isRunLine(ev.Output) && !o.verbose {
			return true
		}
		if ev.Test != "" && crashLine(ev.Output) {
			if p.crashed == nil {
				p.crashed = map[[2]string]bool{}
			}
			p.crashed[key] = true
		}
		if ev.Test == "" && strings.HasPrefix(ev.Output, "FAIL\t") {
			p.unfinished(ev.Package) // before go test's last line
		}
		io.WriteString(p.w, ev.Output)
	case ev.Test != "" && (ev.Action == "fail" || ev.Action == "pass" || ev.Action == "skip"):
		if ev.Action == "fail" || (ev.Action == "skip" && (slices.ContainsFunc(p.held[key], refusal) || p.marked[key] != "")) {
			for _, s := range p.held[key] {
				io.WriteString(p.w, s)
			}
		}
		delete(p.held, key)
		delete(p.running, key)
	}
	return true
}

// failures returns the failures Check wrote as JSON for test key, by the
// replay tokens its reports printed; it forgets the test's tokens.
// Their replay commands are completed as the output's.
func (p *eventPrinter) failures(key [2]string) []failjson.Failure {
	var out []failjson.Failure
	for _, tok := range p.tokens[key] {
		b, err := os.ReadFile(filepath.Join(p.failDir, weft.FailureFileName(tok)))
		var f failjson.Failure
		if err == nil && json.Unmarshal(b, &f) == nil {
			f.Replay = completeReplay(f.Replay, key[0], p.o.replayFlags())
			out = append(out, f)
		}
	}
	delete(p.tokens, key)
	return out
}

// refusal reports whether s, a line of a test's output, says that weft
// test refused the test.
func refusal(s string) bool { return strings.Contains(s, rt.RefusedMarker) }

// noLonger reports whether s, a line of a test's output, says that a
// replay file's failure no longer happens (Check's message): weft test
// prints it even when the test passes.
func noLonger(s string) bool {
	return strings.Contains(s, "weft: recorded failure in ") && strings.Contains(s, " no longer happens (fixed?)")
}

// isRunLine reports whether s is one of go test -v's lines that a quiet
// run does not print.
func isRunLine(s string) bool {
	return strings.HasPrefix(s, "=== ") || s == "PASS\n"
}

// completeReplay adds the build flags and the package to the replay
// commands in s.
func completeReplay(s, pkg string, buildFlags []string) string {
	cmd := replayPrefix + " -run "
	if !strings.Contains(s, cmd) {
		return s
	}
	full := replayPrefix + " "
	for _, f := range buildFlags {
		full += shellQuote(f) + " "
	}
	return strings.ReplaceAll(s, cmd, full+pkg+" -run ")
}

// shellQuote quotes s for a shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '=' || r == '.' || r == '/' || r == '_' || r == ',' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// moduleFlags returns the go command flags that make weft's packages
// available to the module in dir: none when the module requires weft (or
// is weft); otherwise -modfile with a temporary copy of go.mod, written to
// tmp, that requires weft and replaces it with weft's source directory,
// and the go line of the module's own go.mod, which the temporary one
// raises to weft's (rewrite.Config.GoVersion).
func moduleFlags(dir, tmp string, pkgs []string) (flags []string, goVersion string, notices []string, err error) {
	gomod, err := goOutput(dir, "env", "GOMOD")
	if err != nil {
		return nil, "", nil, err
	}
	if gomod == "" || gomod == os.DevNull {
		return nil, "", nil, errors.New("not in a module: weft test runs the tests of a module's packages (go mod init creates one)")
	}
	if err := samePatternModule(dir, gomod, pkgs); err != nil {
		return nil, "", nil, err
	}
	all, err := goOutput(dir, "list", "-m", "all")
	if err != nil {
		return nil, "", nil, err
	}
	for _, l := range strings.Split(all, "\n") {
		if l == weftModule || strings.HasPrefix(l, weftModule+" ") {
			return nil, "", nil, nil // the module requires weft, or is weft
		}
	}
	root, err := weftRoot()
	if err != nil {
		return nil, "", nil, err
	}
	mod := filepath.Join(tmp, "go.mod")
	if err := copyFile(gomod, mod); err != nil {
		return nil, "", nil, err
	}
	sum := filepath.Join(tmp, "go.sum")
	var sums []byte
	for _, f := range []string{strings.TrimSuffix(gomod, ".mod") + ".sum", filepath.Join(root, "go.sum")} {
		b, err := os.ReadFile(f)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, "", nil, err
		}
		sums = append(sums, b...)
	}
	if err := os.WriteFile(sum, sums, 0o644); err != nil {
		return nil, "", nil, err
	}
	if _, err := goOutput(dir, "mod", "edit", "-modfile="+mod,
		"-require="+weftModule+"@v0.0.0-00010101000000-000000000000", "-replace="+weftModule+"="+root); err != nil {
		return nil, "", nil, err
	}
	own, err := goLine(dir, gomod)
	if err != nil {
		return nil, "", nil, err
	}
	weftGo, err := goLine(dir, filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, "", nil, err
	}
	if !goVersionLess(own, weftGo) {
		own = "" // the go command keeps the module's go line
	}
	// -mod=mod lets the go command complete the copy with weft's own
	// requirements, raising its go line to weft's; the module's go.mod and
	// go.sum are left alone.
	flags = []string{"-modfile=" + mod, "-mod=mod"}
	if strings.Contains(all, "\n") { // the module has dependencies
		after, err := goOutput(dir, append([]string{"list", "-m"}, append(flags, "all")...)...)
		if err != nil {
			return nil, "", nil, err
		}
		notices = raisedVersions(all, after)
	}
	return flags, own, notices, nil
}

// raisedVersions compares two listings of go list -m all, before and
// after weft was added to the module's requirements, and returns a notice
// for each module whose version the addition changed (minimal version
// selection picks the highest version any requirement asks for):
// weft: building with golang.org/x/sync v0.24.0 (your go.mod: v0.1.0),
// required by weft.
func raisedVersions(before, after string) []string {
	versions := func(list string) map[string]string {
		m := map[string]string{}
		for _, l := range strings.Split(list, "\n") {
			f := strings.Fields(l)
			if len(f) >= 2 {
				m[f[0]] = f[1]
			}
		}
		return m
	}
	was, now := versions(before), versions(after)
	var out []string
	for path, v := range was {
		if nv, ok := now[path]; ok && nv != v {
			out = append(out, fmt.Sprintf("weft: building with %s %s (your go.mod: %s), required by weft", path, nv, v))
		}
	}
	slices.Sort(out)
	return out
}

// samePatternModule checks that the directories that the patterns pkgs
// name (those that start with . or /) are in the module whose go.mod is
// gomod, the module of dir: weft test rewrites and builds the packages of
// that one module, as go test does.
func samePatternModule(dir, gomod string, pkgs []string) error {
	for _, p := range pkgs {
		if !strings.HasPrefix(p, ".") && !filepath.IsAbs(p) {
			continue // an import path
		}
		pdir := strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
		if pdir == "" {
			pdir = "/"
		}
		if !filepath.IsAbs(pdir) {
			pdir = filepath.Join(dir, pdir)
		}
		if fi, err := os.Stat(pdir); err != nil || !fi.IsDir() {
			continue // go reports the pattern that matches nothing
		}
		other, err := goOutput(pdir, "env", "GOMOD")
		if err != nil {
			return err
		}
		if other == gomod || other == "" || other == os.DevNull {
			continue
		}
		mod, err := goOutput(pdir, "list", "-m")
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dirOrCwd(dir), filepath.Dir(other))
		if err != nil {
			rel = filepath.Dir(other)
		}
		return fmt.Errorf("%s is in module %s (%s), not in the module of this directory (%s): weft test runs the tests of one module's packages; run it in that module (cd %s && weft test ./...)",
			p, mod, other, gomod, shellQuote(rel))
	}
	return nil
}

// dirOrCwd returns dir, or the current directory for "".
func dirOrCwd(dir string) string {
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			return abs
		}
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}

// goLine returns the go line's version of the go.mod file gomod.
func goLine(dir, gomod string) (string, error) {
	js, err := goOutput(dir, "mod", "edit", "-json", gomod)
	if err != nil {
		return "", err
	}
	var m struct{ Go string }
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		return "", fmt.Errorf("reading the go line of %s: %w", gomod, err)
	}
	return m.Go, nil
}

// goVersionLess reports whether go line version a (1.N or 1.N.M) is older
// than b.
func goVersionLess(a, b string) bool {
	num := func(v string) (n [3]int) {
		for i, p := range strings.SplitN(v, ".", 3) {
			n[i], _ = strconv.Atoi(p)
		}
		return n
	}
	x, y := num(a), num(b)
	return slices.Compare(x[:], y[:]) < 0
}

// weftModule is weft's module path.
const weftModule = "github.com/weft-go/weft"

// weftRoot returns the directory of weft's source: $WEFT_ROOT, or the
// module this command was built from.
func weftRoot() (string, error) {
	if d := os.Getenv("WEFT_ROOT"); d != "" {
		return d, nil
	}
	_, file, _, ok := runtime.Caller(0)
	if ok {
		root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
		if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil && strings.Contains(string(b), "module "+weftModule+"\n") {
			return root, nil
		}
	}
	return "", errors.New("the module does not require weft and weft's source directory is not known: add weft to the module (go get " + weftModule + "), or set WEFT_ROOT to weft's source directory")
}

// goOutput runs the go command in dir and returns its trimmed output.
func goOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(b)), nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}
