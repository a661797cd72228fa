// This file implements the stand-ins of the calls of testing.TB's methods
// through an interface of the program's (an assertion library's TestingT,
// as testify's): inside an execution, on a testing.TB, they are the
// stand-ins of testing.go, so that a library's failure fails the
// execution with its message once, in its report; on another value, or
// outside an execution, they call the value's method.

package rt

import "testing"

// AnyError is Error for a t of an interface type of the program's.
func AnyError(t interface{ Error(...any) }, args ...any) {
	if tb, ok := t.(testing.TB); ok {
		Error(tb, args...)
		return
	}
	t.Error(args...)
}

// AnyErrorf is Errorf for a t of an interface type of the program's.
func AnyErrorf(t interface{ Errorf(string, ...any) }, format string, args ...any) {
	if tb, ok := t.(testing.TB); ok {
		Errorf(tb, format, args...)
		return
	}
	t.Errorf(format, args...)
}

// AnyFatal is Fatal for a t of an interface type of the program's.
func AnyFatal(t interface{ Fatal(...any) }, args ...any) {
	if tb, ok := t.(testing.TB); ok {
		Fatal(tb, args...)
		return
	}
	t.Fatal(args...)
}

// AnyFatalf is Fatalf for a t of an interface type of the program's.
func AnyFatalf(t interface{ Fatalf(string, ...any) }, format string, args ...any) {
	if tb, ok := t.(testing.TB); ok {
		Fatalf(tb, format, args...)
		return
	}
	t.Fatalf(format, args...)
}

// AnyFail is Fail for a t of an interface type of the program's.
func AnyFail(t interface{ Fail() }) {
	if tb, ok := t.(testing.TB); ok {
		Fail(tb)
		return
	}
	t.Fail()
}

// AnyFailNow is FailNow for a t of an interface type of the program's.
func AnyFailNow(t interface{ FailNow() }) {
	if tb, ok := t.(testing.TB); ok {
		FailNow(tb)
		return
	}
	t.FailNow()
}

// AnyLog is Log for a t of an interface type of the program's.
func AnyLog(t interface{ Log(...any) }, args ...any) {
	if tb, ok := t.(testing.TB); ok {
		Log(tb, args...)
		return
	}
	t.Log(args...)
}

// AnyLogf is Logf for a t of an interface type of the program's.
func AnyLogf(t interface{ Logf(string, ...any) }, format string, args ...any) {
	if tb, ok := t.(testing.TB); ok {
		Logf(tb, format, args...)
		return
	}
	t.Logf(format, args...)
}
