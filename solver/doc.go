// Package solver is weft's symbolic layer: bit-vector and boolean terms
// (Expr), the Solver interface that decides conjunctions of them, and a
// caching, slicing wrapper (Cached). The Z3 backend lives in package
// github.com/weft-go/weft/solver/z3.
package solver
