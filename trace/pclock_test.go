// This file tests persistent vector clocks against plain ones.

package trace

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPClockMatchesVC applies random sets, joins and minimums to persistent
// clocks and to vector clocks side by side, and compares every entry.
func TestPClockMatchesVC(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 300
	var ps []PClock
	var vs []VC
	ps, vs = append(ps, PClock{}), append(vs, make(VC, n))
	for step := range 3000 {
		a := r.IntN(len(ps))
		p, v := ps[a], slices.Clone(vs[a])
		switch r.IntN(4) {
		case 0, 1:
			// Small threads most of the time, some large ones.
			q := ThreadID(r.IntN(20))
			if r.IntN(4) == 0 {
				q = ThreadID(r.IntN(n))
			}
			x := uint32(r.IntN(1000))
			p, v[q] = p.Set(q, x), x
		case 2:
			b := r.IntN(len(ps))
			p = p.Join(ps[b])
			v.Join(vs[b])
		case 3:
			b := r.IntN(len(ps))
			p = p.Min(ps[b])
			for i := range v {
				v[i] = min(v[i], vs[b][i])
			}
		}
		for q := range n {
			if got := p.Get(ThreadID(q)); got != v[q] {
				t.Fatalf("step %d: entry %d = %d, want %d", step, q, got, v[q])
			}
		}
		if got := p.VC(n); !slices.Equal(got, v) {
			t.Fatalf("step %d: VC = %v, want %v", step, got, v)
		}
		if m := slices.Max(v); p.Max() != m {
			t.Fatalf("step %d: Max = %d, want %d", step, p.Max(), m)
		}
		if m := slices.Min(v[:n/2]); p.MinEntry(n/2) != m {
			t.Fatalf("step %d: MinEntry = %d, want %d", step, p.MinEntry(n/2), m)
		}
		if !p.Equal(PClockOf(v)) || !PClockOf(v).Equal(p) {
			t.Fatalf("step %d: Equal is false for equal clocks", step)
		}
		ps, vs = append(ps, p), append(vs, v)
	}
	for range 200 {
		a, b := r.IntN(len(ps)), r.IntN(len(ps))
		if got, want := ps[a].Equal(ps[b]), slices.Equal(vs[a], vs[b]); got != want {
			t.Fatalf("Equal(%d, %d) = %t, want %t", a, b, got, want)
		}
	}
}

// TestPClockShares checks that a join that changes nothing returns its
// operand, and that setting an entry to its value does too.
func TestPClockShares(t *testing.T) {
	var c PClock
	c = c.Set(3, 7).Set(200, 1)
	d := c.Set(5, 2)
	if !d.Join(c).Same(d) || !c.Join(d).Same(d) {
		t.Error("a join with a smaller clock is not the larger one")
	}
	if !c.Set(3, 7).Same(c) {
		t.Error("setting an entry to its value made a new clock")
	}
	if !c.Join(PClock{}).Same(c) {
		t.Error("a join with the zero clock made a new clock")
	}
	if got := c.Get(200); got != 1 {
		t.Errorf("Get(200) = %d, want 1", got)
	}
	if c.Knows(1, 200) || !c.Knows(0, 200) {
		t.Error("Knows disagrees with entry 200 = 1")
	}
}

// TestPClockOwnRun checks that the clocks of a thread's run of steps
// without synchronisation cost nothing once the thread's entry is held
// apart, and that joining two clocks of that run makes no new clock.
func TestPClockOwnRun(t *testing.T) {
	var c PClock
	for q := range ThreadID(300) {
		c = c.Set(q, uint32(q)+1)
	}
	c = c.Set(200, 400)
	prev := c
	allocs := testing.AllocsPerRun(100, func() { c = c.Set(200, c.Get(200)+1) })
	if allocs != 0 {
		t.Errorf("a set of the entry held apart allocated %v times, want 0", allocs)
	}
	if j := c.Join(prev); !j.Same(c) {
		t.Error("joining a later clock of the run with an earlier one made a new clock")
	}
	if j := prev.Join(c); !j.Same(c) {
		t.Error("joining an earlier clock of the run with a later one made a new clock")
	}
	if got := c.Get(200); got != 501 {
		t.Errorf("Get(200) = %d, want 501", got)
	}
	if got := c.VC(300)[200]; got != 501 {
		t.Errorf("VC entry 200 = %d, want 501", got)
	}
}

// TestPClockMinShares checks that the minimum of two clocks, one below the
// other, is the smaller one's tree and allocates nothing; and that the
// minimum of two that cross is their pointwise minimum.
func TestPClockMinShares(t *testing.T) {
	v := make(VC, 300)
	for q := range v {
		v[q] = uint32(q%7 + 1)
	}
	// Flat: Min puts an entry held apart into the tree first.
	small := PClockOf(v).flat()
	w := slices.Clone(v)
	w[250] += 5
	big := PClockOf(w).flat()
	var m PClock
	if n := testing.AllocsPerRun(10, func() { m = small.Min(big) }); n != 0 {
		t.Errorf("Min of a clock and a larger one allocates %v times, want 0", n)
	}
	if !m.Same(small) {
		t.Error("Min of a clock and a larger one is not the smaller one")
	}
	if m = big.Min(small); !m.Same(small) {
		t.Error("Min of a larger clock and a smaller one is not the smaller one")
	}
	x := slices.Clone(v)
	x[10]++
	y := slices.Clone(v)
	y[290]++
	if got := PClockOf(x).Min(PClockOf(y)); !got.Equal(small) || got.Max() != 7 {
		t.Errorf("Min of crossing clocks: %v (max %d), want %v (max 7)", got.VC(300), got.Max(), v)
	}
}
