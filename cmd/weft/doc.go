// Command weft runs weft's built-in programs under a chosen exploration
// strategy, reports the failures it finds and replays them.
//
// Usage (flags go before the positional arguments, as with the go command):
//
//	weft list
//	weft run [-p name=value]... [-strategy S] [-max-runs N] [-max-steps N]
//	         [-seed N] [-depth D] [-k K] [-timeout D] [-json] [-html FILE] [-keep-going]
//	         [-races] [-time any|blocked] [-workers N] [-nats URL] [-ack-wait D]
//	         [-nats-dir DIR] [-resume RUN] [-hand-out] PROGRAM
//	weft worker -nats URL [-name NAME] [-no-split]
//	weft replay [-max-steps N] [-races] PROGRAM TOKEN
//	weft test [build flags] [go test flags] [packages] [-run regexp] [-strategy S]
//	          [-max-runs N] [-max-steps N] [-seed N] [-timeout D] [-workers N]
//	          [-time any|blocked] [-keep-going] [-strict] [-replay NAME=TOKEN]
//	          [-replay-files on|off|check|update] [-race] [-real MODULE,...]
//	          [-json] [-html DIR] [-v]
//	weft help [COMMAND]
//
// For example, to look for the deadlock of five dining philosophers and
// replay it:
//
//	weft run -p n=5 dining
//	weft replay dining n=5,meals=1,fixed=0:w1.…
//
// A token that weft run prints carries the program's parameters in front
// of the recorded choices, so weft replay needs no -p flags (a -p that
// disagrees with the token is refused).
//
// run prints the report of each kind of failure found (with its replay
// command) and a summary table; with -json it prints one JSON object instead
// (the schema is the Summary type, documented in the README); -html FILE
// writes the first failure's HTML report (the interleaving drawn with a
// lane per thread and happens-before arrows) to FILE. A run that
// lasts over a second shows a progress line on standard error.
//
// With -races, run checks every execution for data races: two accesses
// to a variable, at least one a write and one a plain Load or Store, that
// no synchronisation of the program orders (weft.WithRaces). A race is a
// failure of kind "data race" whose report names both accesses' lines.
//
// With -time any, virtual time may move at any step: a step of weft's
// clock, which the strategy may take wherever a sleep's or timer's
// deadline lies ahead, so a timeout may fire before a worker that could
// still send (weft.WithTime). The default, -time blocked, moves it only
// when every thread is blocked, as testing/synctest; it is weft test's
// default too. A failure found with -time any whose clock advanced while
// a thread could still move says so in its report. unfold, reach and con2
// refuse -time any. A token recorded with time at any step starts with
// w1a. and replays so.
//
// run -nats URL explores PROGRAM distributed over the NATS JetStream server
// at URL: it coordinates, and weft worker -nats URL processes, anywhere,
// explore its units of work; run -workers N -nats embedded starts a server
// on loopback and N worker processes itself (see the README, "Distributed
// exploration"). A distributed run whose coordinator died is finished by the
// same command with -resume RUN (-nats-dir DIR keeps the embedded server's
// streams where the resume finds them); -max-runs bounds a distributed run,
// which can pass the bound by the executions of one unit of work, less one.
// A worker that has work while others wait for some splits units off its
// own for them (work stealing; weft worker -no-split explores each unit
// whole); with -hand-out the coordinator runs one execution, hands all its
// work out, and explores nothing more itself.
//
// test runs the ordinary Go tests of the packages, rewritten so that their
// goroutines, channels, selects, sync objects, clocks, timers, contexts and
// random numbers are weft's, with go test -overlay; each Test function, or
// each subtest of one that calls t.Run, runs as a weft exploration (see the
// README, "Test ordinary Go code"). Its flags may follow the packages, as
// with go test, whose own flags it passes on (-count, -short, -failfast,
// -list, -shuffle, -vet, -cover...; -count=1 unless given, so that no
// result is cached); its -timeout bounds each exploration, and
// -go-timeout is go test's. A test that calls weft.Check itself runs
// plainly, its exploration its own. With -race it builds them with Go's race detector, whose
// reports become data race failures of the executions in which they
// happened, each goroutine of weft's threads named in them as weft names
// the thread ("by goroutine 13 (weft T2):").
//
// Numeric flags must not be negative: -max-runs, -max-steps and -timeout
// take 0 for "no bound" (-max-steps: weft's default, 100000); -depth and
// bench's -orders are at least 1. A -timeout that expires before the first
// execution is an error, not an empty success (in weft test, the test is
// inconclusive: exit status 4). In weft test, a test whose failing
// executions all reached the step bound (-max-steps) is inconclusive too:
// a bound hit proves nothing, as weft cannot tell a long loop from an
// endless one; so is one whose failing execution blocked outside weft's
// control, on a goroutine or a channel weft does not schedule.
//
// The exit status is 0 when no failure was found (or a replay did not fail),
// 1 when failures were found (or a replay failed), 3 when no failure was
// found before -timeout stopped the run (it interrupts an execution in
// progress too: the run is not exhaustive), 130 when an interrupt (SIGINT,
// Ctrl-C) stopped weft run, which first prints what it found so far (the
// failures and the summary, "stopped by an interrupt"; a second interrupt
// kills it), 4 when weft run's failing executions all reached the step
// bound (-max-steps), which proves nothing (inconclusive), and 2 for bad
// usage or
// input: an unknown command, program, strategy or parameter, a bad flag or a
// flag value out of range, a -timeout too short for a single execution, a
// malformed replay token, or a token whose replay diverges from the recorded
// execution, because it was recorded with another program or other parameters
// (a thread that does not exist or cannot move, an alternative out of range,
// steps or inputs left over when the execution ends).
package main
