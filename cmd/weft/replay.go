// This file implements weft replay: run one recorded execution of a built-in
// program again.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/strategy/replay"
)

// replayOptions are the flags of weft replay.
type replayOptions struct {
	params   paramFlag
	maxSteps int
	races    bool
}

func replayFlags(out io.Writer) (*flag.FlagSet, *replayOptions) {
	o := &replayOptions{params: paramFlag{}}
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Var(o.params, "p", "set a program parameter `name=value`, as in the run that found the failure (repeatable; not needed: the token carries the parameters, and a -p must agree with it)")
	boundedInt(fs, &o.maxSteps, "max-steps", 0, 0, "0: weft's default", "the step bound of the run that found the failure, if it set one (`N`)")
	fs.BoolVar(&o.races, "races", false, "check the execution for data races, as weft run -races does")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: weft replay [-max-steps N] [-races] PROGRAM TOKEN\n\nReplay the execution of PROGRAM recorded in TOKEN (from a failure report or\nweft run -json: the program's parameters, as in n=3,meals=1,fixed=0:w1.AwMA...,\nthen the recorded choices) and print its report. Exit status: 0 the replay did\nnot fail, 1 it failed, 2 bad usage or input (such as a malformed token, or one\nrecorded with another program or another -max-steps).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs, o
}

// cmdReplay implements weft replay.
func cmdReplay(args []string, stdout, stderr io.Writer) int {
	fs, o := replayFlags(stderr)
	if err := parseFlags(fs, args, stdout); err != nil {
		return report(err, stderr)
	}
	if fs.NArg() != 2 {
		return report(usageErrorf("weft replay: want PROGRAM TOKEN, got %d arguments (flags go before PROGRAM; see 'weft help replay')", fs.NArg()), stderr)
	}
	fromToken, token, err := splitToken(fs.Arg(1))
	if err != nil {
		return report(err, stderr)
	}
	set, err := mergeParams(fromToken, o.params)
	if err != nil {
		return report(err, stderr)
	}
	p, ps, err := lookup(fs.Arg(0), set)
	if err != nil {
		return report(err, stderr)
	}
	var opts []weft.Option
	if o.maxSteps > 0 {
		opts = append(opts, weft.WithMaxSteps(o.maxSteps))
	}
	if o.races {
		opts = append(opts, weft.WithRaces())
	}
	r, err := weft.Replay(p.Body(ps), token, opts...)
	switch {
	case errors.Is(err, replay.ErrBadToken):
		return report(usageErrorf("%v; copy the whole token from the failure report or from weft run -json", err), stderr)
	case errors.Is(err, replay.ErrMismatch):
		// The built-in programs are deterministic: the token was recorded
		// with another program, other parameters or another step bound,
		// or it is corrupt.
		return report(usageErrorf("weft replay: %s: %v\nthe token was recorded with another program, other parameters or another -max-steps, or it is corrupt; replay with the program and -max-steps of the run that printed the token, and its whole token (which carries the parameters)",
			strings.Join(append([]string{p.Name}, p.Format(ps)...), " "), err), stderr)
	case err != nil:
		return report(usageErrorf("%v", err), stderr)
	}
	if r.Failed() {
		f := r.Failures[0]
		f.Token = cliToken(p, ps, f.Token)
		fmt.Fprint(stdout, f.Report(replayCommand(p, o.maxSteps, o.races, f.Token)))
		return exitFailure
	}
	fmt.Fprintf(stdout, "weft: the replay of %s completed without failure (%d steps)\n", p.Name, r.Events)
	return exitOK
}
