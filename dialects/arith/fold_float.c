/* fold_float.c: folds of the floating-point arith ops and of the casts
 * between integers and floats, with IEEE semantics in the result type's
 * precision. Arithmetic runs in double and is rounded once to the type:
 * for +, -, *, / of f32, f16 and bf16 operands double has more than twice
 * their precision plus two bits, so the double rounding is exact. Integer to
 * float conversions round the exact integer (no detour through double).
 */
#include <math.h>
#include <string.h>

#include "arith-internal.h"

/* --- formats ----------------------------------------------------------------------------------------- */

/* Exponent and mantissa bits of a float type. */
static void format_of(const nc_type *t, int *ebits, int *mbits)
{
  switch (nc_type_get_kind(t)) {
  case NC_TYPE_F16: *ebits = 5, *mbits = 10; break;
  case NC_TYPE_BF16: *ebits = 8, *mbits = 7; break;
  case NC_TYPE_F32: *ebits = 8, *mbits = 23; break;
  default: *ebits = 11, *mbits = 52; break;
  }
}

/* Rounds sign * sig * 2^e (sig != 0) to nearest even in the format. */
static uint64_t round_to_format(bool neg, uint64_t sig, int e, int ebits, int mbits)
{
  uint64_t sign = (uint64_t)neg << (ebits + mbits);
  int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
  uint64_t emax_field = (1ull << ebits) - 1;
  int msb = 63 - __builtin_clzll(sig);
  int E = msb + e;                                   /* exponent of the leading bit */
  int lsb_exp = (E >= emin ? E : emin) - mbits;      /* exponent of the result's last bit */
  int shift = lsb_exp - e;                           /* bits of sig to drop */
  uint64_t kept;
  if (shift <= 0) {
    kept = sig << -shift;
  } else if (shift > 64) {
    kept = 0;
  } else {
    uint64_t rem = shift == 64 ? sig : sig & ((1ull << shift) - 1);
    uint64_t half = 1ull << (shift - 1);
    kept = shift == 64 ? 0 : sig >> shift;
    if (rem > half || (rem == half && (kept & 1)))
      kept++;
  }
  if (E < emin) /* subnormal (a carry into the exponent field is right) */
    return sign | kept;
  if (kept >> (mbits + 1)) {
    kept >>= 1;
    E++;
  }
  int64_t field = (int64_t)E + bias;
  if (field >= (int64_t)emax_field)
    return sign | (emax_field << mbits); /* overflow: infinity */
  return sign | ((uint64_t)field << mbits) | (kept & ((1ull << mbits) - 1));
}

uint64_t arith_double_to_bits(const nc_type *t, double v)
{
  int ebits, mbits;
  format_of(t, &ebits, &mbits);
  if (mbits == 52) {
    uint64_t b;
    memcpy(&b, &v, 8);
    return b;
  }
  uint64_t x;
  memcpy(&x, &v, 8);
  bool neg = x >> 63;
  int e = (int)((x >> 52) & 0x7ff);
  uint64_t m = x & ((1ull << 52) - 1);
  uint64_t sign = (uint64_t)neg << (ebits + mbits), emax = (1ull << ebits) - 1;
  if (e == 0x7ff) /* inf, or nan: quiet, keeping the payload's top bits as APFloat does */
    return m ? sign | (emax << mbits) | (1ull << (mbits - 1)) | (m >> (52 - mbits)) : sign | (emax << mbits);
  if (!e && !m)
    return sign;
  return e ? round_to_format(neg, m | (1ull << 52), e - 1075, ebits, mbits) : round_to_format(neg, m, -1074, ebits, mbits);
}

double arith_bits_to_double(const nc_type *t, uint64_t bits)
{
  int ebits, mbits;
  format_of(t, &ebits, &mbits);
  if (mbits == 52) {
    double d;
    memcpy(&d, &bits, 8);
    return d;
  }
  bool neg = (bits >> (ebits + mbits)) & 1;
  uint64_t e = (bits >> mbits) & ((1ull << ebits) - 1), m = bits & ((1ull << mbits) - 1);
  int bias = (1 << (ebits - 1)) - 1;
  double d;
  if (e == (1ull << ebits) - 1) {
    if (m) { /* nan: move the payload into double's mantissa */
      uint64_t x = ((uint64_t)neg << 63) | (0x7ffull << 52) | (m << (52 - mbits));
      memcpy(&d, &x, 8);
      return d;
    }
    d = INFINITY;
  } else if (!e) {
    d = ldexp((double)m, 1 - bias - mbits);
  } else {
    d = ldexp((double)(m | (1ull << mbits)), (int)e - bias - mbits);
  }
  return neg ? -d : d;
}

uint64_t arith_int_to_float_bits(const nc_type *t, bool negative, uint64_t magnitude)
{
  int ebits, mbits;
  format_of(t, &ebits, &mbits);
  if (!magnitude)
    return 0; /* +0, as APFloat::convertFromAPInt gives */
  return round_to_format(negative, magnitude, 0, ebits, mbits);
}

/* --- element functions --------------------------------------------------------------------------------- */

/* The float element type of the operation being folded. */
typedef struct fstate {
  const nc_type *elt;
} fstate;

static bool is_nan(const nc_type *t, uint64_t b) { return isnan(arith_bits_to_double(t, b)); }

/* Sets the quiet bit of a NaN, as APFloat's makeQuiet. */
static uint64_t quiet(const nc_type *t, uint64_t b)
{
  int ebits, mbits;
  format_of(t, &ebits, &mbits);
  return b | (1ull << (mbits - 1));
}

/* APFloat's NaN results: a NaN operand propagates (the left one first),
 * quieted and with its sign; an invalid operation (0/0, inf - inf, ...)
 * gives the positive default NaN. */
static uint64_t nan_result(const nc_type *t, uint64_t ab, uint64_t bb)
{
  int ebits, mbits;
  format_of(t, &ebits, &mbits);
  if (is_nan(t, ab))
    return quiet(t, ab);
  if (is_nan(t, bb))
    return quiet(t, bb);
  return (((1ull << ebits) - 1) << mbits) | (1ull << (mbits - 1));
}

#define FBIN(name, expr)                                                              \
  static bool f_##name(uint64_t ab, uint64_t bb, unsigned w, uint64_t *r, void *state) \
  {                                                                                   \
    (void)w;                                                                          \
    const nc_type *t = ((fstate *)state)->elt;                                        \
    double a = arith_bits_to_double(t, ab), b = arith_bits_to_double(t, bb);          \
    double v = (expr);                                                                \
    *r = isnan(v) ? nan_result(t, ab, bb) : arith_double_to_bits(t, v);               \
    return true;                                                                      \
  }
FBIN(add, a + b)
FBIN(sub, a - b)
FBIN(mul, a * b)
FBIN(div, a / b)
FBIN(rem, fmod(a, b))
#undef FBIN

/* llvm::maximum / minimum (propagate_nan: a NaN operand is the result, as it
 * is) and llvm::minnum (a NaN operand yields the other one); -0 < +0 in all
 * three (LLVM 19). */
static bool float_minmax(uint64_t ab, uint64_t bb, uint64_t *r, void *state, bool is_max, bool propagate_nan)
{
  const nc_type *t = ((fstate *)state)->elt;
  double a = arith_bits_to_double(t, ab), b = arith_bits_to_double(t, bb);
  if (isnan(a))
    *r = propagate_nan ? ab : bb;
  else if (isnan(b))
    *r = propagate_nan ? bb : ab;
  else if (a == 0 && b == 0 && signbit(a) != signbit(b))
    *r = (signbit(a) != 0) == is_max ? bb : ab;
  else
    *r = (is_max ? a < b : b < a) ? bb : ab;
  return true;
}

static bool f_maximum(uint64_t ab, uint64_t bb, unsigned w, uint64_t *r, void *state)
{
  (void)w;
  return float_minmax(ab, bb, r, state, true, true);
}

static bool f_minimum(uint64_t ab, uint64_t bb, unsigned w, uint64_t *r, void *state)
{
  (void)w;
  return float_minmax(ab, bb, r, state, false, true);
}

static bool f_minnum(uint64_t ab, uint64_t bb, unsigned w, uint64_t *r, void *state)
{
  (void)w;
  return float_minmax(ab, bb, r, state, false, false);
}

/* --- float binary ops ---------------------------------------------------------------------------------- */

#define FOLD(name) ARITH_DEFINE_FOLD(name)

static nc_value *lhs_of(nc_op *op) { return nc_op_get_operand(op, 0); }
static nc_type *type_of(nc_op *op) { return nc_value_get_type(nc_op_get_result(op, 0)); }

static bool fold_fbin(nc_op *op, nc_attr *const *consts, nc_fold_result *res, arith_bin_fn fn)
{
  if (!consts[0] || !consts[1])
    return false;
  fstate st = {nc_type_get_element_type(nc_attr_get_type(consts[0]))};
  res[0].attr = arith_fold_binary(nc_op_get_context(op), consts[0], consts[1], NULL, true, fn, &st);
  return res[0].attr != NULL;
}

/* The value of a scalar or splat float constant, or NAN if there is none. */
static bool splat_value(nc_attr *a, double *v, uint64_t *bits)
{
  nc_type *elt;
  uint64_t b;
  if (!arith_float_or_splat(a, &b, &elt))
    return false;
  *v = arith_bits_to_double(elt, b);
  if (bits)
    *bits = b;
  return true;
}

FOLD(addf)
{
  double v;
  if (splat_value(consts[1], &v, NULL) && v == 0 && signbit(v)) { /* addf(x, -0) -> x */
    res[0].value = lhs_of(op);
    return true;
  }
  return fold_fbin(op, consts, res, f_add);
}

FOLD(subf)
{
  double v;
  if (splat_value(consts[1], &v, NULL) && v == 0 && !signbit(v)) { /* subf(x, +0) -> x */
    res[0].value = lhs_of(op);
    return true;
  }
  return fold_fbin(op, consts, res, f_sub);
}

FOLD(mulf)
{
  double v;
  if (splat_value(consts[1], &v, NULL) && v == 1) { /* mulf(x, 1) -> x */
    res[0].value = lhs_of(op);
    return true;
  }
  return fold_fbin(op, consts, res, f_mul);
}

FOLD(divf)
{
  double v;
  if (splat_value(consts[1], &v, NULL) && v == 1) { /* divf(x, 1) -> x */
    res[0].value = lhs_of(op);
    return true;
  }
  return fold_fbin(op, consts, res, f_div);
}

FOLD(remf) { return fold_fbin(op, consts, res, f_rem); }

/* x op x -> x; x op identity -> x (max: -inf, min: +inf, as MLIR 19 folds
 * maxnumf / minnumf too); constant folding. */
static bool fold_fminmax(nc_op *op, nc_attr *const *consts, nc_fold_result *res, int identity, arith_bin_fn fn)
{
  if (nc_op_get_operand(op, 0) == nc_op_get_operand(op, 1)) {
    res[0].value = nc_op_get_operand(op, 1);
    return true;
  }
  double v;
  if (splat_value(consts[1], &v, NULL) && isinf(v) && ((identity < 0 && v < 0) || (identity > 0 && v > 0))) {
    res[0].value = lhs_of(op);
    return true;
  }
  return fold_fbin(op, consts, res, fn);
}

FOLD(maximumf) { return fold_fminmax(op, consts, res, -1, f_maximum); }
FOLD(minimumf) { return fold_fminmax(op, consts, res, 1, f_minimum); }
/* MLIR 19 folds maxnumf constants with llvm::maximum (NaN-propagating), not maxnum. */
FOLD(maxnumf) { return fold_fminmax(op, consts, res, -1, f_maximum); }
FOLD(minnumf) { return fold_fminmax(op, consts, res, 1, f_minnum); }

static bool c_neg(uint64_t a, nc_type *from, nc_type *to, uint64_t *r)
{
  (void)to;
  *r = a ^ (1ull << (nc_type_get_width(from) - 1));
  return true;
}

FOLD(negf)
{
  nc_op *inner = arith_def(lhs_of(op), ARITH_NEGF); /* negf(negf(x)) -> x */
  if (inner) {
    res[0].value = nc_op_get_operand(inner, 0);
    return true;
  }
  if (!consts[0])
    return false;
  res[0].attr = arith_fold_cast(nc_op_get_context(op), consts[0], type_of(op), true, c_neg);
  return res[0].attr != NULL;
}

/* Evaluates a cmpf predicate (APFloat::compare semantics). */
static bool cmpf_eval(int64_t pred, double a, double b)
{
  bool un = isnan(a) || isnan(b), lt = !un && a < b, gt = !un && a > b, eq = !un && a == b;
  switch (pred) {
  case NC_ARITH_CMPF_FALSE: return false;
  case NC_ARITH_CMPF_OEQ: return eq;
  case NC_ARITH_CMPF_OGT: return gt;
  case NC_ARITH_CMPF_OGE: return gt || eq;
  case NC_ARITH_CMPF_OLT: return lt;
  case NC_ARITH_CMPF_OLE: return lt || eq;
  case NC_ARITH_CMPF_ONE: return !un && !eq;
  case NC_ARITH_CMPF_ORD: return !un;
  case NC_ARITH_CMPF_UEQ: return un || eq;
  case NC_ARITH_CMPF_UGT: return un || gt;
  case NC_ARITH_CMPF_UGE: return un || gt || eq;
  case NC_ARITH_CMPF_ULT: return un || lt;
  case NC_ARITH_CMPF_ULE: return un || lt || eq;
  case NC_ARITH_CMPF_UNE: return !eq;
  case NC_ARITH_CMPF_UNO: return un;
  default: return true;
  }
}

FOLD(cmpf)
{
  /* scalars only, as MLIR: a NaN operand decides the result alone */
  nc_attr *l = consts[0] && nc_attr_get_kind(consts[0]) == NC_ATTR_FLOAT ? consts[0] : NULL;
  nc_attr *r = consts[1] && nc_attr_get_kind(consts[1]) == NC_ATTR_FLOAT ? consts[1] : NULL;
  if (l && isnan(nc_attr_get_float(l)))
    r = l;
  if (r && isnan(nc_attr_get_float(r)))
    l = r;
  if (!l || !r)
    return false;
  int64_t pred = nc_attr_get_int(nc_op_get_attr_str(op, "predicate"));
  res[0].attr = nc_attr_bool(nc_op_get_context(op), cmpf_eval(pred, nc_attr_get_float(l), nc_attr_get_float(r)));
  return true;
}

/* --- casts ----------------------------------------------------------------------------------------------- */

static bool c_sitofp(uint64_t a, nc_type *from, nc_type *to, uint64_t *r)
{
  int64_t s = arith_sext(a, arith_elt_width(from));
  *r = arith_int_to_float_bits(to, s < 0, s < 0 ? 0 - (uint64_t)s : (uint64_t)s);
  return true;
}

static bool c_uitofp(uint64_t a, nc_type *from, nc_type *to, uint64_t *r)
{
  (void)from;
  *r = arith_int_to_float_bits(to, false, a);
  return true;
}

/* APFloat::convertToInteger toward zero: invalid for NaN and out-of-range values. */
static bool to_int(uint64_t a, nc_type *from, nc_type *to, uint64_t *r, bool is_signed)
{
  double d = trunc(arith_bits_to_double(from, a));
  unsigned w = arith_elt_width(to);
  if (isnan(d) || isinf(d))
    return false;
  double lo = is_signed ? -ldexp(1, (int)w - 1) : 0, hi = is_signed ? ldexp(1, (int)w - 1) : ldexp(1, (int)w);
  if (d < lo || d >= hi)
    return false;
  if (d < 0)
    *r = (0 - (uint64_t)(-d)) & arith_mask(w);
  else
    *r = (d >= 9223372036854775808.0 ? (uint64_t)(d - 9223372036854775808.0) + (1ull << 63) : (uint64_t)d) & arith_mask(w);
  return true;
}

static bool c_fptosi(uint64_t a, nc_type *from, nc_type *to, uint64_t *r) { return to_int(a, from, to, r, true); }
static bool c_fptoui(uint64_t a, nc_type *from, nc_type *to, uint64_t *r) { return to_int(a, from, to, r, false); }

/* A conversion between float formats that loses nothing (MLIR's
 * convertFloatValue): the value converted back gives the same bits, which
 * also refuses signalling NaNs (converting quiets them) and lost payloads. */
static bool c_float_exact(uint64_t a, nc_type *from, nc_type *to, uint64_t *r)
{
  uint64_t b = arith_double_to_bits(to, arith_bits_to_double(from, a));
  if (arith_double_to_bits(from, arith_bits_to_double(to, b)) != a)
    return false;
  *r = b;
  return true;
}

static bool fold_cast(nc_op *op, nc_attr *const *consts, nc_fold_result *res, bool from_float, arith_cast_fn fn)
{
  if (!consts[0])
    return false;
  res[0].attr = arith_fold_cast(nc_op_get_context(op), consts[0], type_of(op), from_float, fn);
  return res[0].attr != NULL;
}

FOLD(sitofp) { return fold_cast(op, consts, res, false, c_sitofp); }
FOLD(uitofp) { return fold_cast(op, consts, res, false, c_uitofp); }
FOLD(fptosi) { return fold_cast(op, consts, res, true, c_fptosi); }
FOLD(fptoui) { return fold_cast(op, consts, res, true, c_fptoui); }
FOLD(extf) { return fold_cast(op, consts, res, true, c_float_exact); }

FOLD(truncf)
{
  /* only the default rounding mode folds (an exact conversion does not round anyway) */
  return fold_cast(op, consts, res, true, c_float_exact);
}

static bool c_bitcast(uint64_t a, nc_type *from, nc_type *to, uint64_t *r)
{
  (void)from, (void)to;
  *r = a;
  return true;
}

FOLD(bitcast)
{
  nc_value *in = lhs_of(op);
  if (consts[0]) {
    nc_attr *c = consts[0];
    bool from_float = nc_type_is_float(nc_type_get_element_type(nc_attr_get_type(c)));
    res[0].attr = arith_fold_cast(nc_op_get_context(op), c, type_of(op), from_float, c_bitcast);
    if (res[0].attr)
      return true;
  }
  if (nc_value_get_type(in) == type_of(op)) { /* CastOpInterface: a cast to the same type */
    res[0].value = in;
    return true;
  }
  return false;
}
