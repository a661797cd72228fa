// This file tests the naming tables that the Execs of a parallel
// exploration share.

package engine

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/weft-go/weft/trace"
)

// TestFreshKeysShared gives keys to objects made without a constructor
// (freshKey), from two Execs that share their naming tables, on two
// goroutines at once, as the workers of a parallel exploration do: both
// give each name the same key with the same canonical value, and, under
// -race, the tables are written and read under their lock (a fatal
// "concurrent map writes" in a parallel exploration when keyOf wrote them
// without it).
func TestFreshKeysShared(t *testing.T) {
	names := NewNames()
	var keys, canons [2][]uint64
	var wg sync.WaitGroup
	for i := range keys {
		e := NewExec(Config{Names: names})
		defer e.Close()
		wg.Go(func() {
			th := &Thread{key: 1} // the same thread's names in both
			for range 500 {
				o := &Obj{}
				e.freshKey(o, th)
				keys[i] = append(keys[i], o.key)
				canons[i] = append(canons[i], o.canon)
			}
		})
	}
	wg.Wait()
	if !slices.Equal(keys[0], keys[1]) || len(keys[0]) != 500 {
		t.Errorf("the two Execs gave the same 500 names the keys %v and %v", keys[0][:5], keys[1][:5])
	}
	if !slices.Equal(canons[0], canons[1]) || slices.Contains(canons[0], 0) {
		t.Errorf("the two Execs gave the same names the canonical values %v and %v", canons[0][:5], canons[1][:5])
	}
	distinct := map[uint64]bool{}
	for _, k := range keys[0] {
		distinct[k] = true
	}
	if len(distinct) != 500 {
		t.Errorf("500 names have %d distinct keys, want 500", len(distinct))
	}
}

// TestSoloNotesOutsideObject: while tables shared by two Execs are solo,
// an execution that touches an object made outside it runs, and KeepSolo
// names the object and keeps them solo; once KeepSolo has found none, the
// same touch is refused as a misuse, whose message SharedObject keeps.
func TestSoloNotesOutsideObject(t *testing.T) {
	for _, touchFirst := range []bool{true, false} {
		names := NewNames()
		names.Solo()
		cfg := Config{Names: names}
		other := NewExec(cfg) // the second worker's, which runs nothing
		t.Cleanup(other.Close)
		x := &Obj{}
		Create(x) // outside any execution
		x.name = "x"
		if !touchFirst {
			if got := names.KeepSolo(); got != "" {
				t.Fatalf("KeepSolo before any execution: %q, want \"\"", got)
			}
		}
		end, _, _ := run(t, cfg, nil, func() { store(x, 1) })
		if touchFirst {
			if end.Status != trace.Complete {
				t.Errorf("solo: the execution ended %v, want complete", end)
			}
			if got := names.KeepSolo(); got != "var x" {
				t.Errorf("KeepSolo: %q, want \"var x\"", got)
			}
			if got := names.KeepSolo(); got != "var x" {
				t.Errorf("KeepSolo again: %q, want \"var x\" (the tables stay solo)", got)
			}
			if msg := names.SharedObject(); msg != "" {
				t.Errorf("SharedObject: %q, want \"\"", msg)
			}
			continue
		}
		if end.Kind != trace.Misuse || !strings.Contains(end.Message, "var x was made outside the test body") {
			t.Errorf("shared: the execution ended %v, want the misuse of var x", end)
		}
		if msg := names.SharedObject(); !strings.Contains(msg, "var x") {
			t.Errorf("SharedObject: %q, want var x's misuse", msg)
		}
	}
}
