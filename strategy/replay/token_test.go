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
	anyStep := replay.Record{Steps: []replay.Step{{Thread: 1, Kind: trace.KindAdvance}}, AnyStepTime: true}
	tests = append(tests, anyStep,
		replay.Record{Steps: []replay.Step{{Thread: 1, Kind: trace.KindLoad}}, Seed: 7},
		replay.Record{Steps: []replay.Step{}, Inputs: []uint64{3}, Seed: math.MinInt64, AnyStepTime: true})
	for _, r := range tests {
		tok := replay.Encode(r)
		prefix := "w1."
		if r.AnyStepTime {
			prefix = "w1a."
		}
		if !strings.HasPrefix(tok, prefix) {
			t.Errorf("token %q lacks the version prefix %s", tok, prefix)
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

// TestTokenFormat pins the tokens of one record in both time modes: a
// token weft printed must replay in every later version. The checksum of
// a w1. token covers its payload; that of a w1a. token its prefix too.
func TestTokenFormat(t *testing.T) {
	r := replay.Record{Steps: []replay.Step{{Thread: 1, Kind: trace.KindLoad}, {Thread: 0, Alt: 1, Kind: trace.KindStore}}, Inputs: []uint64{7}}
	for _, tc := range []struct {
		anyStep bool
		tok     string
	}{
		{false, "w1.AgEAAQABAgEH8074-g"},
		{true, "w1a.AgEAAQABAgEHkvbQ-g"},
	} {
		r.AnyStepTime = tc.anyStep
		if got := replay.Encode(r); got != tc.tok {
			t.Errorf("Encode(%+v) = %q, want %q", r, got, tc.tok)
		}
		got, err := replay.Decode(tc.tok)
		if err != nil || !reflect.DeepEqual(got, r) {
			t.Errorf("Decode(%q) = %+v, %v; want %+v", tc.tok, got, err, r)
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
	anyStep := replay.Encode(replay.Record{Steps: []replay.Step{{Thread: 1, Kind: trace.KindAdvance}}, AnyStepTime: true})
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
		{"bad checksum", string(flipped), "checksum mismatch (truncated or altered token)"},
		// The mode of time is part of what the checksum covers: a token
		// whose prefix was edited to the other mode is corrupt.
		{"any step edited to blocked", "w1." + strings.TrimPrefix(anyStep, "w1a."),
			"checksum mismatch: the token is corrupt: it was made as a w1a. token (virtual time moved at any step) and its prefix edited to w1."},
		{"blocked edited to any step", "w1a." + strings.TrimPrefix(good, "w1."),
			"checksum mismatch: the token is corrupt: it was made as a w1. token and its prefix edited to w1a."},
		{"truncated", good[:len(good)-3], ""},
		{"too short", "w1.AAA", "checksum"},
		{"truncated step", withChecksum([]byte{2, 1, 0, byte(trace.KindLoad), 0}), "truncated"},
		{"count too large", withChecksum([]byte{100, 0}), "exceeds"},
		{"trailing bytes", withChecksum([]byte{0, 0, 7, 7}), "1 trailing bytes"},
		{"seed 0 written out", withChecksum([]byte{0, 0, 0}), "a seed of 0 written out"},
		{"truncated seed", withChecksum([]byte{0, 0, 0x80}), "truncated number"},
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

// TestTokenSeed pins the token of a record with a seed, which follows its
// inputs, and checks that a seed of 0 leaves the token as it was before
// tokens held seeds.
func TestTokenSeed(t *testing.T) {
	r := replay.Record{Steps: []replay.Step{{Thread: 1, Kind: trace.KindLoad}, {Thread: 0, Alt: 1, Kind: trace.KindStore}}, Inputs: []uint64{7}}
	if got, want := replay.Encode(r), "w1.AgEAAQABAgEH8074-g"; got != want {
		t.Errorf("seed 0: Encode = %q, want %q", got, want)
	}
	r.Seed = -2
	tok := replay.Encode(r)
	if want := "w1.AgEAAQABAgEHAxaQ680"; tok != want {
		t.Errorf("seed -2: Encode = %q, want %q", tok, want)
	}
	if got, err := replay.Decode(tok); err != nil || got.Seed != -2 {
		t.Errorf("Decode(%q) = seed %d, %v; want -2", tok, got.Seed, err)
	}
}
