// Package gen generates small random concurrent programs for differential
// testing of weft's strategies: threads running a few operations over
// variables (load, store, add, compare-and-swap), mutexes and reader/writer
// mutexes (balanced critical sections), buffered and unbuffered channels
// (send, receive, close), selects with and without default, and a
// WaitGroup, with assertions on values read.
//
// A program is data (Program), so that a failing case can be printed and
// reduced by hand; Body turns it into a test body. The same seed always
// gives the same program:
//
//	p := gen.New(42)
//	fmt.Println(p)                       // the program, as Go-like source
//	r, err := weft.Explore(p.Body(), weft.KeepGoing())
//
// Programs stay small (DefaultOptions: at most 11 steps) so that exhaustive
// search, the reference, finishes in milliseconds.
package gen
