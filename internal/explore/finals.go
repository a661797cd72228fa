// This file counts the distinct final states of complete executions
// (weft.Result.FinalStates), naming variables by the runtime's keys with the
// key merges of the whole exploration applied.

package explore

import (
	"bytes"
	"encoding/gob"
	"fmt"

	"github.com/weft-go/weft/trace"
)

// keyValue is a variable's key and its final value.
type keyValue struct{ key, value uint64 }

// FinalStates collects the distinct final states of an exploration.
//
// A variable created during an execution is named by a key, and two keys
// that turn out to name one variable are merged by a later execution
// (trace.Trace.Merged): until then, one final state can appear under two
// hashes. So the states are kept, one per hash, and hashed again with every
// merge applied when counted.
type FinalStates struct {
	states map[uint64][]keyValue // the first state seen with each hash
	merged map[uint64]uint64     // key -> the older key it was merged into
	// remerge is set when a merge came after states were hashed.
	remerge bool
	seen    []bool // scratch: the variables whose last event was found
	kv      []keyValue
	// known caches hashes found in states, by their low bits: most
	// executions end in a state seen before, which Add then finds without
	// a map access. It has knownFew slots once Add has run, and knownSlots
	// from the knownSlots-th Add (adds counts them): a parallel
	// exploration tallies each batch of a few executions apart.
	known []uint64
	adds  int
}

// knownFew and knownSlots are the numbers of hashes FinalStates.known
// caches at first and once many executions were added.
const (
	knownFew   = 64
	knownSlots = 1024
)

// Merges notes the key merges of tr; call it for every execution.
func (f *FinalStates) Merges(tr *trace.Trace) {
	for _, m := range tr.Merged {
		f.union(m.From, m.To)
	}
}

// union notes that keys a and b name one variable: the younger of the keys
// they resolve to stands for the older from now on. (A merge found by one
// runtime of a parallel exploration can join keys another merged
// otherwise, so a key may be merged twice.)
func (f *FinalStates) union(a, b uint64) {
	a, b = f.resolve(a), f.resolve(b)
	if a == b {
		return
	}
	if a > b {
		a, b = b, a
	}
	if f.merged == nil {
		f.merged = make(map[uint64]uint64)
	}
	f.merged[b] = a
	f.remerge = f.remerge || len(f.states) > 0
}

// Add records the final state of tr, a complete execution: the value of
// each variable's last event.
func (f *FinalStates) Add(tr *trace.Trace) {
	n := len(tr.Objects)
	if cap(f.seen) < n {
		f.seen = make([]bool, n)
	}
	s := f.seen[:n]
	clear(s)
	f.kv = f.kv[:0]
	for i := len(tr.Events) - 1; i >= 0; i-- {
		ev := &tr.Events[i]
		if ev.Op.Class != trace.ClassVar || s[ev.Op.Obj] {
			continue
		}
		s[ev.Op.Obj] = true
		f.kv = append(f.kv, keyValue{f.resolve(tr.Objects[ev.Op.Obj].Key), ev.Value})
	}
	h := hashState(f.kv)
	f.adds++
	switch {
	case f.known == nil:
		f.known = make([]uint64, knownFew)
	case f.adds == knownSlots:
		f.known = make([]uint64, knownSlots) // empty: a cache only
	}
	slot := &f.known[h&uint64(len(f.known)-1)] // a power of two
	if *slot == h && h != 0 {
		return // (an empty slot holds 0, which is no hash it caches)
	}
	if f.states == nil {
		f.states = make(map[uint64][]keyValue)
	}
	if _, ok := f.states[h]; !ok {
		f.states[h] = append([]keyValue(nil), f.kv...)
	}
	*slot = h
}

// Count returns the number of distinct final states, with every key merge
// known applied.
func (f *FinalStates) Count() int {
	if !f.remerge {
		return len(f.states)
	}
	distinct := make(map[uint64]struct{}, len(f.states))
	for _, kv := range f.states {
		for i := range kv {
			kv[i].key = f.resolve(kv[i].key)
		}
		distinct[hashState(kv)] = struct{}{}
	}
	return len(distinct)
}

// resolve follows the merges of key k to the key that names its variable.
func (f *FinalStates) resolve(k uint64) uint64 {
	for len(f.merged) > 0 {
		to, ok := f.merged[k]
		if !ok {
			break
		}
		k = to
	}
	return k
}

// hashState hashes a final state: a sum of mixed (key, value) pairs, so the
// order of the pairs does not matter.
func hashState(kv []keyValue) uint64 {
	var h uint64
	for _, p := range kv {
		h += trace.Mix(p.key*0x9e3779b97f4a7c15 ^ trace.Mix(p.value))
	}
	return h
}

// Merge adds the states and key merges of o to f.
func (f *FinalStates) Merge(o *FinalStates) {
	for from, to := range o.merged {
		f.union(from, to)
	}
	for h, kv := range o.states {
		if f.states == nil {
			f.states = make(map[uint64][]keyValue)
		}
		if _, ok := f.states[h]; !ok {
			f.states[h] = append([]keyValue(nil), kv...)
		}
	}
	// The states of either may have been hashed before a merge the other
	// knows: count hashes them again.
	f.remerge = f.remerge || o.remerge || (len(f.merged) > 0 && len(f.states) > 0)
}

// finalsWire is FinalStates as encoding/gob sees it: each state's (key,
// value) pairs, flattened, by hash, and the key merges.
type finalsWire struct {
	States  map[uint64][]uint64
	Merged  map[uint64]uint64
	Remerge bool
}

// GobEncode implements gob.GobEncoder, for the results of parts of an
// exploration explored in other processes.
func (f *FinalStates) GobEncode() ([]byte, error) {
	w := finalsWire{States: make(map[uint64][]uint64, len(f.states)), Merged: f.merged, Remerge: f.remerge}
	for h, kv := range f.states {
		flat := make([]uint64, 0, 2*len(kv))
		for _, p := range kv {
			flat = append(flat, p.key, p.value)
		}
		w.States[h] = flat
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&w); err != nil {
		return nil, fmt.Errorf("encoding final states: %w", err)
	}
	return buf.Bytes(), nil
}

// GobDecode implements gob.GobDecoder.
func (f *FinalStates) GobDecode(b []byte) error {
	var w finalsWire
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return fmt.Errorf("decoding final states: %w", err)
	}
	*f = FinalStates{merged: w.Merged, remerge: w.Remerge}
	if len(w.States) > 0 {
		f.states = make(map[uint64][]keyValue, len(w.States))
	}
	for h, flat := range w.States {
		if len(flat)%2 != 0 {
			return fmt.Errorf("decoding final states: a state of %d numbers, not (key, value) pairs", len(flat))
		}
		kv := make([]keyValue, len(flat)/2)
		for i := range kv {
			kv[i] = keyValue{flat[2*i], flat[2*i+1]}
		}
		f.states[h] = kv
	}
	return nil
}
