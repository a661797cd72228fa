// This file runs the small modules of several tests of weft test as
// packages of one module, in one run of weft test -v ./... per group of
// them: one loading of the packages and one go command instead of one per
// test, each test reading what weft test printed for its package. The
// groups run at once (their tests are parallel), so that no test waits for
// all the packages.

package main

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// batchGoMod is the go.mod of the module of the batched tests: each
// test's module example.com/NAME is its package example.com/NAME.
const batchGoMod = "module example.com\n\ngo 1.26.0\n"

// batched holds, by package name, the files of a batched test's module
// (its go.mod, which must be "module example.com/NAME\n\ngo 1.26.0\n",
// and its files, a name holding directories under the package's), whether
// weft test fails the package, and the group it runs in.
var batched = map[string]struct {
	files map[string]string
	fails bool
	group int
}{
	"assertlib":  {assertlibFiles, true, 0},
	"deferline":  {deferlineFiles, true, 2},
	"directives": {directivesFiles, true, 0},
	"folded":     {foldedFiles, true, 2},
	"gx":         {goexitFiles, false, 1},
	"names":      {namesFiles, true, 2},
	"outside":    {outsideFiles, true, 1},
	"pl":         {poolFiles, true, 3},
	"words":      {wordsFiles, true, 3},
	"xt":         {externalFiles, false, 0},
}

// batchRun is the one run of weft test on a group of the batched modules.
type batchRun struct {
	once sync.Once
	dir  string            // the module's directory
	code int               // weft test's exit status
	outs map[string]string // by package name, what weft test printed for it
	err  string            // why the run could not be made, or its output
}

// batches are the runs of the groups.
var batches [4]batchRun

// batchModule returns what weft test -v printed for the package name of
// the batched module and the packages under it, and the module's
// directory. The first call runs weft test on every batched package,
// without replay files; a test's package must pass or fail as batched
// says, and its output end with its ok or FAIL line.
func batchModule(t *testing.T, name string) (string, string) {
	t.Helper()
	b, ok := batched[name]
	if !ok {
		t.Fatalf("no batched module %s", name)
	}
	batch := &batches[b.group]
	batch.once.Do(func() { batch.run(b.group) })
	if batch.err != "" {
		t.Fatal(batch.err)
	}
	wantCode := exitOK
	for _, o := range batched {
		if o.group == b.group && o.fails {
			wantCode = exitFailure
		}
	}
	var out string
	for _, pkg := range slices.Sorted(maps.Keys(batch.outs)) {
		if pkg == name || strings.HasPrefix(pkg, name+"/") {
			out += batch.outs[pkg]
		}
	}
	end := "ok  \texample.com/" + name + "\t"
	if b.fails {
		end = "FAIL\texample.com/" + name + "\t"
	}
	if batch.code != wantCode || !strings.Contains(out, "\n"+end) {
		t.Fatalf("exit status %d, want %d, and example.com/%s's output ending with %q:\n%s", batch.code, wantCode, name, end, out)
	}
	return out, batch.dir
}

// run writes the batched modules of group as packages of one module and
// runs weft test -v ./... on it.
func (batch *batchRun) run(group int) {
	dir, err := os.MkdirTemp("", "weft-batch-")
	if err != nil {
		batch.err = err.Error()
		return
	}
	batch.dir = dir // TestMain removes it after the tests (removeBatch)
	files := map[string]string{"go.mod": batchGoMod}
	for name, b := range batched {
		if b.group != group {
			continue
		}
		if want := "module example.com/" + name + "\n\ngo 1.26.0\n"; b.files["go.mod"] != want {
			batch.err = "batched module " + name + ": go.mod is not " + want
			return
		}
		for f, content := range b.files {
			if f != "go.mod" {
				files[name+"/"+f] = content
			}
		}
	}
	for name, content := range files {
		name = filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			batch.err = err.Error()
			return
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			batch.err = err.Error()
			return
		}
	}
	var stdout, stderr bytes.Buffer
	batch.code = runTestEnv(dir, []string{"WEFT_REPLAY_FILES=0"}, []string{"-v", "./..."}, &stdout, &stderr)
	batch.outs = splitPackages(stdout.String())
	var names []string
	for name, b := range batched {
		if b.group == group {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		if _, ok := batch.outs[name]; !ok {
			batch.err = "weft test printed nothing for example.com/" + name + "\nstdout:\n" + stdout.String() + "\nstderr:\n" + stderr.String()
			return
		}
	}
}

// splitPackages splits the output of weft test -v on packages of
// example.com by their ok and FAIL lines: go test prints each package's
// output whole, ending with that line.
func splitPackages(out string) map[string]string {
	outs := map[string]string{}
	var cur strings.Builder
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		cur.WriteString(line + "\n")
		for _, p := range []string{"ok  \texample.com/", "FAIL\texample.com/"} {
			if rest, ok := strings.CutPrefix(line, p); ok {
				name, _, _ := strings.Cut(rest, "\t")
				outs[name] = "\n" + cur.String()
				cur.Reset()
			}
		}
	}
	return outs
}

// removeBatch removes the directories of the batched modules, if they ran.
func removeBatch() {
	for i := range batches {
		if batches[i].dir != "" {
			os.RemoveAll(batches[i].dir)
		}
	}
}
