// This file implements the marks of the turns of polling loops, which
// weft test's rewriting gives a loop `for { ... }` whose turns change
// nothing but through weft's operations: `for weftL_ := weftrt.Loop(); ;
// weftL_.Turn() { ... }`.

package rt

import (
	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/shim"
)

// Turns marks the turns of one run of a polling loop.
type Turns struct{ from int32 }

// Loop starts a polling loop: its first turn begins here.
func Loop() Turns {
	if !shim.Active() {
		return Turns{}
	}
	return Turns{from: engine.Current().Events()}
}

// Turn ends a turn of the loop that goes round: inside an execution, if
// the turn's steps only read, the goroutine blocks until another writes a
// variable the turn loaded, or, if the turn polled channels, yields to
// the other goroutines (engine.Thread.LoopTurn). Outside one it does
// nothing.
func (l *Turns) Turn() {
	if !shim.Active() {
		return
	}
	l.from = engine.Current().LoopTurn(l.from)
}
