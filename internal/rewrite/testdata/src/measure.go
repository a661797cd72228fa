package src

import (
	"hash/maphash"
	"reflect"
	"runtime"
	"sync"
	"testing"
	u "unsafe"
)

// lengths reads lengths through package reflect: v.Len() becomes
// weftrt.ReflectLen(v), whatever v holds; a method expression and a
// pointer's method stay.
func lengths(x any, pv *reflect.Value) int {
	v := reflect.ValueOf(x)
	n := v.Len() + reflect.ValueOf(x).Len()
	n += reflect.Value.Len(v) + pv.Len()
	return n
}

// allocations measures memory: the calls go through weftrt.MemoryProbe.
func allocations(f func()) (uint64, float64) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	read := runtime.ReadMemStats // a value, not a call, stays
	read(&m)
	return m.Mallocs, testing.AllocsPerRun(10, f)
}

// dump reads the stacks of every goroutine, and of its own: the calls go
// through weftrt.Stack.
func dump() string {
	buf := make([]byte, 1<<16)
	n := runtime.Stack(buf, true)
	return string(buf[:n]) + string(buf[:runtime.Stack(buf, false)])
}

// trace reads its callers, as a library that prints a stack trace does:
// the calls go through weftrt.Callers and weftrt.Caller.
func trace() (string, int) {
	pc := make([]uintptr, 32)
	n := runtime.Callers(1, pc)
	_, file, line, _ := runtime.Caller(0)
	return file, n + line
}

// cacheLine is the size a padded value fills.
const cacheLine = 64

// locked is 16 bytes under go test, and larger under weft test, whose
// Mutex is its own.
type locked struct {
	mu sync.Mutex
	n  int
}

// padded fills a cache line with a locked: the sizes in its padding and
// in lockedSize are locked's under go test, written with the file's name
// of unsafe; padWord, of a type weft test does not replace, and sizeNow,
// a variable's, stay as they are.
type padded struct {
	_ [cacheLine - u.Sizeof(locked{})]byte
	locked
	_ [u.Alignof(locked{}.n) + u.Offsetof(locked{}.n)]byte
}

const lockedSize = u.Sizeof(locked{})

type padWord [cacheLine - u.Sizeof(int64(0))]byte

var sizeNow = u.Sizeof(locked{})

// hashOf hashes s with a seed of MakeSeed's: the import points to weft's
// hash/maphash, whose seeds each execution repeats.
func hashOf(s string) uint64 { return maphash.String(maphash.MakeSeed(), s) }
