// This file implements the writing and the bounds-checked reading of the
// compact binary forms.

package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrCorrupt is wrapped by the errors of a Reader: the bytes end early,
// hold a number out of its range, or go on after the form ends.
var ErrCorrupt = errors.New("corrupt binary form")

// AppendUint appends v.
func AppendUint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// AppendInt appends v.
func AppendInt(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

// AppendBool appends v as one byte.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// AppendBytes appends v with its length.
func AppendBytes(b, v []byte) []byte { return append(AppendUint(b, uint64(len(v))), v...) }

// AppendString appends v with its length.
func AppendString(b []byte, v string) []byte { return append(AppendUint(b, uint64(len(v))), v...) }

// A Reader reads a binary form written with the Append functions, in the
// order it was written. Its first error sticks: every later read returns
// a zero value, and Err or Done returns the error.
type Reader struct {
	b   []byte
	off int
	err error
}

// NewReader returns a Reader of b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Left returns the number of bytes not read yet.
func (r *Reader) Left() int { return len(r.b) - r.off }

// Err returns the first error of a read, or nil.
func (r *Reader) Err() error { return r.err }

// Done returns the first error of a read, or an error if bytes are left
// unread.
func (r *Reader) Done() error {
	if r.err == nil && r.off != len(r.b) {
		r.fail("%d bytes after the end", len(r.b)-r.off)
	}
	return r.err
}

// Failed records a corruption the caller found (a value no writer
// writes), if no read has failed before, and returns the error.
func (r *Reader) Failed(format string, args ...any) error {
	r.fail(format, args...)
	return r.err
}

func (r *Reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: at byte %d: %s", ErrCorrupt, r.off, fmt.Sprintf(format, args...))
	}
}

// Uint reads an unsigned number. It and Int are written out twice: one
// generic reader given binary.Uvarint or binary.Varint allocated once
// more per form read (BenchmarkUnitForms in package optimal).
func (r *Reader) Uint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("a bad or missing number")
		return 0
	}
	r.off += n
	return v
}

// Int reads a signed number.
func (r *Reader) Int() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.off:])
	if n <= 0 {
		r.fail("a bad or missing number")
		return 0
	}
	r.off += n
	return v
}

// Int32 reads a signed number that fits 32 bits.
func (r *Reader) Int32() int32 {
	v := r.Int()
	if v < math.MinInt32 || v > math.MaxInt32 {
		r.fail("%d does not fit 32 bits", v)
		return 0
	}
	return int32(v)
}

// Uint8 reads an unsigned number that fits 8 bits.
func (r *Reader) Uint8() uint8 {
	v := r.Uint()
	if v > math.MaxUint8 {
		r.fail("%d does not fit 8 bits", v)
		return 0
	}
	return uint8(v)
}

// Bool reads a bool.
func (r *Reader) Bool() bool {
	if r.err != nil {
		return false
	}
	if r.off >= len(r.b) {
		r.fail("the bytes end early")
		return false
	}
	c := r.b[r.off]
	if c > 1 {
		r.fail("%d is no bool", c)
		return false
	}
	r.off++
	return c == 1
}

// Len reads the length of a list whose items take at least min bytes
// each (min ≥ 1): no more than the bytes left can hold, so a corrupt
// length allocates nothing large.
func (r *Reader) Len(min int) int {
	v := r.Uint()
	if left := uint64(len(r.b) - r.off); v > left/uint64(max(min, 1)) {
		r.fail("a list of %d items in %d bytes", v, left)
		return 0
	}
	return int(v)
}

// Bytes reads bytes written with AppendBytes, as a copy; nil if there
// are none.
func (r *Reader) Bytes() []byte {
	n := r.Len(1)
	if r.err != nil || n == 0 {
		return nil
	}
	v := append([]byte(nil), r.b[r.off:r.off+n]...)
	r.off += n
	return v
}

// String reads a string written with AppendString.
func (r *Reader) String() string {
	n := r.Len(1)
	if r.err != nil {
		return ""
	}
	v := string(r.b[r.off : r.off+n])
	r.off += n
	return v
}
