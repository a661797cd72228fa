// This file implements Key, the canonical cache key of a constraint set.

package solver

import (
	"encoding/binary"
	"slices"
)

// Key returns a canonical binary string identifying the set of
// constraints: duplicates and order do not matter (up to hash collisions,
// which only cost cache hits), and distinct sets never share a key. The
// encoding is prefix-free and writes each shared sub-term once, so its
// size is linear in the number of distinct sub-terms.
func Key(constraints []Expr) string {
	cs := slices.Clone(constraints)
	slices.SortStableFunc(cs, func(a, b Expr) int {
		ha, hb := a.Hash(), b.Hash()
		switch {
		case ha < hb:
			return -1
		case ha > hb:
			return 1
		}
		return 0
	})
	cs = slices.Compact(cs)
	enc := keyEncoder{ids: make(map[Expr]uint64)}
	for _, c := range cs {
		enc.encode(c)
	}
	return string(enc.buf)
}

// backref marks a reference to an already-encoded sub-term; Op values are
// far below it.
const backref = 0xff

type keyEncoder struct {
	buf []byte
	ids map[Expr]uint64
}

func (k *keyEncoder) encode(e Expr) {
	if id, ok := k.ids[e]; ok {
		k.buf = append(k.buf, backref)
		k.buf = binary.AppendUvarint(k.buf, id)
		return
	}
	n := e.n()
	k.buf = append(k.buf, byte(n.op), n.width)
	switch n.op {
	case OpConst, OpExtract:
		k.buf = binary.AppendUvarint(k.buf, n.val)
	case OpVar:
		k.buf = binary.AppendUvarint(k.buf, uint64(len(n.name)))
		k.buf = append(k.buf, n.name...)
	}
	for i := 0; i < int(n.nargs); i++ {
		k.encode(Expr{n.args[i]})
	}
	k.ids[e] = uint64(len(k.ids))
}
