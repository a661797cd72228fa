// This file tells apart the Check calls of one test: each has its own
// replay files and tokens.

package weft

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// checkID identifies a Check call of a test: its name, to which its tokens
// are tied (ReplayEnv's NAME=TOKEN), and the directory of its replay files.
type checkID struct {
	name string
	dir  string
}

// checks counts the Check calls of each running test, by its testing.TB:
// the same test run twice (go test -count) counts each run from 1.
var checks struct {
	sync.Mutex
	n map[testing.TB]int
}

// checkOf returns the identity of this Check call of t: the first call is
// the test itself (t.Name(), testdata/weft/<TestName>); the n-th, from the
// second, is "<TestName> (check n)", with its files in
// testdata/weft/<TestName>/check#n. No test name has a space (package
// testing replaces them), and no sanitized one a '#', so neither collides
// with a subtest's.
func checkOf(t testing.TB) checkID {
	checks.Lock()
	if checks.n == nil {
		checks.n = map[testing.TB]int{}
	}
	checks.n[t]++
	n := checks.n[t]
	checks.Unlock()
	if n == 1 {
		t.Cleanup(func() {
			checks.Lock()
			delete(checks.n, t)
			checks.Unlock()
		})
	}
	id := checkID{name: t.Name(), dir: filepath.Join(ReplayDir, sanitize(t.Name()))}
	if n > 1 {
		id.name = fmt.Sprintf("%s (check %d)", id.name, n)
		id.dir = filepath.Join(id.dir, fmt.Sprintf("check#%d", n))
	}
	return id
}
