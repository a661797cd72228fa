// This file exports to the external tests the oracles of oracle_test.go.

package unfold

import (
	"errors"

	"github.com/weft-go/weft/strategy"
)

// Signatures returns the signatures of the events of s's unfolding.
func Signatures(s *Strategy) map[uint64]string { return s.signatures() }

// AnonSignatures returns them with objects named by their classes alone.
func AnonSignatures(s *Strategy) map[uint64]string {
	m, _ := s.sigs(true)
	return m
}

// Diff describes the events one set of signatures has and the other not.
var Diff = diff

// NewObserver returns exhaustive search modelling its executions in an
// unfolding, and a function returning that unfolding's signatures and the
// error of its modelling.
func NewObserver(anon bool) (strategy.Strategy, func() (map[uint64]string, error)) {
	return NewObserverInputs(anon)
}

// NewObserverInputs is NewObserver with one exhaustive search for each
// vector of values, whose k-th input reads the vector's k-th value.
func NewObserverInputs(anon bool, values ...[]uint64) (strategy.Strategy, func() (map[uint64]string, error)) {
	o, sigs, _ := NewObserverDeadlocks(anon, values...)
	return o, sigs
}

// NewObserverDeadlocks is NewObserverInputs with a function returning the
// signatures of the sets of thread conditions where the executions were
// blocked (DeadlockSigs).
func NewObserverDeadlocks(anon bool, values ...[]uint64) (strategy.Strategy, func() (map[uint64]string, error), func() [][]uint64) {
	o := newObserver()
	o.values = values
	return o, func() (map[uint64]string, error) {
			m, _ := o.u.sigs(anon)
			return m, errors.Join(o.u.Err(), o.u.Diverged())
		}, func() [][]uint64 {
			return o.u.stuckSigs(anon)
		}
}

// DeadlockSigs returns the signatures of the deadlocks s found by its
// search or ran into.
func DeadlockSigs(s *Strategy, anon bool) [][]uint64 { return s.deadlockSigs(anon) }

// Covers reports whether every set of want holds some set of got, and the
// first that does not.
var Covers = covers

// OptionsOf returns the options s was made with.
func OptionsOf(s *Strategy) Options { return s.opts }
