// Command footprint measures how much distinct machine code a run executes
// per execution of an exploration: the bytes of the instructions that ran at
// least once per execution on average, and the 64-byte cache lines that
// hold them. It reads the per-instruction counts of a callgrind run
// (valgrind --tool=callgrind --dump-instr=yes) and the disassembly of the
// binary that ran (go tool objdump), and prints the totals, by package and
// by function.
//
// The code an execution runs, not the instructions it executes, is what
// made weft slower per execution on short executions: each execution runs
// through more code than the first-level instruction cache holds (32 KiB on
// the machines weft is measured on), so every line of it is fetched again
// at every execution, and the lines an execution touches predict its
// instruction-cache misses where instruction counts do not.
//
// Usage:
//
//	footprint [-top N] -execs E BINARY CALLGRIND [BINARY2 CALLGRIND2]
//
// E is the number of executions the run explored (the hot code is that
// which ran at least E times). With two runs (an earlier commit's and a
// later one's, of the same exploration), it prints both and the functions
// whose footprint changed most. scripts/speed-baseline.sh -footprint runs
// it on the rows of `weft bench -table speed` at two commits.
//
// Addresses outside the binary (shared libraries, valgrind's own) are not
// counted. An executed address that the disassembly does not list (go tool
// objdump leaves out a few instructions of some runtime functions) counts
// as 4 bytes, in the function whose symbol holds it.
package main
