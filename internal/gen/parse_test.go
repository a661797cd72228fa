// This file tests the parser: print, parse and print again gives the same
// text, and the program parsed is the one printed, over programs of every
// kind the generator draws.

package gen

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// genOptions are the options of every kind of program the generator
// draws.
var genOptions = map[string]Options{
	"v1": V1, "v2": DefaultOptions, "v3": V3, "timed": Timed, "loops": Loops, "sync": Sync, "selects": SelectDefaults,
	"messages": {MaxEvents: 11, MessagePassing: true},
	"large":    {MaxEvents: 40, Version: 3, Timed: true},
}

// canonical returns a copy of p without the fields its printed form does
// not show: the values a Load and a receive (plain or a select's case)
// would assert when they do not, and the variable of a tiny timer that
// does not poll.
func canonical(p *Program) *Program {
	q := *p
	var canon func(ss []Stmt) []Stmt
	canon = func(ss []Stmt) []Stmt {
		if ss == nil {
			return nil
		}
		out := make([]Stmt, len(ss))
		for i, s := range ss {
			if (s.Kind == Load || s.Kind == Recv) && !s.Assert {
				s.Val = 0
			}
			if s.Kind == TinyTimer && s.Val2 != 1 {
				s.Obj = 0
			}
			if s.Cases != nil {
				cs := append([]Case(nil), s.Cases...)
				for j := range cs {
					if !cs[j].Send {
						cs[j].Val = 0
					}
				}
				s.Cases = cs
			}
			s.Body, s.Child = canon(s.Body), canon(s.Child)
			out[i] = s
		}
		return out
	}
	q.Threads = nil
	for _, th := range p.Threads {
		q.Threads = append(q.Threads, canon(th))
	}
	q.Main = canon(p.Main)
	if len(q.Chans) == 0 {
		q.Chans = nil
	}
	return &q
}

// TestParseRoundTrip checks, on 300 programs of every kind, that printing
// the program parsed from a program's text gives the text again, and that
// it is the program printed.
func TestParseRoundTrip(t *testing.T) {
	kinds := map[Kind]int{}
	var count func(ss []Stmt)
	count = func(ss []Stmt) {
		for _, s := range ss {
			kinds[s.Kind]++
			count(s.Body)
			count(s.Child)
		}
	}
	for name, o := range genOptions {
		for seed := range uint64(300) {
			p := NewWith(seed, o)
			for _, local := range []bool{false, true} {
				p.Local = local
				text := p.String()
				q, err := Parse(text)
				if err != nil {
					t.Fatalf("%s seed %d: %v\n%s", name, seed, err, text)
				}
				if got := q.String(); got != text {
					t.Fatalf("%s seed %d: printed again:\n%s\nwant\n%s", name, seed, got, text)
				}
				if want := canonical(p); !reflect.DeepEqual(q, want) {
					t.Fatalf("%s seed %d: parsed %+v\nwant %+v", name, seed, q, want)
				}
			}
			for _, th := range p.Threads {
				count(th)
			}
			count(p.Main)
		}
	}
	// The statements no generator draws, written by hand.
	p := &Program{Vars: 1, Mutexes: 1, Threads: [][]Stmt{{{Kind: Inc}, {Kind: Acquire}}}, Main: []Stmt{{Kind: Release}, {Kind: Join}}}
	text := p.String()
	q, err := Parse(text)
	if err != nil || q.String() != text || !reflect.DeepEqual(q, canonical(p)) {
		t.Fatalf("hand-written program: %+v, %v; want %+v", q, err, p)
	}
	count(p.Threads[0])
	count(p.Main)
	for k := range Kind(len(kindNames)) {
		if kinds[k] == 0 {
			t.Errorf("no program of the round trip has a %v statement", k)
		}
	}
	for k := firstLoopKind; k < firstLoopKind+Kind(len(loopKindNames)); k++ {
		if kinds[k] == 0 {
			t.Errorf("no program of the round trip has a %v statement", k)
		}
	}
}

// TestFormsComplete checks that every kind of statement has a form the
// parser knows: a kind added without one fails here.
func TestFormsComplete(t *testing.T) {
	has := map[Kind]bool{}
	for _, f := range forms {
		has[f.kind] = true
	}
	for k := range Kind(len(kindNames)) {
		if !has[k] {
			t.Errorf("statement kind %v has no form in forms.go: Parse cannot read it", k)
		}
	}
	for k := firstLoopKind; k < firstLoopKind+Kind(len(loopKindNames)); k++ {
		if !has[k] {
			t.Errorf("statement kind %v has no form in forms.go: Parse cannot read it", k)
		}
	}
}

// TestParseErrors checks the errors of text that is no program: an
// unknown statement says so (ErrUnknownStatement), naming its line.
func TestParseErrors(t *testing.T) {
	head := "// gen seed 0\nvars: 1, mutexes: 1, rwmutexes: 0, chans (caps): [0], waitgroups: 0, onces: 0, local objects: false\n"
	for _, c := range []struct {
		text string
		err  error
		line string
	}{
		{head + "v0.Frobnicate(1)\n", ErrUnknownStatement, "line 3"},
		{head + "T1 := go {\n\tv0.Store(1)\n\tsem0.P()\n}\n", ErrUnknownStatement, "line 5"},
		{head + "m0.Lock() {\n\tv0.Load()\n} // m1.Unlock()\n", ErrUnknownStatement, "line 5"},
		{head + "m0.Lock() {\n\tv0.Load()\n", ErrSyntax, "line 5"},
		{"vars: 1\n", ErrSyntax, "line 1"},
		{head + "T2 := go {\n}\n", ErrSyntax, "line 3"},
		{head + "\tv0.Load()\n", ErrSyntax, "line 3"},
	} {
		_, err := Parse(c.text)
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.line) {
			t.Errorf("Parse(%q): %v; want an error wrapping %v at %s", c.text, err, c.err, c.line)
		}
	}
	if p, err := Parse(head + "v0.Store(v0.Load() + 1)\nm0.Lock()\n"); err != nil || len(p.Main) != 2 || p.Main[0].Kind != Inc || p.Main[1].Kind != Acquire {
		t.Errorf("Inc and Acquire: %+v, %v", p, err)
	}
}
