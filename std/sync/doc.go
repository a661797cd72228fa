// Package sync is weft's stand-in for the standard library's package sync,
// with the same API. weft test rewrites the imports of "sync" in the
// packages under test to this package, so that their mutexes, wait groups,
// Once, Cond, Map and Pool values are weft's, and every Lock, Unlock, Wait,
// Done or map operation is a step weft schedules.
//
// Inside a weft execution (the body of a Test function that weft test runs,
// or of weft.Check) each type is backed by its weft counterpart: Mutex by
// weft.Mutex, RWMutex by weft.RWMutex, WaitGroup by weft.WaitGroup, Once by
// weft.Once, Cond by weft.Cond. The zero values are ready to use, as with
// package sync, and a value reused across executions starts each one afresh
// (unlocked, counter zero, Once not done).
//
// Outside an execution (TestMain, init, code that runs before or after the
// exploration) each type behaves as the standard library's, on a real
// sync value it holds. The two states are separate: a mutex locked outside
// an execution is not locked inside one, and a Once done inside executions
// is not done outside them.
//
// Inside an execution every method of Map and Pool is one step on a weft
// variable that stands for the map or the pool: a read (Map's Load and
// Range) or a change (the others), so that weft explores the orders of
// the operations of different threads on one map. Their contents are the
// execution's own: a Map starts each execution with the contents it had
// outside the executions, a Pool starts it empty. Range visits entries in
// the order they were stored, and a Pool's Get returns the item Put last:
// one of the behaviours the standard library allows, the same in every
// replay. Locker is sync.Locker, so the stand-ins can be passed to code
// that takes a sync.Locker.
package sync
