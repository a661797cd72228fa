// Package wire writes and reads compact binary forms: numbers as varints,
// bools as a byte, bytes and strings after their length. The units of
// work, handbacks and letters of package optimal travel in such forms
// between the workers of a parallel exploration, and between processes,
// at every split and join, where encoding/gob would describe and compile
// their types anew for each one.
//
// A form is written by appending to a byte slice and read back, in the
// same order, by a Reader, which checks every read: a corrupt or
// truncated form gives an error wrapping ErrCorrupt, never a panic nor a
// large allocation.
//
//	b := wire.AppendInt(nil, -3)
//	b = wire.AppendString(b, "weft")
//	r := wire.NewReader(b)
//	n, s := r.Int(), r.String()
//	if err := r.Done(); err != nil {
//		// corrupt
//	}
package wire
