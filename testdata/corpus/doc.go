// Package corpus holds small concurrent programs written as ordinary Go,
// each with a bug and its fix, and their ordinary tests: weft test must
// find each bug, at the line its "want" comment marks, and pass each fix.
//
// A comment "// want TestName: kind" marks the line of the failing
// operation of TestName's bug and the kind of failure weft reports.
package corpus
