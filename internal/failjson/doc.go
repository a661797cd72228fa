// Package failjson defines the JSON form of a failure's interleaving and
// of the threads it left blocked, which weft run -json prints in its
// summary and weft test -json adds to a failing test's event: one
// definition for both, and for the files Check writes for weft test.
package failjson
