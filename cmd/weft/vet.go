// This file implements weft vet: package vet's analyzer over packages, as
// go vet runs its own.

package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/weft-go/weft/vet"
)

func vetFlags(out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("vet", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: weft vet [packages]

Check the weft test bodies of the packages (as go vet names them; default .),
test files included, for code weft cannot schedule or see: go statements,
operations on Go channels, sync and sync/atomic, time.Sleep and other real
time, and plain variables written by a thread and used outside it. A body is
a function with a *weft.T parameter, such as the one given to weft.Check.
Each finding is printed as file:line:col: message.
Exit status: 0 nothing found, 1 findings, 2 bad usage or packages that do not
load.
`)
	}
	return fs
}

// cmdVet implements weft vet.
func cmdVet(args []string, stdout, stderr io.Writer) int {
	fs := vetFlags(stderr)
	if err := parseFlags(fs, args, stdout); err != nil {
		return report(err, stderr)
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	// The analyzer uses no facts: it runs on the packages named alone,
	// which are type-checked from source against the export data of
	// their dependencies (LoadSyntax), not with every dependency parsed
	// and type-checked from source too (LoadAllSyntax).
	cfg := &packages.Config{Mode: packages.LoadSyntax, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return report(usageErrorf("weft vet: loading %s: %v", strings.Join(patterns, " "), err), stderr)
	}
	bad := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			fmt.Fprintln(stderr, e)
			bad++
		}
	})
	if bad > 0 {
		fmt.Fprintf(stderr, "weft vet: %d errors loading the packages; fix them (go build, go vet) and run weft vet again\n", bad)
		return exitUsage
	}
	if len(pkgs) == 0 {
		return report(usageErrorf("weft vet: no packages match %s", strings.Join(patterns, " ")), stderr)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{vet.Analyzer}, pkgs, nil)
	if err != nil {
		return report(fmt.Errorf("weft vet: %w", err), stderr)
	}
	findings := vetFindings(graph)
	for _, f := range findings {
		fmt.Fprintln(stdout, f)
	}
	if len(findings) > 0 {
		return exitFailure
	}
	return exitOK
}

// vetFindings returns the diagnostics of graph's roots as
// file:line:col: message, each once (a package's files are analysed
// with and without its tests), by file and position, with file names
// relative to the working directory where they are below it.
func vetFindings(graph *checker.Graph) []string {
	type finding struct {
		file      string
		line, col int
		msg       string
	}
	wd, _ := os.Getwd()
	seen := map[finding]bool{}
	var out []finding
	for _, act := range graph.Roots {
		if act.Err != nil {
			out = append(out, finding{file: act.Package.PkgPath, msg: act.Err.Error()})
			continue
		}
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			file := p.Filename
			if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
				file = "." + string(filepath.Separator) + rel
			}
			f := finding{file, p.Line, p.Column, d.Message}
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	slices.SortFunc(out, func(a, b finding) int {
		return cmp.Or(strings.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col), strings.Compare(a.msg, b.msg))
	})
	lines := make([]string, len(out))
	for i, f := range out {
		if f.line == 0 {
			lines[i] = fmt.Sprintf("%s: %s", f.file, f.msg)
			continue
		}
		lines[i] = fmt.Sprintf("%s:%d:%d: %s", f.file, f.line, f.col, f.msg)
	}
	return lines
}
