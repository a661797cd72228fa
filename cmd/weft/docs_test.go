// This file checks the documentation as a clone holds it: the README's
// length and links, the links between the files of docs/, and that no file
// refers to what a clone does not have (private paths, numbered notes,
// issue numbers).
package main

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository's root, seen from this package's directory.
var repoRoot = filepath.Join("..", "..")

// readmeMaxLines bounds the README: what does not fit belongs in docs/.
const readmeMaxLines = 300

// privateRefs are references to what a clone does not have. Each regular
// expression is written so that it does not match its own source text.
var privateRefs = []struct {
	re   *regexp.Regexp
	what string
}{
	{regexp.MustCompile(`\b[sS]eeds? ?0\d\d\b`), "a paper cited by a seed number: cite it by authors and year (the full citation is in doc.go and docs/strategies.md)"},
	{regexp.MustCompile(`\bseeds[/]`), "a path to the seed files: cite the paper by authors and year"},
	{regexp.MustCompile(`\.\./shared\b`), "a path outside the repository"},
	{regexp.MustCompile(`\b[iI]ssue #?\d`), "an issue number: say what the change is about"},
	{regexp.MustCompile(`\bBENCHMARKS\.md\b|\bDESIGN\.md\b`), "a document outside the repository"},
}

// mayRefer reports whether line holds a word that every pattern of
// privateRefs needs, so that most lines are passed over without them.
func mayRefer(line string) bool {
	for _, w := range [...]string{"eed", "ssue", "shared", "BENCHMARKS", "DESIGN"} {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

// TestNoPrivateReferences checks every .go and .md file and every file
// under a testdata directory for references to what a clone does not have,
// and names each as file:line.
func TestNoPrivateReferences(t *testing.T) {
	t.Parallel()
	files := 0
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != repoRoot && (strings.HasPrefix(name, ".") && name != ".ci") {
				return filepath.SkipDir
			}
			return nil
		}
		slash := filepath.ToSlash(path)
		if !strings.HasSuffix(slash, ".go") && !strings.HasSuffix(slash, ".md") && !strings.Contains(slash, "/testdata/") {
			return nil
		}
		files++
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
		prev := ""
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			// A reference broken across two lines of a comment or
			// paragraph: the end of the previous line, then this one
			// without its comment marker.
			if !mayRefer(line) && !mayRefer(prev) {
				prev = strings.TrimSpace(line)
				continue
			}
			joined := prev + " " + strings.TrimLeft(strings.TrimSpace(line), "/#> ")
			for _, p := range privateRefs {
				m := p.re.FindString(line)
				if m == "" && !p.re.MatchString(prev) {
					m = p.re.FindString(joined)
				}
				if m != "" {
					rel, _ := filepath.Rel(repoRoot, path)
					t.Errorf("%s:%d: %q: %s", filepath.ToSlash(rel), n, m, p.what)
				}
			}
			prev = strings.TrimSpace(line)
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("checked %d files, want the whole tree (over 100)", files)
	}
}

// TestPrivateRefsPatterns checks that each pattern of privateRefs finds
// what it is for and passes over what it is not.
func TestPrivateRefsPatterns(t *testing.T) {
	for _, tc := range []struct {
		line string
		want int // the patterns that match
	}{
		{"(seed " + "000 §II-A)", 1},
		{"Seed " + "004 says", 1},
		{"the seed" + "003 file", 1},
		{"../" + "shared/notes", 1},
		{"file seeds" + "/002_x.txt", 1},
		{"(issue " + "18 item 5)", 1},
		{"Issue " + "#7: a bug", 1},
		{"BENCHMARKS" + ".md's fib", 1},
		{"with random seed 7, the counts", 0},
		{"gen v2 seed 1134: dpor-cr", 0},
		{"(Saarikivi et al. 2012, §II-A)", 0},
		{"an issue of the API", 0},
	} {
		got := 0
		for _, p := range privateRefs {
			if p.re.MatchString(tc.line) {
				got++
			}
		}
		if got != tc.want {
			t.Errorf("%q: %d patterns match, want %d", tc.line, got, tc.want)
		}
		if got > 0 && !mayRefer(tc.line) {
			t.Errorf("%q: a pattern matches but mayRefer passes over it", tc.line)
		}
	}
}

// mdLink is a Markdown link to a relative target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// codeSpan is a code span of one line: `...`.
var codeSpan = regexp.MustCompile("`[^`\n]*`")

// prose returns md without its code blocks and code spans, where brackets
// and parentheses are code, not links.
func prose(md string) string {
	var b strings.Builder
	inCode := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
			continue
		}
		if !inCode {
			b.WriteString(codeSpan.ReplaceAllString(l, ""))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// anchors returns the GitHub anchors of the headings of a Markdown file.
func anchors(md string) []string {
	var out []string
	inCode := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ' || r == '-':
				b.WriteRune('-')
			case r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') || r > 127:
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// TestDocsLinks checks that the README is at most readmeMaxLines long, that
// it links to every file of docs/, and that every relative link of the
// README and of docs/ names a file that exists and, with a #fragment, one
// of that file's headings.
func TestDocsLinks(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 9 {
		t.Fatalf("docs/ holds %d Markdown files, want at least 9", len(docs))
	}
	readme := filepath.Join(repoRoot, "README.md")
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, want at most %d: move the details to docs/", n, readmeMaxLines)
	}
	linked := map[string]bool{}
	for _, file := range append([]string{readme}, docs...) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(prose(string(src)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
			}
			if file == readme {
				linked[filepath.Clean(dest)] = true
			}
			body, err := os.ReadFile(dest)
			if err != nil {
				t.Errorf("%s: link %s: %v", filepath.Base(file), target, err)
				continue
			}
			if frag != "" && !slices.Contains(anchors(string(body)), frag) {
				t.Errorf("%s: link %s: %s has no heading with anchor #%s (it has %v)", filepath.Base(file), target, filepath.Base(dest), frag, anchors(string(body)))
			}
		}
	}
	for _, d := range docs {
		if !linked[filepath.Clean(d)] {
			t.Errorf("README.md does not link to docs/%s", filepath.Base(d))
		}
	}
}
