package optimal

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/strategytest"
	"github.com/weft-go/weft/trace"
)

// fillWire sets every field of v, recursively, to a random value a
// strategy could write (kinds, classes and modes in their ranges), some
// lists nil: a field the binary forms leave out then fails the round trip.
func fillWire(t *testing.T, v reflect.Value, rng *rand.Rand, depth int) {
	t.Helper()
	if !v.CanSet() {
		t.Fatalf("field of type %v cannot be set: the wire types have exported fields only", v.Type())
	}
	switch v.Type() {
	case reflect.TypeFor[trace.Kind]():
		v.SetUint(uint64(rng.IntN(trace.NumKinds)))
		return
	case reflect.TypeFor[trace.Class]():
		v.SetUint(uint64(rng.IntN(trace.NumClasses)))
		return
	case reflect.TypeFor[trace.Mode]():
		v.SetUint(uint64(trace.Read + trace.Mode(rng.IntN(3))))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fillWire(t, v.Field(i), rng, depth)
		}
	case reflect.Slice:
		if depth > 2 || rng.IntN(4) == 0 {
			return // nil
		}
		n := 1 + rng.IntN(3)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fillWire(t, s.Index(i), rng, depth+1)
		}
		v.Set(s)
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := v.Type().Bits()
		v.SetInt(int64(rng.Uint64()) >> (64 - bits))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		bits := v.Type().Bits()
		v.SetUint(rng.Uint64() >> (64 - bits))
	default:
		t.Fatalf("fillWire: no random value of kind %v (type %v)", v.Kind(), v.Type())
	}
}

// wireForms are the payloads written in binary forms, with their
// encoders and decoders.
var wireForms = []struct {
	what   string
	new    func() any
	encode func(tag string, p any) ([]byte, error)
	decode func(b []byte, tag string, p any) error
}{
	{"unit", func() any { return new(unitData) },
		func(tag string, p any) ([]byte, error) { return strategy.EncodeUnit(tag, p) },
		func(b []byte, tag string, p any) error { return strategy.DecodeUnit(b, tag, p) }},
	{"handback", func() any { return new(handbackData) },
		func(tag string, p any) ([]byte, error) { return strategy.EncodeHandback(tag, p) },
		func(b []byte, tag string, p any) error { return strategy.DecodeHandback(b, tag, p) }},
	{"letter", func() any { return new(letterData) }, strategy.EncodeLetter, strategy.DecodeLetter},
}

// TestWireRoundTrip checks that units, handbacks and letters, every field
// set, read back equal from their binary forms.
func TestWireRoundTrip(t *testing.T) {
	const tag = "optimal test"
	for _, f := range wireForms {
		t.Run(f.what, func(t *testing.T) {
			for seed := range uint64(50) {
				rng := rand.New(rand.NewPCG(seed, 1))
				p := f.new()
				fillWire(t, reflect.ValueOf(p).Elem(), rng, 0)
				b, err := f.encode(tag, p)
				if err != nil {
					t.Fatalf("seed %d: encode: %v", seed, err)
				}
				if b[0] != 0 {
					t.Fatalf("seed %d: the %s starts with %#x, not the zero byte of a binary form", seed, f.what, b[0])
				}
				q := f.new()
				if err := f.decode(b, tag, q); err != nil {
					t.Fatalf("seed %d: decode: %v", seed, err)
				}
				if !reflect.DeepEqual(p, q) {
					t.Fatalf("seed %d: read back\n%+v\nwrote\n%+v", seed, q, p)
				}
			}
		})
	}
}

// TestWireEventMinBytes checks the bound the reader puts on the lengths
// of lists of events: the form of an event takes at least eventMinBytes.
func TestWireEventMinBytes(t *testing.T) {
	if n := len(appendEvent(nil, &wireEvent{})); n != eventMinBytes {
		t.Errorf("the form of a zero event takes %d bytes, want eventMinBytes = %d", n, eventMinBytes)
	}
}

// TestWireCorrupt checks that a cut, altered or foreign form gives an
// error wrapping strategy.ErrBadUnit, and no panic.
func TestWireCorrupt(t *testing.T) {
	const tag = "optimal test"
	for _, f := range wireForms {
		t.Run(f.what, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			p := f.new()
			fillWire(t, reflect.ValueOf(p).Elem(), rng, 0)
			b, err := f.encode(tag, p)
			if err != nil {
				t.Fatal(err)
			}
			for n := range len(b) {
				if err := f.decode(b[:n], tag, f.new()); !errors.Is(err, strategy.ErrBadUnit) {
					t.Fatalf("cut to %d of %d bytes: %v, want an error wrapping ErrBadUnit", n, len(b), err)
				}
			}
			if err := f.decode(append(b[:len(b):len(b)], 0), tag, f.new()); !errors.Is(err, strategy.ErrBadUnit) {
				t.Errorf("a byte after the end: %v, want an error wrapping ErrBadUnit", err)
			}
			// Altered bytes: an error or another value, never a panic.
			for range 2000 {
				c := append([]byte(nil), b...)
				c[rng.IntN(len(c))] ^= byte(1 + rng.IntN(255))
				err := f.decode(c, tag, f.new())
				if err != nil && !errors.Is(err, strategy.ErrBadUnit) {
					t.Fatalf("altered: %v, want nil or an error wrapping ErrBadUnit", err)
				}
			}
			// Another version's form.
			h := len(b) - len(mustAppend(t, p))
			c := append([]byte(nil), b...)
			c[h] = wireVersion + 1
			if err := f.decode(c, tag, f.new()); !errors.Is(err, strategy.ErrBadUnit) || !strings.Contains(err.Error(), "another version") {
				t.Errorf("another version: %v, want an error wrapping ErrBadUnit that names another version", err)
			}
			// A form of encoding/gob, as other strategies write.
			g, err := strategy.EncodeUnit(tag, struct{ Nodes int }{1})
			if err != nil {
				t.Fatal(err)
			}
			if err := f.decode(g, tag, f.new()); !errors.Is(err, strategy.ErrBadUnit) {
				t.Errorf("a gob form: %v, want an error wrapping ErrBadUnit", err)
			}
			// Another strategy's tag.
			if err := f.decode(b, "dpor", f.new()); !errors.Is(err, strategy.ErrBadUnit) || !strings.Contains(err.Error(), "given to dpor") {
				t.Errorf("another tag: %v, want an error wrapping ErrBadUnit that names the tags", err)
			}
		})
	}
}

// mustAppend returns the binary form of payload p, without the header.
func mustAppend(t *testing.T, p any) []byte {
	t.Helper()
	b, err := p.(interface{ AppendBinary([]byte) ([]byte, error) }).AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// BenchmarkUnitForms measures writing and reading a unit split off a real
// exploration (a generated program, after ten executions), in its binary
// form and in encoding/gob's, which units travelled in before: a fresh
// encoder and decoder each time, as for each unit then.
func BenchmarkUnitForms(b *testing.B) {
	var p *strategytest.Program
	for ps := uint64(0); p == nil; ps++ {
		if q, ok := strategytest.Generate(ps); ok && strategytest.Interleavings(q) > 1000 {
			p = q
		}
	}
	s := New()
	if r, err := strategytest.Run(s, p, 10); err != nil || r.Executions != 10 {
		b.Fatalf("%v, %d executions", err, r.Executions)
	}
	u, ok := s.Split()
	if !ok {
		b.Fatal("no unit to split off")
	}
	var d unitData
	if err := strategy.DecodeUnit(u, s.tag(), &d); err != nil {
		b.Fatal(err)
	}
	// unitGob is unitData without its binary form: gob encodes its fields.
	type unitGob unitData
	g := (*unitGob)(&d)
	gu, err := strategy.EncodeUnit(s.tag(), g)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("a unit of %d states: %d bytes in its binary form, %d in gob's", len(d.Nodes), len(u), len(gu))
	for _, form := range []struct {
		name    string
		payload any        // what is written
		written []byte     // it, written
		fresh   func() any // a payload to read into
	}{
		{"binary", &d, u, func() any { return new(unitData) }},
		{"gob", g, gu, func() any { return new(unitGob) }},
	} {
		b.Run(form.name+"/encode", func(b *testing.B) {
			for b.Loop() {
				if _, err := strategy.EncodeUnit(s.tag(), form.payload); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(form.name+"/decode", func(b *testing.B) {
			for b.Loop() {
				if err := strategy.DecodeUnit(form.written, s.tag(), form.fresh()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
