package trace

import "testing"

// ev returns an event of thread t doing kind k on object o of class c.
func ev(t ThreadID, k Kind, c Class, o ObjectID) Event {
	return Event{Thread: t, Op: Op{Kind: k, Class: c, Obj: o}, Case: -1, Partner: NoThread, PartnerCase: -1, OK: true}
}

func failed(e Event) Event { e.OK = false; return e }

func withArg(e Event, arg int64) Event { e.Op.Arg = arg; return e }

// addOnly returns an AddOnly of thread t to an int variable o.
func addOnly(t ThreadID, o ObjectID) Event { return withArg(ev(t, KindAdd, ClassVar, o), 8) }

// TestAddOnlyPending checks the relation on pending AddOnlys
// (OpsDependent, DependentOp): the same as on executed ones.
func TestAddOnlyPending(t *testing.T) {
	x := ObjectID(0)
	add := Op{Kind: KindAdd, Class: ClassVar, Obj: x, Arg: 4}
	tests := []struct {
		name string
		op   Op
		dep  bool
	}{
		{"addonly", add, false},
		{"add", Op{Kind: KindAdd, Class: ClassVar, Obj: x}, true},
		{"load", Op{Kind: KindLoad, Class: ClassVar, Obj: x}, true},
		{"cas", Op{Kind: KindCAS, Class: ClassVar, Obj: x, Arg: 3}, true},
	}
	for _, tt := range tests {
		if got := CR.OpsDependent(add, tt.op); got != tt.dep {
			t.Errorf("OpsDependent(addonly, %s) = %v, want %v", tt.name, got, tt.dep)
		}
		e := Event{Thread: 1, Op: tt.op, Case: -1, Partner: NoThread, PartnerCase: -1, OK: true}
		if got := CR.DependentOp(&e, 2, add); got != tt.dep {
			t.Errorf("DependentOp(%s, addonly) = %v, want %v", tt.name, got, tt.dep)
		}
		if !Plain.OpsDependent(add, tt.op) {
			t.Errorf("Plain.OpsDependent(addonly, %s) = false", tt.name)
		}
	}
	if AddOnly(Op{Kind: KindAdd, Class: ClassVar, Obj: x}) || !AddOnly(add) {
		t.Errorf("AddOnly tells Add and AddOnly apart wrongly")
	}
	if got := add.String(); got != "addonly o0" {
		t.Errorf("String() = %q, want %q", got, "addonly o0")
	}
}

// TestVarValue checks the value of a variable in states where commuting
// adds ran in another order than the trace's, or not at all.
func TestVarValue(t *testing.T) {
	x, y := ObjectID(0), ObjectID(1)
	val := func(e Event, v uint64) Event { e.Value = v; return e }
	small := func(e Event) Event { e.Op.Arg = 1; return e }
	// x: store 5; +1 (6); +10 (16), y touched between; load 16; +250 as
	// a byte wraps: a second variable, y, of uint8: 200, +100 -> 44.
	tr := &Trace{Events: []Event{
		val(ev(1, KindStore, ClassVar, x), 5),
		val(addOnly(1, x), 6),
		val(ev(3, KindStore, ClassVar, y), 200),
		val(addOnly(2, x), 16),
		val(small(addOnly(2, y)), 44),
		val(ev(3, KindLoad, ClassVar, x), 16),
		val(addOnly(3, x), 19),
	}}
	set := func(ks ...int) func(int) bool {
		return func(k int) bool {
			for _, j := range ks {
				if j == k {
					return true
				}
			}
			return false
		}
	}
	tests := []struct {
		name string
		obj  ObjectID
		upto int
		in   func(int) bool
		want uint64
	}{
		{"none", x, 7, set(), 0},
		{"all", x, 7, set(0, 1, 2, 3, 4, 5, 6), 19},
		{"store and the second add", x, 4, set(0, 3), 15},
		{"store and the first add", x, 4, set(0, 1), 6},
		{"the second add alone", x, 4, set(3), 10},
		{"the load and what it saw, last add not", x, 7, set(0, 1, 3, 5), 16},
		{"after the load, its add", x, 7, set(0, 1, 3, 5, 6), 19},
		{"a byte wraps", y, 7, set(2, 4), 44},
		{"a byte's add alone", y, 7, set(4), 100},
	}
	for _, tt := range tests {
		if got := VarValue(tr, tt.obj, tt.upto, tt.in); got != tt.want {
			t.Errorf("%s: VarValue = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestDependent(t *testing.T) {
	x, y := ObjectID(0), ObjectID(1)
	sel := ev(1, KindSelect, ClassChan, NoObject)
	sel.Op.Cases = []Case{{KindRecv, x}, {KindSend, y}}
	rdv := ev(1, KindRecv, ClassChan, x)
	rdv.Partner, rdv.PartnerOp = 3, Op{Kind: KindSend, Class: ClassChan, Obj: x}
	tests := []struct {
		name      string
		a, b      Event
		cr, plain bool
	}{
		{"load/load", ev(1, KindLoad, ClassVar, x), ev(2, KindLoad, ClassVar, x), false, true},
		{"load/store", ev(1, KindLoad, ClassVar, x), ev(2, KindStore, ClassVar, x), true, true},
		{"store/store other objects", ev(1, KindStore, ClassVar, x), ev(2, KindStore, ClassVar, y), false, false},
		{"same thread", ev(1, KindStore, ClassVar, x), ev(1, KindStore, ClassVar, y), true, true},
		{"failed cas/load", failed(ev(1, KindCAS, ClassVar, x)), ev(2, KindLoad, ClassVar, x), false, true},
		{"cas/load", ev(1, KindCAS, ClassVar, x), ev(2, KindLoad, ClassVar, x), true, true},
		{"add/add", ev(1, KindAdd, ClassVar, x), ev(2, KindAdd, ClassVar, x), true, true},
		// Adds whose results are unused commute with each other, and with
		// nothing else of the variable.
		{"addonly/addonly", addOnly(1, x), addOnly(2, x), false, true},
		{"addonly/addonly other objects", addOnly(1, x), addOnly(2, y), false, false},
		{"addonly/add", addOnly(1, x), ev(2, KindAdd, ClassVar, x), true, true},
		{"addonly/load", addOnly(1, x), ev(2, KindLoad, ClassVar, x), true, true},
		{"addonly/store", addOnly(1, x), ev(2, KindStore, ClassVar, x), true, true},
		{"addonly/swap", addOnly(1, x), ev(2, KindSwap, ClassVar, x), true, true},
		{"addonly/cas", addOnly(1, x), ev(2, KindCAS, ClassVar, x), true, true},
		{"addonly/failed cas", addOnly(1, x), failed(ev(2, KindCAS, ClassVar, x)), true, true},
		{"addonly/await", addOnly(1, x), Event{Thread: 2, Op: Op{Kind: KindAwait, Class: ClassThread, Obj: NoObject, Cases: []Case{{KindLoad, x}}}, Case: -1, Partner: NoThread, PartnerCase: -1, OK: true}, true, true},
		{"lock/lock", ev(1, KindLock, ClassMutex, x), ev(2, KindLock, ClassMutex, x), true, true},
		{"failed trylock/failed trylock", failed(ev(1, KindTryLock, ClassMutex, x)), failed(ev(2, KindTryLock, ClassMutex, x)), false, true},
		{"rlock/rlock", ev(1, KindRLock, ClassRWMutex, x), ev(2, KindRLock, ClassRWMutex, x), false, true},
		{"rlock/balanced runlock", ev(1, KindRLock, ClassRWMutex, x), withArg(ev(2, KindRUnlock, ClassRWMutex, x), RUnlockBalanced), false, true},
		// An RUnlock by a thread holding no read lock may take the count
		// another reader relies on, or find none.
		{"rlock/unbalanced runlock", ev(1, KindRLock, ClassRWMutex, x), ev(2, KindRUnlock, ClassRWMutex, x), true, true},
		{"balanced runlock/balanced runlock", withArg(ev(1, KindRUnlock, ClassRWMutex, x), RUnlockBalanced), withArg(ev(2, KindRUnlock, ClassRWMutex, x), RUnlockBalanced), false, true},
		{"balanced/unbalanced runlock", withArg(ev(1, KindRUnlock, ClassRWMutex, x), RUnlockBalanced), ev(2, KindRUnlock, ClassRWMutex, x), true, true},
		// A failed TryLock observes the reader count.
		{"rlock/failed trylock", ev(1, KindRLock, ClassRWMutex, x), failed(ev(2, KindTryLock, ClassRWMutex, x)), true, true},
		{"balanced runlock/failed trylock", withArg(ev(1, KindRUnlock, ClassRWMutex, x), RUnlockBalanced), failed(ev(2, KindTryLock, ClassRWMutex, x)), true, true},
		{"tryrlock/failed trylock", withArg(ev(1, KindTryLock, ClassRWMutex, x), TryRLockArg), failed(ev(2, KindTryLock, ClassRWMutex, x)), true, true},
		{"tryrlock/rlock", withArg(ev(1, KindTryLock, ClassRWMutex, x), TryRLockArg), ev(2, KindRLock, ClassRWMutex, x), false, true},
		{"failed tryrlock/failed trylock", failed(withArg(ev(1, KindTryLock, ClassRWMutex, x), TryRLockArg)), failed(ev(2, KindTryLock, ClassRWMutex, x)), false, true},
		{"failed tryrlock/unlock", failed(withArg(ev(1, KindTryLock, ClassRWMutex, x), TryRLockArg)), ev(2, KindUnlock, ClassRWMutex, x), true, true},
		{"trylock/rlock", ev(1, KindTryLock, ClassRWMutex, x), ev(2, KindRLock, ClassRWMutex, x), true, true},
		{"failed mutex trylock/unlock", failed(ev(1, KindTryLock, ClassMutex, x)), ev(2, KindUnlock, ClassMutex, x), true, true},
		{"rlock/lock", ev(1, KindRLock, ClassRWMutex, x), ev(2, KindLock, ClassRWMutex, x), true, true},
		{"rlock/announce", ev(1, KindRLock, ClassRWMutex, x), failed(ev(2, KindLock, ClassRWMutex, x)), true, true},
		{"wg wait/wait", ev(1, KindWGWait, ClassWaitGroup, x), ev(2, KindWGWait, ClassWaitGroup, x), false, true},
		{"wg add/wait", ev(1, KindWGAdd, ClassWaitGroup, x), ev(2, KindWGWait, ClassWaitGroup, x), true, true},
		{"len/len", ev(1, KindLen, ClassChan, x), ev(2, KindLen, ClassChan, x), false, true},
		{"send/len", ev(1, KindSend, ClassChan, x), ev(2, KindLen, ClassChan, x), true, true},
		{"select case/recv", sel, ev(2, KindRecv, ClassChan, x), true, true},
		{"select case/send other", sel, ev(2, KindSend, ClassChan, y), true, true},
		{"select/unrelated", sel, ev(2, KindStore, ClassVar, 5), false, false},
		{"rendezvous partner shares thread", rdv, ev(3, KindStore, ClassVar, y), true, true},
		{"rendezvous/len", rdv, ev(2, KindLen, ClassChan, x), true, true},
		{"join/joined thread", withArg(ev(1, KindJoin, ClassThread, NoObject), 2), ev(2, KindStore, ClassVar, x), true, true},
		{"join/other thread", withArg(ev(1, KindJoin, ClassThread, NoObject), 2), ev(3, KindStore, ClassVar, x), false, false},
		{"sleep/sleep", ev(1, KindSleep, ClassTimer, NoObject), ev(2, KindSleep, ClassTimer, NoObject), true, true},
		{"sleep/store", ev(1, KindSleep, ClassTimer, NoObject), ev(2, KindStore, ClassVar, x), false, false},
		{"input/input", ev(1, KindInput, ClassNone, NoObject), ev(2, KindInput, ClassNone, NoObject), false, false},
		{"cond wait/unlock of its mutex", withArg(ev(1, KindWait, ClassCond, y), int64(x)), ev(2, KindUnlock, ClassMutex, x), true, true},
		{"once/once", ev(1, KindOnceDo, ClassOnce, x), ev(2, KindOnceDone, ClassOnce, x), true, true},
	}
	for _, tc := range tests {
		for _, swap := range []bool{false, true} {
			a, b := tc.a, tc.b
			if swap {
				a, b = b, a
			}
			if got := Dependent(&a, &b); got != tc.cr {
				t.Errorf("%s (swapped %v): Dependent = %v, want %v", tc.name, swap, got, tc.cr)
			}
			if got := DependentPlain(&a, &b); got != tc.plain {
				t.Errorf("%s (swapped %v): DependentPlain = %v, want %v", tc.name, swap, got, tc.plain)
			}
		}
	}
}

func TestDependentOp(t *testing.T) {
	x := ObjectID(0)
	load := ev(1, KindLoad, ClassVar, x)
	if CR.DependentOp(&load, 2, Op{Kind: KindLoad, Class: ClassVar, Obj: x}) {
		t.Error("a load and a pending load are dependent under CR")
	}
	// A pending CAS may write.
	if !CR.DependentOp(&load, 2, Op{Kind: KindCAS, Class: ClassVar, Obj: x}) {
		t.Error("a load and a pending CAS are independent")
	}
	if !CR.DependentOp(&load, 1, Op{Kind: KindLoad, Class: ClassVar, Obj: 7}) {
		t.Error("an event and a pending operation of its own thread are independent")
	}
	if !CR.DependentOp(&load, 2, Op{Kind: KindJoin, Class: ClassThread, Obj: NoObject, Arg: 1}) {
		t.Error("a join of a thread and its event are independent")
	}
	if CR.OpsDependent(Op{Kind: KindRLock, Class: ClassRWMutex, Obj: x}, Op{Kind: KindRLock, Class: ClassRWMutex, Obj: x}) {
		t.Error("two pending RLocks are dependent")
	}
	// A pending try-operation may succeed or fail: it depends on every
	// change of the lock, and on what observes it.
	rlock := ev(1, KindRLock, ClassRWMutex, x)
	for _, v := range []Op{
		{Kind: KindTryLock, Class: ClassRWMutex, Obj: x, Arg: TryRLockArg},
		{Kind: KindTryLock, Class: ClassRWMutex, Obj: x},
	} {
		if !CR.DependentOp(&rlock, 2, v) {
			t.Errorf("an RLock and a pending %v are independent", v)
		}
	}
	fail := failed(ev(1, KindTryLock, ClassRWMutex, x))
	if !CR.DependentOp(&fail, 2, Op{Kind: KindTryLock, Class: ClassRWMutex, Obj: x, Arg: TryRLockArg}) {
		t.Error("a failed TryLock and a pending TryRLock are independent")
	}
}

func TestDependentInSpawn(t *testing.T) {
	tr := &Trace{
		Events: []Event{
			ev(0, KindStore, ClassVar, 0), // spawns T1
			ev(1, KindStore, ClassVar, 1),
		},
		Threads: []ThreadInfo{{Parent: NoThread, Step: -1}, {Parent: 0, Step: 0}},
		Objects: []ObjectInfo{{Class: ClassVar}, {Class: ClassVar}},
	}
	if Dependent(&tr.Events[0], &tr.Events[1]) {
		t.Fatal("Dependent sees the spawn")
	}
	if !CR.DependentIn(tr, 0, 1) || !CR.DependentIn(tr, 1, 0) {
		t.Fatal("DependentIn misses the spawn")
	}
}

func TestMayBeCoEnabled(t *testing.T) {
	m := ObjectID(0)
	lock := Op{Kind: KindLock, Class: ClassMutex, Obj: m}
	tests := []struct {
		name string
		e    Event
		v    Op
		want bool
	}{
		{"unlock/lock", ev(1, KindUnlock, ClassMutex, m), lock, false},
		{"failed unlock/lock", failed(ev(1, KindUnlock, ClassMutex, m)), lock, true},
		{"lock/lock", ev(1, KindLock, ClassMutex, m), lock, true},
		{"lock/unlock", ev(1, KindLock, ClassMutex, m), Op{Kind: KindUnlock, Class: ClassMutex, Obj: m}, true},
		{"unlock/other lock", ev(1, KindUnlock, ClassMutex, m), Op{Kind: KindLock, Class: ClassMutex, Obj: 1}, true},
		{"unlock/relock", ev(1, KindUnlock, ClassMutex, m), Op{Kind: KindRelock, Class: ClassCond, Obj: 1, Arg: int64(m)}, false},
		{"rw unlock/rlock", ev(1, KindUnlock, ClassRWMutex, m), Op{Kind: KindRLock, Class: ClassRWMutex, Obj: m}, false},
		{"runlock/announced lock", ev(1, KindRUnlock, ClassRWMutex, m), Op{Kind: KindLock, Class: ClassRWMutex, Obj: m, Arg: 1}, false},
		{"runlock/lock", ev(1, KindRUnlock, ClassRWMutex, m), Op{Kind: KindLock, Class: ClassRWMutex, Obj: m}, true},
	}
	for _, tc := range tests {
		if got := MayBeCoEnabled(&tc.e, tc.v); got != tc.want {
			t.Errorf("%s: MayBeCoEnabled = %v, want %v", tc.name, got, tc.want)
		}
	}
}
