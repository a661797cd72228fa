// This file parses the printed form of a program (Program.String) back
// into a Program, so that programs can be written as text.

package gen

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ErrSyntax is wrapped by the errors of Parse for text that is not the
// printed form of a program.
var ErrSyntax = errors.New("not a program of package gen")

// ErrUnknownStatement is wrapped by the error of Parse for a line that no
// statement prints as: a kind of statement the parser does not know (its
// form is missing from the table of forms.go), or a typo.
var ErrUnknownStatement = errors.New("unknown statement")

// Parse returns the program whose printed form (Program.String) is text:
// Parse(p.String()).String() == p.String(). Fields the printed form does
// not show (the value a Load or a receive would assert when it does not
// assert) are zero.
func Parse(text string) (*Program, error) {
	ps := &parser{lines: strings.Split(strings.TrimSuffix(text, "\n"), "\n")}
	p, err := ps.program()
	if err != nil {
		return nil, err
	}
	return p, nil
}

// MustParse is Parse for programs written in tests: it panics if text is
// not a program.
func MustParse(text string) *Program {
	p, err := Parse(text)
	if err != nil {
		panic(err)
	}
	return p
}

// parser reads lines of a program's text.
type parser struct {
	lines []string
	i     int // the next line
}

// errorf returns an error at the current line wrapping err.
func (ps *parser) errorf(err error, format string, args ...any) error {
	line := ""
	if ps.i < len(ps.lines) {
		line = ps.lines[ps.i]
	}
	return fmt.Errorf("gen: line %d %q: %s: %w", ps.i+1, line, fmt.Sprintf(format, args...), err)
}

var (
	seedLine    = regexp.MustCompile(`^// gen seed (\d+)$`)
	objectsLine = regexp.MustCompile(`^vars: (\d+), mutexes: (\d+), rwmutexes: (\d+), chans \(caps\): \[([-\d ]*)\], waitgroups: (\d+), onces: (\d+), local objects: (true|false)$`)
	wgAddLine   = regexp.MustCompile(`^each wg\.Add\((-?\d+)\)$`)
	threadLine  = regexp.MustCompile(`^T(\d+) := go \{$`)
)

// program parses a whole program.
func (ps *parser) program() (*Program, error) {
	p := &Program{}
	m := seedLine.FindStringSubmatch(ps.line())
	if m == nil {
		return nil, ps.errorf(ErrSyntax, "want the header %q", "// gen seed N")
	}
	p.Seed, _ = strconv.ParseUint(m[1], 10, 64)
	ps.i++
	m = objectsLine.FindStringSubmatch(ps.line())
	if m == nil {
		return nil, ps.errorf(ErrSyntax, "want the objects line %q", "vars: N, mutexes: N, ...")
	}
	ints := func(s string) int { n, _ := strconv.Atoi(s); return n }
	p.Vars, p.Mutexes, p.RWMutexes = ints(m[1]), ints(m[2]), ints(m[3])
	for _, f := range strings.Fields(m[4]) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, ps.errorf(ErrSyntax, "channel capacity %q", f)
		}
		p.Chans = append(p.Chans, n)
	}
	p.WaitGroups, p.Onces, p.Local = ints(m[5]), ints(m[6]), m[7] == "true"
	ps.i++
	if m := wgAddLine.FindStringSubmatch(ps.line()); m != nil {
		p.WGAdd = ints(m[1])
		ps.i++
	}
	if ps.line() == "each buffered channel <- 9" {
		p.Fill = true
		ps.i++
	}
	if ok, err := ps.syncHeader(p); err != nil {
		return nil, err
	} else if ok {
		ps.i++
	}
	for ps.i < len(ps.lines) {
		m := threadLine.FindStringSubmatch(ps.line())
		if m == nil {
			break
		}
		if ints(m[1]) != len(p.Threads)+1 {
			return nil, ps.errorf(ErrSyntax, "thread T%s where T%d is next", m[1], len(p.Threads)+1)
		}
		ps.i++
		th, err := ps.stmts("\t")
		if err != nil {
			return nil, err
		}
		if ps.line() != "}" {
			return nil, ps.errorf(ErrSyntax, "want the %q that ends thread T%d", "}", len(p.Threads)+1)
		}
		ps.i++
		p.Threads = append(p.Threads, th)
	}
	main, err := ps.stmts("")
	if err != nil {
		return nil, err
	}
	p.Main = main
	if ps.i < len(ps.lines) {
		return nil, ps.errorf(ErrSyntax, "unexpected line after the body")
	}
	return p, nil
}

// line returns the current line, "" at the end.
func (ps *parser) line() string {
	if ps.i < len(ps.lines) {
		return ps.lines[ps.i]
	}
	return ""
}

// stmts parses the statements at indentation indent, up to a line that
// is less indented or closes a block.
func (ps *parser) stmts(indent string) ([]Stmt, error) {
	var ss []Stmt
	for ps.i < len(ps.lines) {
		line := ps.lines[ps.i]
		rest, ok := strings.CutPrefix(line, indent)
		if !ok || strings.HasPrefix(rest, "}") || (indent == "" && threadLine.MatchString(line)) {
			break
		}
		if strings.HasPrefix(rest, "\t") {
			return nil, ps.errorf(ErrSyntax, "indented deeper than its block")
		}
		s, err := ps.stmt(indent, rest)
		if err != nil {
			return nil, err
		}
		ss = append(ss, s)
	}
	return ss, nil
}

// stmt parses the statement whose line, without its indentation indent,
// is rest, and its body.
func (ps *parser) stmt(indent, rest string) (Stmt, error) {
	var cands []*form // the forms with a body whose head matched
	var vals []holes
	for i := range forms {
		f := &forms[i]
		h := holes{}
		if !match(f.head, rest, h) {
			continue
		}
		if !f.body {
			if f.kind == Scope {
				return ps.scope(indent, f, h)
			}
			ps.i++
			return h.stmt(f), nil
		}
		cands, vals = append(cands, f), append(vals, h)
	}
	if len(cands) == 0 {
		return Stmt{}, ps.errorf(ErrUnknownStatement, "no statement prints so")
	}
	ps.i++
	body, err := ps.stmts(indent + "\t")
	if err != nil {
		return Stmt{}, err
	}
	closing, ok := strings.CutPrefix(ps.line(), indent+"} ")
	if !ok {
		return Stmt{}, ps.errorf(ErrSyntax, "want the line that closes %q", rest)
	}
	for i, f := range cands {
		if match(f.tail, closing, vals[i]) {
			ps.i++
			s := vals[i].stmt(f)
			s.Body = body
			return s, nil
		}
	}
	return Stmt{}, ps.errorf(ErrUnknownStatement, "no statement %q closes so", rest)
}

// scope parses a Scope statement, whose header matched form f with holes
// h: its thread, its body and the line that joins the thread.
func (ps *parser) scope(indent string, f *form, h holes) (Stmt, error) {
	s := h.stmt(f)
	ps.i++
	if ps.line() != indent+"\tgo {" {
		return Stmt{}, ps.errorf(ErrSyntax, "want the scope's thread, %q", "go {")
	}
	ps.i++
	child, err := ps.stmts(indent + "\t\t")
	if err != nil {
		return Stmt{}, err
	}
	if ps.line() != indent+"\t}" {
		return Stmt{}, ps.errorf(ErrSyntax, "want the %q that ends the scope's thread", "}")
	}
	ps.i++
	body, err := ps.stmts(indent + "\t")
	if err != nil {
		return Stmt{}, err
	}
	if ps.line() != indent+"} // join the scope's thread" {
		return Stmt{}, ps.errorf(ErrSyntax, "want the end of the scope")
	}
	ps.i++
	s.Child, s.Body = child, body
	return s, nil
}

var (
	semDecl  = regexp.MustCompile(`^s(\d+): (binary )?semaphore\((-?\d+)\)$`)
	condDecl = regexp.MustCompile(`^cond(\d+): on m(\d+)$`)
	monDecl  = regexp.MustCompile(`^mon(\d+): (SC|SU) monitor$`)
)

// syncHeader parses the line of Options.Sync's objects (Program.syncHeader)
// into p, if the current line is one; it reports whether it was.
func (ps *parser) syncHeader(p *Program) (bool, error) {
	line := ps.line()
	if !semDecl.MatchString(line) && !condDecl.MatchString(line) && !monDecl.MatchString(line) &&
		!strings.HasPrefix(line, "s0: ") && !strings.HasPrefix(line, "cond0: ") && !strings.HasPrefix(line, "mon0: ") {
		return false, nil
	}
	for _, d := range strings.Split(line, ", ") {
		if m := semDecl.FindStringSubmatch(d); m != nil && m[1] == strconv.Itoa(len(p.Sems)) {
			v, _ := strconv.Atoi(m[3])
			p.Sems = append(p.Sems, v)
			p.Binary = append(p.Binary, m[2] != "")
		} else if m := condDecl.FindStringSubmatch(d); m != nil && m[1] == strconv.Itoa(p.Conds) && m[2] == m[1] {
			p.Conds++
		} else if m := monDecl.FindStringSubmatch(d); m != nil && m[1] == strconv.Itoa(len(p.SU)) {
			p.SU = append(p.SU, m[2] == "SU")
		} else {
			return false, ps.errorf(ErrSyntax, "object %q: want sN: [binary ]semaphore(V), condN: on mN or monN: SC|SU monitor, in order", d)
		}
	}
	return true, nil
}
