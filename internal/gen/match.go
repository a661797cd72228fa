// This file matches a line against a pattern of the table of forms
// (forms.go), filling the pattern's holes.

package gen

import (
	"strconv"
	"strings"
)

// holes are the values a pattern's holes matched, by name.
type holes map[string]any

// stmt returns the statement of form f with the values of h.
func (h holes) stmt(f *form) Stmt {
	s := Stmt{Kind: f.kind}
	if v, ok := h["obj"].(int); ok {
		s.Obj = v
	}
	if v, ok := h["thread"].(int); ok {
		s.Obj = v - 1
	}
	if v, ok := h["val"].(int); ok {
		s.Val = v
	}
	if v, ok := h["val2"].(int); ok {
		s.Val2 = v
	}
	if v, ok := h["cases"].(selectCases); ok {
		s.Cases, s.Default = v.cases, v.def
	}
	if v, ok := h["loopcases"].([]Case); ok {
		s.Cases = v
	}
	if f.set != nil {
		f.set(&s)
	}
	return s
}

// selectCases are a select's cases and whether it has a default.
type selectCases struct {
	cases []Case
	def   bool
}

// match reports whether text matches pattern entirely, adding the values
// of its holes to h. A hole already in h must match its value again.
func match(pattern, text string, h holes) bool {
	for pattern != "" {
		i := strings.IndexByte(pattern, '{')
		if i < 0 {
			return pattern == text
		}
		name, after, ok := hole(pattern[i:])
		if !ok {
			// A literal brace: match through it.
			if !strings.HasPrefix(text, pattern[:i+1]) {
				return false
			}
			pattern, text = pattern[i+1:], text[i+1:]
			continue
		}
		if !strings.HasPrefix(text, pattern[:i]) {
			return false
		}
		text, pattern = text[i:], after
		var v any
		switch name {
		case "cases", "loopcases":
			// The cases run to the next literal text of the pattern.
			lit := pattern
			if j := strings.IndexByte(lit, '{'); j >= 0 {
				lit = lit[:j]
			}
			end := len(text)
			if lit != "" {
				end = strings.Index(text, lit)
				if end < 0 {
					return false
				}
			}
			var ok bool
			if name == "cases" {
				v, ok = parseSelectCases(text[:end])
			} else {
				v, ok = parseLoopCases(text[:end])
			}
			if !ok {
				return false
			}
			text = text[end:]
		default:
			n := 0
			if n < len(text) && text[n] == '-' {
				n++
			}
			for n < len(text) && text[n] >= '0' && text[n] <= '9' {
				n++
			}
			x, err := strconv.Atoi(text[:n])
			if err != nil {
				return false
			}
			if old, ok := h[name]; ok && old != x {
				return false
			}
			v, text = x, text[n:]
		}
		h[name] = v
	}
	return text == ""
}

// hole returns the name of the hole that s starts with ("{obj}": "obj")
// and what follows it, or false if s starts with a literal brace.
func hole(s string) (name, after string, ok bool) {
	for _, n := range []string{"obj", "val", "val2", "thread", "cases", "loopcases"} {
		if rest, ok := strings.CutPrefix(s, "{"+n+"}"); ok {
			return n, rest, true
		}
	}
	return "", "", false
}

// parseSelectCases parses a select's cases as Stmt.String prints them:
// "case <-c0; case c1 <- 2; default".
func parseSelectCases(s string) (selectCases, bool) {
	var sc selectCases
	if s == "" {
		return sc, true
	}
	for _, c := range strings.Split(s, "; ") {
		if c == "default" {
			sc.def = true
			continue
		}
		h := holes{}
		switch {
		case match("case <-c{obj}", c, h):
			sc.cases = append(sc.cases, Case{Chan: h["obj"].(int)})
		case match("case c{obj} <- {val}", c, h):
			sc.cases = append(sc.cases, Case{Send: true, Chan: h["obj"].(int), Val: h["val"].(int)})
		default:
			return sc, false
		}
	}
	return sc, true
}

// parseLoopCases parses the channel cases of a loop's select as
// casesString prints them.
func parseLoopCases(s string) ([]Case, bool) {
	var cs []Case
	for s != "" {
		c, rest, ok := strings.Cut(s, ";")
		if !ok {
			return nil, false
		}
		h := holes{}
		switch {
		case match(" case <-c{obj}: break loop", c, h):
			cs = append(cs, Case{Stop: true, Chan: h["obj"].(int)})
		case match(" case c{obj} <- {val}", c, h):
			cs = append(cs, Case{Send: true, Chan: h["obj"].(int), Val: h["val"].(int)})
		case match(" case x := <-c{obj}: v0.Store(x)", c, h):
			cs = append(cs, Case{Chan: h["obj"].(int)})
		default:
			return nil, false
		}
		s = rest
	}
	return cs, true
}
