// Package corpus holds small concurrent programs written as ordinary Go,
// each with a bug and its fix, and their ordinary tests: weft test must
// find each bug, at the line its "want" comment marks, and pass each fix.
//
// A comment "// want", the name of a test (TestX/sub for a subtest), a
// colon and a failure kind marks the line of the failing operation of the
// test's bug and the kind of failure weft reports (for a panic, the line of
// the corpus's innermost frame in its stack). A deferred call's line is that of the return
// statement that runs it, as in Go's own stack traces.
//
// A comment "// want -race", the name of a test, a colon and "data race"
// marks a bug that only Go's race detector finds (weft test -race): an
// unsynchronised map or counter, or a plain store to a word that other
// goroutines add to atomically, whose accesses are no operations weft
// schedules. Without -race such a test passes; with it, its failure is a
// data race whose report names that line.
//
// A comment "// want -time any", the name of a test, a colon and a failure
// kind marks a failure that weft test finds only when virtual time may
// move at any step (-time any; its default is -time blocked), and that it
// reports, saying it needs a goroutine slower than a timer, instead
// of the test's "// want" failure if it has one. Two kinds: a bug where a
// timeout fires before a worker sends (AnswerBug, GatherBug), and a test
// that assumes a goroutine runs within some virtual time (QueryFixed,
// LookupFixed, DebouncerFixed, HeartbeatFixed: an answer within the
// timeout, triggers closer than the quiet period, a stop right after a
// sleep): Go promises no such thing, and weft test -time any delays the
// goroutine past the deadline (the heartbeat's stopper past a fourth
// tick; optimal missed that order before a ticker's re-arming stopped
// reading state that steps it took as independent change). With -time
// blocked, the default, each such test passes, or fails as its "// want"
// says. Several comments may share a line.
package corpus
