package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The markers around the output of weft list in README.md.
const (
	listBegin = "<!-- weft list: begin -->\n"
	listEnd   = "<!-- weft list: end -->\n"
)

// TestREADMEList checks that README.md shows the output of weft list
// between its markers; with -update it rewrites that part.
func TestREADMEList(t *testing.T) {
	var out bytes.Buffer
	if err := cmdList(nil, &out, &out); err != nil {
		t.Fatal(err)
	}
	want := listBegin + "```\n" + out.String() + "```\n" + listEnd
	path := filepath.Join("..", "..", "README.md")
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
