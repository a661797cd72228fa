// Package programs holds weft's built-in programs: the benchmarks of the
// papers weft implements and a few of weft's own, written with weft's API and
// parameterised by integers. The weft command runs them (weft list, weft run);
// Go tests run them with weft.Explore or weft.Check.
//
// # Using a program
//
//	p := programs.Lookup("dining")
//	ps, err := p.Resolve(map[string]int{"n": 5}) // defaults for the rest
//	if err != nil {
//		return err // unknown parameter or value out of range
//	}
//	r, err := weft.Explore(p.Body(ps), weft.WithStrategy("exhaustive"))
//	// r.Failures holds the deadlock, with its replay token.
//
// In a test, weft.Check(t, p.MustBody(map[string]int{"n": 3})) explores the
// program and fails t with a report.
//
// # The programs
//
//   - xy, dporproblem: the CS294-32 DPOR slides, slides 15 and 36; 6 interleavings, 3 traces.
//   - pairs n: Kähkönen et al. 2014, Fig. 3 and Table 2; n reader/writer pairs on
//     distinct variables, (2n)! interleavings, 2^n traces.
//   - fib n: SV-COMP fib_bench, Kähkönen et al. 2014, Table 2; the assertion never fails.
//   - indexer n, filesystem n: Flanagan and Godefroid (POPL 2005), Saarikivi et al. 2012
//     Fig. 8; threads meet only from n=12 and n=14.
//   - dining n, meals, fixed: dining philosophers with a fork (Mutex) each;
//     taking the left fork first deadlocks (Kähkönen et al. 2014, Table 2, Lei and Carver 2006, Fig.
//     13), fixed=1 takes forks in a global order and does not.
//   - bbchan producers, consumers, capacity, items: a bounded buffer made of
//     a buffered channel (Lei and Carver 2006, Table 4, BB).
//   - bbmonitor producers, consumers, slots, items, su: the same bounded
//     buffer in a monitor with SU (su=1) or SC (su=0) signalling (Lei and Carver 2006
//     §2, Table 4).
//   - parallelpi threads, intervals, locked: partial sums merged under a lock
//     (Saarikivi et al. 2012, Fig. 8, Kähkönen et al. 2014, Table 2); locked=0 loses updates.
//   - singlelock threads, rounds: every access under one lock (Kähkönen et al. 2014
//     Table 2, Single lock 1: 4 threads of 2 rounds, 8!/(2!)^4 = 2520 lock
//     orders).
//   - readloop m: one thread loads x m times, another stores it once:
//     m+1 traces, and executions as long as m, to measure the cost of
//     a long execution.
//   - timeout n, fixed: the body waits for each of n workers' answers with
//     a timeout; a worker whose answer the timeout beat blocks
//     on its send for ever, which only time at any step finds (weft run
//     -time any); fixed=1 gives each answer room in its channel.
//
// Each body keeps its shared objects across executions (weft starts them
// afresh in each) and joins the threads it starts, except xy, dporproblem,
// pairs and fib, which follow the slides and papers they come from, readloop and timeout: these do not
// join, and an execution still ends only when every thread has finished. The exhaustive strategy
// counts interleavings of the visible operations, the joins included, so its
// counts for the joining programs exceed the plain interleavings of the
// threads; programs_test.go derives each count it checks.
//
// # Spin locks
//
// SpinLocks returns classic spin locks (Peterson's, Dekker's, the filter
// lock, Lamport's bakery, a test-and-test-and-set lock) whose busy waits
// are loops that yield or w.Await (WaitUntil); SpinLock.Body takes the
// lock once in each thread around a critical section that asserts mutual
// exclusion. The tests of awaits and of the strategies share them; they
// are not among the programs weft run runs.
package programs
