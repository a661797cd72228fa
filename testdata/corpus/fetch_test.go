package corpus

import "testing"

func TestFetchBug(t *testing.T) {
	if _, err := FetchBug(""); err != errBadKey {
		t.Fatalf("err = %v, want errBadKey", err)
	}
}

func TestFetchFixed(t *testing.T) {
	if _, err := Fetch(""); err != errBadKey {
		t.Fatalf("err = %v, want errBadKey", err)
	}
	if v, _ := Fetch("k"); v != "value of k" {
		t.Fatalf("got %q", v)
	}
}
