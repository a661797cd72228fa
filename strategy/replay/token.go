// This file implements replay records and their compact token form.

package replay

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"

	"github.com/weft-go/weft/trace"
)

// ErrBadToken is wrapped by every error about a malformed replay token.
var ErrBadToken = errors.New("malformed replay token")

// Step is one recorded choice: the thread that moved, the alternative of its
// pending operation, and the operation's kind (to explain a divergence).
type Step struct {
	Thread trace.ThreadID
	Alt    int32
	Kind   trace.Kind
}

// Record is everything needed to repeat an execution: its choices and its
// input values, in the order they were made.
type Record struct {
	Steps  []Step
	Inputs []uint64
	// AnyStepTime reports that virtual time moved at any step in the
	// execution (a step of trace.ClassClock): a replay must run so too.
	// Before its first step on time an execution is the same in both
	// modes, so a record without one replays in either.
	AnyStepTime bool
	// Seed is the seed of the program's randomness in the execution
	// (trace.Trace.Seed), 0 if it drew none; a token holds it only when
	// it is not 0.
	Seed int64
}

// FromTrace returns the record of the execution tr.
func FromTrace(tr *trace.Trace, inputs []uint64) Record {
	r := Record{Steps: make([]Step, len(tr.Events)), Inputs: append([]uint64(nil), inputs...)}
	if tr.SeedUsed {
		r.Seed = tr.Seed
	}
	for i, e := range tr.Events {
		r.Steps[i] = Step{Thread: e.Thread, Alt: e.Alt, Kind: e.Op.Kind}
		if e.Op.Class == trace.ClassClock {
			r.AnyStepTime = true
		}
	}
	return r
}

// corrupt is the way out of a token whose checksum holds but whose content
// does not: no version of weft writes such tokens.
const corrupt = "the token is corrupt or was not made by this version of weft"

// tokenPrefix starts every token, with its format version; anyStepPrefix
// starts, instead, the token of a record with AnyStepTime.
const (
	tokenPrefix   = "w1."
	anyStepPrefix = "w1a."
)

// checksum returns the CRC-32 of a token's payload b under prefix. The
// CRC of a w1. token is b's alone (as it always was); that of a w1a. token
// covers the prefix too, so that a token whose prefix was edited to the
// other mode fails its checksum rather than replaying in the wrong mode.
func checksum(prefix string, b []byte) uint32 {
	if prefix == tokenPrefix {
		return crc32.ChecksumIEEE(b)
	}
	return crc32.Update(crc32.ChecksumIEEE([]byte(prefix)), crc32.IEEETable, b)
}

// Encode returns the token of r: a version prefix and the base64url form of
// varints and a CRC-32 of them (and, for a w1a. token, of the prefix).
// The varints are the steps, the inputs and, if not 0, the seed (zigzag).
func Encode(r Record) string {
	b := binary.AppendUvarint(nil, uint64(len(r.Steps)))
	for _, s := range r.Steps {
		b = binary.AppendUvarint(b, uint64(s.Thread))
		b = binary.AppendUvarint(b, uint64(s.Alt))
		b = append(b, byte(s.Kind))
	}
	b = binary.AppendUvarint(b, uint64(len(r.Inputs)))
	for _, v := range r.Inputs {
		b = binary.AppendUvarint(b, v)
	}
	if r.Seed != 0 {
		b = binary.AppendVarint(b, r.Seed)
	}
	prefix := tokenPrefix
	if r.AnyStepTime {
		prefix = anyStepPrefix
	}
	b = binary.BigEndian.AppendUint32(b, checksum(prefix, b))
	return prefix + base64.RawURLEncoding.EncodeToString(b)
}

// Decode parses a token made by Encode.
func Decode(tok string) (Record, error) {
	tok = strings.TrimSpace(tok)
	rest, anyStep := strings.CutPrefix(tok, anyStepPrefix)
	ok := anyStep
	if !ok {
		rest, ok = strings.CutPrefix(tok, tokenPrefix)
	}
	if !ok {
		return Record{}, fmt.Errorf("%w: %q does not start with %q (copy the whole token from the report)", ErrBadToken, abbreviate(tok), tokenPrefix)
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return Record{}, fmt.Errorf("%w: not base64url: %v", ErrBadToken, err)
	}
	if len(b) < 4 {
		return Record{}, fmt.Errorf("%w: checksum mismatch (truncated or altered token)", ErrBadToken)
	}
	payload, sum := b[:len(b)-4], binary.BigEndian.Uint32(b[len(b)-4:])
	prefix, other := tokenPrefix, anyStepPrefix
	if anyStep {
		prefix, other = anyStepPrefix, tokenPrefix
	}
	if checksum(prefix, payload) != sum {
		return Record{}, checksumError(prefix, other, checksum(other, payload) == sum)
	}
	d := decoder{b: payload}
	r := Record{AnyStepTime: anyStep}
	n := d.count()
	r.Steps = make([]Step, 0, n)
	for i := range n {
		th, alt := d.uvarint(), d.uvarint()
		k := trace.Kind(d.byte())
		if d.err != nil {
			break
		}
		// Values are checked before conversion: a thread or alternative
		// that does not fit in 31 bits would wrap to another one.
		switch {
		case th > math.MaxInt32:
			return Record{}, fmt.Errorf("%w: step %d: thread %d out of range (at most %d); %s", ErrBadToken, i+1, th, math.MaxInt32, corrupt)
		case alt > math.MaxInt32:
			return Record{}, fmt.Errorf("%w: step %d: alternative %d out of range (at most %d); %s", ErrBadToken, i+1, alt, math.MaxInt32, corrupt)
		case !k.Valid():
			return Record{}, fmt.Errorf("%w: step %d: unknown operation kind %d; %s", ErrBadToken, i+1, byte(k), corrupt)
		}
		r.Steps = append(r.Steps, Step{Thread: trace.ThreadID(th), Alt: int32(alt), Kind: k})
	}
	m := d.count()
	for range m {
		r.Inputs = append(r.Inputs, d.uvarint())
	}
	if d.err == nil && len(d.b) > 0 {
		r.Seed = d.varint()
		if d.err == nil && r.Seed == 0 {
			return Record{}, fmt.Errorf("%w: a seed of 0 written out; %s", ErrBadToken, corrupt)
		}
	}
	if d.err != nil {
		return Record{}, fmt.Errorf("%w: %v", ErrBadToken, d.err)
	}
	if len(d.b) != 0 {
		return Record{}, fmt.Errorf("%w: %d trailing bytes", ErrBadToken, len(d.b))
	}
	return r, nil
}

// checksumError is the error of a token with prefix whose checksum does
// not hold; otherHolds says that it holds under the other prefix: the
// prefix was edited (or, for a w1a. token, an older weft made it).
func checksumError(prefix, other string, otherHolds bool) error {
	switch {
	case !otherHolds:
		return fmt.Errorf("%w: checksum mismatch (truncated or altered token)", ErrBadToken)
	case prefix == anyStepPrefix:
		return fmt.Errorf("%w: checksum mismatch: the token is corrupt: it was made as a %s token and its prefix edited to %s (the mode of virtual time), or it was made by an older weft, whose %s tokens' checksum did not cover the prefix (find the failure again)", ErrBadToken, other, prefix, prefix)
	}
	return fmt.Errorf("%w: checksum mismatch: the token is corrupt: it was made as a %s token (virtual time moved at any step) and its prefix edited to %s", ErrBadToken, other, prefix)
}

func abbreviate(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}

// decoder reads varints, remembering the first error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errors.New("truncated number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errors.New("truncated number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() byte {
	if d.err != nil {
		return 0
	}
	if len(d.b) == 0 {
		d.err = errors.New("truncated step")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

// count reads a length and checks it is plausible for the bytes left.
func (d *decoder) count() int {
	v := d.uvarint()
	if v > uint64(len(d.b)) {
		if d.err == nil {
			d.err = fmt.Errorf("length %d exceeds the token", v)
		}
		return 0
	}
	return int(v)
}
