package corpus

import (
	"testing"
	"time"
)

func TestLookupBug(t *testing.T) {
	if _, err := LookupBug("k", 100*time.Millisecond); err != errTimeout {
		t.Errorf("err = %v, want errTimeout", err)
	}
}

func TestLookupFixed(t *testing.T) {
	if _, err := Lookup("k", 100*time.Millisecond); err != errTimeout {
		t.Errorf("err = %v, want errTimeout", err)
	}
	if v, err := Lookup("k", 2*time.Second); v != "value of k" || err != nil {
		t.Errorf("Lookup = %q, %v; want the value", v, err) // want -time any TestLookupFixed: assertion
	}
}
