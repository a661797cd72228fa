package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-go/weft"
)

// The markers around the output of weft list in docs/commands.md.
const (
	listBegin = "<!-- weft list: begin -->\n"
	listEnd   = "<!-- weft list: end -->\n"
)

// TestREADMEList checks that docs/commands.md, the command reference the
// README links to, shows the output of weft list between its markers; with
// -update it rewrites that part.
func TestREADMEList(t *testing.T) {
	var out bytes.Buffer
	if err := cmdList(nil, &out, &out); err != nil {
		t.Fatal(err)
	}
	want := listBegin + "```\n" + out.String() + "```\n" + listEnd
	path := filepath.Join("..", "..", "docs", "commands.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i, j := strings.Index(readme, listBegin), strings.Index(readme, listEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q markers", path, strings.TrimSpace(listBegin), strings.TrimSpace(listEnd))
	}
	got := readme[i : j+len(listEnd)]
	if got == want {
		return
	}
	if !*update {
		t.Fatalf("%s does not show the output of weft list; run go test ./cmd/weft -run README -update\ngot:\n%s\nwant:\n%s", path, got, want)
	}
	if err := os.WriteFile(path, []byte(readme[:i]+want+readme[j+len(listEnd):]), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestREADMEStrategies checks that the table of strategies in
// docs/strategies.md, between its markers, names every strategy of weft
// list once, and no other.
func TestREADMEStrategies(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "strategies.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	const begin, end = "<!-- strategies: begin -->\n", "<!-- strategies: end -->\n"
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q markers", path, strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	named := map[string]int{}
	for _, line := range strings.Split(readme[i+len(begin):j], "\n") {
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, f := range strings.Split(first, ", ") {
			if name, ok := strings.CutPrefix(f, "`"); ok {
				named[strings.TrimSuffix(name, "`")]++
			}
		}
	}
	for _, s := range weft.Strategies() {
		if named[s] != 1 {
			t.Errorf("the table names strategy %s %d times, want once", s, named[s])
		}
		delete(named, s)
	}
	for s := range named {
		t.Errorf("the table names %s, which is no strategy", s)
	}
}
