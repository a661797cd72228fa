package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/golden"
)

// TestRaceReportThreads prints the events of a test with two race
// reports (testdata/race/visits.json: the report of TestVisitsBug under
// weft test -race, and one whose goroutines are T12 and a goroutine of
// the testing package) and lines of separators that open no report: the
// goroutines of weft's threads are named, their creation stacks left
// out, and the rest is printed as it came, with -json too.
func TestRaceReportThreads(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "race", "visits.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if res := printEvents(bytes.NewReader(in), &out, nil, &testOptions{}, ""); !res.failed {
		t.Errorf("printEvents: the test's failure not seen")
	}
	golden.Check(t, filepath.Join("testdata", "race", "visits.golden"), out.String(), *update)

	out.Reset()
	printEvents(bytes.NewReader(in), &out, nil, &testOptions{json: true}, "")
	var outputs []string
	dec := json.NewDecoder(&out)
	for dec.More() {
		var ev event
		if err := dec.Decode(&ev); err != nil {
			t.Fatal(err)
		}
		if ev.Output != "" {
			outputs = append(outputs, ev.Output)
		}
	}
	// 82 lines of output, less the 12 + 12 + 16 lines of the creation
	// stacks of T2, T1 and T12.
	if len(outputs) != 42 {
		t.Errorf("-json: %d output events, want 42", len(outputs))
	}
	text := strings.Join(outputs, "")
	for _, want := range []string{
		"Read at 0x00c000018188 by goroutine 13 (weft T2):\n",
		"Previous write at 0x00c0003092c8 by goroutine 31 (weft T12):\n",
		"Goroutine 31 (finished) is weft's thread T12, whose steps weft's report shows\n",
		"Write at 0x00c0003092c8 by goroutine 40:\n",
		"Goroutine 40 (running) created at:\n  testing.(*T).Run()\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("-json: the output has no %q", want)
		}
	}
}

// TestRaceReportUnended checks that a race report cut short (the test
// process killed in the middle) is printed as it came when go test's
// output ends.
func TestRaceReportUnended(t *testing.T) {
	lines := []string{raceSeparator, raceWarning, "Read at 0x00c000018188 by goroutine 13:\n"}
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, l := range lines {
		if err := enc.Encode(event{Action: "output", Package: "example.com/p", Test: "TestX", Output: l}); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	printEvents(&in, &out, nil, &testOptions{verbose: true}, "")
	if got, want := out.String(), strings.Join(lines, ""); got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}
