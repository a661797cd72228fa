// This file implements Walk, the part of a strategy built on a Tree that
// does not depend on how it finds races: choices along the tree, its
// divergence, inputs, the Stop, the start of Next and units of work.

package dpor

import "github.com/weft-go/weft/strategy"

// Walk is what the strategies built on a Tree (this package's and
// package flip's) share. A strategy embeds it (through an unexported alias,
// which keeps it out of the strategy's API), sets Tag in its constructor,
// starts its Next with Begin, and implements Split and Resume with SplitNext
// and ResumeUnit; Choose, Diverged, Input, SetStop, Join and Handback are
// Walk's.
type Walk struct {
	// Tree is the path of states the exploration replays and extends.
	Tree Tree
	// Stop is the exploration's Stop (SetStop), which long analyses poll.
	Stop *strategy.Stop
	// Tag names the strategy and its options in its units of work.
	Tag string
	// started says that the first execution was prepared.
	started bool
	// primed says that the next execution's choice is taken already (a
	// strategy resumed from a unit: Split prepared it).
	primed bool
}

// The capabilities a Walk gives the strategy that embeds it.
var (
	_ strategy.Diverger  = (*Walk)(nil)
	_ strategy.Stoppable = (*Walk)(nil)
)

// Choose implements strategy.Strategy.
func (w *Walk) Choose(st *strategy.State) strategy.Choice { return w.Tree.Choose(st) }

// Diverged reports how the last execution failed to replay the recorded
// path (the program is not deterministic), or nil.
func (w *Walk) Diverged() error { return w.Tree.Diverged }

// Input implements strategy.Strategy: inputs keep their default values.
func (w *Walk) Input(_ *strategy.State, in strategy.InputRequest) uint64 { return in.Default }

// SetStop implements strategy.Stoppable: Finish abandons the race
// analysis of an execution once stop reports a bound passed.
func (w *Walk) SetStop(stop *strategy.Stop) { w.Stop = stop }

// Begin is the start of every Next: decided is true when Next's answer is
// next without a look at the tree (false once the program diverged; true
// for the first execution, and for the first of a strategy resumed from a
// unit, whose choice Split took already). Otherwise the strategy finds
// the next branch itself.
func (w *Walk) Begin() (next, decided bool) {
	if w.Tree.Diverged != nil {
		return false, true // the program is not deterministic: nothing to explore
	}
	if !w.started {
		w.started = true
		w.Tree.Start = 0
		return true, true
	}
	if w.primed {
		w.primed = false
		return true, true
	}
	return false, false
}

// Splittable reports whether the strategy has work it may hand out: it has
// started, its next execution is not prepared already, and the program did
// not diverge.
func (w *Walk) Splittable() bool {
	return w.started && !w.primed && w.Tree.Diverged == nil
}

// SplitNext implements strategy.Splitter's Split for a strategy whose Next
// is next: it hands out the state the next execution would explore, with
// the states above it.
func (w *Walk) SplitNext(next func() bool) (strategy.Unit, bool) {
	if !w.Splittable() || !next() {
		return nil, false
	}
	return w.Tree.SplitUnit(w.Tag)
}

// ResumeUnit sets w, new, to explore unit u (strategy.Splitter's Resume).
func (w *Walk) ResumeUnit(u strategy.Unit) error {
	primed, err := w.Tree.ResumeUnit(u, w.Tag)
	if err != nil {
		return err
	}
	w.started, w.primed = true, primed
	return nil
}

// Join implements strategy.Splitter.
func (w *Walk) Join(h strategy.Handback) ([]strategy.Unit, error) {
	return w.Tree.JoinHandback(h, w.Tag)
}

// Handback implements strategy.Splitter.
func (w *Walk) Handback() strategy.Handback { return w.Tree.HandbackUnit(w.Tag) }
