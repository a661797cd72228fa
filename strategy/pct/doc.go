// Package pct implements probabilistic concurrency testing: the randomized
// priority scheduler of Burckhardt, Kothari, Musuvathi and Nagarakatte, "A
// Randomized Scheduler with Probabilistic Guarantees of Finding Bugs",
// ASPLOS 2010.
//
// A bug has depth d when d ordering constraints between the steps of the
// program's threads suffice to trigger it: an ordering bug (one step must run
// before another) has depth 1, an atomicity violation (a step of one thread
// falls between two steps of another) has depth 2. For a program of n threads
// and at most k steps, each execution of PCT with parameter d finds a bug of
// depth d with probability at least 1/(n k^(d-1)), whatever the program, so
// that about n k^(d-1) executions find it with high probability.
//
// The scheduler of one execution, as in the paper:
//
//  1. Every thread gets a random initial priority, distinct and at least d:
//     a uniformly random order of all threads. Threads appear as the program
//     starts them; each gets its place when it is first seen, drawn so that
//     the order is uniform over all the threads seen.
//  2. d-1 priority change points k_1..k_{d-1} are drawn uniformly among the
//     steps 1..k, distinct; change point k_i carries the priority i, lower
//     than every initial one.
//  3. At every step the highest-priority enabled thread runs. When step k_i
//     comes, the thread about to take it drops to priority i first (and the
//     highest-priority enabled thread is picked again).
//
// The paper takes k, the number of steps of an execution, as known. Here it
// is learned: the first execution assumes 64 steps (Config.Steps), and each
// later one uses the longest execution seen so far, capped at
// Config.MaxSteps. When the pending operation of the chosen thread has several
// alternatives (channel partners, select cases), one is drawn uniformly;
// inputs are drawn uniformly from their declared range (package random).
//
// Like the random strategy, execution i of a run seeded with s draws from a
// generator derived from (s, i) (random.Seed), so runs are reproducible and
// Next always reports true: the driver bounds the number of executions.
//
// Walkthrough, from a test:
//
//	weft.Check(t, body, weft.WithStrategy("pct"), weft.WithDepth(2),
//		weft.WithSeed(7), weft.WithMaxRuns(5_000))
package pct
