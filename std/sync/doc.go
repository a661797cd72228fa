// Package sync is weft's stand-in for the standard library's package sync,
// with the same API. weft test rewrites the imports of "sync" in the
// packages under test to this package, so that their mutexes, wait groups,
// Once and Cond values are weft's, and every Lock, Unlock, Wait or Done is a
// step weft schedules.
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
// Map and Pool are the standard library's types (aliases): their own
// synchronisation is not modelled, and weft never switches threads inside
// their methods. Locker is sync.Locker, so the stand-ins can be passed to
// code that takes a sync.Locker.
package sync
