// This file implements a run's journal on RunsStream: the run's spec,
// then what its coordinator did to the root's exploration, in order, so
// that a coordinator started after the first died can do it again and go
// on (resume.go).

package distrib

import (
	"bytes"
	"encoding/gob"
	"fmt"
)

// Operations on the root's exploration that a journal entry records.
const (
	opExplore    = iota + 1 // Explore(N) reported Over
	opSplit                 // Split gave the run's next unit
	opJoin                  // Join of unit ID's result, at Seq on ResultsStream, gave N units
	opSplitLarge            // SplitLarge gave the run's next unit
)

// An entry is one operation on the root's exploration. Replayed in order
// on a new explore.Coordinator, the entries of a run bring its root to the
// same state: the strategies are deterministic, and a Join takes the
// same result (Seq).
type entry struct {
	Op   uint8
	N    int
	Over bool
	ID   uint64
	Seq  uint64
}

// journalMsg is a message of a run's journal: the first carries the run's
// Spec, the others entries.
type journalMsg struct {
	Magic   string
	Run     string
	Spec    *Spec
	Entries []entry
}

// decodeJournal decodes a journal message of run.
func decodeJournal(run, subject string, b []byte) (*journalMsg, error) {
	var m journalMsg
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&m); err != nil || m.Magic != magic {
		return nil, fmt.Errorf("%w on %s: %d bytes that are no journal of weft's (%s); publish only weft's journals there", ErrMalformed, subject, len(b), magic)
	}
	if m.Run != run {
		return nil, fmt.Errorf("%w on %s: the journal of run %q", ErrMalformed, subject, m.Run)
	}
	return &m, nil
}

// note records op in the journal, which flush publishes.
func (c *coordinator) note(e entry) { c.journal = append(c.journal, e) }

// flush publishes the entries noted since the last flush. A unit is
// published only after the entry that made it: every unit on the queue
// is in the journal, with its id.
func (c *coordinator) flush() error {
	if len(c.journal) == 0 {
		return nil
	}
	b, err := encode(&journalMsg{Magic: magic, Run: c.o.Run, Entries: c.journal})
	if err != nil {
		return err
	}
	if _, err := c.js.Publish(c.ctx, RunSubject(c.o.Run), b); err != nil {
		return fmt.Errorf("journaling run %s: %w", c.o.Run, err)
	}
	c.journal = c.journal[:0]
	return nil
}

// begin publishes the journal's first message, the run's spec.
func (c *coordinator) begin() error {
	b, err := encode(&journalMsg{Magic: magic, Run: c.o.Run, Spec: &c.spec})
	if err != nil {
		return err
	}
	if _, err := c.js.Publish(c.ctx, RunSubject(c.o.Run), b); err != nil {
		return fmt.Errorf("journaling run %s: %w", c.o.Run, err)
	}
	return nil
}
