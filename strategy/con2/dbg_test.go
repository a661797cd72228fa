package con2_test

import (
	"fmt"
	"github.com/weft-go/weft/strategy"
	"github.com/weft-go/weft/trace"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/weft-go/weft/strategy/con2"
)

func TestDbg(t *testing.T) {
	fam := 0
	for i := range families {
		if families[i].name == os.Getenv("FAM") {
			fam = i
		}
	}
	seed, _ := strconv.ParseUint(os.Getenv("SEED"), 10, 64)
	k, _ := strconv.Atoi(os.Getenv("K"))
	p := genSyncProgram(rand.New(rand.NewPCG(seed, uint64(fam))), fam)
	s := newCon2(t, con2.Options{K: k})
	con2.Debug = true
	got, _, _ := explore(t, p.body, s, 5000, p.opts...)
	t.Logf("%v %+v\n%v", got.sides, s.Stats(), p)
}

type dbgRec struct {
	strategy.Strategy
	done bool
}

func (r *dbgRec) Finish(tr *trace.Trace, end trace.End) {
	ks, _ := con2.Interferences(tr)
	if !r.done {
		for j, b := range tr.Branches {
			if b.Thread == 1 && j < len(ks) && ks[j] <= 1 {
				c := 0
				for _, b2 := range tr.Branches {
					if b2.Thread == 1 {
						c++
					}
				}
				if c >= 2 {
					r.done = true
					for i, e := range tr.Events {
						fmt.Printf("%d: T%d %v ok=%v partner=%d src=%d\n", i, e.Thread, e.Op, e.OK, e.Partner, e.Source())
					}
					fmt.Println(ks)
					break
				}
			}
		}
	}
	r.Strategy.Finish(tr, end)
}

func TestDbgRef(t *testing.T) {
	fam := 0
	for i := range families {
		if families[i].name == os.Getenv("FAM") {
			fam = i
		}
	}
	seed, _ := strconv.ParseUint(os.Getenv("SEED"), 10, 64)
	p := genSyncProgram(rand.New(rand.NewPCG(seed, uint64(fam))), fam)
	explore(t, p.body, &dbgRec{Strategy: &bruteForce{inputs: symInputs}}, 6000, p.opts...)
}

func (r *dbgRec) Unwrap() strategy.Strategy { return r.Strategy }
