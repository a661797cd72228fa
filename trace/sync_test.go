// This file checks that the synchronisation table is complete and well
// formed.

package trace

import "testing"

// TestSyncTableComplete checks that every kind of visible operation has an
// entry in the synchronisation table: a kind added without one fails here.
func TestSyncTableComplete(t *testing.T) {
	has := map[Kind]bool{}
	for _, e := range syncTable {
		has[e.Kind] = true
	}
	for k := KindNone + 1; k < numKinds; k++ {
		if !has[k] {
			t.Errorf("kind %v has no entry in the synchronisation table (trace/sync.go)", k)
		}
	}
}

// TestSyncTableWellFormed checks that no two entries are for one class,
// kind and argument, that the entries of one class and kind are next to
// each other with those for an argument first, and that SyncOf finds each.
func TestSyncTableWellFormed(t *testing.T) {
	type key struct {
		c     Class
		k     Kind
		byArg bool
		arg   int64
	}
	seen := map[key]bool{}
	for i, e := range syncTable {
		k := key{e.Class, e.Kind, e.ByArg, e.Arg}
		if seen[k] {
			t.Errorf("entry %d: a second entry for %v %v (arg %v)", i, e.Class, e.Kind, e.Arg)
		}
		seen[k] = true
		if i > 0 {
			p := syncTable[i-1]
			if p.Class == e.Class && p.Kind == e.Kind && !p.ByArg && e.ByArg {
				t.Errorf("entry %d: %v %v for an argument after the entry for every argument", i, e.Class, e.Kind)
			}
		}
		for j := i + 2; j < len(syncTable); j++ {
			if f := syncTable[j]; f.Class == e.Class && f.Kind == e.Kind && syncTable[j-1].Kind != e.Kind {
				t.Errorf("entries %d and %d: %v %v apart", i, j, e.Class, e.Kind)
			}
		}
		a := e.Arg
		if !e.ByArg {
			a = -1000 // an argument no entry names
		}
		if s, ok := SyncOf(e.Class, e.Kind, a); !ok || s != e.Sync {
			t.Errorf("SyncOf(%v, %v, %d) = %+v, %v; want %+v", e.Class, e.Kind, a, s, ok, e.Sync)
		}
	}
	if _, ok := SyncOf(ClassMutex, KindRLock, 0); ok {
		t.Errorf("SyncOf finds an RLock of a Mutex, which the table does not list")
	}
}

// TestSyncTryRLock checks the one entry chosen by argument: a TryRLock
// acquires what an RLock does, a TryLock what a Lock does.
func TestSyncTryRLock(t *testing.T) {
	r, _ := SyncOf(ClassRWMutex, KindTryLock, TryRLockArg)
	w, _ := SyncOf(ClassRWMutex, KindTryLock, 0)
	if r.Acquire != SyncObj || w.Acquire != SyncObj|SyncAux {
		t.Errorf("TryRLock acquires %b, TryLock %b; want %b and %b", r.Acquire, w.Acquire, SyncObj, SyncObj|SyncAux)
	}
}

// TestArgObject checks the operations that access the object their Op.Arg
// names: a Cond's Wait and Relock with a Mutex, and no other.
func TestArgObject(t *testing.T) {
	n := 0
	for c := range NumClasses {
		for k := range NumKinds {
			if ArgObject(&Op{Kind: Kind(k), Class: Class(c), Arg: 3}) == 3 {
				n++
			}
		}
	}
	if n != 2 {
		t.Errorf("%d operations access a second object, want 2", n)
	}
	for _, tc := range []struct {
		op   Op
		want ObjectID
	}{
		{Op{Kind: KindWait, Class: ClassCond, Obj: 1, Arg: 4}, 4},
		{Op{Kind: KindRelock, Class: ClassCond, Obj: 1, Arg: 4}, 4},
		{Op{Kind: KindRelock, Class: ClassCond, Obj: 1, Arg: -1}, NoObject}, // another Locker
		{Op{Kind: KindSignal, Class: ClassCond, Obj: 1, Arg: 4}, NoObject},
		{Op{Kind: KindMWait, Class: ClassMonitor, Obj: 1, Arg: 4}, NoObject},
	} {
		if got := ArgObject(&tc.op); got != tc.want {
			t.Errorf("ArgObject(%v %v, Arg %d) = %v, want %v", tc.op.Class, tc.op.Kind, tc.op.Arg, got, tc.want)
		}
	}
}
