// This file lets the driver stop the strategy's long searches
// (strategy.Stoppable).

package unfold

import "github.com/weft-go/weft/strategy"

// SetStop implements strategy.Stoppable: the modelling of an execution,
// the choice of the next target, the search for deadlocks and the solver
// calls stop once stop reports a bound passed.
func (s *Strategy) SetStop(stop *strategy.Stop) { s.n.stop = stop }

var _ strategy.Stoppable = (*Strategy)(nil)
