// This file implements the directives of a Test function's comment that
// set the leak rule of its explorations, as weft test's flags do for every
// test: //weft:leaks=off (-leaks=false) and //weft:ignore-leak F,...
// (-ignore-leak F,...).

package rewrite

import (
	"go/ast"
	"strconv"
	"strings"
)

// directivePrefix starts a directive of weft's in a comment.
const directivePrefix = "//weft:"

// testOptions returns the arguments that the directives of doc, the
// comment of a Test function, add to its call of weftrt.Test
// (", weftrt.IgnoreLeaks()", `, weftrt.IgnoreLeak("example.com/p.worker")`),
// and records an error for a directive it does not know, which refuses the
// test.
func (r *rewriter) testOptions(doc *ast.CommentGroup) string {
	if doc == nil {
		return ""
	}
	var opts strings.Builder
	for _, c := range doc.List {
		d, ok := strings.CutPrefix(c.Text, directivePrefix)
		if !ok {
			continue
		}
		name, arg, _ := strings.Cut(d, " ")
		if n, v, ok := strings.Cut(name, "="); ok {
			name, arg = n, v
		}
		arg = strings.TrimSpace(arg)
		switch name {
		case "leaks":
			switch arg {
			case "off", "false", "0":
				opts.WriteString(", " + rtName + ".IgnoreLeaks()")
			case "on", "true", "1":
			default:
				r.errorf(c.Pos(), "%s: want //weft:leaks=off (or on)", c.Text)
			}
		case "ignore-leak":
			fns := strings.FieldsFunc(arg, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' })
			if len(fns) == 0 {
				r.errorf(c.Pos(), "%s: want the functions whose blocked goroutines are not leaks, as a stack names them (//weft:ignore-leak example.com/pool.(*Pool).worker)", c.Text)
				continue
			}
			opts.WriteString(", " + rtName + ".IgnoreLeak(")
			for i, f := range fns {
				if i > 0 {
					opts.WriteString(", ")
				}
				opts.WriteString(strconv.Quote(f))
			}
			opts.WriteString(")")
		default:
			r.errorf(c.Pos(), "%s: unknown directive of weft's: want //weft:leaks=off or //weft:ignore-leak F,...", c.Text)
		}
	}
	return opts.String()
}
