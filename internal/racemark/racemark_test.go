package racemark_test

import (
	"runtime"
	"testing"

	"github.com/weft-go/weft/internal/racemark"
)

// TestThread checks that the stack of f, called by Thread(n, f), spells n
// as Frames reads it.
func TestThread(t *testing.T) {
	for _, n := range []int{0, 7, 12, 305, 1000} {
		var funcs []string
		racemark.Thread(n, func() {
			pcs := make([]uintptr, 64)
			frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
			for {
				f, more := frames.Next()
				funcs = append(funcs, f.Function)
				if !more {
					break
				}
			}
		})
		if got, ok := racemark.Frames(funcs); !ok || got != n {
			t.Errorf("Frames of Thread(%d)'s stack = %d, %v; want %d, true\n%q", n, got, ok, n, funcs)
		}
	}
}

// TestFrames checks stacks that spell no number: no racemark frame,
// digits without Thread, Thread without digits, a frame of another
// package between the digits.
func TestFrames(t *testing.T) {
	const p = racemark.Path + "."
	for _, c := range []struct {
		name  string
		funcs []string
		n     int
		ok    bool
	}{
		{"thread 40", []string{"iter.Pull[go.shape.*uint8]", p + "digits", p + "D0", p + "digits", p + "D4", p + "digits", p + "Thread", "main.main"}, 40, true},
		{"none", []string{"iter.Pull[go.shape.*uint8]", "testing.(*T).Run"}, 0, false},
		{"no Thread", []string{p + "D1", p + "digits"}, 0, false},
		{"no digits", []string{p + "digits", p + "Thread"}, 0, false},
		{"interrupted", []string{p + "D1", "main.f", p + "D2", p + "Thread"}, 0, false},
		{"unknown", []string{p + "D1", p + "Dx", p + "Thread"}, 0, false},
	} {
		if n, ok := racemark.Frames(c.funcs); n != c.n || ok != c.ok {
			t.Errorf("%s: Frames = %d, %v; want %d, %v", c.name, n, ok, c.n, c.ok)
		}
	}
}
