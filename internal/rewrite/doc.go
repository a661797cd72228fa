// Package rewrite rewrites the source of a Go file, with its type
// information, so that its concurrency runs under weft: go statements,
// channel operations, select statements and the imports of sync and
// sync/atomic become calls of weft's stand-in packages (std/rt, std/sync,
// std/sync/atomic), and each Test function's body runs as a weft
// exploration. weft test writes the rewritten files to a temporary
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
//	ch <- v               weftrt.Of(ch).Send(v)
//	<-ch                  weftrt.Of(ch).Recv()
//	v, ok := <-ch         v, ok := weftrt.Of(ch).RecvOK()
//	close(ch), len(ch)    weftrt.Of(ch).Close(), weftrt.Of(ch).Len()
//	for v := range ch     for v := range weftrt.Of(ch).Range()
//	select { case ... }   switch weftS0_, ... := <cases>; weftrt.Select(<has default>, weftS0_, ...) { case 0: ... }
//	import "sync"         import "github.com/weft-go/weft/std/sync"
//	t.Errorf(...)         weftrt.Errorf(t, ...)   (and Error, Fatal(f), Fail(Now), Log(f), Skip(f/Now), Parallel)
//	func TestX(t *testing.T) { body }
//	                      func TestX(t *testing.T) { weftrt.Test(t, func() { body }) }
//
// (Of is OfSend or OfRecv for a directional channel.) The arguments of a go
// statement, and its function value (a method value's receiver), are
// evaluated at the statement, as Go does; an untyped constant argument is
// converted to its parameter's type. The loop variables of the rewritten
// code are those of the file's Go version, which the rewriting keeps.
// cap(ch) needs no rewriting: a channel's capacity is fixed.
//
// Not rewritten, and refused with an error naming the construct: subtests
// (t.Run in a Test function), range over a channel in a file whose Go
// version is older than go1.23 (the rewritten range is over a function),
// reflect.Select. A select case whose channel or value expression spans
// several lines is refused too: the cases are evaluated where the select
// starts, on its line.
package rewrite
