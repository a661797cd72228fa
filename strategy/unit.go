// This file declares units of work: the part of an exploration a strategy
// hands out to be explored elsewhere, and what comes back.

package strategy

import (
	"bytes"
	"encoding"
	"encoding/gob"
	"errors"
	"fmt"

	"github.com/weft-go/weft/internal/wire"
)

// A Unit is a part of an exploration that a Splitter handed out, as bytes
// another goroutine or process can take: a subtree of the tree of
// executions, with the prefix that reaches its root, the work left there
// (backtracking sets, a wakeup tree, input vectors) and what its
// exploration needs of the states above it (their sleep sets and
// backtracking data).
type Unit []byte

// A Handback is what the exploration of a unit found for the states above
// its root (races whose reversal starts there), for the strategy that
// handed the unit out to Join.
type Handback []byte

// A Splitter is a strategy whose exploration can be divided into units,
// explored separately and joined back.
//
// The protocol: between two executions (after Finish, before Next), Split
// hands out the deepest state of the current path that has work left,
// with all of its work, present and future; the splitter goes on as if it
// had explored that state itself. Resume, called on a strategy built with
// the same options (in any process), returns one that explores exactly
// that subtree: its Next returns false when the subtree is explored. Its
// Handback then says what it found for the states above the subtree's
// root, and Join, on the splitter, takes it in: for the states still on
// the splitter's path as if it had found it itself, and for the states it
// has left since (it went on while the unit was explored) as new units,
// which Join returns for the caller to explore (and join) like the others.
//
// A unit explored and joined before the splitter's next Next gives exactly
// the exploration the splitter would have made alone: the same executions,
// in another order. Units explored while the splitter goes on give a
// complete exploration that may repeat some executions. A strategy
// resumed from a unit may split it further; it joins what its own units
// hand back, and what concerns the states above its root goes into its own
// Handback. A splitter whose Next has returned false still resumes and
// joins the units it handed out, and a Join can give it work again: after
// a Join, Next is asked again and may return true.
type Splitter interface {
	Strategy
	// Split hands out a unit of the work left, and removes it from s's
	// own; false if s has none (its exploration is over or has not
	// begun).
	Split() (Unit, bool)
	// Resume returns a strategy with s's options that explores u. It
	// returns an error wrapping ErrBadUnit if u is not a unit of a
	// strategy with these options.
	Resume(u Unit) (Splitter, error)
	// Join takes in the handback of a unit s handed out and returns the
	// units it adds where s's path has moved on. It returns an error
	// wrapping ErrBadUnit if h is not a handback of such a unit.
	Join(h Handback) ([]Unit, error)
	// Handback returns what s, resumed from a unit, found for the states
	// above the unit's root, once its exploration is over; nil for a
	// strategy not resumed from a unit.
	Handback() Handback
}

// A LargeSplitter is a Splitter that can also hand out the branches left
// at the shallowest state of its current path that has any, while it goes
// on with the branch it is exploring there: a larger unit than Split's,
// for workers that run at the same time, whose unit overhead (encoding,
// replaying the prefix, joining) then counts for less. The price: a race
// the splitter finds below that state whose reversal sequential order
// would have explored inside a branch handed out is explored again, so
// the exploration may repeat some executions. SplitLarge returns false
// when s has no work to hand out.
type LargeSplitter interface {
	Splitter
	SplitLarge() (Unit, bool)
}

// A Mailer is a LargeSplitter whose large units can take letters from
// their splitter while they are explored, which makes a division into
// them exact: the same executions as the undivided exploration, none
// repeated. A race the splitter finds whose reversal sequential order
// would explore inside a branch it handed out goes to the unit exploring
// that branch, as a letter, instead of being explored by the splitter,
// and a last letter tells the unit that no more come; until then the unit
// explores only what no letter can change, and otherwise waits
// (AwaitsMail).
//
// The protocol, for a caller that routes letters (EnableMail): the units a
// mailer splits off, by Split or SplitLarge, are numbered from 0 in the
// order it returns them (Join's are not); after each call to Finish,
// SplitLarge, Join or Next, Letters returns the letters written since,
// each addressed to one of them, to be given, in order, to the strategy
// Resume returned for it (Receive), between two executions, before its
// next Next. Letters for a unit not resumed yet wait for it. A strategy
// whose Next returned false with AwaitsMail true is not over: it waits for
// a letter (and may be given handbacks meanwhile). Without EnableMail, a
// mailer splits as a LargeSplitter does and writes no letters.
type Mailer interface {
	LargeSplitter
	// EnableMail makes s, and the strategies Resume returns from it, send
	// letters to the units they split off.
	EnableMail()
	// Letters returns the letters written since the last call.
	Letters() []Letter
	// Receive takes in a letter for s, a strategy resumed from a unit.
	// It returns an error wrapping ErrBadUnit if l is not a letter of
	// s's splitter.
	Receive(l []byte) error
	// AwaitsMail reports whether s's last Next returned false to wait for
	// a letter.
	AwaitsMail() bool
}

// A Letter is a message from a Mailer to the Unit-th unit it split off.
type Letter struct {
	Unit int
	Data []byte
}

// ErrBadUnit is wrapped by the errors of Resume and Join for bytes that
// are not a unit or handback of the strategy: corrupt, from another
// strategy or another version of weft, or made with other options.
var ErrBadUnit = errors.New("not a unit of work of this strategy")

// unitHeader starts every unit and handback: the strategy and options
// that made it (Tag) and what it is ("unit" or "handback").
type unitHeader struct {
	Magic string
	Tag   string
	What  string
}

// unitMagic names the format of units and handbacks. gob decodes by field
// name and drops fields it does not know, so a change to a payload type
// must change the magic (or the strategy's tag), or old units would be
// taken without complaint.
const unitMagic = "weft-unit-4"

// binaryMagic starts the header of a unit or handback whose payload is
// written in a binary form of its own (encoding.BinaryAppender), after a
// zero byte, which no gob stream starts with. The payload's form is
// positional: a change to it must change the strategy's tag or a version
// the payload writes.
const binaryMagic = "weft-unit-bin-1"

// EncodeUnit serialises payload as a unit of the strategy named by tag,
// which should name its options too: Resume refuses a unit whose tag
// differs. A payload that implements encoding.BinaryAppender (and, for
// DecodeUnit, encoding.BinaryUnmarshaler) is written in its own binary
// form; any other in encoding/gob's, which describes and compiles its
// types anew in each unit.
func EncodeUnit(tag string, payload any) (Unit, error) {
	b, err := encodeTagged(tag, "unit", payload)
	return Unit(b), err
}

// DecodeUnit decodes a unit EncodeUnit made with tag into payload (a
// pointer), or returns an error wrapping ErrBadUnit.
func DecodeUnit(u Unit, tag string, payload any) error {
	return decodeTagged(u, tag, "unit", payload)
}

// EncodeLetter is EncodeUnit for a letter (Mailer).
func EncodeLetter(tag string, payload any) ([]byte, error) {
	return encodeTagged(tag, "letter", payload)
}

// DecodeLetter is DecodeUnit for a letter.
func DecodeLetter(l []byte, tag string, payload any) error {
	return decodeTagged(l, tag, "letter", payload)
}

// EncodeHandback is EncodeUnit for a handback.
func EncodeHandback(tag string, payload any) (Handback, error) {
	b, err := encodeTagged(tag, "handback", payload)
	return Handback(b), err
}

// DecodeHandback is DecodeUnit for a handback.
func DecodeHandback(h Handback, tag string, payload any) error {
	return decodeTagged(h, tag, "handback", payload)
}

func encodeTagged(tag, what string, payload any) ([]byte, error) {
	if p, ok := payload.(encoding.BinaryAppender); ok {
		b := wire.AppendString([]byte{0}, binaryMagic)
		b = wire.AppendString(b, tag)
		b = wire.AppendString(b, what)
		b, err := p.AppendBinary(b)
		if err != nil {
			return nil, fmt.Errorf("encoding a %s of %s: %w", what, tag, err)
		}
		return b, nil
	}
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	if err := enc.Encode(unitHeader{unitMagic, tag, what}); err != nil {
		return nil, fmt.Errorf("encoding a %s of %s: %w", what, tag, err)
	}
	if err := enc.Encode(payload); err != nil {
		return nil, fmt.Errorf("encoding a %s of %s: %w", what, tag, err)
	}
	return buf.Bytes(), nil
}

func decodeTagged(b []byte, tag, what string, payload any) error {
	if p, ok := payload.(encoding.BinaryUnmarshaler); ok {
		r := wire.NewReader(b)
		zero := r.Uint8()
		h := unitHeader{Magic: r.String(), Tag: r.String(), What: r.String()}
		if err := r.Err(); err != nil || zero != 0 || h.Magic != binaryMagic {
			return fmt.Errorf("%w: the bytes are no %s of weft's (corrupt, or made by another version)", ErrBadUnit, what)
		}
		if err := h.check(tag, what); err != nil {
			return err
		}
		if err := p.UnmarshalBinary(b[len(b)-r.Left():]); err != nil {
			return fmt.Errorf("%w: decoding a %s of %s: %v", ErrBadUnit, what, tag, err)
		}
		return nil
	}
	dec := gob.NewDecoder(bytes.NewReader(b))
	var h unitHeader
	if err := dec.Decode(&h); err != nil || h.Magic != unitMagic {
		return fmt.Errorf("%w: the bytes are no %s of weft's (corrupt, or made by another version)", ErrBadUnit, what)
	}
	if err := h.check(tag, what); err != nil {
		return err
	}
	if err := dec.Decode(payload); err != nil {
		return fmt.Errorf("%w: decoding a %s of %s: %v", ErrBadUnit, what, tag, err)
	}
	return nil
}

// check returns an error wrapping ErrBadUnit if the header is not that of
// a what of tag.
func (h *unitHeader) check(tag, what string) error {
	if h.What != what {
		return fmt.Errorf("%w: a %s where a %s was expected", ErrBadUnit, h.What, what)
	}
	if h.Tag != tag {
		return fmt.Errorf("%w: a %s of %s, given to %s", ErrBadUnit, what, h.Tag, tag)
	}
	return nil
}
