// Package flip implements race detection and flipping, the partial order
// reduction of jCUTE (Sen and Agha, HVC 2006; the CS294-32 DPOR slides, slides 10-31 and
// 38-50; Kähkönen et al. 2014, §2.3 and §7).
//
// An execution is a sequence of events. Two events of different threads race
// when they are dependent and nothing else orders them: no other chain of
// happens-before runs from the first to the second (slide 14). After each
// execution the strategy finds, for every event it ran for the first time and
// every operation left pending at the end, the event it races with, and flags
// the state before that event. The next execution flips the deepest flagged
// race: it replays the path up to that state, adds the thread that ran there
// to the state's postponed set, and runs another thread instead. Below that
// state the postponed threads are postponed as much as possible (Kähkönen et al. 2014
// §7): a fresh choice takes one only when no other thread can run. When every
// enabled thread of a flagged state is postponed the race cannot be flipped
// there, and the search moves up. Locks follow Flanagan and Godefroid: an
// acquire and a successful release of one lock are never enabled together,
// so the race of an acquire is with the previous acquire.
//
// # Which thread flips a race
//
// The slides flip a race by running the racing thread first (slides 15-31).
// That thread may not be able to run there, or may not be the one to run
// first: its operation can depend on other events between the two. Which
// thread to run is the Initials rule of source-DPOR (Abdulla, Aronis,
// Jonsson and Sagonas, "Optimal dynamic partial order reduction", POPL 2014,
// the paper Kähkönen et al. 2014, §6.3 cites; dpor.Reversal). The race of event i with
// thread t's operation v, pending in a later state, is reversed by running,
// from the state before i (pre(E, i)), the events after i that do not happen
// after it (notdep(i)) and then v. An initial of the reversal is a thread
// whose first event in it has no predecessor in it in happens-before (v's
// predecessors being the events t's clock knows and those that conflict
// with v's footprint). Running an initial first from pre(E, i) starts an
// execution equivalent to the reversal. So, for the race:
//
//   - if an initial is flagged there already or was run there (postponed),
//     the race is flipped;
//   - else, if t is an initial, t is flagged there if it can run there; if
//     it is not, an initial that can run there is flagged;
//   - else (t is an initial but cannot run there, or no initial can: the
//     exploration did not foresee an enabling) the state is marked: the
//     next flip there takes any thread not postponed, and the race is
//     looked for further back.
//
// Whether t is an initial is judged by its whole step as the exploration
// knows it in pre(E, i), not only by v: its sleeper's footprint there, or
// what it announced when it ran from there (Reversal.StepDepends; with
// another event i reversed, t's operation may read another value and run
// other local code, and a failed step announced nothing). If that step
// depends on notdep(i), t is not an initial.
//
// This package first flipped a race whose thread could not run there with
// any thread not postponed. On the random program of internal/gen seed 948,
// explored in random order 1, that missed one of its 6 traces: T2's store
// raced with T3's CAS where T2, blocked on a receive until T1's close,
// could not run, and the flip there took main, or no thread, instead of T1,
// the reversal's initial (TestFlipGenCounts and TestDPORGenRegressions keep
// it). Using the initials also changes flip's counts, mostly where the
// racing thread could run but was not an initial: fib n=2 takes 2933
// executions instead of 3173 (all 140 traces either way), and in weft
// bench's Fig. 8 (mean of orders 1-5) Indexer (13) takes 2661.6 instead of
// 2477.6, File System (16) 19.2 instead of 17.4, File System (18) 143
// instead of 97.6 and Bounded Buffer 165.6 instead of 179.4. Keeping the
// racing thread whenever it can run, and the initials only when it cannot,
// also finds every trace of the gen programs checked, but runs more
// executions on them (gen seeds 0-3000 in thread order: 206,755 instead of
// 183,872; orders 1 and 2: 195,531 and 199,146 instead of 185,381 and
// 187,439), so the initials are used throughout.
//
// # Races of a step's announcement
//
// A step's footprint includes what the thread announces in its local code
// after the operation (trace.Steps: a send on an unbuffered channel offers
// a partner to receivers). Flipping only the last race of the whole
// footprint then loses races: in internal/gen v2 seed 6805 (order 5), T3's
// load, whose step announces a send on c0, raced last with main's store,
// and its reversal runs the load first, reads 0 and fails T3's assertion
// before the send; the race of the announced send with T2's earlier select
// on c0 was in no execution, and the traces in which the select receives
// T3's send were missed. DPOR's process rule (package dpor) finds that race
// in the state before the store, which it analyses for every thread. So,
// after the last race is flipped (or found flipped), every earlier race of
// the step's announced accesses is flipped too, as a race is; races of the
// operation itself stay last-only (in a reversal the operation runs, and
// its earlier races are found from there). No count of the tests changed.
//
// Compared with DPOR (package dpor), which adds to a backtracking set at each
// state for every pending operation, flipping looks at each event once and
// remembers its race; on the CS294-32 DPOR slides' xy example it runs the 4 executions of
// slides 15-31 for 3 traces, in their order.
//
// With Options.Sleep the postponed threads are also delayed below the state,
// as sleep sets are (slides 38-50: the delayed sets): a delayed thread runs
// again only after an event dependent with its step, and an execution in
// which every enabled thread is delayed is cut. Then the thread that flips a
// race is chosen as above among the initials not delayed. If there is none
// but an initial can run there, nothing is flagged: a delayed initial
// covers the race, as a sleeping initial does in source-DPOR (this includes,
// as in package dpor, t being an initial that cannot run there while
// another can). The filter of Reversal.StepDepends matters most here: a
// delayed t that is wrongly taken for an initial would wrongly cover the
// race. Every race of an event counts, not only the last: flipping the
// racing thread itself, when it is delayed, was found to miss traces. On
// xy it runs 3 executions.
//
// Both variants are checked against exhaustive search on the random
// programs of internal/gen (dpor_regress_test.go: TestDPORGenRegressions
// by default, TestDPORGenRange with WEFT_DPOR_GEN=from-to, and
// WEFT_DPOR_GEN_ONLY=flip,flip+sleep to check only these): on gen seeds
// 0-3000 in orders 0-5 (2,974 programs small enough for exhaustive search),
// with objects allocated once or per execution, and on seeds 0-1000 of up
// to 14 steps in orders 0-5 (954), each finds every trace, final state and
// failure kind. None of them needs the StepDepends filter: without it they
// pass too, and no count of the tests changes.
//
// Failures, rendezvous partners that could also run on their own, and
// steps' footprints (what a step announces, the other side of a rendezvous)
// are handled as in package dpor, whose Tree, Walk and Sweep this package
// shares.
//
// Choices are threads with all their alternatives, as in package dpor; the
// strategy reads inputs as their defaults. Use it by name through weft
// ("flip", "flip+sleep") or directly:
//
//	s := flip.New(flip.Options{Sleep: true})
//	r, err := weft.Explore(body, weft.WithCustomStrategy(s))
package flip
