package reach_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy/exhaustive"
	"github.com/weft-go/weft/strategy/reach"
)

func TestDebugSeed(t *testing.T) {
	seed, _ := strconv.Atoi(os.Getenv("SEED"))
	p := gen.NewWith(uint64(seed), gen.Options{MaxEvents: 12, MessagePassing: true})
	body := genweft.Body(p)
	ex, _ := run(t, body, exhaustive.New(), 0)
	rs, _ := strconv.Atoi(os.Getenv("RSEED"))
	s := reach.New(reach.Options{Seed: int64(rs)})
	got, _ := run(t, body, s, 0)
	g := newSynGroups(ex, got)
	for _, x := range got {
		fmt.Printf("REACH %v skipped=%v\n%s", x.end.Kind, x.skipped, g.syn(x))
	}
	fmt.Printf("%+v\n", s.Stats())
	seen := map[string]bool{}
	for _, x := range ex {
		q := g.syn(x)
		if !seen[q] {
			fmt.Printf("EX %v\n%s", x.end.Kind, q)
		}
		seen[q] = true
	}
}

func TestDebugGroups(t *testing.T) {
	seed, _ := strconv.Atoi(os.Getenv("SEED"))
	p := gen.NewWith(uint64(seed), gen.Options{MaxEvents: 12, MessagePassing: true})
	ex, _ := run(t, genweft.Body(p), exhaustive.New(), 0)
	for _, r := range ex[:1] {
		fmt.Println(r.selects, r.steps)
	}
	fmt.Println(newSynGroups(ex))
}
