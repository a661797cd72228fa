// This file reads the figures of peer tools, Nidhugg's and GenMC's, which
// scripts/nidhugg.sh and scripts/genmc.sh measure on this machine kind and
// commit (nidhugg.txt, genmc.txt): the speed table prints them beside
// weft's, and the spin-lock tests compare trace counts with them.

package main

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

//go:embed nidhugg.txt
var nidhuggText string

// peerFigures are a peer tool's figures: the tool, where, when and which
// version measured them, and per row label its trace count, the executions its
// await transformation blocked, and its CPU seconds (traces -1: it could
// not run the program).
type peerFigures struct {
	tool                          string
	machine, date, version, clang string
	rows                          map[string]peerRow
}

// peerRow is one program's figures.
type peerRow struct {
	traces, blocked int
	cpu             float64
}

// nidhugg are the committed figures, parsed once.
var nidhugg = mustParsePeer(nidhuggText, "nidhugg")

// parsePeer parses the figures file of tool ("nidhugg", "genmc"): lines
// "machine TEXT", "date TEXT", "TOOL TEXT" (its version) and "clang TEXT",
// and rows "LABEL<TAB>TRACES<TAB>BLOCKED<TAB>SECONDS", "-" for all three
// where the tool failed; '#' starts a comment line.
func parsePeer(text, tool string) (peerFigures, error) {
	f := peerFigures{tool: tool, rows: map[string]peerRow{}}
	what := tool + " figures (" + tool + ".txt)"
	err := parseFigures(text, what, func(cols []string) error {
		if len(cols) != 4 {
			return fmt.Errorf("%q: want a label, traces, blocked executions and seconds", strings.Join(cols, "\t"))
		}
		r, err := parsePeerRow(cols[1:])
		f.rows[cols[0]] = r
		return err
	}, func(key, val string) bool {
		switch key {
		case "machine":
			f.machine = val
		case "date":
			f.date = val
		case tool:
			f.version = val
		case "clang":
			f.clang = val
		default:
			return false
		}
		return true
	})
	if err != nil {
		return f, err
	}
	if f.machine == "" || f.date == "" || f.version == "" || len(f.rows) == 0 {
		return f, fmt.Errorf("%s: machine, date, %s and rows are all needed", what, tool)
	}
	return f, nil
}

// parsePeerRow parses a row's traces, blocked executions and seconds.
func parsePeerRow(cols []string) (peerRow, error) {
	if cols[0] == "-" && cols[1] == "-" && cols[2] == "-" {
		return peerRow{traces: -1}, nil
	}
	traces, err1 := strconv.Atoi(cols[0])
	blocked, err2 := strconv.Atoi(cols[1])
	cpu, err3 := strconv.ParseFloat(cols[2], 64)
	if err1 != nil || err2 != nil || err3 != nil || traces < 0 || blocked < 0 || cpu < 0 {
		return peerRow{}, fmt.Errorf("%q: want traces, blocked executions and seconds", strings.Join(cols, "\t"))
	}
	return peerRow{traces: traces, blocked: blocked, cpu: cpu}, nil
}

func mustParsePeer(text, tool string) peerFigures {
	f, err := parsePeer(text, tool)
	if err != nil {
		panic("weft internal error: " + err.Error())
	}
	return f
}

// speedCols returns the speed table's peer columns for the row labelled
// label: Nidhugg's traces per CPU second and five times it (weft's goal),
// or "-" where it has no figure.
func (f peerFigures) speedCols(label string) []string {
	r, ok := f.rows[label]
	if !ok || r.traces < 0 || r.cpu <= 0 {
		return []string{"-", "-"}
	}
	rate := float64(r.traces) / r.cpu
	return []string{strconv.FormatFloat(rate, 'f', 0, 64), strconv.FormatFloat(5*rate, 'f', 0, 64)}
}

// about says which version ran with which options (opts), and where and
// when, on two lines.
func (f peerFigures) about(opts string) string {
	return fmt.Sprintf("%s %s\n(scripts/%s.sh, %s, on %s)", f.version, opts, f.tool, f.date, f.machine)
}
