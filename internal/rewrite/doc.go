// Package rewrite rewrites the source of a Go file, with its type
// information, so that its concurrency runs under weft: go statements,
// channel operations, select statements, runtime.Gosched and the imports
// of sync, sync/atomic, math/rand, math/rand/v2, time, context and
// hash/maphash become calls of weft's stand-in packages (std/rt, std/sync,
// std/sync/atomic, std/math/rand, std/math/rand/v2, std/time, std/context,
// std/hash/maphash), and each Test
// function's body runs as a weft exploration. weft test writes the rewritten files to a temporary
// directory and builds the package with go test -overlay.
//
// The rewriting edits the text at byte offsets, as cmd/cover does, and
// never adds or removes a line: every statement keeps its line, so that the
// file:line of a report, a panic or a compiler error is the one in the
// original file. Each edit replaces a range of the source; a range that
// holds line breaks keeps them. Rewriting rewritten code changes nothing.
//
// What becomes what (rt is the package std/rt, imported as weftrt):
//
//	go f(x, y)            { weftF_, weftA0_, weftA1_ := f, x, y; weftrt.Go(func() { weftF_(weftA0_, weftA1_) }) }
//	go func() {...}()     weftrt.Go(func() {...})
//	ch <- v               weftrt.Of("ch", ch).Send(v)
//	<-ch                  weftrt.Of("ch", ch).Recv()
//	v, ok := <-ch         v, ok := weftrt.Of("ch", ch).RecvOK()
//	close(ch), len(ch)    weftrt.Of("ch", ch).Close(), weftrt.Of("ch", ch).Len()
//	for v := range ch     for v := range weftrt.Of("ch", ch).Range()
//	                      (before go1.23: for weftR_, v := weftrt.Of("ch", ch).Loop(); ; { weftV_, weftOK_ := weftR_.RecvOK(); if !weftOK_ { break }; v = weftV_; ...)
//	for k, v := range m   for k, v := range weftrt.Map(m)   (m a map: in the order of the execution's seed)
//	                      (before go1.23: for weftM_, k, v := weftrt.MapLoop(m); ; { weftK_, weftV_, weftOK_ := weftM_.Next(); if !weftOK_ { break }; k, v = weftK_, weftV_; ...)
//	p.mu.Lock()           p.mu.WeftName("p.mu").Lock()   (every method of sync's and sync/atomic's types)
//	atomic.AddInt64(&n, 1)
//	                      atomic.AddInt64(atomic.WeftWord("n", &n), 1)
//	t := time.NewTimer(d) t := time.WeftName("t").NewTimer(d)   (and After, AfterFunc, NewTicker, Tick)
//	<-time.After(d)       weftrt.Of("time.After(d)", time.WeftName("time.After(d)").After(d)).Recv()
//	defer mu.Unlock()     { weftF_ := mu.WeftName("mu").Unlock; defer func() { weftF_() }() }
//	                      (a deferred call of a stand-in: reports show its step at the defer line)
//	select { case ... }   switch weftS0_, ... := <cases>; weftrt.Select(<has default>, weftS0_, ...) { case 0: ... }
//	import "sync"         import "github.com/weft-go/weft/std/sync"
//	                      (and sync/atomic, math/rand, math/rand/v2, time, context, hash/maphash)
//	runtime.Gosched()     weftrt.Gosched(runtime.Gosched)
//	runtime.NumGoroutine()
//	                      weftrt.NumGoroutine(runtime.NumGoroutine)
//	runtime.Stack(buf, all)
//	                      weftrt.Stack(runtime.Stack, buf, all)   (the program's goroutines only: goleak)
//	runtime.Callers(skip, pc), runtime.Caller(skip)
//	                      weftrt.Callers(runtime.Callers, skip, pc), weftrt.Caller(runtime.Caller, skip)
//	                      (the program's frames only: the stack traces libraries print)
//	[64 - unsafe.Sizeof(T{})]byte
//	                      [64 - unsafe.Sizeof([16]byte{})]byte   (in an array's length or a constant, T holding a
//	                      type weft replaces: the size under go test, as go/types computes it)
//	//go:linkname r runtime.cheaprand
//	func r() uint32       //
//	                      func r() uint32 { return weftrt.CheapRand() }   (and fastrand, and their 64-bit forms)
//	v.Len()               weftrt.ReflectLen(v)   (v a reflect.Value: a channel's length is weft's)
//	runtime.ReadMemStats(&m)
//	                      weftrt.MemoryProbe("runtime.ReadMemStats", runtime.ReadMemStats)(&m)
//	                      (and testing.AllocsPerRun: inside an exploration, the test is refused)
//	for { <poll> }        for weftL_ := weftrt.Loop(); ; weftL_.Turn() { <poll> }
//	                      (a polling loop, whose turns that go round change nothing but through weft: turns.go)
//	t.Errorf(...)         weftrt.Errorf(t, ...)   (and Error, Fatal(f), Fail(Now), Log(f), Skip(f/Now), Parallel)
//	tt.Errorf(...)        weftrt.AnyErrorf(tt, ...)   (tt of an interface type: testify's TestingT)
//	t.Helper()            t.Helper(); weftrt.Helper()
//	src.Values(2)         weftrt.Made("example.com/src.Values", src.Values(2))
//	                      (a channel returned by a package weft test does not rewrite)
//	make(chan int, 1)     weftrt.MakeChan(make(chan int, 1))
//	                      (so that a channel an execution did not make is told from its own)
//	//weft:leaks=off      func TestX(t *testing.T) { weftrt.Test(t, func() { body }, weftrt.IgnoreLeaks()) }
//	                      (and //weft:ignore-leak F,... : weftrt.IgnoreLeak("F", ...))
//	func TestX(t *testing.T) { body }
//	                      func TestX(t *testing.T) { weftrt.Test(t, func() { body }) }
//	t.Run(name, func(t *testing.T) { body })
//	                      weftrt.Run(t, name, func(t *testing.T) { weftrt.Test(t, func() { body }) })
//	t.Run(name, f)        weftrt.Run(t, name, weftrt.Sub(f))
//
// Subtests. Each subtest whose body calls no t.Run is an exploration of
// its own, and the Test function (or subtest) that calls t.Run runs as
// plain Go, outside any exploration. The other choice, one exploration of
// the parent that includes its subtests, was rejected: the subtests of a
// table run one after another, so its executions would be the product of
// the subtests' interleavings, a failure could not be replayed (nor
// selected with -run) in its subtest alone, and t.Run starts a goroutine of
// the testing package that weft could not schedule. With one exploration
// per subtest, go test -run 'TestX/sub' selects it, its report names it and
// its replay command runs it alone (-run '^TestX$/^sub$'). A body calls
// t.Run if it holds a call of t.Run or of a function of the package that
// does (a helper that loops over a table): such a body is left as it is,
// and its code outside the subtests may not start goroutines nor use
// channels, which would run outside weft's control (refused, naming the
// construct). A subtest whose function is a value (t.Run(name, f)) runs f
// as an exploration (weftrt.Sub) unless f names a function that calls
// t.Run. A t.Run reached inside an execution through a function value the
// rewriting could not follow fails the execution with a message saying so.
//
// t.Parallel as the first statement of a Test function or subtest stays
// before the exploration: the test pauses as Go makes it pause (a parallel
// subtest runs once its parent's function has returned, so the loop
// variable it reads is the one of the file's Go version), and then runs its
// exploration; explorations run one at a time (weftrt.Test). Statements
// without concurrency before it (declarations whose values call no
// function but the standard library's, t.Helper, a skip or a log under
// such a condition: quietStmt) stay before it and run once, as plain Go,
// as they do under go test. An if whose block ends the test (a test that
// reruns its own binary gives its child's part so: if
// os.Getenv("CHILD") != "" { ...; t.Fatal(...) }) runs its block, when its
// condition holds, as an exploration of its own, and the test then
// returns (exploringIf). t.Parallel anywhere else in a test's body is
// refused; called from a helper inside an execution it fails the
// execution.
//
// A Test function or subtest whose body runs an exploration of weft's
// (a call of weft.Check, weft.Explore or weft.Replay, or of a function of
// the package that makes one) is wrapped in weftrt.Plain, and a subtest
// function value that is such a function in weftrt.SubPlain: it runs
// plainly, as go test runs it, since explorations do not nest, and its
// Check explores on its own. The other choice, running such a test in a
// weft test exploration and its Check inside it, cannot work (Check's body
// would be an exploration inside an execution); nor can letting the first
// execution reach the Check and then running the body again plainly,
// which would repeat the effects of the code before the Check.
//
// (Of is OfSend or OfRecv for a directional channel.) The string given to
// Of and WeftName is the expression the operation is applied to, which
// names the object in reports (names.go); a timer's is the variable it
// is assigned to, or the call that makes it. The arguments of a go
// statement, and its function value (a method value's receiver), are
// evaluated at the statement, as Go does; an untyped constant argument is
// converted to its parameter's type. The loop variables of the rewritten
// code are those of the file's Go version, which the rewriting keeps: when
// weft test builds with a temporary go.mod whose go line is weft's, newer
// than the module's (Config.GoVersion), every file of the module's
// packages without a Go version in its build constraint gets one that
// pins the module's version: its //go:build line is extended in place, or
// a //go:build line and a blank line are added before the file with a
// //line directive that gives its first line the number 1 again.
// cap(ch) needs no rewriting: a channel's capacity is fixed.
//
// A select's cases are evaluated where the select starts, on its line: a
// case's channel, value or assigned operand written over several lines is
// written there on one line, its line breaks replaced by /*line*/
// directives that give each of its tokens its line and column (flat). A
// range over a channel or a map in a file whose Go version is older than
// go1.23, which has no range over a function, becomes a for loop on the
// range's line whose variables are those of its for clause (rangeStmt,
// mapRange).
//
// Not rewritten, and refused, naming the construct, its file:line and the
// way out: go statements and channel operations in the body of a test
// that calls t.Run outside its subtests, t.Parallel not first in a test's
// body (but after statements without concurrency, such as the copy tc :=
// tc of a loop variable, and ifs that end the test: parallelAt),
// reflect.Select, a raw string literal
// over several lines in what flat writes on one line, a channel operation
// on a value of a type parameter's type, a go statement's untyped constant
// argument whose parameter's type is of a package the file does not
// import. A refusal takes the tests that reach the construct, not the
// package (refuse): the body of the Test function or subtest, or of the
// function, that holds it is left as it was, but for a first statement
// that skips the test (weftrt.Refuse(t, msg)) or, in a function, refuses
// the test whose exploration calls it (weftrt.Unsupported(msg)). A
// package that uses cgo is refused whole, with an error (Packages).
package rewrite
