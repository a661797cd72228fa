// This file implements the command's entry point and dispatch to its
// subcommands.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	_ "github.com/weft-go/weft/concolic" // the concolic strategies
	"github.com/weft-go/weft/programs"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK      = 0 // no failure found
	exitFailure = 1 // failures found
	exitUsage   = 2 // bad usage or input
	exitTimeout = 3 // no failure found before -timeout stopped the run
	// exitInconclusive is weft test's status when no test failed but one
	// is inconclusive: its exploration was stopped before its first
	// execution ended, or its failing executions all reached the step
	// bound.
	exitInconclusive = 4
	// exitInterrupted is the status of a run an interrupt (SIGINT,
	// Ctrl-C) stopped, after its partial summary: 128 + SIGINT, as a
	// shell reports a command the signal killed.
	exitInterrupted = 130
)

// usage is the command's overall help.
const usage = `weft explores the interleavings of concurrent programs and reports their failures.

Usage:
	weft list                 list the built-in programs, their parameters and the strategies
	weft run [flags] PROGRAM  explore PROGRAM and print its failures and a summary
	weft test [flags] [packages]
	                          run the packages' ordinary Go tests, each Test
	                          function as a weft exploration
	weft replay [flags] PROGRAM TOKEN
	                          replay one execution of PROGRAM from a failure's token
	weft bench [flags]        the tables of the papers weft implements (Saarikivi
	                          et al. 2012, Kähkönen et al. 2014, Lei and Carver
	                          2006, Farzan et al. 2013): weft's strategies beside
	                          the papers' figures, and optimal's speed beside
	                          Nidhugg's and GenMC's
	weft worker -nats URL     explore units of distributed runs (weft run -nats URL)
	weft vet [packages]       check weft test bodies for code weft cannot see
	                          (go statements, Go channels, sync, time.Sleep, ...)
	weft version              show weft's version, Go's and Z3's
	weft help [COMMAND]       show help

Flags go before PROGRAM, as with the go command. Run 'weft help run' for the
flags of run. Exit status: 0 no failure, 1 failures found, 2 bad usage or input,
3 no failure found before -timeout stopped the run, 4 inconclusive: the
failing executions all reached the step bound (-max-steps) or, in weft test,
blocked outside weft's control, 130 an interrupt
(Ctrl-C) stopped the run (after printing what it found so far).
`

// run runs the command with args (without the program name) and returns its
// exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "list":
		err = cmdList(rest, stdout, stderr)
	case "run":
		return cmdRun(rest, stdout, stderr)
	case "replay":
		return cmdReplay(rest, stdout, stderr)
	case "test":
		return cmdTest(rest, stdout, stderr)
	case "bench":
		return cmdBench(rest, stdout, stderr)
	case "vet":
		return cmdVet(rest, stdout, stderr)
	case "worker":
		return cmdWorker(rest, stdout, stderr)
	case "version":
		return cmdVersion(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		return cmdHelp(rest, stdout, stderr)
	default:
		err = usageErrorf("unknown command %q; run 'weft help'", cmd)
	}
	return report(err, stderr)
}

// usageError is bad usage or input: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// report prints err, if any, and returns the exit status it calls for.
func report(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK // the flag set printed the help
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "weft ") {
		msg = "weft: " + msg
	}
	fmt.Fprintln(stderr, msg)
	var u *usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitFailure
}

// cmdHelp prints the help of the command or of one subcommand.
func cmdHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	var fs *flag.FlagSet
	switch args[0] {
	case "run":
		fs, _ = runFlags(stdout)
	case "replay":
		fs, _ = replayFlags(stdout)
	case "list":
		fs = listFlags(stdout)
	case "vet":
		fs = vetFlags(stdout)
	case "bench":
		return cmdBench([]string{"-h"}, stdout, stderr)
	case "test":
		return cmdTest([]string{"-h"}, stdout, stderr)
	case "worker":
		return cmdWorker([]string{"-h"}, stdout, stderr)
	default:
		return report(usageErrorf("unknown command %q; run 'weft help'", args[0]), stderr)
	}
	fs.SetOutput(stdout)
	fs.Usage()
	return exitOK
}

// paramFlag collects repeated -p name=value flags.
type paramFlag map[string]int

func (p paramFlag) String() string {
	var parts []string
	for k, v := range p {
		parts = append(parts, fmt.Sprintf("%s=%d", k, v))
	}
	return strings.Join(parts, " ")
}

func (p paramFlag) Set(s string) error {
	name, v, err := programs.ParseAssignment(s)
	if err != nil {
		return err
	}
	if _, dup := p[name]; dup {
		return fmt.Errorf("parameter %s given twice", name)
	}
	p[name] = v
	return nil
}

// intFlag is an int flag with a lower bound: the flag package rejects a
// smaller value as it rejects one that is not a number, naming the flag.
type intFlag struct {
	p   *int
	min int
	why string // what the bound is for, shown after it; may be empty
}

// boundedInt defines an int flag of fs at least min.
func boundedInt(fs *flag.FlagSet, p *int, name string, value, min int, why, usage string) {
	*p = value
	fs.Var(&intFlag{p: p, min: min, why: why}, name, usage)
}

func (f *intFlag) String() string {
	if f == nil || f.p == nil {
		return "0"
	}
	return strconv.Itoa(*f.p)
}

func (f *intFlag) Set(s string) error {
	v, err := strconv.ParseInt(s, 0, strconv.IntSize)
	if err != nil {
		return errors.New("parse error") // the flag package's word for it
	}
	if int(v) < f.min {
		return boundError(f.min == 0, fmt.Sprintf("must be at least %d", f.min), f.why)
	}
	*f.p = int(v)
	return nil
}

// durationFlag is a duration flag that must not be negative.
type durationFlag struct {
	p   *time.Duration
	why string
}

// nonNegativeDuration defines a duration flag of fs that must not be
// negative.
func nonNegativeDuration(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, why, usage string) {
	*p = value
	fs.Var(&durationFlag{p: p, why: why}, name, usage)
}

func (f *durationFlag) String() string {
	if f == nil || f.p == nil {
		return "0s"
	}
	return f.p.String()
}

func (f *durationFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		if _, nerr := strconv.ParseFloat(s, 64); nerr == nil {
			return fmt.Errorf("a duration needs a unit: %ss, %sms or %sm, say (units: ns, us, ms, s, m, h)", s, s, s)
		}
		return errors.New("not a duration: want a number and a unit, as 30s, 1.5m or 500ms (units: ns, us, ms, s, m, h)")
	}
	if d < 0 {
		return boundError(true, "", f.why)
	}
	*f.p = d
	return nil
}

// boundError says a flag's value is below its bound: "must not be
// negative" when the bound is 0, else bound; why follows in parentheses.
func boundError(zero bool, bound, why string) error {
	msg := bound
	if zero {
		msg = "must not be negative"
	}
	if why != "" {
		msg += " (" + why + ")"
	}
	return errors.New(msg)
}

// lookup finds the program named name and resolves its parameters.
func lookup(name string, set map[string]int) (*programs.Program, programs.Params, error) {
	p := programs.Lookup(name)
	if p == nil {
		return nil, nil, usageErrorf("unknown program %q; run 'weft list' to see the programs", name)
	}
	ps, err := p.Resolve(set)
	if err != nil {
		return nil, nil, usageErrorf("%v; run 'weft list' to see the parameters", err)
	}
	return p, ps, nil
}

// parseFlags parses args with fs. On -h it prints fs's usage on help and
// returns flag.ErrHelp; other errors become usage errors with a pointer to
// the help.
func parseFlags(fs *flag.FlagSet, args []string, help io.Writer) error {
	out := fs.Output()
	fs.SetOutput(io.Discard) // the flag package would print the whole usage with each error
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(help)
		fs.Usage()
		return err
	}
	return usageErrorf("weft %s: %v; see 'weft help %s'", fs.Name(), err, fs.Name())
}
