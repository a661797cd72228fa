// This file implements the command line: it reads the runs and prints
// their footprints.

package main

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"text/tabwriter"
)

func main() {
	execs := flag.Uint64("execs", 0, "the number of executions of each run (required)")
	top := flag.Int("top", 20, "the number of packages and functions to print")
	trim := flag.String("trim", "github.com/weft-go/weft/", "a prefix to leave out of package and function names")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: footprint [-top N] -execs E BINARY CALLGRIND [BINARY2 CALLGRIND2]")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	if *execs == 0 || (len(args) != 2 && len(args) != 4) {
		flag.Usage()
		os.Exit(2)
	}
	var runs []footprint
	for i := 0; i < len(args); i += 2 {
		f, err := run(args[i], args[i+1], *execs)
		if err != nil {
			fmt.Fprintf(os.Stderr, "footprint: %v\n", err)
			os.Exit(1)
		}
		runs = append(runs, f)
	}
	report(os.Stdout, runs, *top, *trim)
}

// run measures the footprint of the run of binary that callgrind file
// describes.
func run(binary, file string, execs uint64) (footprint, error) {
	var out, errOut bytes.Buffer
	cmd := exec.Command("go", "tool", "objdump", binary)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return footprint{}, fmt.Errorf("go tool objdump %s: %v: %s", binary, err, strings.TrimSpace(errOut.String()))
	}
	c, err := readCode(&out)
	if err != nil {
		return footprint{}, fmt.Errorf("the disassembly of %s: %w", binary, err)
	}
	f, err := os.Open(file)
	if err != nil {
		return footprint{}, err
	}
	defer f.Close()
	counts, err := readCounts(f, binary)
	if err != nil {
		return footprint{}, fmt.Errorf("%s: %w", file, err)
	}
	if len(counts) == 0 {
		return footprint{}, fmt.Errorf("%s: no instruction of %s ran: is it the callgrind output of a run of that binary?", file, binary)
	}
	return measure(c, counts, execs), nil
}

// report prints the footprints of runs (one, or two to compare), and
// their top packages and functions by size, or by change for two.
func report(w io.Writer, runs []footprint, top int, trim string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	defer tw.Flush()
	row := func(name string, vals []int) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, v := range vals {
			fmt.Fprintf(tw, "%9d\t", v)
		}
		if len(vals) == 2 {
			fmt.Fprintf(tw, "%+9d\t", vals[1]-vals[0])
		}
		fmt.Fprintln(tw)
	}
	// values returns get of each run.
	values := func(get func(footprint) int) []int {
		var v []int
		for _, f := range runs {
			v = append(v, get(f))
		}
		return v
	}
	fmt.Fprintf(tw, "code run at least once per execution\t")
	for i := range runs {
		fmt.Fprintf(tw, "%9s\t", fmt.Sprintf("run %d", i+1))
	}
	if len(runs) == 2 {
		fmt.Fprintf(tw, "%9s\t", "change")
	}
	fmt.Fprintln(tw)
	row("instruction bytes", values(func(f footprint) int { return f.bytes }))
	row("64-byte lines", values(func(f footprint) int { return f.lines }))
	table := func(title string, get func(footprint) map[string]int) {
		fmt.Fprintf(tw, "%s\t\n", title)
		for _, name := range topNames(runs, get, top) {
			row("  "+strings.TrimPrefix(name, trim), values(func(f footprint) int { return get(f)[name] }))
		}
	}
	table("bytes by package", footprint.byPackage)
	table("bytes by function", func(f footprint) map[string]int { return f.fns })
}

// topNames returns the n names of get's maps with the most bytes in the
// one run, or with the largest change between two.
func topNames(runs []footprint, get func(footprint) map[string]int, n int) []string {
	weight := map[string]int{}
	for i, f := range runs {
		for name, b := range get(f) {
			if len(runs) == 2 && i == 0 {
				b = -b
			}
			weight[name] += b
		}
	}
	names := make([]string, 0, len(weight))
	for name := range weight {
		names = append(names, name)
	}
	abs := func(v int) int { return max(v, -v) }
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(abs(weight[b]), abs(weight[a])); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return names[:min(n, len(names))]
}
