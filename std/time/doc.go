// Package time is weft's stand-in for the standard library's package time,
// with the same API. weft test rewrites the imports of "time" in the
// packages under test to this package, so that their clocks, sleeps,
// timers and tickers run on weft's virtual time.
//
// Inside a weft execution, virtual time starts at midnight UTC on 1
// January 2000 (as in testing/synctest), or, if the program read the real
// clock outside executions before the exploration began (a test function
// before its subtests), at the latest time it read, so that the clock
// does not go back (Epoch), and jumps to the earliest
// deadline of a Sleep, a timer or a ticker: only when every goroutine is
// blocked (weft test's default, as testing/synctest), or at any step
// (weft.WithTime, weft test -time any), where a goroutine may be delayed
// past a deadline. Now, Since and Until read it (Now in the standard
// library's time.Local, as time.Now, but without a monotonic clock
// reading, which only time.Now can make); a goroutine that reads it
// in a loop with nothing between but loads, selects that took their
// default, failed TryLocks and lens of channels lets it move by a millisecond
// every third read (internal/engine/poll.go), as Go's clock moves while a
// goroutine runs, so a loop that polls until a deadline ends. Sleep is
// weft's sleep; NewTimer, After and AfterFunc make weft timers
// (internal/engine/timer.go), whose channels, as in Go 1.23, hold no stale
// value after Stop or Reset; AfterFunc's function runs in a goroutine of
// its own when the timer fires. A Ticker is a timer that the goroutine
// that receives its tick re-arms for the next multiple of its period
// after the current time (ticks a slow receiver misses are dropped, as Go
// drops them); once the test's body has returned it is not re-armed, so
// that a goroutine still reading it is reported as leaked rather than
// ticking for ever. Timers and tickers do not keep an execution alive.
//
// Outside an execution every function is the standard library's, on real
// time. Time, Duration, Month, Weekday, Location and ParseError are the
// standard library's types (aliases), and the functions that do not read
// the clock are its own; Timer and Ticker are this package's. A timer made
// outside an execution is a real one: receiving from it inside an
// execution blocks for ever. UTC and Local are copies of the standard
// library's variables: assigning Local does not change time.Local.
package time
