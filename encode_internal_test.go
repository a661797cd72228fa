// Tests of the hash that encodes values of shared variables that are not
// integers or booleans (varEncoding).

package weft

import "testing"

// TestHashValue: equal contents hash the same, whatever the map's order
// or the pointers' targets; different contents, nil and empty, and
// different dynamic types differ.
func TestHashValue(t *testing.T) {
	type pair struct {
		S []int
		M map[string]int
	}
	type hidden struct { // unexported fields are read too
		s []int
		m map[string]int
		i any
	}
	self := []any{nil}
	self[0] = self // no bottom: hashed to a depth
	h := func(v any) uint64 {
		k := varEncoding[any]()
		if !k.hashed() {
			t.Fatal("varEncoding[any] does not hash")
		}
		return encode(k, v)
	}
	x, y := 1, 2
	m1 := map[string]int{}
	m2 := map[string]int{}
	for i, k := range []string{"a", "b", "c", "d", "e", "f"} {
		m1[k] = i
	}
	for i, k := range []string{"f", "e", "d", "c", "b", "a"} {
		m2[k] = 5 - i
	}
	same := [][2]any{
		{[]int{1, 2}, append(make([]int, 0, 9), 1, 2)},
		{m1, m2},
		{pair{[]int{3}, m1}, pair{[]int{3}, m2}},
		{&x, &y}, // pointers only by whether they are nil
		{"ab", string([]byte{'a', 'b'})},
		{hidden{[]int{1}, m1, 2}, hidden{[]int{1}, m2, 2}},
		{self, self},
	}
	for _, c := range same {
		if h(c[0]) != h(c[1]) {
			t.Errorf("%v and %v hash differently", c[0], c[1])
		}
	}
	differ := [][2]any{
		{[]int{1, 2}, []int{2, 1}},
		{[]int(nil), []int{}},
		{map[string]int(nil), map[string]int{}},
		{map[string]int{"a": 1}, map[string]int{"a": 2}},
		{pair{S: []int{1}}, pair{S: []int{1}, M: map[string]int{}}},
		{[]string{"ab", "c"}, []string{"a", "bc"}},
		{int32(1), int64(1)},
		{(*int)(nil), &x},
		{1.5, 2.5},
		{"", nil},
		{hidden{s: []int{1}}, hidden{s: []int{2}}},
		{hidden{i: 1}, hidden{i: "1"}},
	}
	for _, c := range differ {
		if h(c[0]) == h(c[1]) {
			t.Errorf("%#v and %#v hash the same", c[0], c[1])
		}
	}
	if k := varEncoding[int16](); k.hashed() || encode(k, int16(-1)) != 0xffff {
		t.Errorf("varEncoding[int16]: hashed %v, -1 encoded %#x; want the bits 0xffff", k.hashed(), encode(k, int16(-1)))
	}
	if k := varEncoding[string](); !k.hashed() || encode(k, "ab") == encode(k, "ba") {
		t.Errorf("varEncoding[string]: hashed %v, ab and ba encoded the same", k.hashed())
	}
	if k := bitsEncoding[string](); k != encNone || encode(k, "ab") != 0 {
		t.Errorf("bitsEncoding[string] = %d, encoding ab as %#x; want encNone, 0", k, encode(k, "ab"))
	}
}
