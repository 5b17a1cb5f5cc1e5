/* patterns.c: the arith canonicalization patterns of MLIR 19
 * (ArithCanonicalization.td and the C++ patterns of ArithOps.cpp), one
 * function each, with MLIR's matching rules: "constant" operands are
 * ConstantLike ops holding a scalar integer attribute unless a pattern says
 * splats count too; new ops replace the root and carry the merged overflow
 * flags where MLIR merges them.
 */
#include <math.h>

#include "arith-internal.h"

#define PATTERN(name) ARITH_DEFINE_PATTERN(name)

/* --- helpers ------------------------------------------------------------------------------------------ */

static nc_value *opd(const nc_op *op, size_t i) { return nc_op_get_operand(op, i); }
static nc_type *result_type(const nc_op *op) { return nc_value_get_type(nc_op_get_result(op, 0)); }

/* ConstantLikeMatcher APIntAttr: a constant holding a scalar integer attribute. */
static bool const_int(nc_value *v, nc_attr **a)
{
  nc_attr *c = nc_value_get_constant(v);
  if (!c || nc_attr_get_kind(c) != NC_ATTR_INTEGER)
    return false;
  *a = c;
  return true;
}

/* getIntOrSplatIntValue(...) == -1 on any constant. */
static bool const_all_ones(nc_value *v) { return arith_attr_is_all_ones(nc_value_get_constant(v)); }

/* The constant `value`, placed where the driver keeps constants. */
static nc_value *constant(nc_rewriter *rw, nc_op *root, nc_attr *value)
{
  return value ? nc_arith_create_constant(rw, value, nc_op_get_loc(root)) : NULL;
}

/* An integer attribute of `type` from two integer attributes combined with `fn` (APInt add/sub/mul). */
enum { ADD, SUB, MUL };
static nc_attr *int_attr(nc_rewriter *rw, nc_type *type, nc_attr *a, nc_attr *b, int fn)
{
  uint64_t x = (uint64_t)nc_attr_get_int(a), y = (uint64_t)nc_attr_get_int(b);
  uint64_t r = fn == ADD ? x + y : fn == SUB ? x - y : x * y;
  return nc_attr_integer(nc_rewriter_get_context(rw), type, (int64_t)r);
}

/* Creates arith op `id` with `n` operands and result type `type` before the root. */
static nc_op *create(nc_rewriter *rw, nc_op *root, enum arith_op_id id, size_t n, nc_value *const *operands,
                     nc_type *type, size_t n_attrs, const nc_named_attr *attrs)
{
  return nc_rewriter_create(rw, &(nc_op_state){.ctx = nc_rewriter_get_context(rw), .name = nc_arith_ops[id].name,
                                               .loc = nc_op_get_loc(root), .n_operands = n, .operands = operands,
                                               .n_results = 1, .result_types = &type, .n_attrs = n_attrs,
                                               .attrs = attrs});
}

/* Replaces the root by a new integer binary op with overflow flags (addi, subi, muli). */
static bool replace_ovf(nc_rewriter *rw, nc_op *root, enum arith_op_id id, nc_value *a, nc_value *b, unsigned flags)
{
  if (!a || !b)
    return false;
  nc_context *ctx = nc_rewriter_get_context(rw);
  nc_named_attr ovf = {nc_ident_get_cstr(ctx, "overflowFlags"), nc_arith_overflow_attr(ctx, flags)};
  nc_op *n = create(rw, root, id, 2, (nc_value *[]){a, b}, result_type(root), 1, &ovf);
  if (!n)
    return false;
  nc_rewriter_replace_op_with_op(rw, root, n);
  return true;
}

static unsigned ovf(const nc_op *op) { return nc_arith_get_overflow_flags(op); }

/* Replaces the root by a new op `id` of the root's result type. */
static bool replace_new(nc_rewriter *rw, nc_op *root, enum arith_op_id id, size_t n, nc_value *const *operands,
                        size_t n_attrs, const nc_named_attr *attrs)
{
  nc_op *op = create(rw, root, id, n, operands, result_type(root), n_attrs, attrs);
  if (!op)
    return false;
  nc_rewriter_replace_op_with_op(rw, root, op);
  return true;
}

static bool replace_value(nc_rewriter *rw, nc_op *root, nc_value *v)
{
  if (!v)
    return false;
  nc_rewriter_replace_op(rw, root, &v);
  return true;
}

/* Replaces the root by a cast `name` of `in` to the root's type. */
static bool replace_cast(nc_rewriter *rw, nc_op *root, enum arith_op_id id, nc_value *in)
{
  return in && replace_value(rw, root, nc_arith_create_cast(rw, nc_arith_ops[id].name, in, result_type(root),
                                                            nc_op_get_loc(root)));
}

/* Replaces the root (an i1 or shaped i1) by `cmpi pred, a, b`. */
static bool replace_cmpi(nc_rewriter *rw, nc_op *root, int64_t pred, nc_value *a, nc_value *b)
{
  return replace_value(rw, root, nc_arith_create_cmpi(rw, (nc_arith_cmpi_predicate)pred, a, b, nc_op_get_loc(root)));
}

/* --- addi ------------------------------------------------------------------------------------------------ */

/* addi(addi(x, c0), c1) -> addi(x, c0 + c1) */
PATTERN(addi_add_constant)
{
  nc_op *inner = arith_def(opd(op, 0), ARITH_ADDI);
  nc_attr *c0, *c1;
  if (!inner || !const_int(opd(inner, 1), &c0) || !const_int(opd(op, 1), &c1))
    return false;
  nc_value *c = constant(rw, op, int_attr(rw, result_type(op), c0, c1, ADD));
  return replace_ovf(rw, op, ARITH_ADDI, opd(inner, 0), c, ovf(inner) & ovf(op));
}

/* addi(subi(x, c0), c1) -> addi(x, c1 - c0) */
PATTERN(addi_sub_constant_rhs)
{
  nc_op *inner = arith_def(opd(op, 0), ARITH_SUBI);
  nc_attr *c0, *c1;
  if (!inner || !const_int(opd(inner, 1), &c0) || !const_int(opd(op, 1), &c1))
    return false;
  nc_value *c = constant(rw, op, int_attr(rw, result_type(op), c1, c0, SUB));
  return replace_ovf(rw, op, ARITH_ADDI, opd(inner, 0), c, ovf(inner) & ovf(op));
}

/* addi(subi(c0, x), c1) -> subi(c0 + c1, x) */
PATTERN(addi_sub_constant_lhs)
{
  nc_op *inner = arith_def(opd(op, 0), ARITH_SUBI);
  nc_attr *c0, *c1;
  if (!inner || !const_int(opd(inner, 0), &c0) || !const_int(opd(op, 1), &c1))
    return false;
  nc_value *c = constant(rw, op, int_attr(rw, result_type(op), c0, c1, ADD));
  return replace_ovf(rw, op, ARITH_SUBI, c, opd(inner, 1), ovf(inner) & ovf(op));
}

/* addi(x, muli(y, -1)) -> subi(x, y) */
PATTERN(addi_mul_negative_one_rhs)
{
  nc_op *mul = arith_def(opd(op, 1), ARITH_MULI);
  if (!mul || !const_all_ones(opd(mul, 1)))
    return false;
  return replace_ovf(rw, op, ARITH_SUBI, opd(op, 0), opd(mul, 0), 0);
}

/* addi(muli(x, -1), y) -> subi(y, x) */
PATTERN(addi_mul_negative_one_lhs)
{
  nc_op *mul = arith_def(opd(op, 0), ARITH_MULI);
  if (!mul || !const_all_ones(opd(mul, 1)))
    return false;
  return replace_ovf(rw, op, ARITH_SUBI, opd(op, 1), opd(mul, 0), 0);
}

/* --- subi ------------------------------------------------------------------------------------------------- */

/* subi(addi(x, c0), c1) -> addi(x, c0 - c1) (flags dropped, as in MLIR) */
PATTERN(subi_rhs_add_constant)
{
  nc_op *inner = arith_def(opd(op, 0), ARITH_ADDI);
  nc_attr *c0, *c1;
  if (!inner || !const_int(opd(inner, 1), &c0) || !const_int(opd(op, 1), &c1))
    return false;
  nc_value *c = constant(rw, op, int_attr(rw, result_type(op), c0, c1, SUB));
  return replace_ovf(rw, op, ARITH_ADDI, opd(inner, 0), c, 0);
}

/* subi(c1, addi(x, c0)) -> subi(c1 - c0, x) */
PATTERN(subi_lhs_add_constant)
{
  nc_op *inner = arith_def(opd(op, 1), ARITH_ADDI);
  nc_attr *c0, *c1;
  if (!inner || !const_int(opd(op, 0), &c1) || !const_int(opd(inner, 1), &c0))
    return false;
  nc_value *c = constant(rw, op, int_attr(rw, result_type(op), c1, c0, SUB));
  return replace_ovf(rw, op, ARITH_SUBI, c, opd(inner, 0), ovf(inner) & ovf(op));
}

/* subi(subi(x, c0), c1) -> subi(x, c0 + c1) */
PATTERN(subi_rhs_sub_constant_rhs)
{
  nc_op *inner = arith_def(opd(op, 0), ARITH_SUBI);
  nc_attr *c0, *c1;
  if (!inner || !const_int(opd(inner, 1), &c0) || !const_int(opd(op, 1), &c1))
    return false;
  nc_value *c = constant(rw, op, int_attr(rw, result_type(op), c0, c1, ADD));
  return replace_ovf(rw, op, ARITH_SUBI, opd(inner, 0), c, ovf(inner) & ovf(op));
}

/* subi(subi(c0, x), c1) -> subi(c0 - c1, x) */
PATTERN(subi_rhs_sub_constant_lhs)
{
  nc_op *inner = arith_def(opd(op, 0), ARITH_SUBI);
  nc_attr *c0, *c1;
  if (!inner || !const_int(opd(inner, 0), &c0) || !const_int(opd(op, 1), &c1))
    return false;
  nc_value *c = constant(rw, op, int_attr(rw, result_type(op), c0, c1, SUB));
  return replace_ovf(rw, op, ARITH_SUBI, c, opd(inner, 1), ovf(inner) & ovf(op));
}

/* subi(c1, subi(x, c0)) -> subi(c0 + c1, x) */
PATTERN(subi_lhs_sub_constant_rhs)
{
  nc_op *inner = arith_def(opd(op, 1), ARITH_SUBI);
  nc_attr *c0, *c1;
  if (!inner || !const_int(opd(op, 0), &c1) || !const_int(opd(inner, 1), &c0))
    return false;
  nc_value *c = constant(rw, op, int_attr(rw, result_type(op), c0, c1, ADD));
  return replace_ovf(rw, op, ARITH_SUBI, c, opd(inner, 0), ovf(inner) & ovf(op));
}

/* subi(c1, subi(c0, x)) -> addi(x, c1 - c0) */
PATTERN(subi_lhs_sub_constant_lhs)
{
  nc_op *inner = arith_def(opd(op, 1), ARITH_SUBI);
  nc_attr *c0, *c1;
  if (!inner || !const_int(opd(op, 0), &c1) || !const_int(opd(inner, 0), &c0))
    return false;
  nc_value *c = constant(rw, op, int_attr(rw, result_type(op), c1, c0, SUB));
  return replace_ovf(rw, op, ARITH_ADDI, opd(inner, 1), c, ovf(inner) & ovf(op));
}

/* subi(subi(a, b), a) -> subi(0, b) */
PATTERN(subi_sub_lhs_rhs_lhs)
{
  nc_op *inner = arith_def(opd(op, 0), ARITH_SUBI);
  if (!inner || opd(inner, 0) != opd(op, 1))
    return false;
  nc_value *b = opd(inner, 1);
  nc_attr *zero = arith_zero_attr(nc_rewriter_get_context(rw), nc_value_get_type(b));
  if (!zero)
    return false;
  return replace_ovf(rw, op, ARITH_SUBI, constant(rw, op, zero), b, ovf(inner) & ovf(op));
}

/* --- muli -------------------------------------------------------------------------------------------------- */

/* muli(muli(x, c0), c1) -> muli(x, c0 * c1) */
PATTERN(muli_muli_constant)
{
  nc_op *inner = arith_def(opd(op, 0), ARITH_MULI);
  nc_attr *c0, *c1;
  if (!inner || !const_int(opd(inner, 1), &c0) || !const_int(opd(op, 1), &c1))
    return false;
  if (nc_attr_get_type(c0) != result_type(op) || nc_attr_get_type(c1) != result_type(op))
    return false;
  nc_value *c = constant(rw, op, int_attr(rw, result_type(op), c0, c1, MUL));
  return replace_ovf(rw, op, ARITH_MULI, opd(inner, 0), c, ovf(inner) & ovf(op));
}

/* --- xori, andi, ori --------------------------------------------------------------------------------------- */

/* xori(cmpi(pred, a, b), true) -> cmpi(!pred, a, b) */
PATTERN(xori_not_cmpi)
{
  nc_op *cmp = arith_def(opd(op, 0), ARITH_CMPI);
  nc_attr *one = nc_value_get_constant(opd(op, 1));
  if (!cmp || one != nc_attr_bool(nc_rewriter_get_context(rw), true))
    return false;
  int64_t pred = arith_cmpi_invert(nc_attr_get_int(nc_op_get_attr_str(cmp, "predicate")));
  return replace_cmpi(rw, op, pred, opd(cmp, 0), opd(cmp, 1));
}

/* op(ext(x), ext(y)) -> ext(op(x, y)) when x and y have one type. */
static bool hoist_ext(nc_op *op, nc_rewriter *rw, enum arith_op_id bin, enum arith_op_id ext)
{
  nc_op *a = arith_def(opd(op, 0), ext), *b = arith_def(opd(op, 1), ext);
  if (!a || !b || nc_value_get_type(opd(a, 0)) != nc_value_get_type(opd(b, 0)))
    return false;
  nc_value *inner = nc_arith_create_binary(rw, nc_arith_ops[bin].name, opd(a, 0), opd(b, 0), nc_op_get_loc(op));
  return replace_cast(rw, op, ext, inner);
}

PATTERN(xori_of_extui) { return hoist_ext(op, rw, ARITH_XORI, ARITH_EXTUI); }
PATTERN(xori_of_extsi) { return hoist_ext(op, rw, ARITH_XORI, ARITH_EXTSI); }
PATTERN(andi_of_extui) { return hoist_ext(op, rw, ARITH_ANDI, ARITH_EXTUI); }
PATTERN(andi_of_extsi) { return hoist_ext(op, rw, ARITH_ANDI, ARITH_EXTSI); }
PATTERN(ori_of_extui) { return hoist_ext(op, rw, ARITH_ORI, ARITH_EXTUI); }
PATTERN(ori_of_extsi) { return hoist_ext(op, rw, ARITH_ORI, ARITH_EXTSI); }

/* --- cmpi ----------------------------------------------------------------------------------------------------- */

/* cmpi(eq|ne, ext(a), ext(b)) -> cmpi(eq|ne, a, b) */
static bool cmpi_ext(nc_op *op, nc_rewriter *rw, enum arith_op_id ext)
{
  nc_op *a = arith_def(opd(op, 0), ext), *b = arith_def(opd(op, 1), ext);
  nc_attr *pred = nc_op_get_attr_str(op, "predicate");
  if (!a || !b || nc_value_get_type(opd(a, 0)) != nc_value_get_type(opd(b, 0)))
    return false;
  if (nc_attr_get_int(pred) != NC_ARITH_CMPI_EQ && nc_attr_get_int(pred) != NC_ARITH_CMPI_NE)
    return false;
  return replace_cmpi(rw, op, nc_attr_get_int(pred), opd(a, 0), opd(b, 0));
}

PATTERN(cmpi_extsi) { return cmpi_ext(op, rw, ARITH_EXTSI); }
PATTERN(cmpi_extui) { return cmpi_ext(op, rw, ARITH_EXTUI); }

/* --- select ---------------------------------------------------------------------------------------------------- */

/* select(xori(c, -1), a, b) -> select(c, b, a) */
PATTERN(select_not_cond)
{
  nc_op *x = arith_def(opd(op, 0), ARITH_XORI);
  nc_attr *ones;
  if (!x || !const_int(opd(x, 1), &ones) || !arith_attr_is_all_ones(ones))
    return false;
  return replace_new(rw, op, ARITH_SELECT, 3, (nc_value *[]){opd(x, 0), opd(op, 2), opd(op, 1)}, 0, NULL);
}

/* select(c, select(c, a, b), d) -> select(c, a, d) */
PATTERN(redundant_select_true)
{
  nc_op *in = arith_def(opd(op, 1), ARITH_SELECT);
  if (!in || opd(in, 0) != opd(op, 0))
    return false;
  return replace_new(rw, op, ARITH_SELECT, 3, (nc_value *[]){opd(op, 0), opd(in, 1), opd(op, 2)}, 0, NULL);
}

/* select(c, a, select(c, b, d)) -> select(c, a, d) */
PATTERN(redundant_select_false)
{
  nc_op *in = arith_def(opd(op, 2), ARITH_SELECT);
  if (!in || opd(in, 0) != opd(op, 0))
    return false;
  return replace_new(rw, op, ARITH_SELECT, 3, (nc_value *[]){opd(op, 0), opd(op, 1), opd(in, 2)}, 0, NULL);
}

/* select(c, false, true) -> xori(c, true) */
PATTERN(select_i1_to_not)
{
  nc_context *ctx = nc_rewriter_get_context(rw);
  if (nc_value_get_constant(opd(op, 1)) != nc_attr_bool(ctx, false) ||
      nc_value_get_constant(opd(op, 2)) != nc_attr_bool(ctx, true))
    return false;
  nc_value *t = constant(rw, op, nc_attr_bool(ctx, true));
  return t && replace_new(rw, op, ARITH_XORI, 2, (nc_value *[]){opd(op, 0), t}, 0, NULL);
}

/* select(c, 1, 0) -> extui(c); select(c, 0, 1) -> extui(xori(c, true)) for integers wider than i1 */
PATTERN(select_to_extui)
{
  nc_type *t = result_type(op);
  if (!nc_type_is_integer(t) || nc_type_get_width(t) == 1)
    return false;
  nc_attr *a = nc_value_get_constant(opd(op, 1)), *b = nc_value_get_constant(opd(op, 2));
  if (arith_attr_is_one(a) && arith_attr_is_zero(b))
    return replace_cast(rw, op, ARITH_EXTUI, opd(op, 0));
  if (arith_attr_is_zero(a) && arith_attr_is_one(b)) {
    nc_value *cond = opd(op, 0);
    nc_location loc = nc_op_get_loc(op);
    nc_value *one = nc_arith_create_constant_int(rw, nc_value_get_type(cond), 1, loc);
    return one && replace_cast(rw, op, ARITH_EXTUI, nc_arith_create_binary(rw, "arith.xori", cond, one, loc));
  }
  return false;
}

/* --- casts ------------------------------------------------------------------------------------------------------ */

/* cast(cast(x)) -> x when the outer cast's type is x's type. */
static bool cast_round_trip(nc_op *op, nc_rewriter *rw, enum arith_op_id id)
{
  nc_op *in = arith_def(opd(op, 0), id);
  if (!in || nc_value_get_type(opd(in, 0)) != result_type(op))
    return false;
  return replace_value(rw, op, opd(in, 0));
}

/* outer(inner(x)) -> into(x), of the root's type. */
static bool cast_skip(nc_op *op, nc_rewriter *rw, enum arith_op_id inner, enum arith_op_id into)
{
  nc_op *in = arith_def(opd(op, 0), inner);
  return in && replace_cast(rw, op, into, opd(in, 0));
}

PATTERN(index_cast_of_index_cast) { return cast_round_trip(op, rw, ARITH_INDEX_CAST); }
PATTERN(index_cast_of_extsi) { return cast_skip(op, rw, ARITH_EXTSI, ARITH_INDEX_CAST); }
PATTERN(index_castui_of_index_castui) { return cast_round_trip(op, rw, ARITH_INDEX_CASTUI); }
PATTERN(index_castui_of_extui) { return cast_skip(op, rw, ARITH_EXTUI, ARITH_INDEX_CASTUI); }
PATTERN(bitcast_of_bitcast) { return cast_skip(op, rw, ARITH_BITCAST, ARITH_BITCAST); }
PATTERN(extsi_of_extui) { return cast_skip(op, rw, ARITH_EXTUI, ARITH_EXTUI); }

/* trunci(ext(x)) -> ext(x) when only extension bits are truncated. */
static bool trunc_of_ext(nc_op *op, nc_rewriter *rw, enum arith_op_id ext)
{
  nc_op *e = arith_def(opd(op, 0), ext);
  if (!e)
    return false;
  unsigned we = arith_elt_width(result_type(e)), wt = arith_elt_width(result_type(op));
  unsigned wx = arith_elt_width(nc_value_get_type(opd(e, 0)));
  if (!(we > wt && wt > wx && wx > 0))
    return false;
  return replace_cast(rw, op, ext, opd(e, 0));
}

PATTERN(trunci_extsi_to_extsi) { return trunc_of_ext(op, rw, ARITH_EXTSI); }
PATTERN(trunci_extui_to_extui) { return trunc_of_ext(op, rw, ARITH_EXTUI); }

/* trunci(shrsi(x, c)) -> trunci(shrui(x, c)) when c is the number of truncated bits. */
PATTERN(trunci_shrsi_to_trunci_shrui)
{
  nc_op *sh = arith_def(opd(op, 0), ARITH_SHRSI);
  if (!sh)
    return false;
  nc_value *x = opd(sh, 0);
  nc_attr *c = nc_value_get_constant(opd(sh, 1));
  uint64_t amount;
  if (!c || !arith_int_or_splat(c, &amount, NULL))
    return false;
  if ((uint64_t)(arith_elt_width(nc_value_get_type(x)) - arith_elt_width(result_type(op))) != amount)
    return false;
  nc_value *cv = constant(rw, op, c);
  if (!cv)
    return false;
  return replace_cast(rw, op, ARITH_TRUNCI, nc_arith_create_binary(rw, "arith.shrui", x, cv, nc_op_get_loc(op)));
}

/* --- floats ------------------------------------------------------------------------------------------------------ */

/* op(negf(x), negf(y)) -> op(x, y), keeping the root's fast-math flags. */
static bool of_negf(nc_op *op, nc_rewriter *rw, enum arith_op_id id)
{
  nc_op *a = arith_def(opd(op, 0), ARITH_NEGF), *b = arith_def(opd(op, 1), ARITH_NEGF);
  if (!a || !b || nc_value_get_type(opd(a, 0)) != nc_value_get_type(opd(b, 0)))
    return false;
  nc_context *ctx = nc_rewriter_get_context(rw);
  nc_named_attr fm = {nc_ident_get_cstr(ctx, "fastmath"), nc_arith_fastmath_attr(ctx, nc_arith_get_fastmath_flags(op))};
  return replace_new(rw, op, id, 2, (nc_value *[]){opd(a, 0), opd(b, 0)}, 1, &fm);
}

PATTERN(mulf_of_negf) { return of_negf(op, rw, ARITH_MULF); }
PATTERN(divf_of_negf) { return of_negf(op, rw, ARITH_DIVF); }

/* The width of a float type's significand including the implicit bit. */
static int mantissa_width(const nc_type *t)
{
  switch (nc_type_get_kind(t)) {
  case NC_TYPE_F16: return 11;
  case NC_TYPE_BF16: return 8;
  case NC_TYPE_F32: return 24;
  default: return 53;
  }
}

static int max_exponent(const nc_type *t)
{
  switch (nc_type_get_kind(t)) {
  case NC_TYPE_F16: return 15;
  case NC_TYPE_F64: return 1023;
  default: return 127;
  }
}

/* The value of the integer (sign, magnitude) once rounded to float type t. */
static double int_in_float(const nc_type *t, bool neg, uint64_t mag)
{
  return arith_bits_to_double(t, arith_int_to_float_bits(t, neg, mag));
}

static bool replace_bool(nc_rewriter *rw, nc_op *op, bool v)
{
  nc_value *c = constant(rw, op, nc_attr_bool(nc_rewriter_get_context(rw), v));
  return c && replace_value(rw, op, c);
}

/* cmpf(pred, sitofp(x) or uitofp(x), C) -> cmpi(pred', x, C') or a constant
 * (MLIR's CmpFIntToFPConst, after LLVM's InstCombine). */
PATTERN(cmpf_int_to_fp_const)
{
  nc_attr *flt = nc_value_get_constant(opd(op, 1));
  if (!flt || nc_attr_get_kind(flt) != NC_ATTR_FLOAT)
    return false;
  double rhs = nc_attr_get_float(flt);
  nc_type *ft = nc_attr_get_type(flt);
  if (isnan(rhs))
    return false;
  int mw = mantissa_width(ft);
  bool is_unsigned;
  nc_op *conv = arith_def(opd(op, 0), ARITH_SITOFP);
  if (conv) {
    is_unsigned = false;
  } else if ((conv = arith_def(opd(op, 0), ARITH_UITOFP))) {
    is_unsigned = true;
  } else {
    return false;
  }
  nc_value *x = opd(conv, 0);
  nc_type *it = nc_value_get_type(x);
  if (!nc_type_is_integer(it))
    return false;
  int w = (int)nc_type_get_width(it), value_bits = is_unsigned ? w : w - 1;
  if (w > mw) { /* the conversion may round: only safe when that cannot change the comparison */
    if (isinf(rhs)) {
      if (max_exponent(ft) < value_bits)
        return false;
    } else {
      int e = rhs == 0 ? INT32_MIN : ilogb(rhs);
      if (mw <= e && e <= value_bits)
        return false;
    }
  }
  int64_t fp = nc_attr_get_int(nc_op_get_attr_str(op, "predicate")), pred;
  switch (fp) {
  case NC_ARITH_CMPF_ORD: return replace_bool(rw, op, true);
  case NC_ARITH_CMPF_UNO: return replace_bool(rw, op, false);
  case NC_ARITH_CMPF_OEQ: case NC_ARITH_CMPF_UEQ: pred = NC_ARITH_CMPI_EQ; break;
  case NC_ARITH_CMPF_OGT: case NC_ARITH_CMPF_UGT: pred = is_unsigned ? NC_ARITH_CMPI_UGT : NC_ARITH_CMPI_SGT; break;
  case NC_ARITH_CMPF_OGE: case NC_ARITH_CMPF_UGE: pred = is_unsigned ? NC_ARITH_CMPI_UGE : NC_ARITH_CMPI_SGE; break;
  case NC_ARITH_CMPF_OLT: case NC_ARITH_CMPF_ULT: pred = is_unsigned ? NC_ARITH_CMPI_ULT : NC_ARITH_CMPI_SLT; break;
  case NC_ARITH_CMPF_OLE: case NC_ARITH_CMPF_ULE: pred = is_unsigned ? NC_ARITH_CMPI_ULE : NC_ARITH_CMPI_SLE; break;
  case NC_ARITH_CMPF_ONE: case NC_ARITH_CMPF_UNE: pred = NC_ARITH_CMPI_NE; break;
  default: return false; /* always-true / always-false: MLIR has no integer form */
  }
  uint64_t half = 1ull << (w - 1);
  if (!is_unsigned) {
    if (int_in_float(ft, false, half - 1) < rhs) /* above the largest value */
      return replace_bool(rw, op, pred == NC_ARITH_CMPI_NE || pred == NC_ARITH_CMPI_SLT || pred == NC_ARITH_CMPI_SLE);
    if (int_in_float(ft, true, half) > rhs) /* below the smallest */
      return replace_bool(rw, op, pred == NC_ARITH_CMPI_NE || pred == NC_ARITH_CMPI_SGT || pred == NC_ARITH_CMPI_SGE);
  } else {
    if (int_in_float(ft, false, arith_mask((unsigned)w)) < rhs)
      return replace_bool(rw, op, pred == NC_ARITH_CMPI_NE || pred == NC_ARITH_CMPI_ULT || pred == NC_ARITH_CMPI_ULE);
    if (0 > rhs)
      return replace_bool(rw, op, pred == NC_ARITH_CMPI_NE || pred == NC_ARITH_CMPI_UGT || pred == NC_ARITH_CMPI_UGE);
  }
  /* rhs truncated towards zero must fit the integer type */
  double tr = trunc(rhs);
  if (is_unsigned ? (tr < 0 || tr >= ldexp(1, w)) : (tr < -ldexp(1, w - 1) || tr >= ldexp(1, w - 1)))
    return false;
  bool neg = tr < 0;
  uint64_t mag = neg ? (uint64_t)(-tr) : (tr >= 9223372036854775808.0 ? (uint64_t)(tr - 9223372036854775808.0) + (1ull << 63)
                                                                        : (uint64_t)tr);
  if (rhs != 0 && int_in_float(ft, neg && !is_unsigned, mag) != rhs) {
    bool rneg = rhs < 0;
    switch (pred) { /* a fractional constant: adjust the comparison */
    case NC_ARITH_CMPI_NE: return replace_bool(rw, op, true);
    case NC_ARITH_CMPI_EQ: return replace_bool(rw, op, false);
    case NC_ARITH_CMPI_ULE: if (rneg) return replace_bool(rw, op, false); break;
    case NC_ARITH_CMPI_SLE: if (rneg) pred = NC_ARITH_CMPI_SLT; break;
    case NC_ARITH_CMPI_ULT: if (rneg) return replace_bool(rw, op, false); pred = NC_ARITH_CMPI_ULE; break;
    case NC_ARITH_CMPI_SLT: if (!rneg) pred = NC_ARITH_CMPI_SLE; break;
    case NC_ARITH_CMPI_UGT: if (rneg) return replace_bool(rw, op, true); break;
    case NC_ARITH_CMPI_SGT: if (rneg) pred = NC_ARITH_CMPI_SGE; break;
    case NC_ARITH_CMPI_UGE: if (rneg) return replace_bool(rw, op, true); pred = NC_ARITH_CMPI_UGT; break;
    case NC_ARITH_CMPI_SGE: if (!rneg) pred = NC_ARITH_CMPI_SGT; break;
    default: break;
    }
  }
  uint64_t bits = neg ? (0 - mag) : mag;
  nc_value *c = nc_arith_create_constant_int(rw, it, (int64_t)bits, nc_op_get_loc(op));
  return c && replace_cmpi(rw, op, pred, x, c);
}
