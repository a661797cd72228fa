// This file implements flat: the source of an expression that the
// rewriting moves to another line (a select case's channel, value or
// assigned operands), written on one line, each of its tokens given its
// original line by /*line*/ directives.

package rewrite

import (
	"fmt"
	"go/scanner"
	"go/token"
	"strings"
)

// flat returns text, the rewritten source of the node of the original file
// that starts at from, to be written at at, on at's line. A text on one
// line is returned as it is (it takes at's line); one over several lines
// gets a directive that gives it its original position if from is on
// another line than at, its line breaks become directives that give the
// token after each its original line and column (a line break that ends
// a statement, in a function literal, becomes a semicolon), its comments
// are dropped, and a last directive gives what follows the position of
// at again. No line is added to the file, and every token of the text
// keeps its line.
// A raw string literal over several lines is refused (what names the
// construct for the error, stmt the statement rewritten).
func (r *rewriter) flat(text string, from, at token.Pos, what, stmt string) string {
	if !strings.Contains(text, "\n") {
		return text
	}
	fp, ap := r.fset.Position(from), r.fset.Position(at)
	var b strings.Builder
	directive := func(line, col int) { fmt.Fprintf(&b, "/*line :%d:%d*/", line, col) }
	if fp.Line != ap.Line {
		directive(fp.Line, fp.Column)
	}
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(text))
	var s scanner.Scanner
	s.Init(f, []byte(text), nil, scanner.ScanComments)
	line, end, semi := 1, 0, false
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch {
		case tok == token.COMMENT:
			continue
		case tok == token.SEMICOLON && lit == "\n":
			// Written if a token follows: the last one ends the text.
			semi = true
			continue
		case tok == token.STRING && strings.Contains(lit, "\n"):
			r.errorf(from, "%s holds a raw string literal over several lines, which weft test must write on one line, that of the %s: bind the string to a variable before the %s", what, stmt, stmt)
			return text
		}
		if semi {
			b.WriteString(";")
			semi = false
		}
		off := f.Offset(pos)
		p := f.Position(pos)
		switch {
		case p.Line != line:
			col := p.Column
			if p.Line == 1 {
				col += fp.Column - 1
			}
			b.WriteString(" ")
			directive(fp.Line+p.Line-1, col)
			line = p.Line
		case off > end && end > 0:
			b.WriteString(" ")
		}
		if lit == "" {
			lit = tok.String()
		}
		b.WriteString(lit)
		end = off + len(lit)
	}
	directive(ap.Line, ap.Column)
	return b.String()
}
