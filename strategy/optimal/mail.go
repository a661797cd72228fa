// This file implements letters (strategy.Mailer): a splitter sends the
// unit of SplitLarge that explores a state's branches the reversals it
// finds for that state, which sequential order would have explored in
// that unit's tree, and the unit waits for them where they can go.

package optimal

import (
	"fmt"

	"github.com/weft-go/weft/strategy"
)

var _ strategy.Mailer = (*Strategy)(nil)

// mailState is what a strategy keeps of letters.
type mailState struct {
	// on: the caller routes letters (EnableMail), to the units s splits
	// off and, if s was resumed from a unit that takes them, to s.
	on bool
	// expect marks a strategy resumed from a unit that takes letters;
	// closed says its splitter wrote that no more come (or that none
	// does); awaiting says Next returned false to wait for one.
	expect, closed, awaiting bool
	// units counts the units s split off (the number of the next one);
	// loose those out that Split gave, or Join, whose handbacks may
	// still bring reversals for any state above their roots: s writes
	// no last letter while one is out.
	units, loose int
	// out are the letters written since Letters was last called.
	out []strategy.Letter
}

// letterData is a letter: a wakeup sequence for the root of the unit,
// from its root, in the names of its splitter, or the word that no more
// come.
type letterData struct {
	Close bool
	Names wireNames
	Seq   []wireEvent
}

// EnableMail implements strategy.Mailer.
func (s *Strategy) EnableMail() { s.mail.on = true }

// Letters implements strategy.Mailer.
func (s *Strategy) Letters() []strategy.Letter {
	out := s.mail.out
	s.mail.out = nil
	return out
}

// AwaitsMail implements strategy.Mailer.
func (s *Strategy) AwaitsMail() bool { return s.mail.awaiting }

// mailTo returns 1 + the number of the unit that takes letters for n's
// branches, or 0.
func (n *node) mailTo() int {
	if n.recs == nil {
		return 0
	}
	return n.recs.mailTo
}

// frozen reports whether s, resumed from a unit that takes letters and
// not told that no more come, may not leave state n nor take another
// branch there: n is a state of the tree the unit was handed (or the
// root), where a letter may still add a branch after the ones handed out
// and before the unit's own, which sequential order explores after it.
// Below a leaf of that tree no letter goes (placeGiven drops a reversal
// that reaches one as covered).
func (s *Strategy) frozen(n *node) bool {
	return n.gstate && s.mail.expect && !s.mail.closed
}

// post writes the letter that gives seq, a wakeup sequence for the state
// n whose branches were handed out, to the unit that explores them.
func (s *Strategy) post(n *node, seq []*event) {
	d := letterData{Names: s.wireNames(), Seq: make([]wireEvent, len(seq))}
	for i, e := range seq {
		d.Seq[i] = wireEventOf(e)
	}
	s.send(n.mailTo()-1, &d)
	if s.logf != nil {
		s.logf("letter to unit %d: %v", n.mailTo()-1, seqString(seq))
	}
}

// closeMail writes to the unit that takes letters for n's branches, if
// any, that no more come: s has left the branch it explored there.
func (s *Strategy) closeMail(n *node) {
	if n.mailTo() == 0 || n.recs.closed || s.mail.loose > 0 {
		return
	}
	n.recs.closed = true
	s.send(n.mailTo()-1, &letterData{Close: true})
}

// send encodes d as a letter to unit u.
func (s *Strategy) send(u int, d *letterData) {
	b, err := strategy.EncodeLetter(s.tag(), d)
	if err != nil {
		panic("weft internal error: optimal: " + err.Error())
	}
	s.mail.out = append(s.mail.out, strategy.Letter{Unit: u, Data: b})
}

// Receive implements strategy.Mailer. A wakeup sequence goes where
// sequential order would have put it, in the tree of branches the unit was
// handed and those letters added: down the branch s's path takes at each
// state of that tree, or the first branch left that is a weak initial of
// what remains, and, where none is, as a new branch after the branches of
// that tree and before s's own, which are inserted again after it. None
// of s's own there is explored yet (frozen), and sequential order would
// have inserted them after it.
func (s *Strategy) Receive(l []byte) error {
	var d letterData
	if err := strategy.DecodeLetter(l, s.tag(), &d); err != nil {
		return err
	}
	if !s.mail.expect {
		return fmt.Errorf("%w: a letter of %s for a strategy resumed from no unit that takes them", strategy.ErrBadUnit, s.tag())
	}
	if d.Close {
		s.mail.closed = true
		return nil
	}
	if s.mail.closed {
		return fmt.Errorf("%w: a letter of %s after the last one", strategy.ErrBadUnit, s.tag())
	}
	x, err := s.translator(&d.Names)
	if err != nil {
		return err
	}
	seq, err := x.events(d.Seq)
	if err != nil {
		return err
	}
	if len(seq) == 0 {
		return fmt.Errorf("%w: an empty letter of %s", strategy.ErrBadUnit, s.tag())
	}
	s.staleCovers()
	rest := make([]*event, len(seq))
	for i := range seq {
		rest[i] = &seq[i]
	}
	for j := s.floor; j < s.nodes.Len(); j++ {
		n := s.nodes.At(j)
		if !n.gstate {
			return nil // below a leaf of the tree: the path covers it
		}
		if n.ev.cached {
			if ok, at := s.nm.weakInitial(rest, &n.ev); ok {
				if at >= 0 {
					rest = append(rest[:at], rest[at+1:]...)
				}
				if len(rest) == 0 {
					return nil // the path covers it
				}
				continue
			}
		}
		s.insertGiven(&n.wut, rest)
		if s.logf != nil {
			s.logf("letter: insert at node %d: %v", j, seqString(rest))
		}
		return nil
	}
	return nil // past the end of the path: the execution ended there
}

// insertGiven inserts rest into the forest *children among the branches
// of the tree handed out (wnode.given), which come first: it follows the
// first of them that is a weak initial of what remains, and where none
// is, adds what remains as a branch of that tree after them, then inserts
// again the branches after them (s's own).
func (s *Strategy) insertGiven(children *[]*wnode, rest []*event) {
	k := givenPrefix(*children)
	for {
		i, r := s.nm.matchChild((*children)[:k], rest)
		if i < 0 {
			break
		}
		next := (*children)[i]
		if rest = r; len(next.children) == 0 || len(rest) == 0 {
			return // covered
		}
		children = &next.children
		k = givenPrefix(*children)
	}
	var own [][]event
	for _, c := range (*children)[k:] {
		own = branches(own, nil, c)
		s.nm.freeTree(c)
	}
	var chain []*wnode
	s.nm.insert(&chain, rest)
	markGiven(chain)
	*children = append((*children)[:k], chain...)
	for _, b := range own {
		seq := make([]*event, len(b))
		for i := range b {
			seq[i] = &b[i]
		}
		s.nm.insert(children, seq)
	}
}

// givenPrefix returns how many of children, from the first, are branches
// of the tree handed out (wnode.given), which come before s's own.
func givenPrefix(children []*wnode) int {
	k := 0
	for k < len(children) && children[k].given {
		k++
	}
	return k
}

// branches appends to out the sequences from the root of a wakeup forest
// to each leaf of c's tree, prefixed with prefix, in the tree's order;
// their events share no memory with the tree's.
func branches(out [][]event, prefix []event, c *wnode) [][]event {
	prefix = append(prefix[:len(prefix):len(prefix)], c.ev.clone())
	if len(c.children) == 0 {
		return append(out, prefix)
	}
	for _, d := range c.children {
		out = branches(out, prefix, d)
	}
	return out
}

// markGiven marks the nodes of forest f as branches handed out.
func markGiven(f []*wnode) {
	for _, c := range f {
		c.given = true
		markGiven(c.children)
	}
}
