package src

import (
	"reflect"
	"runtime"
	"testing"
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
