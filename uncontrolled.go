// This file implements Check's look for goroutines that the body starts
// outside weft's control (go statements, or code that starts goroutines),
// whose interleavings no exploration covers.

package weft

import (
	"fmt"
	"os"
	"runtime/metrics"

	"github.com/weft-go/weft/internal/engine"
)

// createdMetric counts the goroutines the process has created.
const createdMetric = "/sched/goroutines-created:goroutines"

// goroutinesCreated returns how many goroutines the process has created;
// ok is false if the runtime does not say.
func goroutinesCreated() (n int64, ok bool) {
	s := [1]metrics.Sample{{Name: createdMetric}}
	metrics.Read(s[:])
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return int64(s[0].Value.Uint64()), true
}

// probe counts the goroutines the process creates while the body runs,
// less those weft creates for the execution's threads.
type probe struct {
	e                *engine.Exec // nil: no count
	created, spawned int64
}

// start starts counting, in an execution of e.
func (p *probe) start(e *engine.Exec) {
	n, ok := goroutinesCreated()
	if !ok {
		return
	}
	p.e, p.created, p.spawned = e, n, e.Spawned()
}

// end returns the goroutines created since start that weft did not
// create: 0 if start did not count.
func (p *probe) end() int {
	if p.e == nil {
		return 0
	}
	n, _ := goroutinesCreated()
	return max(0, int(n-p.created-(p.e.Spawned()-p.spawned)))
}

// confirmRuns is how many more times Check runs the first execution of a
// body whose first execution created goroutines besides weft's, to tell
// the body's goroutines from those the rest of the process (another test,
// the runtime) created meanwhile.
const confirmRuns = 2

// uncontrolled returns the number of goroutines the first execution of
// body creates outside weft's control in each of confirmRuns more runs
// of it with opts (the least of them), given r, the exploration's result:
// 0 unless every run created some. Under weft test (CommandEnv set),
// which rewrites go statements into weft's threads and reports what it
// cannot control its own way, it is 0.
func uncontrolled(body func(w *T), r *Result, opts []Option) int {
	n := r.Uncontrolled
	if n == 0 || os.Getenv(CommandEnv) != "" {
		return 0
	}
	opts = append(opts[:len(opts):len(opts)], WithMaxRuns(1), WithWorkers(1), WithShorten(0))
	for i := 0; i < confirmRuns && n > 0; i++ {
		again, err := Explore(body, opts...)
		if err != nil || again == nil {
			return 0
		}
		n = min(n, again.Uncontrolled)
	}
	return n
}

// uncontrolledMessage is the failure of a Check whose body started n
// goroutines outside weft's control.
func uncontrolledMessage(n int, r *Result) string {
	what := "1 goroutine"
	if n > 1 {
		what = fmt.Sprintf("%d goroutines", n)
	}
	return fmt.Sprintf("weft: the body starts goroutines outside weft's control: its first execution created %s besides weft's threads, in each of %d runs.\n"+
		"weft explores the interleavings of the threads started with w.Go, weft.Go or weft.WaitGroup.Go and of weft's objects only: goroutines started with go statements (or by code the body calls, such as time.AfterFunc), and the Go channels and sync mutexes they share, run as the Go scheduler lets them, so the exploration's %d executions cover none of their interleavings.\n"+
		"Start threads with w.Go and use weft's Chan, Mutex and WaitGroup (weft vet ./... names each go statement, Go channel and sync use in a Check body), "+
		"or test the ordinary Go code with weft test ./..., which runs go statements, channels and sync under weft's control.",
		what, 1+confirmRuns, r.Executions)
}
