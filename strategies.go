// This file lists the strategies known by name.

package weft

import (
	"github.com/weft-go/weft/internal/registry"
)

// Strategies returns the names of the strategies this program can run,
// sorted. The concolic ones are among them when the program imports
// github.com/weft-go/weft/concolic.
func Strategies() []string { return registry.Names() }
