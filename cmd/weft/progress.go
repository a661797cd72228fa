// This file implements the progress line of long runs.

package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/weft-go/weft"
)

// progressPrinter prints weft's progress snapshots on standard error: on a
// terminal one line overwritten in place, elsewhere one line each.
type progressPrinter struct {
	w        io.Writer
	terminal bool
	printed  bool
}

func newProgressPrinter(w io.Writer) *progressPrinter {
	return &progressPrinter{w: w, terminal: isTerminal(w)}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// line formats a snapshot.
func progressLine(p weft.Progress) string {
	rate := 0.0
	if s := p.Elapsed.Seconds(); s > 0 {
		rate = float64(p.Executions) / s
	}
	return fmt.Sprintf("weft: %d executions, %d failures, %v, %.0f executions/s",
		p.Executions, p.Failures, p.Elapsed.Round(time.Second), rate)
}

// print prints a snapshot.
func (pp *progressPrinter) print(p weft.Progress) {
	if pp.terminal {
		fmt.Fprintf(pp.w, "\r\x1b[K%s", progressLine(p))
	} else {
		fmt.Fprintln(pp.w, progressLine(p))
	}
	pp.printed = true
}

// done clears the progress line on a terminal.
func (pp *progressPrinter) done() {
	if pp.terminal && pp.printed {
		fmt.Fprint(pp.w, "\r\x1b[K")
	}
}
