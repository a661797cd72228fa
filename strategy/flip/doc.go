// Package flip implements race detection and flipping, the partial order
// reduction of jCUTE (Sen and Agha, HVC 2006; seed 001, slides 10-31 and
// 38-50; seed 002 §2.3 and §7).
//
// An execution is a sequence of events. Two events of different threads race
// when they are dependent and nothing else orders them: no other chain of
// happens-before runs from the first to the second (slide 14). After each
// execution the strategy finds, for every event it ran for the first time and
// every operation left pending at the end, the event it races with, and flags
// the state before that event. The next execution flips the deepest flagged
// race: it replays the path up to that state, adds the thread that ran there
// to the state's postponed set, and runs another thread instead: one that
// can start the race's reversal (dpor.Reversal: the initials of source-DPOR,
// Abdulla et al., POPL 2014), the racing thread if it can run there; if
// none can, any thread not postponed, and the race is also looked for
// further back. (Taking any thread not postponed whenever the racing thread
// could not run there, as this package first did, missed a trace of gen
// program 948 in random order 1.) Below that
// state the postponed threads are postponed as much as possible (seed 002
// §7): a fresh choice takes one only when no other thread can run. When every
// enabled thread of a flagged state is postponed the race cannot be flipped
// there, and the search moves up. Locks follow Flanagan and Godefroid: an
// acquire and a successful release of one lock are never enabled together,
// so the race of an acquire is with the previous acquire.
//
// Compared with DPOR (package dpor), which adds to a backtracking set at each
// state for every pending operation, flipping looks at each event once and
// remembers its race; on seed 001's xy example it runs the 4 executions of
// slides 15-31 for 3 traces, in their order.
//
// With Options.Sleep the postponed threads are also delayed below the state,
// as sleep sets are (slides 38-50: the delayed sets): a delayed thread runs
// again only after an event dependent with its step, and an execution in
// which every enabled thread is delayed is cut. Then the thread that flips a
// race is one that can start its reversal (dpor.Reversal: source-DPOR's
// initials) and is not delayed, and every race of an event counts, not only
// the last: flipping the racing thread itself, when it is delayed, was found
// to miss traces. On xy it runs 3 executions.
//
// Failures, rendezvous partners that could also run on their own, and
// steps' footprints (what a step announces, the other side of a rendezvous)
// are handled as in package dpor, whose Tree and Sweep this package shares.
//
// Choices are threads with all their alternatives, as in package dpor; the
// strategy reads inputs as their defaults. Use it by name through weft
// ("flip", "flip+sleep") or directly:
//
//	s := flip.New(flip.Options{Sleep: true})
//	r, err := weft.Explore(body, weft.WithCustomStrategy(s))
package flip
