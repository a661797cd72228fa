// This file implements the registry of built-in programs and their
// parameters.

package programs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/weft-go/weft"
)

// Param is an integer parameter of a program.
type Param struct {
	Name    string
	Default int
	// Min and Max bound the accepted values (inclusive).
	Min, Max int
	Doc      string
}

// Params holds a value for every parameter of a program, by name.
type Params map[string]int

// NoJoin, set to 1 in the Params given to Body, makes the bodies of
// dining and filesystem start their threads without joining them, as
// Kähkönen et al. 2014's do (weft bench's measure of its Table 2). It is
// no parameter of theirs: weft run and replay tokens do not know it.
const NoJoin = "nojoin"

// Program is a built-in program: a test body parameterised by integers.
type Program struct {
	Name string
	// Doc is a one-line description; Source cites where the program comes
	// from, papers by their authors and year (README.md's "Papers" gives
	// their titles).
	Doc, Source string
	Params      []Param
	// Body returns the test body for the given parameters, which Resolve
	// has completed and checked. The objects a body shares across
	// executions start each execution afresh.
	Body func(p Params) func(w *weft.T)
}

// registry holds the programs in the order All returns them.
var registry []*Program

// register adds p to the registry; names must be unique.
func register(p *Program) {
	if Lookup(p.Name) != nil {
		panic("programs: duplicate program " + p.Name)
	}
	registry = append(registry, p)
}

// All returns the built-in programs, sorted by name.
func All() []*Program {
	ps := slices.Clone(registry)
	slices.SortFunc(ps, func(a, b *Program) int { return strings.Compare(a.Name, b.Name) })
	return ps
}

// Lookup returns the program called name, or nil.
func Lookup(name string) *Program {
	for _, p := range registry {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Names returns the names of the built-in programs, sorted.
func Names() []string {
	var names []string
	for _, p := range All() {
		names = append(names, p.Name)
	}
	return names
}

// Resolve returns the parameters of p with the values in set (by name) over
// the defaults. It rejects an unknown name and a value out of range.
func (p *Program) Resolve(set map[string]int) (Params, error) {
	out := make(Params, len(p.Params))
	for _, q := range p.Params {
		out[q.Name] = q.Default
	}
	for name, v := range set {
		q := p.param(name)
		if q == nil {
			return nil, fmt.Errorf("program %s has no parameter %q (%s)", p.Name, name, p.paramList())
		}
		if v < q.Min || v > q.Max {
			return nil, fmt.Errorf("parameter %s=%d of program %s is out of range [%d, %d]", name, v, p.Name, q.Min, q.Max)
		}
		out[name] = v
	}
	return out, nil
}

// MustBody returns the body of p for the values in set over the defaults,
// and panics if Resolve rejects them. It is meant for tests.
func (p *Program) MustBody(set map[string]int) func(w *weft.T) {
	ps, err := p.Resolve(set)
	if err != nil {
		panic(err)
	}
	return p.Body(ps)
}

// param returns the parameter called name, or nil.
func (p *Program) param(name string) *Param {
	for i := range p.Params {
		if p.Params[i].Name == name {
			return &p.Params[i]
		}
	}
	return nil
}

// paramList describes p's parameters for messages.
func (p *Program) paramList() string {
	if len(p.Params) == 0 {
		return "it takes none"
	}
	names := make([]string, len(p.Params))
	for i, q := range p.Params {
		names[i] = q.Name
	}
	return "its parameters: " + strings.Join(names, ", ")
}

// Format returns ps as name=value pairs in the order p declares them, for
// command lines and reports.
func (p *Program) Format(ps Params) []string {
	out := make([]string, 0, len(p.Params))
	for _, q := range p.Params {
		out = append(out, q.Name+"="+strconv.Itoa(ps[q.Name]))
	}
	return out
}

// ParseAssignment parses "name=value" with an integer value.
func ParseAssignment(s string) (name string, value int, err error) {
	name, v, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return "", 0, fmt.Errorf("parameter %q: want name=value", s)
	}
	value, err = strconv.Atoi(v)
	if err != nil {
		return "", 0, fmt.Errorf("parameter %q: %q is not an integer", s, v)
	}
	return name, value, nil
}
