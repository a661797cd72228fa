// Package rt holds the functions that weft test's rewritten code calls in
// place of Go's channel operations, go statements and select statements,
// and the wrapper that runs a Test function's body as a weft exploration.
// It is not meant to be called by hand: write weft.Chan, weft.Go and
// weft.Select for that.
//
// A channel keeps its Go type (chan T) in the program; inside a weft
// execution each channel value is mapped, by its pointer, to a weft.Chan
// with the same capacity, in a table the execution starts empty, so that
// a channel made before the exploration starts every execution empty, open
// and with no waiting goroutines. A nil channel maps to a nil weft.Chan: its
// sends and receives block for ever, as in Go. Outside an execution (code
// that runs before or after the exploration, TestMain) every operation is
// Go's own on the real channel; the two are separate, so values sent
// outside an execution are not received inside one.
//
// The rewriting, for ch of type chan T (the handles for chan<- T and <-chan
// T are made by OfSend and OfRecv):
//
//	ch <- v                 rt.Of("ch", ch).Send(v)
//	x := <-ch               x := rt.Of("ch", ch).Recv()
//	x, ok := <-ch           x, ok := rt.Of("ch", ch).RecvOK()
//	close(ch)               rt.Of("ch", ch).Close()
//	len(ch)                 rt.Of("ch", ch).Len()
//	for x := range ch {     for x := range rt.Of("ch", ch).Range() {
//	                        (before go1.23: for weftR_, x := rt.Of("ch", ch).Loop(); ; { weftV_, weftOK_ :=
//	                        weftR_.RecvOK(); if !weftOK_ { break }; x = weftV_;)
//	go f(a, b)              { f_, a_, b_ := f, a, b; rt.Go(func() { f_(a_, b_) }) }
//
// and a select statement becomes a switch on the index of the case that
// Select chose, whose clauses are the select's own, in place: break, labels
// and return keep their meaning.
//
// Test runs a Test function's (or a subtest's) body as an exploration,
// one exploration at a time; Run is t.Run, for the code that runs outside
// explorations (a table's loop), and Sub makes a subtest's function value
// run as an exploration. Refuse skips a test whose body holds a construct
// weft test does not run, and Unsupported refuses the test whose
// exploration reaches a function that holds one.
package rt
