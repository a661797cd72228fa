package shim

import (
	"testing"
	"unsafe"
)

// TestPtrTable fills a table past several growths, checks every entry and
// an absent key, overwrites one, and empties it.
func TestPtrTable(t *testing.T) {
	words := make([]int64, 100)
	var tb ptrTable
	if _, ok := tb.get(unsafe.Pointer(&words[0])); ok {
		t.Fatal("an empty table holds a key")
	}
	for i := range words {
		tb.put(unsafe.Pointer(&words[i]), i)
	}
	if tb.n != len(words) || len(tb.keys) != 256 {
		t.Fatalf("%d entries in %d slots, want %d in 256", tb.n, len(tb.keys), len(words))
	}
	for i := range words {
		if v, ok := tb.get(unsafe.Pointer(&words[i])); !ok || v != i {
			t.Errorf("get(&words[%d]) = %v, %v; want %d, true", i, v, ok, i)
		}
	}
	var other int64
	if v, ok := tb.get(unsafe.Pointer(&other)); ok {
		t.Errorf("get of an absent key = %v, true", v)
	}
	tb.put(unsafe.Pointer(&words[7]), "seven")
	if v, _ := tb.get(unsafe.Pointer(&words[7])); v != "seven" || tb.n != len(words) {
		t.Errorf("after overwriting: %v, %d entries; want seven, %d", v, tb.n, len(words))
	}
	tb.reset()
	if _, ok := tb.get(unsafe.Pointer(&words[7])); ok || tb.n != 0 || len(tb.keys) != 256 {
		t.Errorf("after reset: found %v, %d entries in %d slots; want none, 0 in 256", ok, tb.n, len(tb.keys))
	}
}
