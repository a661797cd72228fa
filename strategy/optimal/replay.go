// This file records the races the analysis reverses for each step it
// scans anew, so that the analysis of a later execution that replays the
// step takes them from the record instead of scanning for them again.

package optimal

import (
	"fmt"
	"slices"
)

// capture looks for the races of event j, which the execution ran anew,
// and records them in j's node (see replayRaces).
func (a *analysis) capture(j int) {
	s := a.s
	if j >= s.nodes.Len() || a.evs[j].fails {
		a.executed(j)
		return
	}
	n := s.nodes.At(j)
	n.racesAt = 0
	if n.recs != nil {
		n.recs.races = n.recs.races[:0]
	}
	a.capt, a.captOK = n, true
	a.executed(j)
	a.capt = nil
	if a.captOK && !s.stop.Fired() {
		n.racesAt = s.epoch
	}
}

// captured records that the scan of the step being captured reverses the
// race of event i with m. Only the step's own alternative is replayed (the
// others' events are built from the state where they run): a race with
// another makes the record unusable.
func (a *analysis) captured(i int, m *event) {
	if m.label() != a.evs[a.limit].label() {
		a.captOK = false
		return
	}
	r := a.capt.records()
	r.races = append(r.races, raceRec{i, m.label(), m.OK, m.fails})
}

// replayRaces reverses the races of replayed step j from the record of
// the execution that ran it anew, instead of scanning for them, and
// reports whether it could.
//
// Why the record holds the races the scan would reverse. The scan of step
// j reads only the events before it, which are those of the execution
// that recorded them (the node's step was not taken anew since, and
// staleCovers marks the operations that change the names of events or
// take branches away): its candidates, the state in which each race would
// be reversed, and so the reversed step's outcome, come out the same, in
// the same order. That execution ran j anew, so none of its candidates
// was skipped as analysed: it recorded every race. This execution's scan
// skips the candidates analysed now (analysed: i happens before every new
// event) and may stop early at one of them, when every candidate left
// happens before it; those happen before every new event too, and are
// analysed as well. The races it reverses are thus the record's, less
// the analysed ones, in the record's order; with verification on, the
// scan runs and the two are compared.
func (a *analysis) replayRaces(j int) bool {
	s := a.s
	if a.evs[j].fails {
		return false
	}
	n := s.nodes.At(j)
	if n.racesAt == 0 || n.racesAt < s.coverStale || n.racesAt < n.epoch {
		return false
	}
	if a.hb.verify {
		a.executed(j)
		want := a.want[:0]
		for _, r := range n.races() {
			if !a.analysedAt(r.i, j) {
				want = append(want, r)
			}
		}
		a.want = want
		if !slices.Equal(a.got, want) {
			panic(fmt.Sprintf("weft internal error: optimal: the races of replayed step %d are %v, but its record gives %v", j, a.got, want))
		}
		return true
	}
	a.limit = j
	own := a.evs[j]
	m := &a.m
	for _, r := range n.races() {
		if a.analysed(r.i) {
			continue
		}
		if s.stop.Poll() {
			return true
		}
		*m = *own
		m.fails = r.fails
		if !m.cached || m.OK != r.ok {
			m.OK = r.ok
			m.cache()
		}
		a.reverse(r.i, m)
	}
	return true
}

// analysedAt is analysed for the step at position limit.
func (a *analysis) analysedAt(i, limit int) bool {
	l := a.limit
	a.limit = limit
	defer func() { a.limit = l }()
	return a.analysed(i)
}
