// This file implements the wrapper that runs a Test function's body as a
// weft exploration, and the stand-ins of the *testing.T methods that the
// rewritten body calls.

package rt

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/weft-go/weft"
	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/internal/shim"
)

// BoundMarker is the line Test logs when a bound (WEFT_TIMEOUT,
// WEFT_MAX_RUNS) stopped the exploration without a failure before it
// finished: weft test -strict looks for it to exit with its status for
// explorations that did not finish.
const BoundMarker = "weft: exploration stopped by a bound before it finished"

// skips holds the message of a Skip called inside an execution, per test.
var skips sync.Map // testing.TB -> string

// explorations lets one exploration run at a time: the explorations of
// parallel tests (t.Parallel) run one after another, so that state they
// share is not changed by another exploration while one runs.
var explorations sync.Mutex

// Test runs body, the body of the Test function t runs, as a weft
// exploration (weft.Check with the options of the environment). A failure
// of an execution (a t.Error or t.Fatal the rewriting turned into a call
// of Errorf or Fatalf here, a panic, a deadlock, a leaked goroutine) fails
// t with weft's report. An execution during which t becomes marked failed
// (by a call of t's methods weft test did not rewrite, in a library) fails
// too. One during which a library's t.SkipNow (t.Skip, t.Skipf) ends the
// test's goroutine skips the test, as Go does. An exploration whose
// failing executions all reached the step bound proves nothing: Check logs
// the first one's report and skips the test as inconclusive
// (weft.Inconclusive), which weft test prints as INCONCLUSIVE. Inside each
// execution of a test that is not parallel, crypto/rand draws from a
// stream seeded with the execution's seed (cryptoSource). The options opts, which
// the directives of the Test function's comment give, come after the
// environment's.
func Test(t *testing.T, body func(), opts ...weft.Option) {
	t.Helper()
	explorations.Lock()
	defer explorations.Unlock()
	if interrupted.Load() {
		t.Skip(InterruptedMarker + ": not run")
	}
	ctx, refused := startRefusals()
	shim.BeginExploration(t.Name())
	stop := watchInterrupt()
	watching := true
	defer func() {
		if watching {
			stop() // Check ended the test's goroutine (t.FailNow): the watch ends too
		}
	}()
	crypto := cryptoSource{t: t}
	r := weft.Check(t, func(w *weft.T) {
		crypto.reset(shim.Seed())
		races, failed, skipped := engine.RaceErrors(), t.Failed(), t.Skipped()
		returned := false
		defer func() {
			if !returned && !skipped && t.Skipped() {
				// t.SkipNow called by code weft test did not rewrite, in
				// the test's goroutine: its Goexit skips the test, as in
				// Go, rather than failing the execution.
				skip(t, "")
			}
		}()
		body()
		cleanups()
		returned = true
		// A race the race detector reported (weft test -race) marks t
		// failed; the exploration reports it as a data race of this
		// execution (its token), not as a failed test. A t failed before
		// the execution (by a library in an earlier execution) tells
		// nothing about this one.
		if engine.RaceErrors() == races && !failed && t.Failed() {
			w.Fail("the test is marked failed: t.Error, t.Fail or t.Fatal was called by code weft test did not rewrite (a library's), in a goroutine of this execution")
		}
	}, append(append(progressOptions(t), weft.WithContext(ctx)), opts...)...)
	watching = false
	if stop() {
		t.Skip(InterruptedMarker + ": the exploration stopped; its summary is above")
	}
	msg, taint := refused()
	if msg != "" {
		t.Skip(RefusedMarker + " " + msg)
	}
	if taint != "" {
		t.Skip(weft.Inconclusive + ": " + taint)
	}
	if msg, ok := skips.LoadAndDelete(testing.TB(t)); ok {
		t.Skip(msg)
	}
	if r != nil && !r.Exhausted && !r.Failed() {
		t.Log(BoundMarker)
	}
}

// fail fails the current execution with msg, naming the method called and
// where the program called it, as the testing package prints it: the
// first caller of the method's stand-in that is not a helper (Helper).
func fail(method, msg string) {
	new(weft.T).Fail("%s", strings.TrimSuffix(callSite()+"t."+method+": "+userTrace(msg), ": "))
}

// callSite returns "file:line: " for the first caller of the stand-in
// (fail, refuseCall) that is neither this package's (the stand-ins
// AnyErrorf and Errorf) nor a helper, or, if every one is a helper, for
// the first that is not this package's; "" if there is none.
func callSite() string {
	var pcs [32]uintptr
	n := runtime.Callers(2, pcs[:]) // above runtime.Callers and callSite
	frames := runtime.CallersFrames(pcs[:n])
	file, line := "", 0
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, rtPackage+".") {
			if !isHelper(f.Function) {
				file, line = f.File, f.Line
				break
			}
			if file == "" {
				file, line = f.File, f.Line
			}
		}
		if !more {
			break
		}
	}
	if file == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d: ", filepath.Base(file), line)
}

// rtPackage is this package's path, from a function's name.
var rtPackage = func() string {
	name := runtime.FuncForPC(reflect.ValueOf(Helper).Pointer()).Name()
	return strings.TrimSuffix(name, ".Helper")
}()

// helpers holds the names of the functions that called Helper, as the
// testing package's t.Helper records them; helperPCs the call sites
// already seen.
var helpers, helperPCs sync.Map

// Helper marks its caller as a helper inside an execution: weft test's
// rewriting calls it after each t.Helper(), so that a failure is placed at
// the line that called the helper, as the testing package places it (the
// testing package's own t.Helper marks the helper outside executions).
func Helper() {
	if !shim.Active() {
		return
	}
	var pc [1]uintptr
	if runtime.Callers(2, pc[:]) == 0 {
		return
	}
	if _, seen := helperPCs.LoadOrStore(pc[0], true); seen {
		return
	}
	f, _ := runtime.CallersFrames(pc[:]).Next()
	helpers.Store(f.Function, true)
}

// isHelper reports whether function name called Helper.
func isHelper(name string) bool {
	_, ok := helpers.Load(name)
	return ok
}

// Error is t.Error: inside an execution it fails the execution (and ends
// it, as Fatal does).
func Error(t testing.TB, args ...any) {
	t.Helper()
	if shim.Active() {
		fail("Error", sprint(args))
		return
	}
	t.Error(args...)
}

// Errorf is t.Errorf: inside an execution it fails the execution.
func Errorf(t testing.TB, format string, args ...any) {
	t.Helper()
	if shim.Active() {
		fail("Errorf", fmt.Sprintf(format, args...))
		return
	}
	t.Errorf(format, args...)
}

// Fatal is t.Fatal: inside an execution it fails the execution.
func Fatal(t testing.TB, args ...any) {
	t.Helper()
	if shim.Active() {
		fail("Fatal", sprint(args))
		return
	}
	t.Fatal(args...)
}

// Fatalf is t.Fatalf: inside an execution it fails the execution.
func Fatalf(t testing.TB, format string, args ...any) {
	t.Helper()
	if shim.Active() {
		fail("Fatalf", fmt.Sprintf(format, args...))
		return
	}
	t.Fatalf(format, args...)
}

// Fail is t.Fail: inside an execution it fails the execution.
func Fail(t testing.TB) {
	t.Helper()
	if shim.Active() {
		fail("Fail", "")
		return
	}
	t.Fail()
}

// FailNow is t.FailNow: inside an execution it fails the execution.
func FailNow(t testing.TB) {
	t.Helper()
	if shim.Active() {
		fail("FailNow", "")
		return
	}
	t.FailNow()
}

// Cleanup is t.Cleanup: inside an execution f runs when the test's body
// returns, in the execution (the cleanups of Go's test, which close what
// the body made, are steps of the test as its body's are); outside one it
// registers f with t.
func Cleanup(t testing.TB, f func()) {
	t.Helper()
	if shim.Active() {
		shim.AddCleanup(f)
		return
	}
	t.Cleanup(f)
}

// cleanups runs the functions registered with Cleanup in the current
// execution, the last registered first, as Go runs a test's cleanups.
func cleanups() {
	for fs := shim.TakeCleanups(); len(fs) > 0; fs = shim.TakeCleanups() {
		for i := len(fs) - 1; i >= 0; i-- {
			fs[i]()
		}
	}
}

// Log is t.Log: inside an execution it does nothing (a log line per
// execution would bury the report).
func Log(t testing.TB, args ...any) {
	t.Helper()
	if !shim.Active() {
		t.Log(args...)
	}
}

// Logf is t.Logf: inside an execution it does nothing.
func Logf(t testing.TB, format string, args ...any) {
	t.Helper()
	if !shim.Active() {
		t.Logf(format, args...)
	}
}

// Skip is t.Skip: inside an execution it ends the execution (assumed away)
// and skips the test once the exploration returns.
func Skip(t testing.TB, args ...any) {
	t.Helper()
	if shim.Active() {
		skip(t, sprint(args))
		return
	}
	t.Skip(args...)
}

// Skipf is t.Skipf, as Skip.
func Skipf(t testing.TB, format string, args ...any) {
	t.Helper()
	if shim.Active() {
		skip(t, fmt.Sprintf(format, args...))
		return
	}
	t.Skipf(format, args...)
}

// SkipNow is t.SkipNow, as Skip.
func SkipNow(t testing.TB) {
	t.Helper()
	if shim.Active() {
		skip(t, "")
		return
	}
	t.SkipNow()
}

// Parallel is t.Parallel outside an execution. Inside one it fails the
// execution: weft test leaves a t.Parallel() that is the first statement of
// a Test function or subtest before the exploration, and refuses one
// elsewhere in its body, so this call comes from a helper.
func Parallel(t *testing.T) {
	t.Helper()
	if shim.Active() {
		refuseCall("Parallel", "called inside an exploration (from a helper): weft test runs the body after t.Parallel as an exploration; call t.Parallel first in the Test function or subtest")
		return
	}
	t.Parallel()
}

// refuseCall refuses the test whose exploration called method of
// *testing.T where weft test cannot run it (Unsupported), with msg and the
// place of the call (callSite): a construct weft test does not run is no
// failure of the test.
func refuseCall(method, msg string) {
	Unsupported(callSite() + "t." + method + " " + msg)
}

func skip(t testing.TB, msg string) {
	skips.Store(t, msg)
	weft.Assume(false)
}

// sprint formats args as t.Error does.
func sprint(args []any) string { return strings.TrimSuffix(fmt.Sprintln(args...), "\n") }

// IgnoreLeaks is weft.IgnoreLeaks: the rewriting passes it to Test for a
// Test function whose comment holds the directive //weft:leaks=off.
func IgnoreLeaks() weft.Option { return weft.IgnoreLeaks() }

// IgnoreLeak is weft.IgnoreLeak: the rewriting passes it to Test for a
// Test function whose comment holds the directive //weft:ignore-leak F,...
func IgnoreLeak(functions ...string) weft.Option { return weft.IgnoreLeak(functions...) }
