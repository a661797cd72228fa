package rt_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/weft-go/weft/internal/stdtest"
	"github.com/weft-go/weft/std/rt"
)

// stackWaiter blocks on ch, for TestStack.
func stackWaiter(ch chan int) { rt.Of("", ch).Recv() }

// TestStack checks runtime.Stack inside an execution, as goleak reads it:
// the dump of every goroutine shows the test's (the calling one, first)
// and the one it left blocked in stackWaiter, without a frame of weft's
// code, and none of weft's goroutines (the test's own waiting for the
// exploration among them); the calling goroutine's dump alone is the
// first of those (its frame's line aside). The goroutines of the test binary that run no code of
// weft's stay.
func TestStack(t *testing.T) {
	var all, own string
	r := stdtest.Explore(t, func() {
		ch := rt.MakeChan(make(chan int))
		rt.Go(func() { stackWaiter(ch) })
		rt.Gosched(runtime.Gosched)
		buf := make([]byte, 1<<16)
		all = string(buf[:rt.Stack(runtime.Stack, buf, true)])
		own = string(buf[:rt.Stack(runtime.Stack, buf, false)])
		rt.Of("", ch).Send(1)
	})
	if r.Failed() {
		t.Fatalf("failures %v", r.Failures)
	}
	blocks := strings.Split(strings.TrimSuffix(all, "\n"), "\n\n")
	var mine []string
	for _, b := range blocks {
		for _, weft := range []string{"weft/internal/", "weft/std/rt.", "weft.(", "iter.Pull"} {
			if strings.Contains(b, weft) {
				t.Errorf("a goroutine's dump holds weft's frame %q:\n%s", weft, b)
			}
		}
		if strings.Contains(b, "TestStack") {
			mine = append(mine, b)
		}
	}
	if len(mine) != 2 || !strings.Contains(mine[0], "TestStack.func1") || !strings.HasPrefix(strings.SplitN(mine[1], "\n", 3)[1], "github.com/weft-go/weft/std/rt_test.stackWaiter(") {
		t.Errorf("the goroutines of the test: %q; want the calling one, then one in stackWaiter", mine)
	}
	if head := func(s string) string { return strings.Join(strings.SplitN(s, "\n", 3)[:2], "\n") }; !strings.HasSuffix(all, "\n") || strings.Count(own, "\n") != 3 || head(own) != head(mine[0]) {
		t.Errorf("the calling goroutine's dump %q; want the first of all's (%q), its frame's line aside", own, mine[0])
	}
	real := make([]byte, 1<<16)
	if n := rt.Stack(runtime.Stack, real, false); !strings.Contains(string(real[:n]), "TestStack") || !strings.Contains(string(real[:n]), "testing.tRunner") {
		t.Errorf("outside an execution: %q; want Go's dump of the test's goroutine", real[:n])
	}
}
