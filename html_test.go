// This file checks the HTML page (Failure.WriteHTML) of a deadlock and of
// a data race found by weft against golden files in testdata/html; go test
// -run Golden -update rewrites them.

package weft_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/golden"
	"github.com/weft-go/weft/trace"
)

// goldenPage is a failing program whose page is kept in
// testdata/html/<name>.html.
type goldenPage struct {
	name string
	kind trace.FailureKind
	body func(w *weft.T)
	opts []weft.Option
	// the page's exact counts: lanes, step boxes (with the blocked
	// threads' and the rendezvous partners'), arrows by class.
	lanes, boxes int
	arrows       map[string]int
	found        bool // the page has the interleaving as found on a toggle
}

// goldenPages are the golden deadlock and data race. The deadlock hands a
// value over an unbuffered channel (a rendezvous) before two threads take
// two mutexes in opposite orders; the random strategy finds it with
// switches that shortening removes, so the page has both interleavings.
// The data race's threads increment x, one under mu, one not.
var goldenPages = []goldenPage{
	{
		name: "deadlock", kind: trace.Deadlock,
		body: func(w *weft.T) {
			a, b := weft.NewMutex("a"), weft.NewMutex("b")
			ready := weft.MakeChan[int](0)
			ready.SetName("ready")
			worker := w.GoNamed("worker", func() {
				n := ready.Recv()
				b.Lock()
				a.Lock()
				w.Assert(n == 1, "n = %d", n)
				a.Unlock()
				b.Unlock()
			})
			ready.Send(1)
			a.Lock()
			b.Lock()
			b.Unlock()
			a.Unlock()
			worker.Join()
		},
		opts:  []weft.Option{weft.WithStrategy("random"), weft.WithSeed(3)},
		lanes: 2, boxes: 6, arrows: map[string]int{"spawn": 1, "rendezvous": 1, "waits": 2}, found: true,
	},
	{
		name: "data_race", kind: trace.DataRace,
		body: func(w *weft.T) {
			x, mu := weft.NewVar[int]("x"), weft.NewMutex("mu")
			done := weft.MakeChan[bool](1)
			done.SetName("done")
			w.GoNamed("locked", func() {
				mu.Lock()
				x.Store(x.Load() + 1)
				mu.Unlock()
				done.Send(true)
			})
			x.Store(x.Load() + 1)
			done.Recv()
		},
		opts:  []weft.Option{weft.WithStrategy("exhaustive"), weft.WithRaces()},
		lanes: 2, boxes: 8, arrows: map[string]int{"spawn": 1, "sync": 1, "rf": 1},
	},
}

// render explores page p's program and returns its page, normalised.
func renderPage(t *testing.T, p goldenPage) string {
	t.Helper()
	r, err := weft.Explore(p.body, append([]weft.Option{weft.NoReplayFiles()}, p.opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Failures) != 1 || r.Failures[0].Kind != p.kind {
		t.Fatalf("failures %v, want one %v", r.FailureCounts, p.kind)
	}
	f := r.Failures[0]
	var b bytes.Buffer
	cmd := weft.ReplayEnv + "=" + f.Token + " go test -run '^TestHTMLGolden$'"
	if err := f.WriteHTML(&b, cmd); err != nil {
		t.Fatal(err)
	}
	return golden.Normalize(b.String())
}

// TestHTMLGolden compares the pages of goldenPages with their golden files
// and counts their lanes, boxes and arrows.
func TestHTMLGolden(t *testing.T) {
	for _, p := range goldenPages {
		t.Run(p.name, func(t *testing.T) {
			got := renderPage(t, p)
			golden.Check(t, filepath.Join("testdata", "html", p.name+".html"), got, *update)
			short := section(got, `id="diagram-short"`, `id="view-found"`)
			if n := strings.Count(short, `<div class="lane"`) + strings.Count(short, `<div class="lane `); n != p.lanes {
				t.Errorf("%d lanes, want %d", n, p.lanes)
			}
			if n, want := strings.Count(short, `<div class="step race"`), map[trace.FailureKind]int{trace.DataRace: 2}[p.kind]; n != want {
				t.Errorf("%d racing steps marked, want %d", n, want)
			}
			if n := strings.Count(short, `<div class="step`); n != p.boxes {
				t.Errorf("%d boxes, want %d", n, p.boxes)
			}
			for _, class := range []string{"sync", "rendezvous", "spawn", "join", "rf", "waits"} {
				if n := strings.Count(short, `class="arrow `+class+`"`); n != p.arrows[class] {
					t.Errorf("%d %s arrows, want %d", n, class, p.arrows[class])
				}
			}
			if found := strings.Contains(got, `id="show-found"`); found != p.found {
				t.Errorf("toggle to the found interleaving: %v, want %v", found, p.found)
			}
			for _, s := range []string{"<link", "<script src", "http://", "https://"} {
				if strings.Contains(strings.ReplaceAll(got, `xmlns="http://www.w3.org/2000/svg"`, ""), s) {
					t.Errorf("the page refers to something outside it: %q", s)
				}
			}
		})
	}
}

// section returns the part of s from the first from to the first to after
// it (or the end).
func section(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, to); j >= 0 {
		s = s[:j]
	}
	return s
}

// TestCheckHTML checks WEFT_HTML and WEFT_FAILURES: Check writes the HTML
// report and the JSON of the failure it reports, and its message names the
// page.
func TestCheckHTML(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(weft.HTMLEnv, filepath.Join(dir, "html"))
	t.Setenv(weft.FailuresEnv, filepath.Join(dir, "json"))
	t.Setenv(weft.ReplayFilesEnv, "0")
	ft := &fakeTB{TB: t, name: "TestX"}
	r := weft.Check(ft, raceBody)
	if len(ft.errors) != 1 || len(r.Failures) != 1 {
		t.Fatalf("errors %q, failures %d; want one of each", ft.errors, len(r.Failures))
	}
	f := r.Failures[0]
	page := filepath.Join(dir, "html", f.HTMLFileName("TestX"))
	if !strings.Contains(ft.errors[0], "\nhtml report: "+page+"\n") {
		t.Errorf("the report does not name the page %s:\n%s", page, ft.errors[0])
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `<div class="step"`); n != 2 {
		t.Errorf("the page has %d step boxes, want 2 (T1's store, T0's load)", n)
	}
	js, err := os.ReadFile(filepath.Join(dir, "json", weft.FailureFileName(f.Token)))
	if err != nil {
		t.Fatal(err)
	}
	var jf struct {
		Test, Kind, HTML string
		Interleaving     []struct{ Thread, Op string }
	}
	if err := json.Unmarshal(js, &jf); err != nil {
		t.Fatal(err)
	}
	if jf.Test != "TestX" || jf.Kind != "assertion" || jf.HTML != page || len(jf.Interleaving) != 2 ||
		jf.Interleaving[0].Thread != "T1" || jf.Interleaving[0].Op != "store var#0 = 1" {
		t.Errorf("JSON %s: want TestX's assertion, its page and 2 steps, the first T1's store", js)
	}
}
