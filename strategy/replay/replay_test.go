// This file tests the replay strategy and its divergence messages on
// synthetic states.

package replay_test

import (
	"errors"
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
	load := replay.Record{Steps: []replay.Step{{Thread: 1, Kind: trace.KindLoad}}}
	tests := []struct {
		name    string
		rec     replay.Record
		threads []strategy.Thread
		steps   int // Choose calls
		inputs  int // Input calls before the steps
		events  int // events of the finished trace
		want    string
	}{
		{"no such thread", load, []strategy.Thread{{Op: trace.Op{Kind: trace.KindLoad}, Alts: 1}}, 1, 0, 0,
			"step 1: recorded T1 (load), but the execution has no thread T1"},
		{"negative thread", replay.Record{Steps: []replay.Step{{Thread: -5, Kind: trace.KindLoad}}}, []strategy.Thread{{Op: trace.Op{Kind: trace.KindLoad}, Alts: 1}}, 1, 0, 0,
			"step 1: recorded T-5 (load), but the execution has no thread T-5"},
		{"other operation", load, []strategy.Thread{{Alts: 1}, {Op: trace.Op{Kind: trace.KindStore, Obj: 3}, Alts: 1}}, 1, 0, 0,
			"step 1: T1: recorded load, but its pending operation is store o3"},
		{"finished", load, []strategy.Thread{{Alts: 1}, {Op: trace.Op{Kind: trace.KindLoad}, Done: true}}, 1, 0, 0,
			"step 1: recorded T1 (load), but T1 has finished"},
		{"not enabled", load, []strategy.Thread{{Alts: 1}, {Op: trace.Op{Kind: trace.KindLoad}, Alts: 0}}, 1, 0, 0,
			"step 1: T1: recorded load alternative 0, but T1 is blocked (0 enabled alternatives)"},
		{"alternative out of range", replay.Record{Steps: []replay.Step{{Thread: 1, Alt: 2, Kind: trace.KindRecv}}}, []strategy.Thread{{Alts: 1}, {Op: trace.Op{Kind: trace.KindRecv}, Alts: 2}}, 1, 0, 0,
			"step 1: T1: recorded recv alternative 2, but it has 2 enabled alternatives"},
		{"negative alternative", replay.Record{Steps: []replay.Step{{Thread: 1, Alt: -1, Kind: trace.KindRecv}}}, []strategy.Thread{{Alts: 1}, {Op: trace.Op{Kind: trace.KindRecv}, Alts: 2}}, 1, 0, 0,
			"step 1: T1: recorded recv alternative -1, but it has 2 enabled alternatives"},
		{"runs past the record", load, []strategy.Thread{{Alts: 1}, {Op: trace.Op{Kind: trace.KindLoad}, Alts: 1}}, 2, 0, 0,
			"step 2: the record ends after 1 steps, but the execution went on (if the failure was the step bound, replay with the bound of the run that found it: -max-steps 1, WithMaxSteps(1))"},
		{"ends early", load, []strategy.Thread{{Alts: 1}, {Op: trace.Op{Kind: trace.KindLoad}, Alts: 1}}, 0, 0, 0,
			"the execution ended (complete) after 0 steps, but the record has 1"},
		{"reads past the inputs", replay.Record{Steps: []replay.Step{}, Inputs: []uint64{1}}, nil, 0, 2, 0,
			`before step 1: input "z": the record has only 1 input values`},
		{"leaves inputs", replay.Record{Steps: []replay.Step{}, Inputs: []uint64{1, 2}}, nil, 0, 1, 0,
			"the execution ended (complete) after 0 steps and 1 input values, but the record has 2 input values"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := replay.New(tc.rec)
			s.Next()
			st := &strategy.State{Threads: tc.threads}
			for range tc.inputs {
				s.Input(st, strategy.InputRequest{Name: "z"})
			}
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
			if !errors.Is(err, replay.ErrMismatch) {
				t.Fatalf("Diverged() = %v, want an error wrapping ErrMismatch", err)
			}
			if err.Error() != tc.want {
				t.Errorf("divergence %q, want %q", err, tc.want)
			}
		})
	}
}
