// This file tests replay tokens: round trips and malformed tokens.

package replay_test

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

func TestTokenRoundTrip(t *testing.T) {
	tests := []replay.Record{
		{Steps: []replay.Step{}},
		{Steps: []replay.Step{{Thread: 0, Alt: 0, Kind: trace.KindStore}}},
		{Steps: []replay.Step{{Thread: 1, Kind: trace.KindLock}, {Thread: 300, Alt: 2, Kind: trace.KindRecv}, {Thread: 2, Alt: 1 << 20, Kind: trace.KindSelect}},
			Inputs: []uint64{0, 1, ^uint64(0)}},
	}
	for _, r := range tests {
		tok := replay.Encode(r)
		if !strings.HasPrefix(tok, "w1.") {
			t.Errorf("token %q lacks the version prefix", tok)
		}
		got, err := replay.Decode(tok)
		if err != nil {
			t.Fatalf("Decode(Encode(%v)): %v", r, err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("round trip: got %+v, want %+v", got, r)
		}
		if _, err := replay.Decode("  " + tok + "\n"); err != nil {
			t.Errorf("surrounding space: %v", err)
		}
	}
}

// withChecksum returns the token of the raw payload b followed by more, with
// a valid CRC.
func withChecksum(b []byte, more ...byte) string {
	b = append(b, more...)
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	return "w1." + base64.RawURLEncoding.EncodeToString(b)
}

func TestMalformedTokens(t *testing.T) {
	good := replay.Encode(replay.Record{Steps: []replay.Step{{Thread: 1, Kind: trace.KindLoad}, {Thread: 0, Kind: trace.KindStore}}})
	flipped := []byte(good)
	if flipped[5] == 'A' {
		flipped[5] = 'B'
	} else {
		flipped[5] = 'A'
	}
	tests := []struct {
		name, tok, msg string
	}{
		{"empty", "", "does not start with"},
		{"bad prefix", "w2." + good[3:], "does not start with"},
		{"no prefix", good[3:], "does not start with"},
		{"bad base64", "w1.abc*def", "not base64url"},
		{"bad checksum", string(flipped), "checksum"},
		{"truncated", good[:len(good)-3], ""},
		{"too short", "w1.AAA", "checksum"},
		{"truncated step", withChecksum([]byte{2, 1, 0, byte(trace.KindLoad), 0}), "truncated"},
		{"count too large", withChecksum([]byte{100, 0}), "exceeds"},
		{"trailing bytes", withChecksum([]byte{0, 0, 7, 7}), "trailing"},
		// Valid checksums, content out of range: rejected, never wrapped.
		{"thread 2^32+1", withChecksum(binary.AppendUvarint([]byte{1}, 1<<32+1), 0, byte(trace.KindLoad), 0),
			"step 1: thread 4294967297 out of range (at most 2147483647); the token is corrupt or was not made by this version of weft"},
		{"thread 2^31", replay.Encode(replay.Record{Steps: []replay.Step{{Thread: 0, Kind: trace.KindLoad}, {Thread: math.MinInt32, Kind: trace.KindLoad}}}),
			"step 2: thread 18446744071562067968 out of range"},
		{"alternative -1", replay.Encode(replay.Record{Steps: []replay.Step{{Thread: 1, Alt: -1, Kind: trace.KindRecv}}}),
			"step 1: alternative 18446744073709551615 out of range (at most 2147483647)"},
		{"alternative 2^32", withChecksum(binary.AppendUvarint([]byte{1, 0}, 1<<32), byte(trace.KindRecv), 0),
			"step 1: alternative 4294967296 out of range"},
		{"unknown kind", replay.Encode(replay.Record{Steps: []replay.Step{{Thread: 0, Kind: 200}}}), "step 1: unknown operation kind 200; the token is corrupt"},
		{"kind none", replay.Encode(replay.Record{Steps: []replay.Step{{Thread: 0, Kind: trace.KindNone}}}), "step 1: unknown operation kind 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := replay.Decode(tc.tok)
			if !errors.Is(err, replay.ErrBadToken) {
				t.Fatalf("Decode(%q) = %v, want an error wrapping ErrBadToken", tc.tok, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
		})
	}
}

func TestFromTrace(t *testing.T) {
	tr := &trace.Trace{Events: []trace.Event{
		{Thread: 0, Op: trace.Op{Kind: trace.KindStore}},
		{Thread: 2, Alt: 1, Op: trace.Op{Kind: trace.KindRecv}},
	}}
	r := replay.FromTrace(tr, []uint64{9})
	want := replay.Record{Steps: []replay.Step{{Thread: 0, Kind: trace.KindStore}, {Thread: 2, Alt: 1, Kind: trace.KindRecv}}, Inputs: []uint64{9}}
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("got %+v, want %+v", r, want)
	}
}
