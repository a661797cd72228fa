package rand_test

import (
	"math/rand/v2"
	"testing"

	wrand "github.com/weft-go/weft/std/math/rand/v2"
)

// TestOutsideExecution checks the functions outside an execution:
// math/rand/v2's. (TestPerExecution of std/math/rand checks both stand-ins
// inside executions.)
func TestOutsideExecution(t *testing.T) {
	if n := wrand.N(uint8(5)); n >= 5 {
		t.Errorf("N(5) = %d", n)
	}
	g := wrand.New(wrand.NewPCG(1, 2))
	if g.IntN(1000) != rand.New(rand.NewPCG(1, 2)).IntN(1000) {
		t.Error("New(NewPCG(1, 2)) is not math/rand/v2's generator")
	}
}
