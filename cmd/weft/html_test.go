// This file checks weft run -html: one HTML report per failure, named
// after the file given.

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunHTML runs the three philosophers with -keep-going and -html: the
// run finds a deadlock only, whose page has a lane per thread (four, three
// of them in the cycle of waits) and three arrows of waits.
func TestRunHTML(t *testing.T) {
	file := filepath.Join(t.TempDir(), "dining.html")
	code, _, stderr := runCmd(t, "run", "-strategy", "exhaustive", "-keep-going", "-p", "n=3", "-html", file, "dining")
	if code != exitFailure || stderr != "weft run: html report of the deadlock: "+file+"\n" {
		t.Fatalf("exit status %d, stderr %q; want %d and the report's file", code, stderr, exitFailure)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, c := range []struct {
		s    string
		want int
	}{
		{`<div class="lane stuck"`, 4},
		{`class="arrow waits"`, 3},
		{`id="cycle"`, 1},
		{`weft replay dining n=3,meals=1,fixed=0:`, 1},
	} {
		if n := strings.Count(page, c.s); n != c.want {
			t.Errorf("%d of %q in the page, want %d", n, c.s, c.want)
		}
	}
}

// TestHTMLPath checks the files of the reports of a run's failures.
func TestHTMLPath(t *testing.T) {
	for _, c := range []struct {
		file string
		i    int
		want string
	}{
		{"r.html", 0, "r.html"},
		{"r.html", 1, "r-2.html"},
		{"out/r", 2, "out/r-3"},
	} {
		if got := htmlPath(c.file, c.i); got != c.want {
			t.Errorf("htmlPath(%q, %d) = %q, want %q", c.file, c.i, got, c.want)
		}
	}
}
