/* fold.c: constant folding and folds of the integer arith ops, with MLIR
 * 19's semantics: values are two's complement bit vectors of the type's
 * width (index is 64 bits), interpreted as signed or unsigned per op;
 * division by zero, signed division overflow and shifts by the width or
 * more are not folded. Folding applies to scalars, splats and dense
 * elements alike (MLIR's constFoldBinaryOp / constFoldCastOp), and the
 * identities (x + 0, x * 1, x - x, ...) match only scalar or splat
 * constants, as MLIR's m_Zero / m_One do.
 */
#include <stdlib.h>
#include <string.h>

#include "arith-internal.h"

/* --- constant views ------------------------------------------------------------------------------ */

unsigned arith_elt_width(const nc_type *t)
{
  nc_type *e = nc_type_get_element_type(t);
  return nc_type_is_index(e) ? 64 : nc_type_get_width(e);
}

/* A folded operand: an integer/float attribute (one element) or dense elements. */
typedef struct cv {
  nc_attr *a;
  nc_type *type, *elt;
  bool dense, splat;
  int64_t n;
} cv;

static bool cv_get(nc_attr *a, cv *c)
{
  if (!a)
    return false;
  c->a = a;
  c->type = nc_attr_get_type(a);
  switch (nc_attr_get_kind(a)) {
  case NC_ATTR_INTEGER: case NC_ATTR_FLOAT:
    c->elt = c->type;
    c->dense = false;
    c->splat = true;
    c->n = 1;
    return true;
  case NC_ATTR_DENSE_ELEMENTS:
    c->elt = nc_type_get_element_type(c->type);
    c->dense = true;
    c->n = nc_type_get_num_elements(c->type);
    c->splat = nc_attr_dense_is_splat(a) || c->n == 1; /* MLIR calls one element a splat */
    return c->n >= 0 && (nc_type_is_integer(c->elt) || nc_type_is_index(c->elt) || nc_type_is_float(c->elt));
  default:
    return false;
  }
}

/* Element i as raw bits (integers masked to their width, floats in their format). */
static uint64_t cv_bits(const cv *c, int64_t i)
{
  if (!c->dense) {
    if (nc_attr_get_kind(c->a) == NC_ATTR_FLOAT)
      return nc_attr_get_float_bits(c->a);
    return (uint64_t)nc_attr_get_int(c->a) & arith_mask(arith_elt_width(c->elt));
  }
  int64_t k = c->splat ? 0 : i;
  if (nc_type_is_float(c->elt)) {
    size_t es = nc_dense_element_size(c->elt);
    uint64_t b = 0;
    memcpy(&b, (const char *)nc_attr_dense_get_data(c->a, NULL) + (size_t)k * es, es); /* little endian */
    return b;
  }
  return (uint64_t)nc_attr_dense_get_int(c->a, k) & arith_mask(arith_elt_width(c->elt));
}

/* Builds the attribute of `type` holding `n` elements (n == 1: scalar or splat). */
static nc_attr *make_attr(nc_context *ctx, nc_type *type, const uint64_t *vals, int64_t n)
{
  nc_type *elt = nc_type_get_element_type(type);
  bool is_float = nc_type_is_float(elt);
  if (!nc_type_is_shaped(type)) {
    if (is_float)
      return nc_attr_float_bits(ctx, type, vals[0]);
    return nc_attr_integer(ctx, type, arith_sext(vals[0], arith_elt_width(type)));
  }
  if (!nc_type_has_static_shape(type))
    return NULL;
  size_t es = nc_dense_element_size(elt);
  unsigned w = arith_elt_width(elt);
  char *buf = nc_xmalloc((size_t)n * es + 1);
  for (int64_t i = 0; i < n; i++) {
    uint64_t v = vals[i];
    if (!is_float)
      v = w == 1 ? (v & 1) : (uint64_t)arith_sext(v, w);
    memcpy(buf + (size_t)i * es, &v, es); /* little endian */
  }
  return nc_attr_dense_elements_owned(ctx, type, buf, (size_t)n * es);
}

nc_attr *arith_fold_binary(nc_context *ctx, nc_attr *lhs, nc_attr *rhs, nc_type *result_type, bool is_float,
                           arith_bin_fn fn, void *state)
{
  cv a, b;
  if (!cv_get(lhs, &a) || !cv_get(rhs, &b) || a.type != b.type)
    return NULL;
  if (is_float != nc_type_is_float(a.elt) || a.dense != b.dense)
    return NULL;
  if (!result_type)
    result_type = a.type;
  unsigned w = arith_elt_width(a.elt);
  if (a.splat && b.splat) {
    uint64_t r;
    if (!fn(cv_bits(&a, 0), cv_bits(&b, 0), w, &r, state))
      return NULL;
    return make_attr(ctx, result_type, &r, 1);
  }
  uint64_t *out = nc_xmalloc((size_t)a.n * sizeof *out + 1);
  nc_attr *res = NULL;
  int64_t i = 0;
  for (; i < a.n; i++)
    if (!fn(cv_bits(&a, i), cv_bits(&b, i), w, &out[i], state))
      break;
  if (i == a.n)
    res = make_attr(ctx, result_type, out, a.n);
  free(out);
  return res;
}

nc_attr *arith_fold_cast(nc_context *ctx, nc_attr *in, nc_type *result_type, bool from_float, arith_cast_fn fn)
{
  cv a;
  if (!cv_get(in, &a) || from_float != nc_type_is_float(a.elt))
    return NULL;
  nc_type *to = nc_type_get_element_type(result_type);
  if (a.dense != nc_type_is_shaped(result_type))
    return NULL;
  if (a.splat) {
    uint64_t r;
    if (!fn(cv_bits(&a, 0), a.elt, to, &r))
      return NULL;
    return make_attr(ctx, result_type, &r, 1);
  }
  uint64_t *out = nc_xmalloc((size_t)a.n * sizeof *out + 1);
  nc_attr *res = NULL;
  int64_t i = 0;
  for (; i < a.n; i++)
    if (!fn(cv_bits(&a, i), a.elt, to, &out[i]))
      break;
  if (i == a.n)
    res = make_attr(ctx, result_type, out, a.n);
  free(out);
  return res;
}

/* --- matchers --------------------------------------------------------------------------------------- */

bool arith_int_or_splat(nc_attr *a, uint64_t *bits, unsigned *width)
{
  cv c;
  if (!cv_get(a, &c) || !c.splat || !(nc_type_is_integer(c.elt) || nc_type_is_index(c.elt)))
    return false;
  *bits = cv_bits(&c, 0);
  if (width)
    *width = arith_elt_width(c.elt);
  return true;
}

bool arith_float_or_splat(nc_attr *a, uint64_t *bits, nc_type **elt)
{
  cv c;
  if (!cv_get(a, &c) || !c.splat || !nc_type_is_float(c.elt))
    return false;
  *bits = cv_bits(&c, 0);
  if (elt)
    *elt = c.elt;
  return true;
}

bool arith_attr_is_zero(nc_attr *a)
{
  uint64_t v;
  return arith_int_or_splat(a, &v, NULL) && v == 0;
}

bool arith_attr_is_one(nc_attr *a)
{
  uint64_t v;
  return arith_int_or_splat(a, &v, NULL) && v == 1;
}

bool arith_attr_is_all_ones(nc_attr *a)
{
  uint64_t v;
  unsigned w;
  return arith_int_or_splat(a, &v, &w) && v == arith_mask(w);
}

nc_attr *arith_zero_attr(nc_context *ctx, nc_type *type)
{
  nc_type *elt = nc_type_get_element_type(type);
  if (!nc_type_is_integer(elt) && !nc_type_is_index(elt) && !nc_type_is_float(elt))
    return NULL;
  uint64_t zero = 0;
  return make_attr(ctx, type, &zero, 1);
}

nc_attr *arith_bool_attr(nc_context *ctx, nc_type *type, bool value)
{
  if (!nc_type_is_shaped(type))
    return nc_attr_bool(ctx, value);
  uint64_t v = value;
  return make_attr(ctx, type, &v, 1);
}

nc_type *arith_i1_same_shape(nc_context *ctx, nc_type *type)
{
  nc_type *i1 = nc_type_integer(ctx, 1, NC_SIGNLESS);
  if (!nc_type_is_shaped(type))
    return i1;
  if (nc_type_get_kind(type) == NC_TYPE_UNRANKED_TENSOR)
    return nc_type_unranked_tensor(ctx, i1);
  return nc_type_clone_shaped(type, nc_type_get_rank(type), nc_type_get_shape(type), i1);
}

/* --- fold helpers ----------------------------------------------------------------------------------------- */

static nc_context *ctx_of(nc_op *op) { return nc_op_get_context(op); }
static nc_value *lhs_of(nc_op *op) { return nc_op_get_operand(op, 0); }
static nc_value *rhs_of(nc_op *op) { return nc_op_get_operand(op, 1); }
static nc_type *type_of(nc_op *op) { return nc_value_get_type(nc_op_get_result(op, 0)); }

static bool fold_to_value(nc_fold_result *res, nc_value *v)
{
  res[0].value = v;
  return true;
}

static bool fold_to_attr(nc_fold_result *res, nc_attr *a)
{
  res[0].attr = a;
  return a != NULL;
}

/* An in-place fold: the op changed its operands or attributes. */
static bool fold_in_place(nc_op *op, nc_fold_result *res)
{
  res[0].value = nc_op_get_result(op, 0);
  return true;
}

static bool fold_bin(nc_op *op, nc_attr *const *consts, nc_fold_result *res, arith_bin_fn fn, void *state)
{
  if (!consts[0] || !consts[1])
    return false;
  return fold_to_attr(res, arith_fold_binary(ctx_of(op), consts[0], consts[1], NULL, false, fn, state));
}


#define FOLD(name) ARITH_DEFINE_FOLD(name)

/* --- arith.constant --------------------------------------------------------------------------------------- */

/* Not ARITH_DEFINE_FOLD: every query of a constant operand (nc_value_get_constant)
 * lands here, so the well-formedness check and the value share one lookup. */
bool arith_fold_constant(nc_op *op, nc_attr *const *consts, nc_fold_result *res)
{
  (void)consts;
  const nc_attr_def *decl = &nc_arith_ops[ARITH_CONSTANT].attrs[0];
  if (nc_op_get_def(op) != &nc_arith_ops[ARITH_CONSTANT] || nc_op_get_num_operands(op) ||
      nc_op_get_num_results(op) != 1)
    return false;
  nc_attr *v = nc_op_get_attr_str(op, decl->name);
  return v && decl->constraint->pred(v) && fold_to_attr(res, v);
}

/* --- element functions ------------------------------------------------------------------------------------ */

__extension__ typedef __int128 i128;

static bool in_signed_range(i128 v, unsigned w)
{
  i128 lo = -((i128)1 << (w - 1)), hi = ((i128)1 << (w - 1)) - 1;
  return v >= lo && v <= hi;
}

static uint64_t from_signed(i128 v, unsigned w) { return (uint64_t)v & arith_mask(w); }

#define BIN(name, expr)                                                                   \
  static bool e_##name(uint64_t a, uint64_t b, unsigned w, uint64_t *r, void *state)      \
  {                                                                                       \
    (void)state;                                                                          \
    *r = (uint64_t)(expr) & arith_mask(w);                                                \
    return true;                                                                          \
  }
BIN(add, a + b)
BIN(sub, a - b)
BIN(mul, a * b)
BIN(and, a & b)
BIN(or, a | b)
BIN(xor, a ^ b)
BIN(maxs, arith_sext(a, w) > arith_sext(b, w) ? a : b)
BIN(mins, arith_sext(a, w) < arith_sext(b, w) ? a : b)
BIN(maxu, a > b ? a : b)
BIN(minu, a < b ? a : b)
#undef BIN

static bool e_divu(uint64_t a, uint64_t b, unsigned w, uint64_t *r, void *state)
{
  (void)w, (void)state;
  if (!b)
    return false;
  *r = a / b;
  return true;
}

static bool e_remu(uint64_t a, uint64_t b, unsigned w, uint64_t *r, void *state)
{
  (void)w, (void)state;
  if (!b)
    return false;
  *r = a % b;
  return true;
}

/* APInt::sdiv_ov: overflow only for MIN / -1. */
static bool sdiv_ov(i128 x, i128 y, unsigned w, i128 *q)
{
  *q = x / y;
  return in_signed_range(*q, w);
}

static bool e_divs(uint64_t a, uint64_t b, unsigned w, uint64_t *r, void *state)
{
  (void)state;
  i128 q;
  if (!b || !sdiv_ov(arith_sext(a, w), arith_sext(b, w), w, &q))
    return false;
  *r = from_signed(q, w);
  return true;
}

static bool e_rems(uint64_t a, uint64_t b, unsigned w, uint64_t *r, void *state)
{
  (void)state;
  if (!b)
    return false;
  *r = from_signed((i128)arith_sext(a, w) % (i128)arith_sext(b, w), w);
  return true;
}

static bool e_ceildivu(uint64_t a, uint64_t b, unsigned w, uint64_t *r, void *state)
{
  (void)state;
  if (!b)
    return false;
  uint64_t q = a / b;
  if (a % b) {
    if (q == arith_mask(w))
      return false;
    q++;
  }
  *r = q;
  return true;
}

/* (a - 1) / b + 1 for positive a and b: cannot overflow. */
static i128 ceil_nonneg(i128 a, i128 b) { return (a - 1) / b + 1; }

static bool e_ceildivs(uint64_t ua, uint64_t ub, unsigned w, uint64_t *r, void *state)
{
  (void)state;
  if (!ub)
    return false;
  i128 a = arith_sext(ua, w), b = arith_sext(ub, w), res;
  if (a == 0) {
    *r = 0;
    return true;
  }
  if (a > 0 && b > 0) {
    res = ceil_nonneg(a, b);
  } else if (a < 0 && b < 0) {
    /* ceil(-a, -b): negating the minimum value overflows */
    if (!in_signed_range(-a, w) || !in_signed_range(-b, w))
      return false;
    res = ceil_nonneg(-a, -b);
  } else if (a < 0) {
    if (!in_signed_range(-a, w))
      return false;
    res = -((-a) / b);
  } else {
    if (!in_signed_range(-b, w))
      return false;
    res = -(a / (-b));
  }
  if (!in_signed_range(res, w))
    return false;
  *r = from_signed(res, w);
  return true;
}

/* floordivsi as MLIR 19 folds it: a zero divisor yields the dividend and an
 * overflow wraps, and whether the fold is refused depends on the last
 * element only (APInt::sfloordiv_ov overwrites MLIR's flag per element). */
typedef struct last_state {
  bool bad;
} last_state;

static bool e_floordivs(uint64_t ua, uint64_t ub, unsigned w, uint64_t *r, void *state)
{
  i128 a = arith_sext(ua, w), b = arith_sext(ub, w), q;
  if (!ub) {
    ((last_state *)state)->bad = true;
    *r = ua;
    return true;
  }
  ((last_state *)state)->bad = !sdiv_ov(a, b, w, &q);
  q = arith_sext(from_signed(q, w), w); /* MIN / -1 wraps to MIN */
  if (q * b != a && ((a < 0) != (b < 0)))
    q -= 1;
  *r = from_signed(q, w);
  return true;
}

/* Shifts, as MLIR folds them: the result of an over-wide shift is APInt's
 * (0, or all sign bits), and whether the fold is allowed depends on the
 * last element's shift amount only (MLIR's `bounded` flag is overwritten
 * per element). */
typedef struct shift_state {
  bool bounded;
} shift_state;

static bool e_shl(uint64_t a, uint64_t b, unsigned w, uint64_t *r, void *state)
{
  ((shift_state *)state)->bounded = b < w;
  *r = b < w ? (a << b) & arith_mask(w) : 0;
  return true;
}

static bool e_shru(uint64_t a, uint64_t b, unsigned w, uint64_t *r, void *state)
{
  ((shift_state *)state)->bounded = b < w;
  *r = b < w ? a >> b : 0;
  return true;
}

static bool e_shrs(uint64_t a, uint64_t b, unsigned w, uint64_t *r, void *state)
{
  ((shift_state *)state)->bounded = b < w;
  int64_t s = arith_sext(a, w);
  *r = (uint64_t)(b < w ? s >> b : s >> (w - 1)) & arith_mask(w);
  return true;
}

/* --- integer binary ops ---------------------------------------------------------------------------------------- */

FOLD(addi)
{
  nc_value *l = lhs_of(op), *r = rhs_of(op);
  if (arith_attr_is_zero(consts[1])) /* addi(x, 0) -> x */
    return fold_to_value(res, l);
  nc_op *sub = arith_def(l, ARITH_SUBI); /* addi(subi(a, b), b) -> a */
  if (sub && nc_op_get_operand(sub, 1) == r)
    return fold_to_value(res, nc_op_get_operand(sub, 0));
  sub = arith_def(r, ARITH_SUBI); /* addi(b, subi(a, b)) -> a */
  if (sub && nc_op_get_operand(sub, 1) == l)
    return fold_to_value(res, nc_op_get_operand(sub, 0));
  return fold_bin(op, consts, res, e_add, NULL);
}

FOLD(subi)
{
  nc_value *l = lhs_of(op), *r = rhs_of(op);
  if (l == r) { /* subi(x, x) -> 0 (not for dynamic shapes) */
    nc_type *t = type_of(op);
    if (!nc_type_is_shaped(t) || nc_type_has_static_shape(t))
      return fold_to_attr(res, arith_zero_attr(ctx_of(op), t));
  }
  if (arith_attr_is_zero(consts[1])) /* subi(x, 0) -> x */
    return fold_to_value(res, l);
  nc_op *add = arith_def(l, ARITH_ADDI);
  if (add) {
    if (nc_op_get_operand(add, 1) == r) /* subi(addi(a, b), b) -> a */
      return fold_to_value(res, nc_op_get_operand(add, 0));
    if (nc_op_get_operand(add, 0) == r) /* subi(addi(a, b), a) -> b */
      return fold_to_value(res, nc_op_get_operand(add, 1));
  }
  return fold_bin(op, consts, res, e_sub, NULL);
}

FOLD(muli)
{
  if (arith_attr_is_zero(consts[1])) /* muli(x, 0) -> 0 */
    return fold_to_value(res, rhs_of(op));
  if (arith_attr_is_one(consts[1])) /* muli(x, 1) -> x */
    return fold_to_value(res, lhs_of(op));
  return fold_bin(op, consts, res, e_mul, NULL);
}

/* x / 1 -> x, then constant folding (never by zero, never MIN / -1). */
#define DIV_FOLD(name, fn)                                \
  FOLD(name)                                              \
  {                                                       \
    if (arith_attr_is_one(consts[1]))                     \
      return fold_to_value(res, lhs_of(op));              \
    return fold_bin(op, consts, res, fn, NULL);           \
  }
DIV_FOLD(divui, e_divu)
DIV_FOLD(divsi, e_divs)
DIV_FOLD(ceildivui, e_ceildivu)
DIV_FOLD(ceildivsi, e_ceildivs)
#undef DIV_FOLD

FOLD(floordivsi)
{
  if (arith_attr_is_one(consts[1]))
    return fold_to_value(res, lhs_of(op));
  if (!consts[0] || !consts[1])
    return false;
  last_state st = {false};
  nc_attr *a = arith_fold_binary(ctx_of(op), consts[0], consts[1], NULL, false, e_floordivs, &st);
  return !st.bad && fold_to_attr(res, a);
}

/* x % 1 -> 0, then constant folding (never by zero). */
#define REM_FOLD(name, fn)                                                  \
  FOLD(name)                                                                \
  {                                                                         \
    if (arith_attr_is_one(consts[1]))                                       \
      return fold_to_attr(res, arith_zero_attr(ctx_of(op), type_of(op)));   \
    return fold_bin(op, consts, res, fn, NULL);                             \
  }
REM_FOLD(remui, e_remu)
REM_FOLD(remsi, e_rems)
#undef REM_FOLD

/* True if `v` is xori(x, all-ones), i.e. not(x). */
static bool is_not_of(nc_value *v, nc_value *x)
{
  nc_op *x_op = arith_def(v, ARITH_XORI);
  return x_op && nc_op_get_operand(x_op, 0) == x && arith_attr_is_all_ones(nc_value_get_constant(nc_op_get_operand(x_op, 1)));
}

FOLD(andi)
{
  nc_value *l = lhs_of(op), *r = rhs_of(op);
  if (arith_attr_is_zero(consts[1])) /* andi(x, 0) -> 0 */
    return fold_to_value(res, r);
  if (arith_attr_is_all_ones(consts[1])) /* andi(x, -1) -> x */
    return fold_to_value(res, l);
  if (is_not_of(r, l) || is_not_of(l, r)) /* andi(x, not(x)) -> 0 */
    return fold_to_attr(res, arith_zero_attr(ctx_of(op), type_of(op)));
  for (int k = 0; k < 2; k++) { /* andi(a, andi(a, b)) -> andi(a, b) */
    nc_value *prev_v = k ? r : l, *other = k ? l : r;
    nc_op *prev = arith_def(prev_v, ARITH_ANDI);
    if (prev && (other == nc_op_get_operand(prev, 0) || other == nc_op_get_operand(prev, 1)))
      return fold_to_value(res, prev_v);
  }
  if (fold_bin(op, consts, res, e_and, NULL))
    return true;
  if (l == r) /* Idempotent */
    return fold_to_value(res, l);
  return false;
}

FOLD(ori)
{
  nc_value *l = lhs_of(op), *r = rhs_of(op);
  if (arith_attr_is_zero(consts[1])) /* ori(x, 0) -> x */
    return fold_to_value(res, l);
  if (arith_attr_is_all_ones(consts[1])) /* ori(x, -1) -> -1 */
    return fold_to_attr(res, consts[1]);
  if (is_not_of(r, l)) /* ori(x, xori(x, -1)) -> -1 */
    return fold_to_value(res, nc_op_get_operand(nc_value_get_defining_op(r), 1));
  if (is_not_of(l, r))
    return fold_to_value(res, nc_op_get_operand(nc_value_get_defining_op(l), 1));
  if (fold_bin(op, consts, res, e_or, NULL))
    return true;
  if (l == r) /* Idempotent */
    return fold_to_value(res, l);
  return false;
}

/* x if `v` is xori(x, a) or xori(a, x), else NULL. */
static nc_value *xor_cancel(nc_value *v, nc_value *a)
{
  nc_op *x_op = arith_def(v, ARITH_XORI);
  if (!x_op)
    return NULL;
  if (nc_op_get_operand(x_op, 1) == a)
    return nc_op_get_operand(x_op, 0);
  return nc_op_get_operand(x_op, 0) == a ? nc_op_get_operand(x_op, 1) : NULL;
}

FOLD(xori)
{
  nc_value *l = lhs_of(op), *r = rhs_of(op);
  if (arith_attr_is_zero(consts[1])) /* xori(x, 0) -> x */
    return fold_to_value(res, l);
  if (l == r) { /* xori(x, x) -> 0 */
    nc_type *t = type_of(op);
    if (!nc_type_is_shaped(t) || nc_type_has_static_shape(t))
      return fold_to_attr(res, arith_zero_attr(ctx_of(op), t));
  }
  nc_value *x = xor_cancel(l, r); /* xori(xori(x, a), a) -> x, xori(xori(a, x), a) -> x */
  if (!x)
    x = xor_cancel(r, l); /* xori(a, xori(x, a)) -> x, xori(a, xori(a, x)) -> x */
  if (x)
    return fold_to_value(res, x);
  return fold_bin(op, consts, res, e_xor, NULL);
}

#define SHIFT_FOLD(name, fn)                                                              \
  FOLD(name)                                                                              \
  {                                                                                       \
    if (arith_attr_is_zero(consts[1]))                                                    \
      return fold_to_value(res, lhs_of(op));                                              \
    shift_state st = {false};                                                             \
    if (!consts[0] || !consts[1])                                                         \
      return false;                                                                       \
    nc_attr *a = arith_fold_binary(ctx_of(op), consts[0], consts[1], NULL, false, fn, &st); \
    return st.bounded && fold_to_attr(res, a);                                            \
  }
SHIFT_FOLD(shli, e_shl)
SHIFT_FOLD(shrui, e_shru)
SHIFT_FOLD(shrsi, e_shrs)
#undef SHIFT_FOLD

/* max/min: x op x -> x; the identity / absorbing constants; constant folding. */
static bool fold_minmax(nc_op *op, nc_attr *const *consts, nc_fold_result *res, bool is_signed, bool is_max,
                        arith_bin_fn fn)
{
  nc_value *l = lhs_of(op), *r = rhs_of(op);
  if (l == r)
    return fold_to_value(res, r);
  uint64_t v;
  unsigned w;
  if (arith_int_or_splat(consts[1], &v, &w)) {
    uint64_t smax = arith_mask(w) >> 1, smin = smax + 1, umax = arith_mask(w);
    uint64_t top = is_signed ? smax : umax, bottom = is_signed ? smin : 0;
    if (v == (is_max ? top : bottom)) /* absorbing */
      return fold_to_value(res, r);
    if (v == (is_max ? bottom : top)) /* identity */
      return fold_to_value(res, l);
  }
  return fold_bin(op, consts, res, fn, NULL);
}

FOLD(maxsi) { return fold_minmax(op, consts, res, true, true, e_maxs); }
FOLD(minsi) { return fold_minmax(op, consts, res, true, false, e_mins); }
FOLD(maxui) { return fold_minmax(op, consts, res, false, true, e_maxu); }
FOLD(minui) { return fold_minmax(op, consts, res, false, false, e_minu); }

/* --- comparisons and select ------------------------------------------------------------------------------------ */

bool arith_cmpi_eval(int64_t pred, uint64_t a, uint64_t b, unsigned w)
{
  int64_t sa = arith_sext(a, w), sb = arith_sext(b, w);
  switch (pred) {
  case NC_ARITH_CMPI_EQ: return a == b;
  case NC_ARITH_CMPI_NE: return a != b;
  case NC_ARITH_CMPI_SLT: return sa < sb;
  case NC_ARITH_CMPI_SLE: return sa <= sb;
  case NC_ARITH_CMPI_SGT: return sa > sb;
  case NC_ARITH_CMPI_SGE: return sa >= sb;
  case NC_ARITH_CMPI_ULT: return a < b;
  case NC_ARITH_CMPI_ULE: return a <= b;
  case NC_ARITH_CMPI_UGT: return a > b;
  default: return a >= b;
  }
}

int64_t arith_cmpi_swap(int64_t pred)
{
  static const int64_t swapped[] = {0, 1, 4, 5, 2, 3, 8, 9, 6, 7};
  return pred >= 0 && pred <= 9 ? swapped[pred] : pred;
}

int64_t arith_cmpi_invert(int64_t pred)
{
  static const int64_t inverted[] = {1, 0, 5, 4, 3, 2, 9, 8, 7, 6};
  return pred >= 0 && pred <= 9 ? inverted[pred] : pred;
}

static bool cmpi_equal_operands(int64_t pred)
{
  return pred == NC_ARITH_CMPI_EQ || pred == NC_ARITH_CMPI_SLE || pred == NC_ARITH_CMPI_SGE ||
         pred == NC_ARITH_CMPI_ULE || pred == NC_ARITH_CMPI_UGE;
}

static bool e_cmpi(uint64_t a, uint64_t b, unsigned w, uint64_t *r, void *state)
{
  *r = arith_cmpi_eval(*(int64_t *)state, a, b, w);
  return true;
}

/* An extsi/extui of a scalar or vector of i1 (MLIR's getIntegerWidth sees no tensors). */
static nc_value *ext_of_i1(nc_value *v)
{
  nc_op *ext = arith_def(v, ARITH_EXTSI);
  if (!ext)
    ext = arith_def(v, ARITH_EXTUI);
  if (!ext)
    return NULL;
  nc_value *in = nc_op_get_operand(ext, 0);
  nc_type *t = nc_value_get_type(in);
  if (nc_type_get_kind(t) == NC_TYPE_VECTOR)
    t = nc_type_get_element_type(t);
  return nc_type_is_integer_of_width(t, 1) ? in : NULL;
}

FOLD(cmpi)
{
  nc_context *ctx = ctx_of(op);
  int64_t pred = nc_attr_get_int(nc_op_get_attr_str(op, "predicate"));
  if (lhs_of(op) == rhs_of(op)) /* cmpi(pred, x, x) */
    return fold_to_attr(res, arith_bool_attr(ctx, type_of(op), cmpi_equal_operands(pred)));
  if (arith_attr_is_zero(consts[1]) && pred == NC_ARITH_CMPI_NE) { /* ext(x : i1) != 0 -> x */
    nc_value *x = ext_of_i1(lhs_of(op));
    if (x)
      return fold_to_value(res, x);
  }
  if (consts[0] && !consts[1]) { /* move the constant to the right */
    nc_value *l = lhs_of(op), *r = rhs_of(op);
    nc_op_set_attr_str(op, "predicate", nc_attr_integer(ctx, nc_type_integer(ctx, 64, NC_SIGNLESS), arith_cmpi_swap(pred)));
    nc_op_set_operand(op, 0, r);
    nc_op_set_operand(op, 1, l);
    return fold_in_place(op, res);
  }
  if (!consts[0] || !consts[1])
    return false;
  nc_type *lt = nc_attr_get_type(consts[0]);
  return fold_to_attr(res, arith_fold_binary(ctx, consts[0], consts[1], lt ? arith_i1_same_shape(ctx, lt) : NULL, false,
                                             e_cmpi, &pred));
}

FOLD(select)
{
  nc_value *c = nc_op_get_operand(op, 0), *t = nc_op_get_operand(op, 1), *f = nc_op_get_operand(op, 2);
  if (t == f)
    return fold_to_value(res, t);
  if (arith_attr_is_one(consts[0])) /* select true, a, b -> a */
    return fold_to_value(res, t);
  if (arith_attr_is_zero(consts[0])) /* select false, a, b -> b */
    return fold_to_value(res, f);
  if (nc_type_is_integer_of_width(type_of(op), 1) && nc_type_is_signless_integer(type_of(op)) &&
      arith_attr_is_one(consts[1]) && arith_attr_is_zero(consts[2])) /* select c, true, false -> c */
    return fold_to_value(res, c);
  nc_op *cmp = arith_def(c, ARITH_CMPI);
  if (cmp) {
    int64_t pred = nc_attr_get_int(nc_op_get_attr_str(cmp, "predicate"));
    nc_value *cl = nc_op_get_operand(cmp, 0), *cr = nc_op_get_operand(cmp, 1);
    /* select (a == b), a, b -> b and select (a != b), a, b -> a */
    if ((pred == NC_ARITH_CMPI_EQ || pred == NC_ARITH_CMPI_NE) && ((cl == t && cr == f) || (cr == t && cl == f)))
      return fold_to_value(res, pred == NC_ARITH_CMPI_NE ? t : f);
  }
  /* a constant non-splat condition over dense constants: elementwise */
  cv cc, ct, cf;
  if (cv_get(consts[0], &cc) && cc.dense && cv_get(consts[1], &ct) && ct.dense && cv_get(consts[2], &cf) && cf.dense &&
      ct.type == cf.type && cc.n == ct.n) {
    uint64_t *out = nc_xmalloc((size_t)ct.n * sizeof *out + 1);
    for (int64_t i = 0; i < ct.n; i++)
      out[i] = cv_bits(&cc, i) ? cv_bits(&ct, i) : cv_bits(&cf, i);
    nc_attr *a = make_attr(ctx_of(op), ct.type, out, ct.n);
    free(out);
    return fold_to_attr(res, a);
  }
  return false;
}

/* --- integer casts ----------------------------------------------------------------------------------------------- */

static bool c_sext(uint64_t a, nc_type *from, nc_type *to, uint64_t *r)
{
  *r = (uint64_t)arith_sext(a, arith_elt_width(from)) & arith_mask(arith_elt_width(to));
  return true;
}

static bool c_zext(uint64_t a, nc_type *from, nc_type *to, uint64_t *r)
{
  (void)from;
  *r = a & arith_mask(arith_elt_width(to));
  return true;
}

static bool fold_int_cast(nc_op *op, nc_attr *const *consts, nc_fold_result *res, arith_cast_fn fn)
{
  if (!consts[0] || (!nc_type_is_integer(nc_type_get_element_type(nc_attr_get_type(consts[0]))) &&
                     !nc_type_is_index(nc_type_get_element_type(nc_attr_get_type(consts[0])))))
    return false;
  return fold_to_attr(res, arith_fold_cast(ctx_of(op), consts[0], type_of(op), false, fn));
}

FOLD(index_cast) { return fold_int_cast(op, consts, res, c_sext); }
FOLD(index_castui) { return fold_int_cast(op, consts, res, c_zext); }

/* ext(ext(x)) -> ext(x) for an extension `kind` (extui or extsi) of the
 * same kind, in place; then constant folding. */
static bool fold_ext(nc_op *op, nc_attr *const *consts, nc_fold_result *res, enum arith_op_id kind,
                     arith_cast_fn fn)
{
  nc_op *inner = arith_def(lhs_of(op), kind);
  if (inner) {
    nc_op_set_operand(op, 0, nc_op_get_operand(inner, 0));
    return fold_in_place(op, res);
  }
  return fold_int_cast(op, consts, res, fn);
}

FOLD(extui) { return fold_ext(op, consts, res, ARITH_EXTUI, c_zext); }
FOLD(extsi) { return fold_ext(op, consts, res, ARITH_EXTSI, c_sext); }

FOLD(trunci)
{
  nc_value *in = lhs_of(op);
  nc_op *ext = arith_def(in, ARITH_EXTUI);
  if (!ext)
    ext = arith_def(in, ARITH_EXTSI);
  if (ext) {
    nc_value *src = nc_op_get_operand(ext, 0);
    nc_type *st = nc_type_get_element_type(nc_value_get_type(src)), *dt = nc_type_get_element_type(type_of(op));
    if (nc_type_get_width(st) > nc_type_get_width(dt)) { /* trunci(ext(a)) -> trunci(a) */
      nc_op_set_operand(op, 0, src);
      return fold_in_place(op, res);
    }
    if (st == dt) /* trunci(ext(a)) -> a */
      return fold_to_value(res, src);
  }
  nc_op *inner = arith_def(in, ARITH_TRUNCI); /* trunci(trunci(a)) -> trunci(a) */
  if (inner) {
    nc_op_set_operand(op, 0, nc_op_get_operand(inner, 0));
    return fold_in_place(op, res);
  }
  return fold_int_cast(op, consts, res, c_zext);
}
