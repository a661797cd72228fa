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

// mixedOps returns pending operations of several primitives on objs, the
// objects of a small program, for the benchmarks of the model's dispatch.
func mixedOps() ([]trace.ObjectInfo, []trace.Op) {
	objs := []trace.ObjectInfo{{Class: trace.ClassVar}, {Class: trace.ClassMutex}, {Class: trace.ClassChan, Cap: 2},
		{Class: trace.ClassWaitGroup}, {Class: trace.ClassRWMutex}, {Class: trace.ClassSemaphore, Cap: 1}}
	ops := []trace.Op{
		{Kind: trace.KindLoad, Class: trace.ClassVar, Obj: 0},
		{Kind: trace.KindStore, Class: trace.ClassVar, Obj: 0},
		{Kind: trace.KindLock, Class: trace.ClassMutex, Obj: 1},
		{Kind: trace.KindUnlock, Class: trace.ClassMutex, Obj: 1},
		{Kind: trace.KindSend, Class: trace.ClassChan, Obj: 2},
		{Kind: trace.KindRecv, Class: trace.ClassChan, Obj: 2},
		{Kind: trace.KindWGWait, Class: trace.ClassWaitGroup, Obj: 3},
		{Kind: trace.KindRLock, Class: trace.ClassRWMutex, Obj: 4},
		{Kind: trace.KindP, Class: trace.ClassSemaphore, Obj: 5},
		{Kind: trace.KindCAS, Class: trace.ClassVar, Obj: 0, Arg: 1},
	}
	return objs, ops
}

// BenchmarkEnabled measures State.Enabled over operations of several
// primitives, what a strategy that simulates states pays per thread.
func BenchmarkEnabled(b *testing.B) {
	objs, ops := mixedOps()
	var s State
	s.Reset(objs, len(ops))
	for p, op := range ops {
		s.Threads[p].Op = op
	}
	n := 0
	for b.Loop() {
		for p, op := range ops {
			if s.Enabled(trace.ThreadID(p), op) == Enabled {
				n++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ops)), "ns/op")
}

// BenchmarkOutcome measures State.Outcome over operations of several
// primitives.
func BenchmarkOutcome(b *testing.B) {
	objs, ops := mixedOps()
	var s State
	s.Reset(objs, len(ops))
	n := 0
	for b.Loop() {
		for p, op := range ops {
			if s.Outcome(trace.ThreadID(p), op, Single).OK {
				n++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ops)), "ns/op")
}
