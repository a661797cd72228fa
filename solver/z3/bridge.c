// bridge.c implements batched Z3 C API calls with error capture for package
// z3: each helper runs within one cgo call, so the thread-local error
// recorded by the error handler belongs to that call.

#include <stdio.h>
#include <string.h>
#include "bridge.h"

static __thread Z3_error_code weft_err;

// weft_on_error records Z3 errors instead of letting Z3 abort the process.
static void weft_on_error(Z3_context ctx, Z3_error_code e) {
	(void)ctx;
	weft_err = e;
}

#define FAIL_IF_ERR(cleanup) do { if (weft_err != Z3_OK) { cleanup; return weft_err; } } while (0)

Z3_context weft_new_context(void) {
	Z3_config cfg = Z3_mk_config();
	if (cfg == NULL) {
		return NULL;
	}
	Z3_set_param_value(cfg, "model", "true");
	Z3_context ctx = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (ctx != NULL) {
		Z3_set_error_handler(ctx, weft_on_error);
	}
	return ctx;
}

// no_ctrl_c keeps Z3 from installing its SIGINT handler during a check
// (solver parameter ctrl_c): the Go runtime handles signals, and a handler
// installed by C code without SA_ONSTACK makes a SIGINT during a check a
// fatal error of the Go program ("non-Go code set up signal handler").
static void no_ctrl_c(Z3_context ctx, Z3_params p) {
	Z3_params_set_bool(ctx, p, Z3_mk_string_symbol(ctx, "ctrl_c"), false);
}

int weft_new_solver(Z3_context ctx, Z3_solver *out) {
	weft_err = Z3_OK;
	Z3_solver s = Z3_mk_solver(ctx);
	FAIL_IF_ERR((void)0);
	Z3_solver_inc_ref(ctx, s);
	Z3_params p = Z3_mk_params(ctx);
	FAIL_IF_ERR(Z3_solver_dec_ref(ctx, s));
	Z3_params_inc_ref(ctx, p);
	no_ctrl_c(ctx, p);
	if (weft_err == Z3_OK) {
		Z3_solver_set_params(ctx, s, p);
	}
	Z3_params_dec_ref(ctx, p);
	FAIL_IF_ERR(Z3_solver_dec_ref(ctx, s));
	*out = s;
	return weft_err;
}

void weft_del(Z3_context ctx, Z3_solver s) {
	weft_err = Z3_OK;
	if (s != NULL) {
		Z3_solver_dec_ref(ctx, s);
	}
	Z3_del_context(ctx);
}

int weft_set_timeout(Z3_context ctx, Z3_solver s, unsigned ms) {
	weft_err = Z3_OK;
	Z3_params p = Z3_mk_params(ctx);
	FAIL_IF_ERR((void)0);
	Z3_params_inc_ref(ctx, p);
	Z3_params_set_uint(ctx, p, Z3_mk_string_symbol(ctx, "timeout"), ms);
	no_ctrl_c(ctx, p);
	if (weft_err == Z3_OK) {
		Z3_solver_set_params(ctx, s, p);
	}
	Z3_params_dec_ref(ctx, p);
	return weft_err;
}

// sort returns a referenced sort of the given width (0: boolean).
static Z3_sort sort(Z3_context ctx, unsigned width) {
	Z3_sort s = width == 0 ? Z3_mk_bool_sort(ctx) : Z3_mk_bv_sort(ctx, width);
	if (weft_err == Z3_OK) {
		Z3_inc_ref(ctx, Z3_sort_to_ast(ctx, s));
	}
	return s;
}

static void unsort(Z3_context ctx, Z3_sort s) {
	Z3_dec_ref(ctx, Z3_sort_to_ast(ctx, s));
}

static Z3_ast leaf(Z3_context ctx, const weft_node *n, const char *names) {
	if (n->op == WEFT_CONST && n->width == 0) {
		return n->val ? Z3_mk_true(ctx) : Z3_mk_false(ctx);
	}
	Z3_sort s = sort(ctx, n->width);
	if (weft_err != Z3_OK) {
		return NULL;
	}
	Z3_ast r;
	if (n->op == WEFT_CONST) {
		r = Z3_mk_unsigned_int64(ctx, n->val, s);
	} else {
		r = Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, names + n->val), s);
	}
	unsort(ctx, s);
	return r;
}

static Z3_ast apply(Z3_context ctx, const weft_node *n, Z3_ast *out) {
	Z3_ast a = out[n->a], b = out[n->b], c = out[n->c];
	Z3_ast ab[2] = {a, b};
	int boolean = n->width == 0;
	switch (n->op) {
	case WEFT_ADD: return Z3_mk_bvadd(ctx, a, b);
	case WEFT_SUB: return Z3_mk_bvsub(ctx, a, b);
	case WEFT_MUL: return Z3_mk_bvmul(ctx, a, b);
	case WEFT_SDIV: return Z3_mk_bvsdiv(ctx, a, b);
	case WEFT_UDIV: return Z3_mk_bvudiv(ctx, a, b);
	case WEFT_SREM: return Z3_mk_bvsrem(ctx, a, b);
	case WEFT_UREM: return Z3_mk_bvurem(ctx, a, b);
	case WEFT_NEG: return Z3_mk_bvneg(ctx, a);
	case WEFT_AND: return boolean ? Z3_mk_and(ctx, 2, ab) : Z3_mk_bvand(ctx, a, b);
	case WEFT_OR: return boolean ? Z3_mk_or(ctx, 2, ab) : Z3_mk_bvor(ctx, a, b);
	case WEFT_XOR: return boolean ? Z3_mk_xor(ctx, a, b) : Z3_mk_bvxor(ctx, a, b);
	case WEFT_NOT: return boolean ? Z3_mk_not(ctx, a) : Z3_mk_bvnot(ctx, a);
	case WEFT_SHL: return Z3_mk_bvshl(ctx, a, b);
	case WEFT_LSHR: return Z3_mk_bvlshr(ctx, a, b);
	case WEFT_ASHR: return Z3_mk_bvashr(ctx, a, b);
	case WEFT_ZEXT: return Z3_mk_zero_ext(ctx, (unsigned)n->val, a);
	case WEFT_SEXT: return Z3_mk_sign_ext(ctx, (unsigned)n->val, a);
	case WEFT_EXTRACT: return Z3_mk_extract(ctx, (unsigned)n->val + n->width - 1, (unsigned)n->val, a);
	case WEFT_EQ: return Z3_mk_eq(ctx, a, b);
	case WEFT_NE: return Z3_mk_distinct(ctx, 2, ab);
	case WEFT_SLT: return Z3_mk_bvslt(ctx, a, b);
	case WEFT_SLE: return Z3_mk_bvsle(ctx, a, b);
	case WEFT_SGT: return Z3_mk_bvsgt(ctx, a, b);
	case WEFT_SGE: return Z3_mk_bvsge(ctx, a, b);
	case WEFT_ULT: return Z3_mk_bvult(ctx, a, b);
	case WEFT_ULE: return Z3_mk_bvule(ctx, a, b);
	case WEFT_UGT: return Z3_mk_bvugt(ctx, a, b);
	case WEFT_UGE: return Z3_mk_bvuge(ctx, a, b);
	case WEFT_IMPLIES: return Z3_mk_implies(ctx, a, b);
	case WEFT_ITE: return Z3_mk_ite(ctx, a, b, c);
	}
	weft_err = Z3_INVALID_ARG;
	return NULL;
}

void weft_release(Z3_context ctx, Z3_ast *asts, int n) {
	Z3_error_code saved = weft_err;
	for (int i = 0; i < n; i++) {
		if (asts[i] != NULL) {
			Z3_dec_ref(ctx, asts[i]);
			asts[i] = NULL;
		}
	}
	weft_err = saved;
}

// weft_build translates nodes into referenced Z3 terms in out. On error
// it releases what it built and reports the failing node in *failed.
int weft_build(Z3_context ctx, const weft_node *nodes, int n, const char *names, Z3_ast *out, int *failed) {
	weft_err = Z3_OK;
	for (int i = 0; i < n; i++) {
		const weft_node *nd = &nodes[i];
		Z3_ast r = (nd->op == WEFT_CONST || nd->op == WEFT_VAR) ? leaf(ctx, nd, names) : apply(ctx, nd, out);
		if (weft_err == Z3_OK && r == NULL) {
			weft_err = Z3_INVALID_ARG;
		}
		if (weft_err != Z3_OK) {
			*failed = i;
			weft_release(ctx, out, i);
			return weft_err;
		}
		Z3_inc_ref(ctx, r);
		out[i] = r;
	}
	return weft_err;
}

int weft_push(Z3_context ctx, Z3_solver s) {
	weft_err = Z3_OK;
	Z3_solver_push(ctx, s);
	return weft_err;
}

int weft_pop(Z3_context ctx, Z3_solver s) {
	weft_err = Z3_OK;
	Z3_solver_pop(ctx, s, 1);
	return weft_err;
}

// weft_make_tracks fills out[0..n) with fresh referenced boolean
// constants for tracking assertions in unsat cores.
int weft_make_tracks(Z3_context ctx, Z3_ast *out, int n) {
	weft_err = Z3_OK;
	Z3_sort b = sort(ctx, 0);
	FAIL_IF_ERR((void)0);
	for (int i = 0; i < n; i++) {
		Z3_ast p = Z3_mk_fresh_const(ctx, "weft!track", b);
		if (weft_err != Z3_OK) {
			break;
		}
		Z3_inc_ref(ctx, p);
		out[i] = p;
	}
	unsort(ctx, b);
	return weft_err;
}

// weft_assert asserts asts[roots[i]] for each i; if tracks is non-NULL,
// assertion i is tracked by the literal tracks[i] for unsat cores.
int weft_assert(Z3_context ctx, Z3_solver s, Z3_ast *asts, const int32_t *roots, int n, Z3_ast *tracks) {
	weft_err = Z3_OK;
	for (int i = 0; i < n && weft_err == Z3_OK; i++) {
		Z3_ast e = asts[roots[i]];
		if (tracks == NULL) {
			Z3_solver_assert(ctx, s, e);
		} else {
			Z3_solver_assert_and_track(ctx, s, e, tracks[i]);
		}
	}
	return weft_err;
}

int weft_check(Z3_context ctx, Z3_solver s, int *result) {
	weft_err = Z3_OK;
	*result = Z3_solver_check(ctx, s);
	return weft_err;
}

int weft_reason_unknown(Z3_context ctx, Z3_solver s, char *buf, int len) {
	weft_err = Z3_OK;
	Z3_string r = Z3_solver_get_reason_unknown(ctx, s);
	FAIL_IF_ERR((void)0);
	snprintf(buf, len, "%s", r);
	return weft_err;
}

// weft_model evaluates asts[vars[i]] in the current model into vals[i]
// (booleans as 0 or 1).
int weft_model(Z3_context ctx, Z3_solver s, Z3_ast *asts, const int32_t *vars, int n, uint64_t *vals) {
	weft_err = Z3_OK;
	Z3_model m = Z3_solver_get_model(ctx, s);
	FAIL_IF_ERR((void)0);
	Z3_model_inc_ref(ctx, m);
	for (int i = 0; i < n; i++) {
		Z3_ast v = NULL;
		if (!Z3_model_eval(ctx, m, asts[vars[i]], true, &v) || v == NULL) {
			if (weft_err == Z3_OK) {
				weft_err = Z3_INVALID_ARG;
			}
			break;
		}
		Z3_inc_ref(ctx, v);
		if (Z3_get_sort_kind(ctx, Z3_get_sort(ctx, v)) == Z3_BOOL_SORT) {
			vals[i] = Z3_get_bool_value(ctx, v) == Z3_L_TRUE;
		} else if (!Z3_get_numeral_uint64(ctx, v, &vals[i]) && weft_err == Z3_OK) {
			weft_err = Z3_INVALID_ARG;
		}
		Z3_dec_ref(ctx, v);
		if (weft_err != Z3_OK) {
			break;
		}
	}
	Z3_error_code e = weft_err;
	Z3_model_dec_ref(ctx, m);
	return e;
}

// weft_core stores in out the indices i of the tracks in the unsat core.
int weft_core(Z3_context ctx, Z3_solver s, Z3_ast *tracks, int n, int32_t *out, int *nout) {
	weft_err = Z3_OK;
	*nout = 0;
	Z3_ast_vector core = Z3_solver_get_unsat_core(ctx, s);
	FAIL_IF_ERR((void)0);
	Z3_ast_vector_inc_ref(ctx, core);
	unsigned size = Z3_ast_vector_size(ctx, core);
	for (unsigned k = 0; k < size && weft_err == Z3_OK; k++) {
		Z3_ast e = Z3_ast_vector_get(ctx, core, k);
		for (int i = 0; i < n; i++) {
			if (*nout < n && Z3_is_eq_ast(ctx, e, tracks[i])) {
				out[(*nout)++] = i;
				break;
			}
		}
	}
	Z3_error_code e = weft_err;
	Z3_ast_vector_dec_ref(ctx, core);
	return e;
}

// weft_probe checks that the solver still accepts a push and a pop, which
// fail once the context is left cancelled.
int weft_probe(Z3_context ctx, Z3_solver s) {
	weft_err = Z3_OK;
	Z3_solver_push(ctx, s);
	FAIL_IF_ERR((void)0);
	Z3_solver_pop(ctx, s, 1);
	return weft_err;
}

void weft_interrupt(Z3_context ctx) {
	Z3_interrupt(ctx);
}
