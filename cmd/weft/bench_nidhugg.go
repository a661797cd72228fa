// This file reads Nidhugg's figures, which scripts/nidhugg.sh measures on
// this machine kind and commits (nidhugg.txt): the speed table prints
// Nidhugg's traces per second beside weft's, and the spin-lock tests
// compare trace counts with them.

package main

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

//go:embed nidhugg.txt
var nidhuggText string

// peerFigures are a peer tool's figures: where, when and which version
// measured them, and per row label its trace count, the executions its
// await transformation blocked, and its CPU seconds (traces -1: it could
// not run the program).
type peerFigures struct {
	machine, date, version, clang string
	rows                          map[string]peerRow
}

// peerRow is one program's figures.
type peerRow struct {
	traces, blocked int
	cpu             float64
}

// nidhugg are the committed figures, parsed once.
var nidhugg = mustParsePeer(nidhuggText)

// parsePeer parses a figures file: lines "machine TEXT", "date TEXT",
// "nidhugg TEXT" and "clang TEXT", and rows "LABEL<TAB>TRACES<TAB>BLOCKED<TAB>SECONDS",
// "-" for all three where the tool failed; '#' starts a comment line.
func parsePeer(text string) (peerFigures, error) {
	f := peerFigures{rows: map[string]peerRow{}}
	err := parseFigures(text, "nidhugg figures", func(cols []string) error {
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
		case "nidhugg":
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
		return f, fmt.Errorf("nidhugg figures: machine, date, nidhugg and rows are all needed")
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

func mustParsePeer(text string) peerFigures {
	f, err := parsePeer(text)
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

// about says where and when the figures were measured, on two lines.
func (f peerFigures) about() string {
	return fmt.Sprintf("%s --sc --optimal\n(scripts/nidhugg.sh, %s, on %s)", f.version, f.date, f.machine)
}
