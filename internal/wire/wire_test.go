package wire

import (
	"errors"
	"math"
	"testing"
)

// TestRoundTrip reads back what the Append functions wrote, at the edges
// of each range.
func TestRoundTrip(t *testing.T) {
	var b []byte
	ints := []int64{0, 1, -1, 63, -64, 64, math.MaxInt64, math.MinInt64}
	uints := []uint64{0, 1, 127, 128, math.MaxUint64}
	for _, v := range ints {
		b = AppendInt(b, v)
	}
	for _, v := range uints {
		b = AppendUint(b, v)
	}
	b = AppendInt(b, math.MaxInt32)
	b = AppendInt(b, math.MinInt32)
	b = AppendUint(b, math.MaxUint8)
	b = AppendBool(AppendBool(b, true), false)
	b = AppendBytes(AppendBytes(b, []byte("units")), nil)
	b = AppendString(AppendString(b, "weft"), "")
	b = AppendUint(b, 2) // a list of two items of 1 byte
	b = append(b, 7, 8)

	r := NewReader(b)
	for _, want := range ints {
		if got := r.Int(); got != want {
			t.Errorf("Int: %d, want %d", got, want)
		}
	}
	for _, want := range uints {
		if got := r.Uint(); got != want {
			t.Errorf("Uint: %d, want %d", got, want)
		}
	}
	if got := r.Int32(); got != math.MaxInt32 {
		t.Errorf("Int32: %d, want %d", got, math.MaxInt32)
	}
	if got := r.Int32(); got != math.MinInt32 {
		t.Errorf("Int32: %d, want %d", got, math.MinInt32)
	}
	if got := r.Uint8(); got != math.MaxUint8 {
		t.Errorf("Uint8: %d, want 255", got)
	}
	if a, b := r.Bool(), r.Bool(); !a || b {
		t.Errorf("Bool, Bool: %v, %v, want true, false", a, b)
	}
	if got := r.Bytes(); string(got) != "units" {
		t.Errorf("Bytes: %q, want \"units\"", got)
	}
	if got := r.Bytes(); got != nil {
		t.Errorf("Bytes of none: %#v, want nil", got)
	}
	if a, b := r.String(), r.String(); a != "weft" || b != "" {
		t.Errorf("String, String: %q, %q, want \"weft\", \"\"", a, b)
	}
	if n := r.Len(1); n != 2 || r.Left() != 2 {
		t.Errorf("Len(1): %d with %d bytes left, want 2 with 2", n, r.Left())
	}
	r.Uint()
	r.Uint()
	if err := r.Done(); err != nil {
		t.Errorf("Done: %v", err)
	}
}

// TestCorrupt checks that each kind of corruption gives ErrCorrupt, that
// the first error sticks, and that later reads give zero values.
func TestCorrupt(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		read func(r *Reader)
	}{
		{"no number", nil, func(r *Reader) { r.Uint() }},
		{"no signed number", nil, func(r *Reader) { r.Int() }},
		{"an unfinished number", []byte{0x80}, func(r *Reader) { r.Uint() }},
		{"a number of 11 bytes", []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, func(r *Reader) { r.Uint() }},
		{"no bool", nil, func(r *Reader) { r.Bool() }},
		{"a bool of 2", []byte{2}, func(r *Reader) { r.Bool() }},
		{"an int32 of 2^31", AppendInt(nil, math.MaxInt32+1), func(r *Reader) { r.Int32() }},
		{"a uint8 of 256", AppendUint(nil, 256), func(r *Reader) { r.Uint8() }},
		{"a list longer than the bytes", AppendUint(nil, 3), func(r *Reader) { r.Len(1) }},
		{"a list of 2-byte items in 3 bytes", append(AppendUint(nil, 2), 1, 2, 3), func(r *Reader) { r.Len(2) }},
		{"a huge list", AppendUint(nil, math.MaxUint64), func(r *Reader) { r.Len(1) }},
		{"bytes cut short", AppendUint(nil, 4), func(r *Reader) { r.Bytes() }},
		{"a string cut short", append(AppendUint(nil, 4), 'w'), func(r *Reader) { _ = r.String() }},
		{"bytes after the end", []byte{1, 2}, func(r *Reader) { r.Uint() }},
		{"a caller's finding", []byte{5}, func(r *Reader) { r.Uint(); r.Failed("version %d", 5) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(tc.b)
			tc.read(r)
			err := r.Done()
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Done: %v, want an error wrapping ErrCorrupt", err)
			}
			if v := r.Uint(); v != 0 || r.Bool() || r.String() != "" || r.Bytes() != nil {
				t.Errorf("reads after the error are not zero")
			}
			if r.Err() != err || r.Done() != err {
				t.Errorf("the first error did not stick: %v, then %v", err, r.Err())
			}
		})
	}
}
