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
	for n, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if label, secs, ok := strings.Cut(line, "\t"); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(secs), 64)
			if err != nil || v <= 0 {
				return b, fmt.Errorf("speed baseline, line %d: %q is not a number of seconds", n+1, secs)
			}
			b.cpu[strings.TrimSpace(label)] = v
			continue
		}
		key, val, _ := strings.Cut(line, " ")
		val = strings.TrimSpace(val)
		switch key {
		case "machine":
			b.machine = val
		case "date":
			b.date = val
		case "commit":
			b.commit = val
		default:
			return b, fmt.Errorf("speed baseline, line %d: %q is neither a field nor a row", n+1, line)
		}
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
