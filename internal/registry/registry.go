// This file implements the registry: Register, Lookup and Names.

package registry

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/weft-go/weft/strategy"
)

// Params are the options a strategy is built with.
type Params struct {
	// Seed seeds the randomised strategies and the order of exploration
	// of the systematic ones (0: the default order).
	Seed int64
	// Depth is PCT's bug depth.
	Depth int
	// MaxSteps bounds the steps of one execution (0: the runtime's default).
	MaxSteps int
	// K is con2's bound on interferences (Farzan et al. 2013's k_max).
	K int
	// ReachPV and ReachSymmetric are reach's reductions (its Options.PV,
	// Options.Symmetric).
	ReachPV        bool
	ReachSymmetric [][]int
}

// Builder builds a new strategy.
type Builder func(Params) strategy.Strategy

// ErrUnknown is wrapped by the error of Lookup for a name no package
// registers.
var ErrUnknown = errors.New("unknown strategy")

// ErrNotLinked is wrapped by the error of Lookup for a strategy that exists
// but whose package the program does not import.
var ErrNotLinked = errors.New("strategy not linked in")

var (
	builders = map[string]Builder{}
	// optIn maps the names of opt-in strategies not registered yet to
	// how to enable them.
	optIn = map[string]string{}
)

// Register makes b the builder of the strategy called name. It panics if
// the name is taken: two packages must not claim one name.
func Register(name string, b Builder) {
	if _, dup := builders[name]; dup {
		panic(fmt.Sprintf("weft: strategy %q registered twice", name))
	}
	builders[name] = b
	delete(optIn, name)
}

// OptIn declares name as a strategy a package registers when it is
// imported; how says how to enable it (it ends the error of Lookup).
func OptIn(name, how string) {
	if _, ok := builders[name]; !ok {
		optIn[name] = how
	}
}

// Lookup returns the builder of the strategy called name.
func Lookup(name string) (Builder, error) {
	if b, ok := builders[name]; ok {
		return b, nil
	}
	if how, ok := optIn[name]; ok {
		return nil, fmt.Errorf("strategy %q is not linked in (%w): %s", name, ErrNotLinked, how)
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
}

// Names returns the names of the registered strategies, sorted.
func Names() []string {
	names := make([]string, 0, len(builders))
	for n := range builders {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
