//go:build cgo

// This file implements the assert/check/model/core steps of a Z3 query,
// including interruption on context cancellation.

package z3

/*
#include "bridge.h"
*/
import "C"

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/weft-go/weft/solver"
)

// decide asserts the built constraints inside the pushed scope, checks
// them and extracts the model or core.
func (s *Solver) decide(ctx context.Context, wantCore bool) (solver.Result, []int, error) {
	n := len(s.prog.roots)
	var tracks *C.Z3_ast
	if wantCore {
		if err := s.growTracks(n); err != nil {
			return solver.Result{}, nil, err
		}
		tracks = &s.tracks[0]
	}
	if code := C.weft_assert(s.ctx, s.s, &s.asts[0], &s.prog.roots[0], C.int(n), tracks); code != C.Z3_OK {
		return solver.Result{}, nil, s.errorf("assert", code)
	}
	start := time.Now()
	res, code := s.check(ctx)
	if code != C.Z3_OK {
		return solver.Result{}, nil, s.errorf("check", code)
	}
	switch res {
	case C.Z3_L_TRUE:
		m, err := s.model()
		if err != nil {
			return solver.Result{}, nil, err
		}
		return solver.Result{Status: solver.Sat, Model: m}, nil, nil
	case C.Z3_L_FALSE:
		if !wantCore {
			return solver.Result{Status: solver.Unsat}, nil, nil
		}
		core, err := s.core(n)
		if err != nil {
			return solver.Result{}, nil, err
		}
		return solver.Result{Status: solver.Unsat}, core, nil
	}
	return solver.Result{}, nil, s.unknown(ctx, time.Since(start))
}

// growTracks makes sure s.tracks holds at least n tracking literals. The
// literals are created once and reused by every query (each query lives in
// its own push/pop scope), since Z3 never frees the names of fresh
// constants.
func (s *Solver) growTracks(n int) error {
	have := len(s.tracks)
	if have >= n {
		return nil
	}
	s.tracks = append(s.tracks, make([]C.Z3_ast, n-have)...)
	if code := C.weft_make_tracks(s.ctx, &s.tracks[have], C.int(n-have)); code != C.Z3_OK {
		C.weft_release(s.ctx, &s.tracks[have], C.int(n-have))
		s.tracks = s.tracks[:have]
		return s.errorf("creating tracking literals", code)
	}
	return nil
}

// check runs Z3_solver_check. Z3's "timeout" parameter bounds it by the
// configured limit; if ctx is cancelled or its deadline passes first, the
// check is interrupted with Z3_interrupt. Interrupts are only sent while a
// check runs, and the caller repairs the context after one (recover).
func (s *Solver) check(ctx context.Context) (C.int, C.int) {
	s.imu.Lock()
	s.checking = true
	s.checks++
	n := s.checks
	s.imu.Unlock()
	var stop func() bool
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, func() { s.interrupt(n) })
	}
	var res C.int
	code := C.weft_check(s.ctx, s.s, &res)
	s.imu.Lock()
	s.checking = false
	s.imu.Unlock()
	if stop != nil {
		stop()
	}
	return res, code
}

// interrupt asks Z3 to stop check number n, retrying until it returns in
// case the first interrupt lands before Z3 starts listening. A later check
// is not its business: an interrupt that outlived its check (its goroutine
// slept past the check's end) interrupted the next query.
func (s *Solver) interrupt(n uint64) {
	for {
		s.imu.Lock()
		if !s.checking || s.checks != n {
			s.imu.Unlock()
			return
		}
		C.weft_interrupt(s.ctx)
		s.interrupted = true
		s.imu.Unlock()
		time.Sleep(time.Millisecond)
	}
}

// unknown explains an Unknown answer, classifying time limits and
// cancellations.
func (s *Solver) unknown(ctx context.Context, elapsed time.Duration) error {
	limit := s.timeout
	var buf [256]C.char
	reason := "unavailable"
	if code := C.weft_reason_unknown(s.ctx, s.s, &buf[0], C.int(len(buf))); code == C.Z3_OK {
		reason = C.GoString(&buf[0])
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w (Z3 reason %q)", ctxError(err), reason)
	}
	if strings.Contains(reason, "timeout") || strings.Contains(reason, "canceled") || elapsed >= limit {
		return fmt.Errorf("z3: %w after %v (limit %v, Z3 reason %q)", solver.ErrTimeout, elapsed.Round(time.Microsecond), limit, reason)
	}
	return fmt.Errorf("z3: solver returned unknown: %s", reason)
}

// model reads the values of all query variables from Z3's model.
func (s *Solver) model() (solver.Model, error) {
	n := len(s.prog.vars)
	m := make(solver.Model, n)
	if n == 0 {
		return m, nil
	}
	vals := make([]C.uint64_t, n)
	if code := C.weft_model(s.ctx, s.s, &s.asts[0], &s.prog.vars[0], C.int(n), &vals[0]); code != C.Z3_OK {
		return nil, s.errorf("reading model", code)
	}
	for i, name := range s.prog.varNames {
		m[name] = uint64(vals[i])
	}
	return m, nil
}

// core returns the sorted indices of the constraints in Z3's unsat core.
func (s *Solver) core(n int) ([]int, error) {
	idx := make([]C.int32_t, n)
	var got C.int
	if code := C.weft_core(s.ctx, s.s, &s.tracks[0], C.int(n), &idx[0], &got); code != C.Z3_OK {
		return nil, s.errorf("reading unsat core", code)
	}
	seen := make([]bool, n)
	for _, i := range idx[:got] {
		seen[i] = true
	}
	core := make([]int, 0, got)
	for i, in := range seen {
		if in {
			core = append(core, i)
		}
	}
	return core, nil
}
