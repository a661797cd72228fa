// This file implements the naming of weft's threads in the reports of Go's
// race detector that weft test -race prints: "by goroutine 13 (weft T2):".

package main

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/weft-go/weft/internal/explore"
	"github.com/weft-go/weft/internal/racemark"
)

// raceSeparator opens and closes a report of the race detector, whose
// second line is raceWarning.
const (
	raceSeparator = "==================\n"
	raceWarning   = "WARNING: DATA RACE\n"
)

var (
	// raceAccess is the line of an access: "Read at 0x00c000018188 by
	// goroutine 13:".
	raceAccess = regexp.MustCompile(`^(.* by goroutine )(\d+):\n$`)
	// raceCreated opens the stack at which a goroutine was created:
	// "Goroutine 13 (running) created at:".
	raceCreated = regexp.MustCompile(`^Goroutine (\d+) \(([^)]*)\) created at:\n$`)
)

// raceEvent is an event of go test -json, decoded, and as it came.
type raceEvent struct {
	ev  event
	raw []byte
}

// raceReports holds back the output events of a race report, per test,
// until the report ends, to name weft's threads in it; accesses holds,
// per test, the accesses of its first report since weft's last data race
// failure (raceAccesses), which the message of the next one names.
type raceReports struct {
	open     map[[2]string][]raceEvent
	accesses map[[2]string]string
}

// add takes the next event and returns those to print now: none while a
// report is being held, the report with weft's threads named when it
// ends, and the others as they come.
func (rr *raceReports) add(e raceEvent) []raceEvent {
	key := [2]string{e.ev.Package, e.ev.Test}
	held, isOpen := rr.open[key]
	output := e.ev.Action == "output"
	switch {
	case !isOpen && output && e.ev.Output == raceSeparator:
		if rr.open == nil {
			rr.open = map[[2]string][]raceEvent{}
		}
		rr.open[key] = []raceEvent{e}
		return nil
	case !isOpen:
		if a := rr.accesses[key]; a != "" && output && strings.Contains(e.ev.Output, explore.DetectorRace) {
			delete(rr.accesses, key)
			e = withOutput(e, strings.Replace(e.ev.Output, explore.DetectorRace, explore.DetectorRace+": "+a, 1))
		}
		return []raceEvent{e}
	case output && (len(held) > 1 || e.ev.Output == raceWarning):
		held = append(held, e)
		if e.ev.Output != raceSeparator {
			rr.open[key] = held
			return nil
		}
		delete(rr.open, key)
		named := nameRaceThreads(held)
		if a := raceAccesses(named); a != "" && rr.accesses[key] == "" {
			if rr.accesses == nil {
				rr.accesses = map[[2]string]string{}
			}
			rr.accesses[key] = a
		}
		return named
	}
	// Not a race report after all, or an event that ends the test's
	// output: what was held goes out as it was.
	delete(rr.open, key)
	if output && e.ev.Output == raceSeparator {
		rr.open[key] = []raceEvent{e}
		return held
	}
	return append(held, e)
}

// flush returns the events still held, at the end of go test's output.
func (rr *raceReports) flush() []raceEvent {
	var out []raceEvent
	for _, key := range slices.SortedFunc(maps.Keys(rr.open), func(a, b [2]string) int { return cmp.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) }) {
		out = append(out, rr.open[key]...)
	}
	clear(rr.open)
	return out
}

// nameRaceThreads returns the output events of a race report with the
// goroutines that are weft's threads named: each access by one of them
// says which ("by goroutine 13 (weft T2):"), and the stack at which its
// goroutine was created, which is weft's (one goroutine runs thread T2 in
// every execution) with the racemark frames that tell its number, is left
// out for a line that names the thread.
func nameRaceThreads(report []raceEvent) []raceEvent {
	threads := map[string]int{}
	for i, e := range report {
		m := raceCreated.FindStringSubmatch(e.ev.Output)
		if m == nil {
			continue
		}
		if n, ok := racemark.Frames(stackFuncs(report[i+1:])); ok {
			threads[m[1]] = n
		}
	}
	if len(threads) == 0 {
		return report
	}
	var out []raceEvent
	skip := false
	for _, e := range report {
		s := e.ev.Output
		if skip {
			if strings.HasPrefix(s, " ") {
				continue // a frame of weft's own creation of the goroutine
			}
			skip = false
		}
		if m := raceAccess.FindStringSubmatch(s); m != nil {
			if n, ok := threads[m[2]]; ok {
				s = fmt.Sprintf("%s%s (weft T%d):\n", m[1], m[2], n)
			}
		} else if m := raceCreated.FindStringSubmatch(s); m != nil {
			if n, ok := threads[m[1]]; ok {
				s = fmt.Sprintf("Goroutine %s (%s) is weft's thread T%d, whose steps weft's report shows\n", m[1], m[2], n)
				skip = true
			}
		}
		out = append(out, withOutput(e, s))
	}
	return out
}

// stackFuncs returns the functions of the stack that the output events
// begin with, innermost first: "  pkg.F()" lines, each followed by its
// "      file:line" line, up to the first line that is neither.
func stackFuncs(events []raceEvent) []string {
	var funcs []string
	for _, e := range events {
		s := strings.TrimSuffix(e.ev.Output, "\n")
		switch {
		case strings.HasPrefix(s, "      "):
		case strings.HasPrefix(s, "  ") && strings.HasSuffix(s, ")"):
			f := strings.TrimSpace(s)
			if i := strings.LastIndex(f, "("); i > 0 {
				f = f[:i]
			}
			funcs = append(funcs, f)
		default:
			return funcs
		}
	}
	return funcs
}

// withOutput returns e with its output s (printEvents writes an event
// of -json with its Output).
func withOutput(e raceEvent, s string) raceEvent {
	e.ev.Output = s
	return e
}

// raceNamedAccess is the line of an access in a report whose thread
// nameRaceThreads named: "Previous write at 0x00c000018188 by goroutine
// 12 (weft T1):".
var raceNamedAccess = regexp.MustCompile(`^(\w+(?: \w+)?) at 0x[0-9a-f]+ by goroutine \d+(?: \(weft (T\d+)\))?:\n$`)

// raceFrameFile is the file:line of a frame of a race report's stack.
var raceFrameFile = regexp.MustCompile(`^\s+(\S+):(\d+)(?: \+0x[0-9a-f]+)?\n$`)

// raceAccesses returns the two accesses of a race report whose threads
// nameRaceThreads named, for the message of weft's failure: "write by T1
// at counter.go:19 (atomic), previous write by T0 at counter.go:21", each
// at the innermost frame of the program's (not of the runtime, of
// sync/atomic or of weft); "" if the report has no such access.
func raceAccesses(report []raceEvent) string {
	var out []string
	for i := 0; i < len(report); i++ {
		m := raceNamedAccess.FindStringSubmatch(report[i].ev.Output)
		if m == nil {
			continue
		}
		who := "a goroutine not weft's"
		if m[2] != "" {
			who = m[2]
		}
		where, atomic := "", false
		for j := i + 1; j+1 < len(report) && strings.HasPrefix(report[j].ev.Output, "  "); j += 2 {
			fn := strings.TrimSpace(report[j].ev.Output)
			f := raceFrameFile.FindStringSubmatch(report[j+1].ev.Output)
			if f == nil {
				break
			}
			if strings.HasPrefix(fn, "sync/atomic.") {
				atomic = true
			}
			if strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "sync/atomic.") || strings.HasPrefix(fn, weftModule+"/") || f[1] == "<autogenerated>" {
				continue
			}
			where = " at " + filepath.Base(f[1]) + ":" + f[2]
			break
		}
		a := strings.ToLower(m[1]) + " by " + who + where
		if atomic {
			a += " (atomic)"
		}
		out = append(out, a)
	}
	return strings.Join(out, ", ")
}
