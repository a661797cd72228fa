package trace

import "testing"

// synth builds the trace of the given schedule: the test body (thread 0)
// starts threads 1..len(progs) before any step; schedule lists the thread of
// each step, which takes its next operation from progs.
func synth(progs [][]Op, schedule []ThreadID) *Trace {
	tr := &Trace{Threads: []ThreadInfo{{Parent: NoThread, Step: -1}}}
	nobj := 0
	for range progs {
		tr.Threads = append(tr.Threads, ThreadInfo{Parent: 0, Step: -1})
	}
	next := make([]int, len(progs)+1)
	for _, p := range schedule {
		op := progs[p-1][next[p]]
		next[p]++
		tr.Events = append(tr.Events, Event{Thread: p, Op: op, Case: -1, Partner: NoThread, PartnerCase: -1, OK: true})
		if int(op.Obj) >= nobj {
			nobj = int(op.Obj) + 1
		}
	}
	for range nobj {
		tr.Objects = append(tr.Objects, ObjectInfo{Class: ClassVar})
	}
	tr.Final = make([]Op, len(tr.Threads))
	return tr
}

// interleavings returns every schedule of threads with the given numbers of
// steps.
func interleavings(steps []int) [][]ThreadID {
	var out [][]ThreadID
	left := append([]int(nil), steps...)
	total := 0
	for _, n := range steps {
		total += n
	}
	var cur []ThreadID
	var rec func()
	rec = func() {
		if len(cur) == total {
			out = append(out, append([]ThreadID(nil), cur...))
			return
		}
		for i := range left {
			if left[i] > 0 {
				left[i]--
				cur = append(cur, ThreadID(i+1))
				rec()
				cur = cur[:len(cur)-1]
				left[i]++
			}
		}
	}
	rec()
	return out
}

func store(o ObjectID) Op { return Op{Kind: KindStore, Class: ClassVar, Obj: o} }
func load(o ObjectID) Op  { return Op{Kind: KindLoad, Class: ClassVar, Obj: o} }

func TestHBxy(t *testing.T) {
	// the CS294-32 DPOR slides, slide 15, schedule T1 T1 T2 T2: x=1 y=2 y=3 x=4.
	x, y := ObjectID(0), ObjectID(1)
	tr := synth([][]Op{{store(x), store(y)}, {store(y), store(x)}}, []ThreadID{1, 1, 2, 2})
	var h HB
	h.Reset(tr, CR)
	h.Run()
	want := map[[2]int]bool{
		{0, 1}: true, {0, 2}: true, {0, 3}: true, {1, 2}: true, {1, 3}: true, {2, 3}: true,
	}
	for i := range 4 {
		for j := range 4 {
			if got := h.Before(i, j); got != want[[2]int{i, j}] {
				t.Errorf("Before(%d, %d) = %v", i, j, got)
			}
		}
	}
	// Schedule T1 T2 T2 T1: x=1 y=3 x=4 y=2: x=1 -> x=4, y=3 -> y=2; x=1
	// and y=3 are concurrent.
	tr = synth([][]Op{{store(x), store(y)}, {store(y), store(x)}}, []ThreadID{1, 2, 2, 1})
	h.Reset(tr, CR)
	h.Run()
	if h.Before(0, 1) || !h.Before(0, 2) || !h.Before(1, 3) || !h.Before(0, 3) || h.Before(2, 3) {
		t.Errorf("clocks %v %v %v %v", h.Clock(0).VC(3), h.Clock(1).VC(3), h.Clock(2).VC(3), h.Clock(3).VC(3))
	}
}

func TestHBReads(t *testing.T) {
	x := ObjectID(0)
	tr := synth([][]Op{{load(x)}, {load(x)}, {store(x)}}, []ThreadID{1, 2, 3})
	for _, tc := range []struct {
		rel                  Relation
		r1r2, r1w, r2w, thr2 bool
	}{
		{CR, false, true, true, false},
		{Plain, true, true, true, true},
	} {
		var h HB
		h.Reset(tr, tc.rel)
		h.Step()
		h.Step()
		if got := h.BeforeThread(0, 2); got != tc.thr2 {
			t.Errorf("%v: BeforeThread(0, T2) = %v", tc.rel, got)
		}
		h.Run()
		if h.Before(0, 1) != tc.r1r2 || h.Before(0, 2) != tc.r1w || h.Before(1, 2) != tc.r2w {
			t.Errorf("%v: Before = %v %v %v", tc.rel, h.Before(0, 1), h.Before(0, 2), h.Before(1, 2))
		}
	}
}

func TestHBSpawnJoinRendezvous(t *testing.T) {
	// T0: x=1, spawns T1 in its local code; T1: y=1; T0: join T1; T2 (started
	// before any step) receives on c from T3.
	tr := &Trace{
		Events: []Event{
			{Thread: 0, Op: store(0), Partner: NoThread, OK: true},
			{Thread: 2, Op: Op{Kind: KindRecv, Class: ClassChan, Obj: 2}, Partner: 3, PartnerOp: Op{Kind: KindSend, Class: ClassChan, Obj: 2}, OK: true},
			{Thread: 1, Op: store(1), Partner: NoThread, OK: true},
			{Thread: 3, Op: store(3), Partner: NoThread, OK: true},
			{Thread: 0, Op: Op{Kind: KindJoin, Class: ClassThread, Obj: NoObject, Arg: 1}, Partner: NoThread, OK: true},
		},
		Threads: []ThreadInfo{{Parent: NoThread, Step: -1}, {Parent: 0, Step: 0}, {Parent: 0, Step: -1}, {Parent: 0, Step: -1}},
		Objects: make([]ObjectInfo, 4),
	}
	var h HB
	h.Reset(tr, CR)
	h.Run()
	checks := []struct {
		i, j int
		want bool
	}{
		{0, 2, true},  // spawn
		{0, 1, false}, // independent
		{1, 3, true},  // the sender's next step follows the rendezvous
		{2, 4, true},  // join
		{3, 4, false},
		{1, 2, false},
	}
	for _, c := range checks {
		if got := h.Before(c.i, c.j); got != c.want {
			t.Errorf("Before(%d, %d) = %v, want %v", c.i, c.j, got, c.want)
		}
	}
	clocks := HappensBefore(tr, CR)
	if len(clocks) != 5 || clocks[3][2] != 2 || clocks[3][3] != 4 {
		t.Errorf("HappensBefore clock of event 3 = %v", clocks[3])
	}
}

func TestVC(t *testing.T) {
	a, b := VC{1, 0, 3}, VC{0, 2, 1}
	if a.Leq(b) || b.Leq(a) {
		t.Fatal("concurrent clocks ordered")
	}
	c := a.Copy()
	c.Join(b)
	if !a.Leq(c) || !b.Leq(c) || c[0] != 1 || c[1] != 2 || c[2] != 3 {
		t.Fatalf("join %v", c)
	}
	if !(VC{1}).Leq(VC{1, 5}) || (VC{0, 1}).Leq(VC{3}) {
		t.Fatal("Leq with different lengths")
	}
	if !c.Knows(1, 1) || c.Knows(2, 1) {
		t.Fatal("Knows")
	}
}

// TestHBAllocs checks that HB allocates nothing for a trace of a few
// threads (their clocks need no tree, PClock), with or without a thousand
// more threads that never run.
func TestHBAllocs(t *testing.T) {
	x, y := ObjectID(0), ObjectID(1)
	allocs := func(idle int) float64 {
		progs := [][]Op{{store(x), load(y)}, {store(y), load(x)}}
		for range idle {
			progs = append(progs, nil)
		}
		tr := synth(progs, []ThreadID{1, 2, 1, 2})
		var h HB
		h.Reset(tr, CR)
		h.Run()
		return testing.AllocsPerRun(100, func() { h.Reset(tr, CR); h.Run() })
	}
	few, many := allocs(0), allocs(1000)
	if few != 0 {
		t.Errorf("HB allocates %v times per trace of 3 threads, want 0", few)
	}
	if many != few {
		t.Errorf("HB allocates %v times per trace of 1,003 threads, want %v", many, few)
	}
}
