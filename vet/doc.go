// Package vet is a static check (a golang.org/x/tools/go/analysis pass) of
// weft test bodies: the code weft cannot control or see, which makes an
// exploration miss interleavings or fail at run time.
//
// A body is a function (literal or declared) with a parameter of type
// *weft.T, such as the function literal given to weft.Check, weft.Explore
// or weft.Replay. Inside a body, including the function literals it
// contains, Analyzer reports:
//
//   - a go statement: weft neither schedules nor sees the goroutine (start
//     threads with w.Go, weft.Go or WaitGroup.Go);
//   - an operation on a Go channel (a send, a receive, a select, a range
//     over it, close): weft neither schedules it nor sees it (use
//     weft.Chan and weft.Select);
//   - a use of package sync or sync/atomic (a type, a function or a
//     method of theirs): a real lock or atomic is invisible to weft (use
//     weft.Mutex, weft.RWMutex, weft.WaitGroup, weft.Once, weft.Cond,
//     weft.Var and weft.Int);
//   - time.Sleep, time.After, time.Tick, time.NewTimer, time.NewTicker and
//     time.AfterFunc: real time, which weft does not control (use w.Sleep,
//     w.After and weft.NewTimer);
//   - a write, in a function literal started as a thread (w.Go, weft.Go,
//     WaitGroup.Go), of a plain variable captured from outside it that
//     code outside that literal also uses: an access weft does not see,
//     shared between threads (make it a weft.Var).
//
// The check is syntactic within each body: it does not follow calls into
// other functions, so a body that calls a helper using sync is not
// reported.
//
// # Use
//
// Run it with the weft command, on packages as go vet takes them:
//
//	weft vet ./...
//
// or add Analyzer to a driver of your own (singlechecker, multichecker,
// golang.org/x/tools/go/analysis/checker):
//
//	singlechecker.Main(vet.Analyzer)
package vet
