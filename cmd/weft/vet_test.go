// This file tests weft vet on packages of testdata/vet.

package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/golden"
)

// TestVet runs weft vet on a package with a body weft cannot see all of
// (its findings against testdata/vet/bad.golden), on one it can (nothing
// found) and on a directory that does not exist.
func TestVet(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dir    string
		status int
		stderr string // a part of what it prints on stderr
	}{
		{"bad", exitFailure, ""},
		{"good", exitOK, ""},
		{"nothere", exitUsage, "directory not found"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			t.Parallel() // each load type-checks its packages' dependencies from source
			var stdout, stderr bytes.Buffer
			if got := run([]string{"vet", "./testdata/vet/" + c.dir}, &stdout, &stderr); got != c.status {
				t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", got, c.status, &stdout, &stderr)
			}
			if !strings.Contains(stderr.String(), c.stderr) || (c.stderr == "" && stderr.Len() > 0) {
				t.Errorf("stderr %q, want it to contain %q", &stderr, c.stderr)
			}
			switch c.status {
			case exitFailure:
				golden.Check(t, filepath.Join("testdata", "vet", c.dir+".golden"), stdout.String(), *update)
			case exitOK:
				if stdout.Len() > 0 {
					t.Errorf("stdout %q, want nothing", &stdout)
				}
			}
		})
	}
}
