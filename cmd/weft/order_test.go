// This file tests that weft test prints each package's output whole, in
// the order the packages started, though go test -json interleaves them.

package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestPackageOrder feeds printEvents the events of three packages as
// go test -json interleaves them, with -v and without: the first
// package's lines write through, the second's wait for the first's end,
// and the third, which ended first, waits for both.
func TestPackageOrder(t *testing.T) {
	const a, b, c = "example.com/a", "example.com/b", "example.com/c"
	events := []event{
		{Action: "start", Package: a},
		{Action: "start", Package: b},
		{Action: "run", Package: a, Test: "TestA"},
		{Action: "output", Package: a, Test: "TestA", Output: "=== RUN   TestA\n"},
		{Action: "run", Package: b, Test: "TestB"},
		{Action: "output", Package: b, Test: "TestB", Output: "=== RUN   TestB\n"},
		{Action: "start", Package: c},
		{Action: "output", Package: c, Output: "?   \texample.com/c\t[no test files]\n"},
		{Action: "skip", Package: c},
		{Action: "output", Package: b, Test: "TestB", Output: "    b_test.go:9: bad\n"},
		{Action: "output", Package: b, Test: "TestB", Output: "--- FAIL: TestB (0.00s)\n"},
		{Action: "fail", Package: b, Test: "TestB"},
		{Action: "output", Package: a, Test: "TestA", Output: "--- PASS: TestA (0.00s)\n"},
		{Action: "pass", Package: a, Test: "TestA"},
		{Action: "output", Package: b, Output: "FAIL\texample.com/b\t0.01s\n"},
		{Action: "fail", Package: b},
		{Action: "output", Package: a, Output: "ok  \texample.com/a\t0.01s\n"},
		{Action: "pass", Package: a},
	}
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, ev := range events {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		verbose bool
		want    string
	}{
		{true, "=== RUN   TestA\n--- PASS: TestA (0.00s)\nok  \texample.com/a\t0.01s\n" +
			"=== RUN   TestB\n    b_test.go:9: bad\n--- FAIL: TestB (0.00s)\nFAIL\texample.com/b\t0.01s\n" +
			"?   \texample.com/c\t[no test files]\n"},
		{false, "ok  \texample.com/a\t0.01s\n" +
			"    b_test.go:9: bad\n--- FAIL: TestB (0.00s)\nFAIL\texample.com/b\t0.01s\n" +
			"?   \texample.com/c\t[no test files]\n"},
	} {
		var out bytes.Buffer
		res := printEvents(bytes.NewReader(in.Bytes()), &out, nil, &testOptions{verbose: c.verbose}, "")
		if got := out.String(); got != c.want {
			t.Errorf("verbose %v: printed\n%s\nwant\n%s", c.verbose, got, c.want)
		}
		if !res.failed {
			t.Errorf("verbose %v: not failed", c.verbose)
		}
	}
}
