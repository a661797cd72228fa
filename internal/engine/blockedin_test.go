// This file tests blockedIn on stacks of goroutines blocked in a
// dependency, in the standard library and in weft's own code.

package engine

import "testing"

func TestBlockedIn(t *testing.T) {
	for _, c := range []struct {
		name, stacks, want string
	}{
		{
			"a dependency kept real",
			"goroutine 10 [chan send]:\n" +
				"example.com/pool.(*Pool).Submit(0x1892b0a852ca?, 0x1892b0a7a7a0)\n\t/src/pool/pool.go:41 +0x7e\n" +
				"example.com/app.SumSquares.func2()\n\t/src/app/app.go:17 +0x1b\n" +
				"github.com/weft-go/weft/internal/engine.(*Exec).run(0xa?, 0x48b9e5?, 0x20?)\n\t/weft/internal/engine/thread.go:226 +0x82\n" +
				"created by iter.Pull[...] in goroutine 7\n\t/go/src/iter/iter.go:271 +0x90",
			"example.com/pool.(*Pool).Submit (pool.go:41)",
		},
		{
			"a real mutex, under the code that locks it",
			"goroutine 5 [sync.Mutex.Lock]:\n" +
				"internal/sync.runtime_SemacquireMutex(0x1?, 0x0?, 0x0?)\n\t/go/src/runtime/sema.go:95 +0x25\n" +
				"internal/sync.(*Mutex).lockSlow(0xc000012345)\n\t/go/src/internal/sync/mutex.go:149 +0x15d\n" +
				"sync.(*Mutex).Lock(...)\n\t/go/src/sync/mutex.go:46\n" +
				"example.com/app.(*Cache).Get(0xc000012345)\n\t/src/app/cache.go:12 +0x25\n" +
				"github.com/weft-go/weft/internal/engine.(*Exec).run(0xa?)\n\t/weft/internal/engine/thread.go:226 +0x82",
			"example.com/app.(*Cache).Get (cache.go:12)",
		},
		{
			"the standard library's own code",
			"goroutine 7 [IO wait]:\n" +
				"internal/poll.runtime_pollWait(0x7f, 0x72)\n\t/go/src/runtime/netpoll.go:351 +0x85\n" +
				"net.(*conn).Read(0xc000, {0xc00, 0x1000, 0x1000})\n\t/go/src/net/net.go:194 +0x45\n" +
				"main.handle(...)\n\t/src/x/main.go:9\n" +
				"github.com/weft-go/weft/internal/engine.(*Exec).run(0xa?)\n\t/weft/internal/engine/thread.go:226 +0x82",
			"net.(*conn).Read (net.go:194)",
		},
		{
			"only the runtime and weft",
			"goroutine 7 [select]:\n" +
				"runtime.gopark(0x1)\n\t/go/src/runtime/proc.go:435 +0xce\n" +
				"github.com/weft-go/weft/internal/engine.(*Exec).run(0xa?)\n\t/weft/internal/engine/thread.go:226 +0x82",
			"",
		},
		{"no stack", "(no stack found: the blocked goroutine is not a weft thread)", ""},
	} {
		if got := blockedIn(c.stacks); got != c.want {
			t.Errorf("%s: blockedIn = %q, want %q", c.name, got, c.want)
		}
	}
}
