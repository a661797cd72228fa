// This file implements the messages of a distributed exploration: the
// units the coordinator publishes, the results workers publish, and the
// subjects and streams they go on.

package distrib

import (
	"bytes"
	"cmp"
	"encoding/gob"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Streams, subjects and the workers' consumer. Units of a run go on
// UnitsSubject(run) in the work-queue stream UnitsStream, which every
// worker takes from through the durable consumer WorkersConsumer; results
// go on ResultsSubject(run) in ResultsStream, which only that run's
// coordinator reads, but for the results of units a worker split off its
// own (work stealing), which go on ChildSubject and only that worker
// reads; the run's journal, its spec and what its coordinator
// did, goes on RunSubject(run) in RunsStream. The letters a unit's
// splitter writes to it (explore.Part.Letters) go on LetterSubject in
// LettersStream, kept until the run ends, so that a unit delivered again
// reads them all from the first.
const (
	UnitsStream     = "WEFT_UNITS"
	ResultsStream   = "WEFT_RESULTS"
	RunsStream      = "WEFT_RUNS"
	LettersStream   = "WEFT_LETTERS"
	WorkersConsumer = "weft-workers"
	unitsPrefix     = "weft.units."
	resultsPrefix   = "weft.results."
	runsPrefix      = "weft.runs."
	lettersPrefix   = "weft.letters."
)

// UnitsSubject, ResultsSubject and RunSubject are the subjects of run's
// units, results and journal.
func UnitsSubject(run string) string   { return unitsPrefix + run }
func ResultsSubject(run string) string { return resultsPrefix + run }
func RunSubject(run string) string     { return runsPrefix + run }

// ChildSubject is the subject of the results of the units that worker
// split off its job of run: only that worker reads them.
func ChildSubject(run, worker string, job uint64) string {
	return fmt.Sprintf("%s%s.%s.%d", resultsPrefix, run, worker, job)
}

// LetterSubject is the subject of the letters to unit id of run, which
// the coordinator split off (owner "") or worker owner split off its job
// (work stealing).
func LetterSubject(run, owner string, job, id uint64) string {
	return fmt.Sprintf("%s%s.%s.%d.%d", lettersPrefix, run, cmp.Or(owner, "root"), job, id)
}

// letters returns the subject of the letters to u.
func (u *unitMsg) letters() string { return LetterSubject(u.Run, u.Owner, u.Job, u.ID) }

// letterMsg is a letter to a unit of a run from the one that split it
// off (explore.Part.Letters): the Index-th it wrote to that unit, from 0.
// A letter written again (by a coordinator that resumed the run, which
// writes its letters anew) has the index it had, and is read once.
type letterMsg struct {
	Magic string
	Run   string
	Index int
	Data  []byte
}

// decodeLetter decodes a letter message of run.
func decodeLetter(run, subject string, b []byte) (*letterMsg, error) {
	var m letterMsg
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&m); err != nil || m.Magic != magic {
		return nil, fmt.Errorf("%w on %s: %d bytes that are no letter of weft's (%s); publish only weft's letters there", ErrMalformed, subject, len(b), magic)
	}
	switch {
	case m.Run != run:
		return nil, fmt.Errorf("%w on %s: a letter of run %q", ErrMalformed, subject, m.Run)
	case len(m.Data) == 0 || m.Index < 0:
		return nil, fmt.Errorf("%w on %s: letter %d has no content", ErrMalformed, subject, m.Index)
	}
	return &m, nil
}

// ErrMalformed is wrapped by the error of a message that is no unit or
// result of weft's distributed exploration, or of another version.
var ErrMalformed = errors.New("malformed message")

// magic starts every message: the format of this version of weft.
const magic = "weft-nats-3"

// Spec names what a run explores, for workers to build it: a program
// (for weft run, a built-in one), its parameters, and the options of the
// strategy.
type Spec struct {
	Program   string
	Params    map[string]int
	Strategy  string
	Seed      int64
	MaxSteps  int
	KeepGoing bool
	Races     bool // weft.WithRaces
	// AnyStepTime is weft.WithTime(weft.TimeAnyStep).
	AnyStepTime bool
}

// key identifies the spec among those a worker explores.
func (s Spec) key() string {
	names := slices.Sorted(maps.Keys(s.Params))
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%d|%d|%t|%t|%t", s.Program, s.Strategy, s.Seed, s.MaxSteps, s.KeepGoing, s.Races, s.AnyStepTime)
	for _, n := range names {
		fmt.Fprintf(&b, "|%s=%d", n, s.Params[n])
	}
	return b.String()
}

// String describes s as the flags of weft run would.
func (s Spec) String() string {
	var b strings.Builder
	b.WriteString(s.Program)
	for _, n := range slices.Sorted(maps.Keys(s.Params)) {
		fmt.Fprintf(&b, " -p %s=%d", n, s.Params[n])
	}
	fmt.Fprintf(&b, " -strategy %s -seed %d", cmp.Or(s.Strategy, "optimal"), s.Seed)
	if s.MaxSteps > 0 {
		fmt.Fprintf(&b, " -max-steps %d", s.MaxSteps)
	}
	if s.KeepGoing {
		b.WriteString(" -keep-going")
	}
	if s.Races {
		b.WriteString(" -races")
	}
	return b.String()
}

// unitMsg is a unit of work of a run: its id, the spec of the run and the
// part to explore (explore.Coordinator.Split, or explore.Part.Split). A unit the
// coordinator split off has no Owner; its id is unique in the run, and its
// result goes on ResultsSubject. One a worker split off its own job (work
// stealing) names that worker (Owner, its id on the server) and job: its
// id is unique among the units of that job, and its result goes on
// ChildSubject.
type unitMsg struct {
	Magic string
	Run   string
	ID    uint64
	Owner string
	Job   uint64
	Spec  Spec
	Part  []byte
}

// reply returns the subject of u's result.
func (u *unitMsg) reply() string {
	if u.Owner == "" {
		return ResultsSubject(u.Run)
	}
	return ChildSubject(u.Run, u.Owner, u.Job)
}

// resultMsg is what a worker found exploring unit ID of a run: the outcome
// (explore.PartExplorer.Explore) or the error that stopped it, Shared if
// that error wraps explore.ErrSharedObject; Delivered is how many times the
// unit had been delivered (1: the first time); Split counts the units
// split off it and off those, all the way down (work stealing).
type resultMsg struct {
	Magic     string
	Run       string
	ID        uint64
	Delivered uint64
	Worker    string
	Outcome   []byte
	Err       string
	Shared    bool
	Split     int
}

func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return nil, fmt.Errorf("encoding a message: %w", err)
	}
	return buf.Bytes(), nil
}

// decodeUnit decodes a unit message, published on subject.
func decodeUnit(subject string, b []byte) (*unitMsg, error) {
	var m unitMsg
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&m); err != nil || m.Magic != magic {
		return nil, fmt.Errorf("%w on %s: %d bytes that are no unit of weft's (%s); publish only weft's units there, or use another subject than %s>", ErrMalformed, subject, len(b), magic, unitsPrefix)
	}
	switch {
	case subject != UnitsSubject(m.Run):
		return nil, fmt.Errorf("%w on %s: a unit of run %q", ErrMalformed, subject, m.Run)
	case len(m.Part) == 0:
		return nil, fmt.Errorf("%w on %s: unit %d has no part to explore", ErrMalformed, subject, m.ID)
	case m.Owner != "" && !isToken(m.Owner):
		return nil, fmt.Errorf("%w on %s: unit %d names its owner %q, which is no worker's id", ErrMalformed, subject, m.ID, m.Owner)
	}
	return &m, nil
}

// decodeResult decodes a result message of run.
func decodeResult(run, subject string, b []byte) (*resultMsg, error) {
	var m resultMsg
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&m); err != nil || m.Magic != magic {
		return nil, fmt.Errorf("%w on %s: %d bytes that are no result of weft's (%s); publish only weft's results there", ErrMalformed, subject, len(b), magic)
	}
	switch {
	case m.Run != run:
		return nil, fmt.Errorf("%w on %s: a result of run %q", ErrMalformed, subject, m.Run)
	case len(m.Outcome) == 0 && m.Err == "":
		return nil, fmt.Errorf("%w on %s: the result of unit %d has neither an outcome nor an error", ErrMalformed, subject, m.ID)
	}
	return &m, nil
}

// isToken reports whether s can be a token of a subject: letters and
// digits only, as the ids of runs and workers are.
func isToken(s string) bool {
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}
