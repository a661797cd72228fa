// This file tests the replay strategy and its divergence messages on
// synthetic states.

package replay_test

import (
	"strings"
	"testing"

	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/strategy/replay"
	"github.com/weft-go/weft/trace"
)

func TestReplayFollowsRecord(t *testing.T) {
	rec := replay.Record{Steps: []replay.Step{{Thread: 1, Alt: 1, Kind: trace.KindRecv}, {Thread: 0, Kind: trace.KindStore}}, Inputs: []uint64{42}}
	s := replay.New(rec)
	if !s.Next() {
		t.Fatal("Next: false before the only execution")
	}
	st := &strategy.State{Threads: []strategy.Thread{
		{Op: trace.Op{Kind: trace.KindStore}, Alts: 1},
		{Op: trace.Op{Kind: trace.KindRecv}, Alts: 2},
	}}
	if c := s.Choose(st); c != (strategy.Choice{Thread: 1, Alt: 1}) {
		t.Fatalf("step 1: %v", c)
	}
	if v := s.Input(st, strategy.InputRequest{Name: "z", Default: 5}); v != 42 {
		t.Fatalf("input: %d, want the recorded 42", v)
	}
	st.Step = 1
	if c := s.Choose(st); c != (strategy.Choice{Thread: 0}) {
		t.Fatalf("step 2: %v", c)
	}
	s.Finish(&trace.Trace{Events: make([]trace.Event, 2)}, trace.End{Status: trace.Complete})
	if err := s.Diverged(); err != nil {
		t.Fatalf("diverged: %v", err)
	}
	if s.Next() {
		t.Fatal("Next: true after the only execution")
	}
}

func TestReplayDivergence(t *testing.T) {
	rec := replay.Record{Steps: []replay.Step{{Thread: 1, Kind: trace.KindLoad}}}
	tests := []struct {
		name    string
		threads []strategy.Thread
		steps   int // Choose calls
		events  int // events of the finished trace
		want    []string
	}{
		{"no such thread", []strategy.Thread{{Op: trace.Op{Kind: trace.KindLoad}, Alts: 1}}, 1, 0,
			[]string{"step 1", "T1", "load", "no thread T1"}},
		{"other operation", []strategy.Thread{{Alts: 1}, {Op: trace.Op{Kind: trace.KindStore, Obj: 3}, Alts: 1}}, 1, 0,
			[]string{"step 1", "T1", "recorded load", "store o3"}},
		{"not enabled", []strategy.Thread{{Alts: 1}, {Op: trace.Op{Kind: trace.KindLoad}, Alts: 0}}, 1, 0,
			[]string{"step 1", "T1", "alternative 0", "0 enabled"}},
		{"runs past the record", []strategy.Thread{{Alts: 1}, {Op: trace.Op{Kind: trace.KindLoad}, Alts: 1}}, 2, 0,
			[]string{"step 2", "record ends after 1 steps"}},
		{"ends early", []strategy.Thread{{Alts: 1}, {Op: trace.Op{Kind: trace.KindLoad}, Alts: 1}}, 0, 0,
			[]string{"after 0 steps", "record has 1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := replay.New(rec)
			s.Next()
			st := &strategy.State{Threads: tc.threads}
			for i := range tc.steps {
				st.Step = i
				c := s.Choose(st)
				if i == tc.steps-1 && c != strategy.Cut {
					t.Fatalf("diverging step: chose %v, want Cut", c)
				}
			}
			end := trace.End{Status: trace.Complete}
			if tc.steps > 0 {
				end.Status = trace.Cut
			}
			s.Finish(&trace.Trace{Events: make([]trace.Event, tc.events)}, end)
			err := s.Diverged()
			if err == nil {
				t.Fatal("no divergence reported")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("divergence %q does not mention %q", err, w)
				}
			}
		})
	}
}
