// Tests of the export of the unfolding: golden DOT and JSON for a small
// program, and the consistency of the export of a bigger one.

package unfold_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"path/filepath"
	"slices"
	"testing"

	"github.com/weft-go/weft/internal/golden"
	"github.com/weft-go/weft/strategy/unfold"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestExportGolden: pairs 1 (a reader and a writer of x_1): 4 events,
// the read before and after the write, and the write before and after
// the read, as DOT and as JSON.
func TestExportGolden(t *testing.T) {
	_, s := explore(t, body("pairs", map[string]int{"n": 1}), unfold.Options{})
	u := s.Unfolding()
	if len(u.Events) != 4 {
		t.Errorf("%d events, want 4", len(u.Events))
	}
	var dot bytes.Buffer
	if err := u.WriteDOT(&dot); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "pairs1.dot"), dot.String(), *update)
	js, err := json.MarshalIndent(u, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "pairs1.json"), string(js)+"\n", *update)
}

// TestExportConsistent: the export of single lock 3x1 has the strategy's
// events, numbered 1 to n in insertion order, each condition in the
// postset (or the spawned threads) of its producer, and each event's
// preset made of conditions produced before it.
func TestExportConsistent(t *testing.T) {
	_, s := explore(t, body("singlelock", map[string]int{"threads": 3, "rounds": 1}), unfold.Options{})
	u := s.Unfolding()
	if len(u.Events) != s.Stats().Events || len(u.Conditions) != s.Stats().Conditions {
		t.Fatalf("%d events, %d conditions; the strategy has %d, %d", len(u.Events), len(u.Conditions), s.Stats().Events, s.Stats().Conditions)
	}
	for i, e := range u.Events {
		if e.ID != i+1 {
			t.Fatalf("event %d has number %d", i+1, e.ID)
		}
		for _, c := range e.Pre {
			if p := u.Conditions[c-1].Producer; p >= e.ID {
				t.Errorf("event %d takes condition %d, produced by event %d", e.ID, c, p)
			}
		}
	}
	for _, c := range u.Conditions {
		if c.Producer == 0 {
			continue
		}
		e := u.Events[c.Producer-1]
		if !slices.Contains(e.Post, c.ID) && !slices.Contains(e.Spawned, c.ID) {
			t.Errorf("condition %d (%s): not in the postset of its producer %d", c.ID, c.Place, c.Producer)
		}
	}
}
