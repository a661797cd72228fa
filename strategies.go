// This file lists the strategies known by name.

package weft

import (
	"slices"
	"strings"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/exhaustive"
)

// strategies maps names to constructors.
var strategies = map[string]func(c *config) strategy.Strategy{
	"exhaustive": func(*config) strategy.Strategy { return exhaustive.New() },
}

// Strategies returns the names of the known strategies, sorted.
func Strategies() []string {
	names := make([]string, 0, len(strategies))
	for n := range strategies {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func strategyList() string { return strings.Join(Strategies(), ", ") }
