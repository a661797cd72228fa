// Package z3 is the Z3 backend of package solver, a small cgo binding over
// Z3's C API (no third-party Go module).
//
// # Installing Z3
//
// The package links against libz3 with cgo:
//
//	apt-get install libz3-dev    # Debian, Ubuntu
//	brew install z3              # macOS; if the headers are not found, set
//	                             # CGO_CFLAGS=-I$(brew --prefix)/include
//	                             # CGO_LDFLAGS=-L$(brew --prefix)/lib
//
// Without the library the build fails with an error naming z3, from the
// compiler ("z3.h: No such file or directory") or the linker ("cannot find
// -lz3"). Built with CGO_ENABLED=0 the package compiles, but New returns
// an error wrapping solver.ErrUnavailable. It is tested with Z3 4.8.12.
//
// # Usage
//
//	s, err := z3.New(z3.WithTimeout(time.Second))
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	r, core, err := s.CheckCore(ctx, constraints)
//
// A Solver implements solver.Solver; wrap it in solver.NewCached for
// constraint slicing and caching. It is meant for one goroutine at a time
// (calls are serialised by a mutex); use one Solver per worker for
// parallelism.
//
// # Implementation
//
// A Solver owns one reference-counted Z3 context (Z3_mk_context_rc) and
// one Z3 solver object. Each query is translated in a single cgo call from
// the hash-consed solver.Expr DAG (each shared sub-term once) into Z3
// terms, asserted inside a Z3_solver_push/Z3_solver_pop scope and checked;
// every reference taken is dropped when the query ends. Unsat cores use
// Z3_solver_assert_and_track with boolean tracking literals that are
// created once and reused, because Z3 never frees the names of fresh
// constants; for the same reason, each distinct variable name costs a few
// bytes for the life of the process. An error handler installed with
// Z3_set_error_handler turns Z3 errors into Go errors instead of aborting.
//
// The configured per-call timeout (default 10s) is set once as the Z3
// solver parameter "timeout": setting parameters costs about a millisecond
// per call, so it is not re-set per query. A context deadline or
// cancellation that comes first interrupts the check with Z3_interrupt;
// Z3 4.8 can leave a context permanently cancelled when an interrupt races
// with the start of a check, so after an interrupt the solver probes the
// context and replaces it if needed (tens of milliseconds). Prefer
// WithTimeout for routine per-query limits and context deadlines for
// overall budgets. Either way the answer is Unknown with an error wrapping
// solver.ErrTimeout (for a deadline also context.DeadlineExceeded) or
// context.Canceled; never Unsat.
//
// Cost: even a trivial query pays for Z3's check, building the model and
// its timeout timer, each of the order of tens of microseconds (the
// package's benchmarks measure them: go test -bench . ./solver/z3); put
// solver.Cached in front to avoid repeated and irrelevant work.
package z3
