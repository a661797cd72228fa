// This file implements the pinning of a file's Go version: when weft test
// builds a module with a temporary go.mod whose go line is newer than the
// module's (weft's own requires it), each file keeps the language version
// of the module's go line (its loop variables above all) through a build
// constraint.

package rewrite

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/token"
	"iter"
	"strings"
)

// langVersion returns go1.N for a go line's version (1.N or 1.N.M), or ""
// for "".
func langVersion(v string) string {
	if v == "" {
		return ""
	}
	parts := strings.SplitN(strings.TrimPrefix(v, "go"), ".", 3)
	if len(parts) < 2 {
		return "go" + parts[0]
	}
	return "go" + parts[0] + "." + parts[1]
}

// header returns the build constraint of the file whose source is src and
// whose package clause starts at offset pkg: the //go:build line's
// expression and its byte range, or the conjunction of its // +build lines
// (range -1, -1), or nil.
func header(src []byte, pkg int) (expr constraint.Expr, lo, hi int, err error) {
	var plus []constraint.Expr
	for off, end := range headerLines(src, pkg) {
		line := strings.TrimSpace(string(src[off:end]))
		switch {
		case constraint.IsGoBuild(line):
			x, err := constraint.Parse(line)
			if err != nil {
				return nil, 0, 0, err
			}
			return x, off, end, nil
		case constraint.IsPlusBuild(line):
			x, err := constraint.Parse(line)
			if err != nil {
				return nil, 0, 0, err
			}
			plus = append(plus, x)
		}
	}
	for _, x := range plus {
		if expr == nil {
			expr = x
		} else {
			expr = &constraint.AndExpr{X: expr, Y: x}
		}
	}
	return expr, -1, -1, nil
}

// pinnedVersion returns the Go version file compiles at when its module's
// go line says v: the version its build constraint sets, or v.
func pinnedVersion(fset *token.FileSet, file *ast.File, src []byte, v string) string {
	expr, _, _, err := header(src, fset.File(file.Pos()).Offset(file.Package))
	if err == nil && expr != nil {
		if gv := constraint.GoVersion(expr); gv != "" {
			return gv
		}
	}
	return v
}

// pin returns src, the source of the file named name whose package clause
// starts at offset pkg, with a build constraint that makes it compile at
// Go version v (go1.N), unless its constraint sets a version already
// (then it returns nil). A //go:build line is changed where it stands;
// otherwise one is added before the file, followed by a //line directive
// that gives the file's first line its number again.
func pin(name string, src []byte, pkg int, v string) ([]byte, error) {
	expr, lo, hi, err := header(src, pkg)
	if err != nil {
		return nil, fmt.Errorf("%s: its build constraint: %w", name, err)
	}
	if expr != nil && constraint.GoVersion(expr) != "" {
		return nil, nil
	}
	line := "//go:build " + v
	if expr != nil {
		line = "//go:build (" + expr.String() + ") && " + v
	}
	// go vet, which go test runs, requires // +build lines to match the
	// //go:build line: the pinned line replaces them, blanked in place.
	src = blankPlusBuild(src, pkg)
	var b bytes.Buffer
	if lo >= 0 {
		b.Write(src[:lo])
		b.WriteString(line)
		b.Write(src[hi:])
		return b.Bytes(), nil
	}
	fmt.Fprintf(&b, "%s\n\n//line %s:1\n", line, name)
	b.Write(src)
	return b.Bytes(), nil
}

// headerLines yields the byte range (from, to) of each line of src
// before offset pkg, where its package clause starts, its newline left
// out.
func headerLines(src []byte, pkg int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for off := 0; off < pkg; {
			end := bytes.IndexByte(src[off:pkg], '\n')
			if end < 0 {
				end = pkg - off
			}
			if !yield(off, off+end) {
				return
			}
			off += end + 1
		}
	}
}

// blankPlusBuild returns src, whose package clause starts at offset pkg,
// with each // +build line before it overwritten by a comment of as many
// bytes ("//" and spaces): a copy if it has any, src otherwise. Offsets
// and line numbers stay as they were.
func blankPlusBuild(src []byte, pkg int) []byte {
	out, copied := src, false
	for off, end := range headerLines(src, pkg) {
		if !constraint.IsPlusBuild(strings.TrimSpace(string(src[off:end]))) {
			continue
		}
		if !copied {
			out, copied = bytes.Clone(src), true
		}
		blank := out[off:end]
		for i := range blank {
			blank[i] = ' '
		}
		copy(blank, "//")
	}
	return out
}
