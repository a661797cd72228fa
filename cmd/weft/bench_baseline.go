// This file reads the baseline of weft bench's speed table: weft's own CPU
// seconds per row, measured once at an earlier commit and committed
// (speed_baseline.txt), so that the table shows a regression as a ratio.

package main

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

//go:embed speed_baseline.txt
var speedBaselineText string

// speedBaseline is the speed table's baseline: where and when it was
// measured, at which commit, and the CPU seconds of optimal per row label.
type speedBaseline struct {
	machine, date, commit string
	cpu                   map[string]float64
}

// baseline is the committed baseline, parsed once.
var baseline = mustParseBaseline(speedBaselineText)

// parseBaseline parses a baseline: lines "machine TEXT", "date TEXT" and
// "commit TEXT", and rows "LABEL<TAB>SECONDS"; '#' starts a comment line.
func parseBaseline(text string) (speedBaseline, error) {
	b := speedBaseline{cpu: map[string]float64{}}
	err := parseFigures(text, "speed baseline", func(cols []string) error {
		v, err := strconv.ParseFloat(strings.TrimSpace(cols[len(cols)-1]), 64)
		if len(cols) != 2 || err != nil || v <= 0 {
			return fmt.Errorf("%q is not a number of seconds", cols[len(cols)-1])
		}
		b.cpu[strings.TrimSpace(cols[0])] = v
		return nil
	}, func(key, val string) bool {
		switch key {
		case "machine":
			b.machine = val
		case "date":
			b.date = val
		case "commit":
			b.commit = val
		default:
			return false
		}
		return true
	})
	if err != nil {
		return b, err
	}
	if b.commit == "" || b.date == "" || b.machine == "" || len(b.cpu) == 0 {
		return b, fmt.Errorf("speed baseline: machine, date, commit and rows are all needed")
	}
	return b, nil
}

func mustParseBaseline(text string) speedBaseline {
	b, err := parseBaseline(text)
	if err != nil {
		panic("weft internal error: " + err.Error())
	}
	return b
}
