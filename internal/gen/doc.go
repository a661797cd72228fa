// Package gen generates small random concurrent programs for differential
// testing of weft's strategies: threads running a few operations over
// variables (load, store, add, compare-and-swap; under V3 also adds whose
// result is unused, AddOnly), mutexes and reader/writer
// mutexes (balanced critical sections), buffered and unbuffered channels
// (send, receive, close), selects with and without default, and a
// WaitGroup, with assertions on values read. Options.Loops draws programs
// of event loops instead: tickers and bounded loops of timeouts in selects
// with channel and stop cases, timers of tiny periods, selects of several
// cases, and producers that hold a mutex across a send.
//
// A program is data (Program), so that a failing case can be printed and
// reduced by hand, or written by hand: Parse reads the printed form back
// (Parse(p.String()).String() == p.String()), so a program can be written
// as text. Each statement's printed form is one entry of the table of
// forms.go, which a new kind of statement extends; Parse fails with
// ErrUnknownStatement, naming the line, on a statement it does not know. The same seed always gives the same
// program. Package gen imports nothing of weft: package genweft turns a
// program into a test body run by weft's runtime, and package strategytest
// runs the programs it models against a strategy alone, without the
// runtime:
//
//	p := gen.New(42)
//	fmt.Println(p)                       // the program, as Go-like source
//	r, err := weft.Explore(genweft.Body(p), weft.KeepGoing())
//
// Programs stay small (DefaultOptions: at most 11 steps) so that exhaustive
// search, the reference, finishes in milliseconds.
package gen
