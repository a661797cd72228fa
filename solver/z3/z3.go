//go:build cgo

// This file implements Solver, the solver.Solver backed by the Z3 C API.

package z3

/*
#cgo LDFLAGS: -lz3
#include "bridge.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/weft-go/weft/solver"
)

// Solver decides solver.Expr constraints with one Z3 context and one Z3
// solver object, scoping every query with push/pop. It implements
// solver.Solver. Methods serialise on a mutex (Close waits for a running
// query).
type Solver struct {
	mu      sync.Mutex
	ctx     C.Z3_context
	s       C.Z3_solver
	timeout time.Duration // configured per-call limit
	prog    program
	asts    []C.Z3_ast // terms of the current query
	tracks  []C.Z3_ast // tracking literals for unsat cores, kept across queries
	stats   solver.Stats

	imu         sync.Mutex // guards checking, checks and interrupted
	checking    bool       // a Z3_solver_check is running
	checks      uint64     // the number of the check running or last run
	interrupted bool       // Z3_interrupt was called during this query
}

var _ solver.Solver = (*Solver)(nil)

var errClosed = fmt.Errorf("z3: solver is closed or its context failed: %w", solver.ErrUnavailable)

// New creates a Z3 solver. It fails with an error wrapping
// solver.ErrUnavailable if Z3 cannot create a context.
func New(opts ...Option) (*Solver, error) {
	cfg := config{timeout: DefaultTimeout}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.timeout <= 0 {
		return nil, fmt.Errorf("z3: timeout %v must be positive", cfg.timeout)
	}
	s := &Solver{timeout: cfg.timeout}
	if err := s.open(); err != nil {
		return nil, err
	}
	return s, nil
}

// open creates the Z3 context and solver object.
func (s *Solver) open() error {
	ctx := C.weft_new_context()
	if ctx == nil {
		return fmt.Errorf("z3: creating context: %w", solver.ErrUnavailable)
	}
	s.ctx = ctx
	if code := C.weft_new_solver(ctx, &s.s); code != C.Z3_OK {
		err := s.errorf("creating solver", code)
		C.weft_del(ctx, nil)
		s.ctx, s.s = nil, nil
		return fmt.Errorf("%w: %w", solver.ErrUnavailable, err)
	}
	if err := s.setTimeout(); err != nil {
		s.free()
		return err
	}
	return nil
}

// recover makes the context usable after an interrupt. An interrupt that
// lands while Z3 checks is undone by Z3, but one that races with the start
// of a check leaves the context cancelled for good (Z3 4.8): a push/pop
// probe detects that, and the context is then replaced, which costs tens
// of milliseconds.
func (s *Solver) recover() error {
	s.interrupted = false
	if C.weft_probe(s.ctx, s.s) == C.Z3_OK {
		return nil
	}
	s.free()
	return s.open()
}

// interruptIdle interrupts the context outside a check, reproducing the
// race that recover handles; for tests.
func (s *Solver) interruptIdle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	C.weft_interrupt(s.ctx)
	s.interrupted = true
}

// Version returns the version of the linked Z3 library, e.g. "4.8.12.0".
func Version() string {
	var major, minor, build, rev C.unsigned
	C.Z3_get_version(&major, &minor, &build, &rev)
	return fmt.Sprintf("%d.%d.%d.%d", major, minor, build, rev)
}

// AllocatedBytes returns Z3's estimate of the bytes it currently has
// allocated, across all contexts of the process.
func AllocatedBytes() uint64 {
	return uint64(C.Z3_get_estimated_alloc_size())
}

// errorf turns a Z3 error code into a Go error carrying Z3's message.
func (s *Solver) errorf(what string, code C.int) error {
	msg := C.GoString(C.Z3_get_error_msg(s.ctx, C.Z3_error_code(code)))
	return fmt.Errorf("z3: %s: %s (error code %d)", what, msg, int(code))
}

// Check implements solver.Solver.
func (s *Solver) Check(ctx context.Context, constraints []solver.Expr) (solver.Result, error) {
	r, _, err := s.run(ctx, constraints, false)
	return r, err
}

// CheckCore implements solver.Solver. Constraints are tracked with fresh
// boolean literals (Z3_solver_assert_and_track); the core is Z3's, not
// necessarily minimal.
func (s *Solver) CheckCore(ctx context.Context, constraints []solver.Expr) (solver.Result, []int, error) {
	return s.run(ctx, constraints, true)
}

// Stats implements solver.Solver.
func (s *Solver) Stats() solver.Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Close implements solver.Solver, freeing the Z3 solver and context.
// Closing twice is a no-op.
func (s *Solver) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx == nil {
		return nil
	}
	s.free()
	return nil
}

func (s *Solver) run(ctx context.Context, cs []solver.Expr, wantCore bool) (solver.Result, []int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Queries++
	start := time.Now()
	r, core, err := s.query(ctx, cs, wantCore)
	if s.interrupted {
		if rerr := s.recover(); rerr != nil {
			err = errors.Join(err, fmt.Errorf("z3: recovering from interrupt: %w", rerr))
		}
	}
	s.stats.SolverTime += time.Since(start)
	switch r.Status {
	case solver.Sat:
		s.stats.Sat++
	case solver.Unsat:
		s.stats.Unsat++
	default:
		s.stats.Unknown++
		if errors.Is(err, solver.ErrTimeout) {
			s.stats.Timeouts++
		}
	}
	return r, core, err
}

// ready fails if ctx is already done.
func ready(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return ctxError(err)
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return ctxError(context.DeadlineExceeded)
	}
	return nil
}

// ctxError wraps a context error, adding ErrTimeout for deadlines.
func ctxError(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("z3: %w: %w", solver.ErrTimeout, err)
	}
	return fmt.Errorf("z3: %w", err)
}

func (s *Solver) query(ctx context.Context, cs []solver.Expr, wantCore bool) (solver.Result, []int, error) {
	if s.ctx == nil {
		return solver.Result{}, nil, errClosed
	}
	if err := ready(ctx); err != nil {
		return solver.Result{}, nil, err
	}
	if err := s.prog.load(cs); err != nil {
		return solver.Result{}, nil, err
	}
	if len(cs) == 0 {
		return solver.Result{Status: solver.Sat, Model: solver.Model{}}, nil, nil
	}
	if err := s.build(); err != nil {
		return solver.Result{}, nil, err
	}
	defer s.release()
	if code := C.weft_push(s.ctx, s.s); code != C.Z3_OK {
		return solver.Result{}, nil, s.errorf("push", code)
	}
	r, core, err := s.decide(ctx, wantCore)
	if code := C.weft_pop(s.ctx, s.s); code != C.Z3_OK && err == nil {
		return solver.Result{}, nil, s.errorf("pop", code)
	}
	return r, core, err
}

// setTimeout sets the Z3 "timeout" solver parameter to the configured
// per-call limit. It is set once per context: Z3_solver_set_params costs
// close to a millisecond, so nearer context deadlines are enforced by
// interrupting the check instead (see check).
func (s *Solver) setTimeout() error {
	ms := C.unsigned(max(1, min(s.timeout.Milliseconds(), 1<<31)))
	if code := C.weft_set_timeout(s.ctx, s.s, ms); code != C.Z3_OK {
		return s.errorf("setting timeout", code)
	}
	return nil
}

// build translates the loaded program into referenced Z3 terms in s.asts.
func (s *Solver) build() error {
	n := len(s.prog.nodes)
	s.asts = grow(s.asts, n)
	s.prog.names = append(s.prog.names, 0) // never empty
	var failed C.int
	code := C.weft_build(s.ctx, &s.prog.nodes[0], C.int(n),
		(*C.char)(unsafe.Pointer(&s.prog.names[0])), &s.asts[0], &failed)
	if code != C.Z3_OK {
		return s.errorf(fmt.Sprintf("building term %d of %d", int(failed), n), code)
	}
	return nil
}

// release drops the references taken by build.
func (s *Solver) release() {
	if len(s.asts) > 0 {
		C.weft_release(s.ctx, &s.asts[0], C.int(len(s.asts)))
	}
	s.asts = s.asts[:0]
}

// free releases the tracking literals and deletes the context.
func (s *Solver) free() {
	if len(s.tracks) > 0 {
		C.weft_release(s.ctx, &s.tracks[0], C.int(len(s.tracks)))
	}
	s.tracks = s.tracks[:0]
	C.weft_del(s.ctx, s.s)
	s.ctx, s.s = nil, nil
}

// grow returns buf resized to n zeroed elements.
func grow(buf []C.Z3_ast, n int) []C.Z3_ast {
	if cap(buf) < n {
		return make([]C.Z3_ast, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}
