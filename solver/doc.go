// Package solver is weft's symbolic layer for concolic testing: a term
// language for Go's fixed-size integer arithmetic (Expr), the Solver
// interface that decides conjunctions of such terms, and Cached, a wrapper
// that splits queries into independent parts and caches answers. The Z3
// backend lives in package github.com/weft-go/weft/solver/z3.
//
// # Terms
//
// An Expr is a bit-vector of width 1..64 or a boolean (Width 0). Leaves
// are constants (Const, Bool, True, False) and variables (Var, BoolVar);
// operators follow Go's integer semantics:
//
//	Add Sub Mul Neg                 wrap around at the width, as in Go
//	SDiv SRem / UDiv URem           Go's / and % on signed / unsigned types
//	And Or Xor Not                  & | ^ ^x on bit-vectors; && || != ! on booleans
//	Shl LShr AShr                   <<, >> on unsigned, >> on signed types
//	ZeroExt SignExt Extract Trunc   integer conversions
//	Eq Ne Slt Sle Sgt Sge Ult ...   comparisons, giving booleans
//	Implies Ite                     boolean implication, if-then-else
//
// Operands of binary operators have equal widths; constructors panic on
// ill-sorted arguments, which are programming errors. Shift counts have the
// width of the shifted value and are read as unsigned: convert Go's shift
// count first (a count that does not fit the width should be clamped by
// the caller, e.g. with Ite, since truncation would change its value).
//
// Division by zero panics in Go, so the concolic layer checks the divisor
// before building a term; in terms it follows SMT-LIB: UDiv(x, 0) is all
// ones, URem(x, 0) is x, SDiv(x, 0) is -1 for x >= 0 and 1 for x < 0, and
// SRem(x, 0) is x. minInt / -1 wraps to minInt and minInt % -1 is 0, as in
// Go.
//
// Exprs are immutable and hash-consed (with package unique): structurally
// equal terms are ==, usable as map keys, and shared sub-terms are stored
// once. Constructors fold constant operands with exactly the semantics of
// Eval and apply a few identities (x+0, x*1, x&0, !!p, true&&p, ...), so a
// term without variables is always a constant. String prints a term in
// infix form, e.g. "(x + 1:8) <s y" (constants as value:width).
//
// Eval evaluates a term under a Model, Vars and VarWidths list its
// variables, and Satisfies checks a model against constraints.
//
// # Wire form
//
// EncodeExprs writes a list of terms as bytes another process decodes to
// the same terms (DecodeExprs): a version byte, the distinct sub-terms in
// an order where operands come first (operator, width, constant, name or
// lowest bit, and operands as references to earlier sub-terms), then the
// terms as references. Shared sub-terms are written once. Decoding checks
// what the constructors check (operators, widths, sorts) and that every
// reference points back; bytes that are not such a form give an error
// wrapping ErrCorruptExpr. An Expr is also an encoding.BinaryMarshaler,
// so encoding/gob encodes it as a field.
//
// # Solving
//
// A Solver decides the conjunction of boolean constraints:
//
//	s, err := z3.New(z3.WithTimeout(2 * time.Second))
//	if err != nil {
//		return err // wraps solver.ErrUnavailable if Z3 cannot be used
//	}
//	defer s.Close()
//	x := solver.Var("x", 32) // an int32 input
//	zero, seven := solver.Const(0, 32), solver.Const(7, 32)
//	r, err := s.Check(ctx, []solver.Expr{
//		solver.Slt(x, zero),                    // x < 0
//		solver.Eq(solver.SRem(x, seven), zero), // x%7 == 0
//	})
//	switch {
//	case errors.Is(err, solver.ErrTimeout):
//		// r.Status is Unknown: give up on this branch for now.
//	case err != nil:
//		return err
//	case r.Status == solver.Sat:
//		fmt.Println(int32(r.Model["x"])) // e.g. -7
//	}
//
// Check never answers Unsat when it runs out of time: it returns Unknown
// and an error wrapping ErrTimeout (and, for a context deadline,
// context.DeadlineExceeded). CheckCore additionally returns, for Unsat,
// the indices of an unsatisfiable subset of the constraints.
//
// # Caching and slicing
//
// In concolic testing each query is a path prefix, which the current
// input satisfies, plus one negated branch condition. Cached exploits
// this:
//
//	cs := solver.NewCached(z3Solver, solver.CacheOptions{})
//	query := append(pathConstraints, solver.Not(branch))
//	r, err := cs.CheckWithBase(ctx, currentInput, query)
//	// r.Model: the current input, with the variables related to the
//	// negated branch changed to take it.
//
// The query is split into groups of constraints that share no variables
// (Components; Slice returns the group of one constraint). Groups that the
// base model already satisfies are not solved; every other group is
// looked up in an LRU cache under its canonical Key, and only misses go to
// the backend. Stats counts queries, outcomes, cache hits and backend
// time.
package solver
