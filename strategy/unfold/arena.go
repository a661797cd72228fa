// This file implements the arenas the unfolding's slices of fixed size
// (presets, postsets, fronts) are cut from: one allocation per block of
// them instead of one per slice.

package unfold

// arenaBlock is the number of elements of an arena's block.
const arenaBlock = 1 << 13

// arena hands out slices cut from blocks of elements. A slice it returns
// has no room past its length: appending to it reallocates it and leaves
// the arena alone.
type arena[T any] struct{ buf []T }

// clone returns a copy of xs cut from the arena (nil if xs is empty).
func (a *arena[T]) clone(xs []T) []T {
	if len(xs) == 0 {
		return nil
	}
	if cap(a.buf)-len(a.buf) < len(xs) {
		a.buf = make([]T, 0, max(arenaBlock, len(xs)))
	}
	i := len(a.buf)
	a.buf = append(a.buf, xs...)
	return a.buf[i:len(a.buf):len(a.buf)]
}

// alloc returns n zero elements cut from the arena.
func (a *arena[T]) alloc(n int) []T {
	if n == 0 {
		return nil
	}
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]T, 0, max(arenaBlock, n))
	}
	i := len(a.buf)
	a.buf = a.buf[:i+n]
	clear(a.buf[i:])
	return a.buf[i : i+n : i+n]
}
