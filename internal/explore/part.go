// This file implements the explorer of a distributed exploration's parts:
// a PartExplorer, in any process, explores the parts a Coordinator (or
// another part) hands out, each as a Part that can hand parts of its own
// out in turn (work stealing) and joins their outcomes into its own.

package explore

import (
	"fmt"

	"github.com/weft-go/weft/internal/engine"
	"github.com/weft-go/weft/strategy"
)

// A PartExplorer explores the parts of a distributed exploration of a test
// body in its process, one batch at a time, in a runtime of its own that
// imports the naming tables each part carries.
type PartExplorer struct {
	body    func()
	c       Config
	s       strategy.Splitter // resumes the parts
	names   *engine.Names
	session *Session
}

// NewPartExplorer returns a PartExplorer of body with opts, the options of
// the Coordinator (the strategy and its options must be the same: a part
// of another is refused).
func NewPartExplorer(body func(), c Config) (*PartExplorer, error) {
	c, s, err := distributedSplitter(c)
	if err != nil {
		return nil, err
	}
	x := &PartExplorer{body: body, c: c, s: s, names: engine.NewNames()}
	x.names.Apart()
	x.session = newSession(body, &x.c, x.names)
	return x, nil
}

// Explore explores part to the end, with nothing split off, and returns
// its outcome, for Coordinator.Join (or the Join of the Part that split it
// off). Bytes that are no part of this exploration are refused with an
// error wrapping ErrBadPart; so is a part that takes letters from its
// splitter (Coordinator.EnableMail), which only Start's Part can be given
// (Part.Receive).
func (x *PartExplorer) Explore(part []byte) ([]byte, error) {
	p, err := x.Start(part)
	if err != nil {
		return nil, err
	}
	if _, err := p.explore(-1); err != nil {
		return nil, err
	}
	if p.awaitsMail() {
		return nil, fmt.Errorf("%w: the part waits for letters from the part that split it off: explore it with Start, and give it its letters (Part.Receive)", ErrBadPart)
	}
	return p.Outcome()
}

// Start begins the exploration of part, and returns it as a Part to
// explore in batches. Bytes that are no part of this exploration are
// refused with an error wrapping ErrBadPart.
func (x *PartExplorer) Start(part []byte) (*Part, error) {
	var d partData
	if err := strategy.DecodeUnit(strategy.Unit(part), partTag(x.c.Strategy), &d); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadPart, err)
	}
	s, err := x.s.Resume(d.Unit)
	if err != nil {
		return nil, fmt.Errorf("%w: resuming a part of %s: %v", ErrBadPart, x.c.Strategy, err)
	}
	x.names.Import(d.Tables)
	p := &Part{partRun: newPartRun(x.body, &x.c, s, x.names, x.session)}
	if ss := solverOf(x.s); ss != nil {
		p.solving = ss // s shares x.s's solver
	}
	return p, nil
}

// EnableMail makes the parts that split large parts off write letters to
// them (Part.Letters), and those started from such parts wait for theirs
// (Part.AwaitsMail), as a strategy.Mailer does: the division is then
// exact, no execution repeated. It must be called before the first Start,
// and the caller must route every letter; it reports false for a strategy
// that writes none. A part of a splitter without mail takes none.
func (x *PartExplorer) EnableMail() bool { return enableMail(x.s) }

// Close releases the PartExplorer's runtime and strategy.
func (x *PartExplorer) Close() {
	x.session.Close()
	release(x.s)
}

// A Part is a part of a distributed exploration being explored by a
// PartExplorer (Start), a batch at a time (Explore). Like the Coordinator
// for the root, it can split parts of its own off for other workers
// (Split) and join their outcomes (Join): a worker that has work while
// others have none hands some of it out (work stealing, as in Lei and
// Carver's distributed reachability testing, Lei and Carver 2006, §8). Its Outcome,
// once its exploration is over and every part it split off is joined (or
// once it is stopped), is what it and they found, for the Join of whoever
// split it off.
//
// The Parts of one PartExplorer share its runtime: they may be explored in
// turns, one batch at a time, from one goroutine at a time.
type Part struct {
	partRun
}

// Explore runs at most n executions of the part (at least one) and
// reports whether its exploration is over (a Join can give it work
// again). A failure (unless KeepGoing), the timeout or the context stops
// the exploration (Stopped).
func (p *Part) Explore(n int) (over bool, err error) { return p.explore(max(n, 1)) }

// Executions returns the executions counted so far: the part's and those
// of the parts joined.
func (p *Part) Executions() int { return p.total.Executions }

// Stopped reports whether a failure (unless KeepGoing), a divergence, the
// timeout or the context stopped the exploration.
func (p *Part) Stopped() bool { return p.stopped }

// Split splits a part off the part's work left (the deepest state of its
// path with work left), for another worker; false if it has none.
func (p *Part) Split() ([]byte, bool, error) { return p.split() }

// SplitLarge splits a large part off the part's work left: the branches
// left at the shallowest state of its path that has any, while p goes on
// with the branch it is exploring there (strategy.LargeSplitter; for a
// strategy that cannot, Split's part). Its exploration may repeat
// executions Split's would not, but it is worth a worker's while.
func (p *Part) SplitLarge() ([]byte, bool, error) { return p.splitLarge() }

// Join takes in the outcome of a part p split off, and returns the parts
// that adds where p has moved on, to explore (and join) like the others.
// Bytes that are no outcome of this exploration are refused with an error
// wrapping ErrBadPart, and nothing of them is taken in.
func (p *Part) Join(outcome []byte) ([][]byte, error) { return p.join(outcome) }

// Letters returns the letters written since the last call to the large
// parts p split off, each to the Unit-th of those its Split and SplitLarge
// gave, counted from 0 (Join's are not counted), for the Part started
// from that one, in order (PartExplorer.EnableMail).
func (p *Part) Letters() []strategy.Letter { return p.letters() }

// Receive gives p letter l, from the part that split it off, in the order
// written. Bytes that are no letter of this exploration are refused with
// an error wrapping ErrBadPart.
func (p *Part) Receive(l []byte) error { return p.receive(l) }

// AwaitsMail reports whether p's exploration, over at its last batch,
// waits for a letter: it is not over until that comes (Explore again
// after Receive).
func (p *Part) AwaitsMail() bool { return p.awaitsMail() }

// Outcome returns the part's outcome: its handback for the states above
// its root, and the Result of its executions and of the parts it joined.
// It is complete once the exploration is over and every part split off
// is joined; a stopped part's outcome carries what was found so far.
func (p *Part) Outcome() ([]byte, error) {
	r := p.result()
	r.Exhausted = !p.stopped
	b, err := strategy.EncodeHandback(partTag(p.c.Strategy), &outcomeData{Handback: p.s.Handback(), Result: wireOf(r), Tables: p.names.Export()})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInternal, err)
	}
	return b, nil
}
