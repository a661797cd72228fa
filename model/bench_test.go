// This file measures what a strategy that follows an execution pays per
// step: applying an event, and growing the state by new objects.

package model

import (
	"testing"

	"github.com/weft-go/weft/trace"
)

// BenchmarkApply measures State.Apply on variables' events, the common
// case of a strategy that follows an execution.
func BenchmarkApply(b *testing.B) {
	objs := make([]trace.ObjectInfo, 64)
	for i := range objs {
		objs[i].Class = trace.ClassVar
	}
	evs := make([]trace.Event, 256)
	for i := range evs {
		evs[i] = trace.Event{Thread: trace.ThreadID(i % 4), Op: trace.Op{Kind: trace.KindLoad + trace.Kind(i%2), Class: trace.ClassVar, Obj: trace.ObjectID(i % 64)},
			Case: -1, Partner: trace.NoThread, PartnerCase: -1, Value: uint64(i), OK: true}
	}
	var s State
	for b.Loop() {
		s.Reset(objs, 4)
		for i := range evs {
			s.Apply(&evs[i])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}

// BenchmarkGrow measures State.Grow adding objects one by one, as a
// strategy that follows an execution meets them.
func BenchmarkGrow(b *testing.B) {
	objs := make([]trace.ObjectInfo, 128)
	for i := range objs {
		objs[i].Class = trace.ClassVar
	}
	var s State
	for b.Loop() {
		s.Reset(nil, 0)
		for i := range objs {
			s.Grow(objs[:i+1], 4)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(objs)), "ns/object")
}
