// bridge.h declares the C helpers that batch Z3 C API calls for package z3.

#ifndef WEFT_Z3_BRIDGE_H
#define WEFT_Z3_BRIDGE_H

#include <stdint.h>
#include <z3.h>

// Operator codes of weft_node, mapped from solver.Op on the Go side.
enum {
	WEFT_CONST = 1, WEFT_VAR,
	WEFT_ADD, WEFT_SUB, WEFT_MUL, WEFT_SDIV, WEFT_UDIV, WEFT_SREM, WEFT_UREM,
	WEFT_NEG, WEFT_AND, WEFT_OR, WEFT_XOR, WEFT_NOT,
	WEFT_SHL, WEFT_LSHR, WEFT_ASHR,
	WEFT_ZEXT, WEFT_SEXT, WEFT_EXTRACT,
	WEFT_EQ, WEFT_NE, WEFT_SLT, WEFT_SLE, WEFT_SGT, WEFT_SGE,
	WEFT_ULT, WEFT_ULE, WEFT_UGT, WEFT_UGE,
	WEFT_IMPLIES, WEFT_ITE
};

// weft_node is one term in post-order: operands a, b, c index earlier
// nodes. val is the constant value, the variable name's offset in the
// names buffer, the number of extension bits, or the low extract bit.
typedef struct {
	uint64_t val;
	uint32_t a, b, c;
	uint8_t op;
	uint8_t width; // 0 for booleans
} weft_node;

Z3_context weft_new_context(void);
int weft_new_solver(Z3_context ctx, Z3_solver *out);
void weft_del(Z3_context ctx, Z3_solver s);
int weft_set_timeout(Z3_context ctx, Z3_solver s, unsigned ms);
int weft_build(Z3_context ctx, const weft_node *nodes, int n, const char *names, Z3_ast *out, int *failed);
int weft_push(Z3_context ctx, Z3_solver s);
int weft_pop(Z3_context ctx, Z3_solver s);
int weft_make_tracks(Z3_context ctx, Z3_ast *out, int n);
int weft_assert(Z3_context ctx, Z3_solver s, Z3_ast *asts, const int32_t *roots, int n, Z3_ast *tracks);
int weft_check(Z3_context ctx, Z3_solver s, int *result);
int weft_reason_unknown(Z3_context ctx, Z3_solver s, char *buf, int len);
int weft_model(Z3_context ctx, Z3_solver s, Z3_ast *asts, const int32_t *vars, int n, uint64_t *vals);
int weft_core(Z3_context ctx, Z3_solver s, Z3_ast *tracks, int n, int32_t *out, int *nout);
void weft_release(Z3_context ctx, Z3_ast *asts, int n);
int weft_probe(Z3_context ctx, Z3_solver s);
void weft_interrupt(Z3_context ctx);

#endif
