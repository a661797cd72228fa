// This file checks the page of a deadlock and of a data race, made by
// hand, against golden files in testdata; go test -run Golden -update
// rewrites them.

package htmlreport

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// deadlock is two transfers that take two accounts' mutexes in opposite
// orders after a hand-over on an unbuffered channel, an auditor started
// at step 3 that receives from a closed channel, and a main thread that
// joins the auditor, then waits for a transfer forever. The exploration
// found it with one more step.
func deadlock() *Report {
	const bank, test = "/src/bank/bank.go", "/src/bank/bank_test.go"
	steps := []Step{
		{Thread: 1, Op: "lock a", Kind: "lock", Object: "a", File: bank, Line: 31, Partner: NoThread},
		{Thread: 1, Op: "unlock a", Kind: "unlock", Object: "a", File: bank, Line: 33, Partner: NoThread},
		{Thread: 0, Op: "close ready", Kind: "close", Object: "ready", File: test, Line: 22, Partner: NoThread},
		{Thread: 3, Op: "recv ready = 0", Kind: "recv", Object: "ready", File: test, Line: 40, Partner: NoThread, Sync: 3},
		{Thread: 2, Op: "lock a", Kind: "lock", Object: "a", File: bank, Line: 31, Partner: NoThread, Sync: 2},
		{Thread: 2, Op: "recv go = 1", Kind: "recv", Object: "go", File: bank, Line: 35, Partner: 1},
		{Thread: 1, Op: "lock b", Kind: "lock", Object: "b", File: bank, Line: 36, Partner: NoThread},
		{Thread: 3, Op: "store audited = 1", Kind: "store", Object: "audited", File: test, Line: 41, Partner: NoThread},
		{Thread: 0, Op: "join T3(audit)", Kind: "join", File: test, Line: 24, Partner: NoThread, Sync: 8},
	}
	found := append([]Step{{Thread: 0, Op: "load audited = 0", Kind: "load", Object: "audited", File: test, Line: 21, Partner: NoThread}}, steps...)
	for i := range found[1:] {
		if found[i+1].Sync > 0 {
			found[i+1].Sync++
		}
	}
	return &Report{
		Kind: "deadlock", Message: "no thread can move:\n\tT0 blocked on join T1(a→b)\n\tT1(a→b) blocked on lock a\n\tT2(b→a) blocked on lock b",
		Summary: "execution 12, 9 steps, 6 switches; shortened from 10 steps, 7 switches", Thread: NoThread,
		Threads: []Thread{{Label: "T0", Parent: NoThread}, {Label: "T1(a→b)", Parent: 0}, {Label: "T2(b→a)", Parent: 0}, {Label: "T3(audit)", Parent: 0, Start: 3}},
		Steps:   steps, Found: found,
		Blocked: []Blocked{
			{Thread: 0, Op: "join T1(a→b)", File: test, Line: 25, Holder: NoThread},
			{Thread: 1, Op: "lock a", File: bank, Line: 37, Holder: 2},
			{Thread: 2, Op: "lock b", File: bank, Line: 36, Holder: 1},
		},
		Cycle:  []int{1, 2},
		Token:  "w1.CQEBAAMCAgEHAxQAAgCaO9qQ",
		Replay: "WEFT_REPLAY='TestTransfer=w1.CQEBAAMCAgEHAxQAAgCaO9qQ' go test ./bank -run '^TestTransfer$'",
	}
}

// dataRace is a counter that one thread increments under mu and the other
// without it: the two stores race. Its input and a note show too, and its
// message holds characters HTML escapes.
func dataRace() *Report {
	const file = "/src/count/count_test.go"
	return &Report{
		Kind: "data race", Message: "data race on hits: T1(counter)'s write (store, step 4) at count_test.go:15 and T0's write (store, step 1) at count_test.go:19, which no synchronisation orders <&>",
		Summary: "execution 3, 6 steps, 2 switches", Thread: 1,
		Threads: []Thread{{Label: "T0", Parent: NoThread}, {Label: "T1(counter)", Parent: 0}},
		Steps: []Step{
			{Thread: 0, Op: "store hits = 1", Kind: "store", Object: "hits", File: file, Line: 19, Partner: NoThread},
			{Thread: 1, Op: "lock mu", Kind: "lock", Object: "mu", File: file, Line: 13, Partner: NoThread},
			{Thread: 1, Op: "load hits = 1", Kind: "load", Object: "hits", File: file, Line: 14, Partner: NoThread, Sync: 1},
			{Thread: 1, Op: "store hits = 2", Kind: "store", Object: "hits", File: file, Line: 15, Partner: NoThread},
			{Thread: 1, Op: "unlock mu", Kind: "unlock", Object: "mu", File: "", Partner: NoThread},
			{Thread: 0, Op: "load hits = 2", Kind: "load", Object: "hits", File: file, Line: 20, Partner: NoThread, Sync: 4},
		},
		Race:   []int{1, 4},
		Inputs: []string{"n=2"},
		Notes:  []string{"found with time at any step"},
		Token:  "w1.BgAAAQEBAAEAAQEBAAAAnrXux",
		Replay: "WEFT_REPLAY='TestCount=w1.BgAAAQEBAAEAAQEBAAAAnrXux' go test ./count -run '^TestCount$'",
	}
}

// goldenPages are the pages of testdata, with their exact counts in the
// reported interleaving's diagram: lanes, boxes (steps, rendezvous
// partners' sides, blocked threads), arrows by class, racing steps.
var goldenPages = []struct {
	name   string
	report func() *Report
	lanes  int
	boxes  int
	arrows map[string]int
	races  int
	found  bool
}{
	{"deadlock", deadlock, 4, 13, map[string]int{"sync": 2, "rendezvous": 1, "spawn": 3, "join": 1, "waits": 2}, 0, true},
	{"data_race", dataRace, 2, 6, map[string]int{"rf": 2, "spawn": 1}, 2, false},
}

// TestGolden compares the pages with their golden files, and counts their
// lanes, boxes and arrows.
func TestGolden(t *testing.T) {
	for _, p := range goldenPages {
		t.Run(p.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, p.report()); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			golden.Check(t, filepath.Join("testdata", p.name+".html"), got, *update)
			c := count(got)
			if c.lanes != p.lanes || c.boxes != p.boxes || c.races != p.races {
				t.Errorf("%d lanes, %d boxes, %d racing steps; want %d, %d, %d", c.lanes, c.boxes, c.races, p.lanes, p.boxes, p.races)
			}
			for _, class := range arrowClasses {
				if c.arrows[class] != p.arrows[class] {
					t.Errorf("%d %s arrows, want %d", c.arrows[class], class, p.arrows[class])
				}
			}
			if found := strings.Contains(got, `id="show-found"`); found != p.found {
				t.Errorf("toggle to the interleaving as found: %v, want %v", found, p.found)
			}
			if strings.Contains(got, "<&>") || !strings.Contains(p.report().Message, "<&>") && p.name == "data_race" {
				t.Errorf("the message is not escaped")
			}
			for _, s := range []string{"<link", "<script src", "<img", "http://", "https://", "@import"} {
				if strings.Contains(strings.ReplaceAll(got, `xmlns="http://www.w3.org/2000/svg"`, ""), s) {
					t.Errorf("the page refers to something outside it: %q", s)
				}
			}
		})
	}
}

// counts are what count finds in the reported interleaving's diagram.
type counts struct {
	lanes, boxes, races int
	arrows              map[string]int
}

// count counts the lanes, boxes, racing steps and arrows by class of the
// reported interleaving's diagram in page, a page or its DOM as a browser
// dumps it.
func count(page string) counts {
	d := page
	if i := strings.Index(d, `id="diagram-short"`); i >= 0 {
		d = d[i:]
	}
	if i := strings.Index(d, `id="view-found"`); i >= 0 {
		d = d[:i]
	}
	c := counts{
		lanes:  strings.Count(d, `<div class="lane"`) + strings.Count(d, `<div class="lane `),
		boxes:  strings.Count(d, `<div class="step`),
		races:  strings.Count(d, `<div class="step race"`),
		arrows: map[string]int{},
	}
	for _, class := range arrowClasses {
		c.arrows[class] = strings.Count(d, `class="arrow `+class+`"`) + strings.Count(d, `class="arrow `+class+` hot"`)
	}
	return c
}
