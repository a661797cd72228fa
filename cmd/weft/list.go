// This file implements weft list: the built-in programs, their parameters
// and the strategies.

package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/programs"
)

func listFlags(out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: weft list\n\nList the built-in programs with their parameters (name=default, range) and the strategies.\n")
	}
	return fs
}

// cmdList prints the programs and the strategies.
func cmdList(args []string, stdout, stderr io.Writer) error {
	fs := listFlags(stderr)
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("weft list takes no arguments, got %q", strings.Join(fs.Args(), " "))
	}
	fmt.Fprintln(stdout, "Programs (weft run [-p name=value]... PROGRAM):")
	for _, p := range programs.All() {
		fmt.Fprintf(stdout, "\n%-12s %s\n", p.Name, p.Doc)
		fmt.Fprintf(stdout, "%-12s source: %s\n", "", p.Source)
		for _, q := range p.Params {
			set := fmt.Sprintf("-p %s=%d", q.Name, q.Default)
			fmt.Fprintf(stdout, "%-12s %-18s %s; %d to %d\n", "", set, q.Doc, q.Min, q.Max)
		}
	}
	fmt.Fprintf(stdout, "\nStrategies (weft run -strategy S; default %s): %s\n", defaultStrategy, strings.Join(weft.Strategies(), ", "))
	return nil
}
