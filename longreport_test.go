// This file checks long reports: an interleaving of more than
// weft.LongReport steps is summarised, and the whole report is in a file;
// steps show the values channels carry.

package weft_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/golden"
	"github.com/weft-go/weft/trace"
)

// longBody fails after 233 steps: a thread loads y 230 times, sends 7 to
// a buffered channel and 8 to an unbuffered one, which the body receives.
func longBody(w *weft.T) {
	b := weft.MakeChan[int](1)
	b.SetName("b")
	u := weft.MakeChan[int](0)
	u.SetName("u")
	y := weft.NewVar[int]("y")
	w.Go(func() {
		for range 230 {
			y.Load()
		}
		b.Send(7)
		u.Send(8)
	})
	v := b.Recv()
	w.Assert(v+u.Recv() != 15, "received %d and 8", v)
}

// TestLongReportGolden checks the summary of a long report against
// testdata/report/long.golden (the temporary directory written $TMP) and
// that its file holds the whole report.
func TestLongReportGolden(t *testing.T) {
	r := explore(t, longBody, weft.WithStrategy("exhaustive"), weft.NoReplayFiles())
	if len(r.Failures) != 1 || r.Failures[0].Kind != trace.Assertion {
		t.Fatalf("failures %v, want one assertion", r.FailureCounts)
	}
	f := r.Failures[0]
	if len(f.Steps) != 233 {
		t.Fatalf("%d steps, want 233", len(f.Steps))
	}
	cmd := weft.ReplayEnv + "=" + f.Token + " go test -run '^TestLongReportGolden$'"
	rep := f.Report(cmd)
	m := regexp.MustCompile(`the whole report is in (\S+)`).FindStringSubmatch(rep)
	if m == nil {
		t.Fatalf("no file named in the report:\n%s", rep)
	}
	full, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(m[1]) != filepath.Join(os.TempDir(), "weft-reports") {
		t.Errorf("report written to %s, want a file in %s", m[1], filepath.Join(os.TempDir(), "weft-reports"))
	}
	if got := regexp.MustCompile(`(?m)^ +\d+  T\d`).FindAllString(string(full), -1); len(got) != 233 {
		t.Errorf("the file has %d steps, want 233", len(got))
	}
	if !strings.HasPrefix(string(full), strings.SplitN(rep, "\n", 2)[0]) {
		t.Errorf("the file's first line is not the report's")
	}
	rep = strings.ReplaceAll(rep, filepath.Dir(m[1]), "$TMP")
	golden.Check(t, filepath.Join("testdata", "report", "long.golden"), golden.Normalize(rep), *update)
}
