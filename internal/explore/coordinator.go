// This file implements the Coordinator of a distributed exploration: it
// explores the root of a strategy's exploration, hands its units of work
// out as parts and joins their outcomes.

package explore

import (
	"time"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/strategy"
)

// A Coordinator explores the root of a distributed exploration of a test
// body: it runs executions of its strategy (Explore), splits units of work
// off as parts for other processes (Split) and joins what they found
// (Join). Bounds on executions (WithMaxRuns) and progress reports do not
// apply. An object the test body uses that is made outside it must have a
// name of its own (its constructor's, or SetName's): every process names
// it by its class and name; others are refused with ErrSharedObject.
type Coordinator struct {
	partRun
	c     Config
	start time.Time
}

// NewCoordinator returns a Coordinator of the exploration of body with
// opts; its strategy (optimal unless WithStrategy chooses another) must
// divide into units.
func NewCoordinator(body func(), c Config) (*Coordinator, error) {
	c, s, err := distributedSplitter(c)
	if err != nil {
		return nil, err
	}
	k := &Coordinator{c: c, start: time.Now()}
	names := engine.NewNames()
	names.Apart()
	k.partRun = newPartRun(body, &k.c, s, names, newSession(body, &k.c, names))
	return k, nil
}

// Strategy returns the name of the exploration's strategy.
func (k *Coordinator) Strategy() string { return k.c.Strategy }

// Explore runs at most n executions of the root's exploration (at least
// one) and reports whether it is over (a Join can give it work again). A
// failure (unless KeepGoing), the timeout or the context stops the
// exploration (Stopped).
func (k *Coordinator) Explore(n int) (over bool, err error) {
	return k.explore(max(n, 1))
}

// Executions returns the executions counted so far: the root's and those
// of the parts joined.
func (k *Coordinator) Executions() int { return k.total.Executions }

// Stopped reports whether a failure (unless KeepGoing), a divergence, the
// timeout or the context stopped the exploration.
func (k *Coordinator) Stopped() bool { return k.stopped }

// Split splits a part off the root's work (strategy.Splitter.Split: the
// deepest state of its path with work left, which the root leaves), with
// the naming tables it needs; false if the root has no work to hand out.
// Split after Split hands the root's whole path out: a coordinator that
// only joins splits so.
func (k *Coordinator) Split() ([]byte, bool, error) { return k.split() }

// SplitLarge splits a large part off the root's work: the branches left
// at the shallowest state of its path that has any, while the root goes
// on with the branch it explores there (strategy.LargeSplitter.SplitLarge;
// for a strategy that cannot, Split's). The root then explores what it
// kept, as a worker's job does with the units it splits off, and the
// parts' handbacks reach it where sequential order would have put them
// far more often than Split's, which were joined after the root had left
// their states: on fib n=4 over NATS with two workers and the root
// exploring, 20,311 to 20,740 executions in 0.62 to 0.66 s (19,605
// traces) against Split's 22,086 to 22,461 in 1.0 to 1.3 s.
func (k *Coordinator) SplitLarge() ([]byte, bool, error) { return k.splitLarge() }

// Join takes in the outcome of a part (PartExplorer.Explore, or a Part's
// Outcome): it merges its Result, imports its naming tables and joins its
// handback, and returns the parts that adds where the root has moved on.
// Bytes that are no outcome of this exploration are refused with an error
// wrapping ErrBadPart, and nothing of them is taken in.
func (k *Coordinator) Join(outcome []byte) ([][]byte, error) { return k.join(outcome) }

// Result returns the Result of the exploration so far; exhausted is
// reported if every part split off was joined, the root's exploration is
// over and nothing stopped it.
func (k *Coordinator) Result(joined bool) *Result {
	r := k.result()
	r.Exhausted = joined && k.over && !k.stopped
	r.Wall = time.Since(k.start)
	return r
}

// EnableMail makes the root write letters to the large parts it splits
// off (Letters), as PartExplorer.EnableMail does for parts: it must be
// called before the first split, and the parts must be started by
// PartExplorers with mail. It reports false for a strategy that writes
// none.
func (k *Coordinator) EnableMail() bool { return enableMail(k.s) }

// Letters returns the letters the root wrote since the last call, each to
// the Unit-th part its Split and SplitLarge gave, counted from 0.
func (k *Coordinator) Letters() []strategy.Letter { return k.letters() }

// Close releases the Coordinator's runtime and strategy.
func (k *Coordinator) Close() {
	k.session.Close()
	release(k.s)
}
