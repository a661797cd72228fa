// The differential test of the primitives modelled beyond the paper's
// (semaphores, Cond, monitors, awaits): generated programs against
// exhaustive search.

package unfold_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/weft-go/weft/internal/gen"
	"github.com/weft-go/weft/internal/gen/genweft"
	"github.com/weft-go/weft/strategy/unfold"
)

// syncKinds are the statements of gen.Options.Sync.
var syncKinds = map[gen.Kind]bool{gen.SemP: true, gen.SemV: true, gen.CondWait: true, gen.CondSignal: true,
	gen.Monitor: true, gen.MonWait: true, gen.MonSignal: true, gen.Await: true}

// TestGeneratedSync runs againstExhaustive on generated programs that use
// semaphores, condition variables, monitors or awaits (gen.Sync), with
// the efficient possible extensions, a random free part and the naive
// ones: the same events, the same sets of blocked threads, the same
// failure kinds. 30 programs, 300 with WEFT_LONG=1, or
// WEFT_UNFOLD_SYNC of them (1000 agree: see the package doc).
func TestGeneratedSync(t *testing.T) {
	programs := sweepSize(30, 300, "WEFT_UNFOLD_SYNC")
	checked, events, dl, bad := 0, 0, 0, 0
	per := map[gen.Kind]int{} // programs using each statement of gen.Sync
	for seed := uint64(0); checked < programs && seed < 1000000; seed++ {
		p := gen.NewWith(seed, gen.Sync)
		all := append([][]gen.Stmt{p.Main}, p.Threads...)
		use, ok := false, true
		for _, ss := range all {
			use = use || uses(ss, syncKinds)
			ok = ok && only(ss, modelled, p.Chans)
		}
		if !use || !ok {
			continue
		}
		name := fmt.Sprintf("sync seed %d", seed)
		st, blocked, ok, same := againstExhaustiveKinds(t, name, genweft.Body(p), unfold.Options{}, unfold.Options{Seed: int64(seed) + 1}, unfold.Options{Naive: true})
		if !ok {
			continue
		}
		checked++
		events += st.Events
		for k := range syncKinds {
			if uses(p.Main, map[gen.Kind]bool{k: true}) || slices.ContainsFunc(p.Threads, func(ss []gen.Stmt) bool { return uses(ss, map[gen.Kind]bool{k: true}) }) {
				per[k]++
			}
		}
		if blocked > 0 {
			dl++
		}
		if !same {
			bad++
			t.Errorf("%s: failure kinds differ from exhaustive search's\n%v", name, p)
		}
	}
	if checked < programs {
		t.Errorf("checked %d programs, want %d", checked, programs)
	}
	t.Logf("%d programs, %d events, %d that block, %d with other failure kinds; programs per statement %v", checked, events, dl, bad, per)
}

// TestGeneratedAwait runs againstExhaustive on generated programs with at
// least one w.Await (gen.Sync's awaits whose condition the runtime
// evaluates, among its other statements), with the efficient, a random
// and the naive possible extensions: 30 programs, 1000 with WEFT_LONG=1,
// or WEFT_UNFOLD_AWAIT of them.
func TestGeneratedAwait(t *testing.T) {
	programs := sweepSize(30, 1000, "WEFT_UNFOLD_AWAIT")
	checked, events, probes, dl := 0, 0, 0, 0
	for seed := uint64(0); checked < programs && seed < 1000000; seed++ {
		p := gen.NewWith(seed, gen.Sync)
		all := append([][]gen.Stmt{p.Main}, p.Threads...)
		use, ok := false, true
		for _, ss := range all {
			use = use || awaits(ss)
			ok = ok && only(ss, modelled, p.Chans)
		}
		if !use || !ok {
			continue
		}
		name := fmt.Sprintf("await seed %d", seed)
		st, blocked, ok, same := againstExhaustiveKinds(t, name, genweft.Body(p), unfold.Options{}, unfold.Options{Seed: int64(seed) + 1}, unfold.Options{Naive: true})
		if !ok {
			continue
		}
		checked++
		events += st.Events
		probes += st.Probes
		if blocked > 0 {
			dl++
		}
		if !same {
			t.Errorf("%s: failure kinds differ from exhaustive search's\n%v", name, p)
		}
	}
	if checked < programs {
		t.Errorf("checked %d programs, want %d", checked, programs)
	}
	t.Logf("%d programs, %d events, %d probes, %d that block", checked, events, probes, dl)
}

// awaits reports whether ss, or a statement in their bodies, is a w.Await
// (gen.Await with Val2 0; 1 is a loop that yields).
func awaits(ss []gen.Stmt) bool {
	for _, s := range ss {
		if s.Kind == gen.Await && s.Val2 == 0 || awaits(s.Body) || awaits(s.Child) {
			return true
		}
	}
	return false
}
