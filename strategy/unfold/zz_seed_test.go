package unfold_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy/unfold"
)

func TestZZSeed(t *testing.T) {
	seed, _ := strconv.Atoi(os.Getenv("SEED"))
	o := gen.Timed
	if os.Getenv("LOOPS") != "" {
		o = gen.Loops
	}
	p := gen.NewWith(uint64(seed), o)
	t.Log(p)
	st, _, _, _ := againstExhaustiveKinds(t, "x", genweft.Body(p), unfold.Options{}, unfold.Options{Naive: true})
	t.Logf("%+v", st)
}
