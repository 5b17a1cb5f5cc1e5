/* quant.c: QuantizeLinear, DequantizeLinear and the fixed-point requantize
 * kernel of integer-only hardware.
 *
 * The float rules follow ONNX's reference implementation operation by
 * operation (see kernels.h), because the interpreter must agree bit for bit
 * with integer hardware fed by the same quantized tensors. The fixed-point
 * path is pure int64 arithmetic.
 */
#include "kernels_internal.h"

/* Scale/zero-point indexing: x is viewed as [outer, dim, inner] around axis;
 * the parameter index of element (o, a, i) is 0 (per tensor), a (per axis) or
 * (o*nblk + a/bs)*inner + i (blocked). */
typedef struct qindex {
  int kind; /* 0 per tensor, 1 per axis, 2 blocked */
  int64_t outer, dim, inner, bs, nblk;
} qindex;

static bool qindex_resolve(const char *op, const nc_quant_params *p, const nc_tensor *x, const nc_tensor *scale,
                           const nc_tensor *zp, qindex *q, char *err, size_t errlen)
{
  memset(q, 0, sizeof *q);
  int64_t ns = nc_tensor_num_elements(scale);
  if (zp) {
    bool same = zp->rank == scale->rank;
    for (int i = 0; same && i < zp->rank; i++)
      same = zp->shape[i] == scale->shape[i];
    if (!same)
      return nc_kerr(err, errlen, "%s: zero point shape differs from the scale's", op);
  }
  if (p->block_size == 0 && scale->rank <= 1 && ns == 1)
    return true;
  int a;
  if (!nc_k_axis(op, p->axis, x->rank, &a, err, errlen))
    return false;
  q->outer = nc_k_numel(a, x->shape);
  q->dim = x->shape[a];
  q->inner = nc_k_numel(x->rank - a - 1, x->shape + a + 1);
  if (p->block_size == 0) {
    if (scale->rank != 1 || scale->shape[0] != q->dim)
      return nc_kerr(err, errlen, "%s: per-axis scale must be 1-D of %lld elements", op, (long long)q->dim);
    q->kind = 1;
    return true;
  }
  if (p->block_size < 0)
    return nc_kerr(err, errlen, "%s: negative block_size", op);
  q->kind = 2;
  q->bs = p->block_size;
  q->nblk = q->dim / q->bs + (q->dim % q->bs != 0);
  bool ok = scale->rank == x->rank;
  for (int i = 0; ok && i < x->rank; i++)
    ok = scale->shape[i] == (i == a ? q->nblk : x->shape[i]);
  if (!ok)
    return nc_kerr(err, errlen, "%s: blocked scale must match X's shape with dim %d = %lld", op, a,
                   (long long)q->nblk);
  return true;
}

static inline int64_t qindex_of(const qindex *q, int64_t i)
{
  if (q->kind == 0)
    return 0;
  int64_t in = i % q->inner, t = i / q->inner, a = t % q->dim;
  if (q->kind == 1)
    return a;
  return (t / q->dim * q->nblk + a / q->bs) * q->inner + in;
}

static bool is_quant_dtype(nc_dtype dt)
{
  return nc_k_is_narrow_int(dt) || dt == NC_DT_I16 || dt == NC_DT_U16 || dt == NC_DT_I32;
}

bool nc_kernel_quantize_linear(const nc_quant_params *p, const nc_tensor *x, const nc_tensor *scale,
                               const nc_tensor *zero_point, nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "quantize_linear: missing parameters");
  const char *op = "quantize_linear";
  if (!nc_k_check_in(op, "X", x, err, errlen) || !nc_k_check_in(op, "y_scale", scale, err, errlen) ||
      (zero_point && !nc_k_check_in(op, "y_zero_point", zero_point, err, errlen)) ||
      !nc_k_check_in(op, "output", y, err, errlen))
    return false;
  if (!nc_k_is_float(x->dtype) || !nc_k_is_float(scale->dtype))
    return nc_kerr(err, errlen, "%s: X and y_scale must be float tensors", op);
  if (!is_quant_dtype(y->dtype))
    return nc_kerr(err, errlen, "%s: cannot quantize to %s", op, nc_dtype_name(y->dtype));
  if (zero_point && zero_point->dtype != y->dtype)
    return nc_kerr(err, errlen, "%s: y_zero_point dtype %s differs from the output's %s", op,
                   nc_dtype_name(zero_point->dtype), nc_dtype_name(y->dtype));
  if (!nc_k_check_out(op, y, y->dtype, x->rank, x->shape, err, errlen))
    return false;
  qindex q;
  if (!qindex_resolve(op, p, x, scale, zero_point, &q, err, errlen))
    return false;
  int64_t lo, hi, n = nc_tensor_num_elements(x);
  nc_k_int_range(y->dtype, &lo, &hi);
  nc_dtype dt = x->dtype;
  for (int64_t i = 0; i < n; i++) {
    int64_t j = qindex_of(&q, i);
    double r;
    if (dt == NC_DT_F64) {
      r = nearbyint(((const double *)x->data)[i] / nc_elem_load_f64(scale->data, scale->dtype, j));
    } else {
      float f = (float)nc_elem_load_f64(x->data, dt, i) / (float)nc_elem_load_f64(scale->data, scale->dtype, j);
      if (dt == NC_DT_F16)
        f = nc_f16_to_f32(nc_f32_to_f16(f)); /* numpy divides f16 in f32 and rounds to f16 */
      else if (dt == NC_DT_BF16)
        f = nc_bf16_to_f32(nc_f32_to_bf16(f));
      r = nearbyintf(f);
    }
    double zp = zero_point ? (double)nc_elem_load_i64(zero_point->data, zero_point->dtype, j) : 0;
    double v = isnan(r) ? zp : r + zp;
    nc_elem_store_i64(y->data, y->dtype, i, v <= (double)lo ? lo : v >= (double)hi ? hi : (int64_t)v);
  }
  return true;
}

bool nc_kernel_dequantize_linear(const nc_quant_params *p, const nc_tensor *x, const nc_tensor *scale,
                                 const nc_tensor *zero_point, nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "dequantize_linear: missing parameters");
  const char *op = "dequantize_linear";
  if (!nc_k_check_in(op, "X", x, err, errlen) || !nc_k_check_in(op, "x_scale", scale, err, errlen) ||
      (zero_point && !nc_k_check_in(op, "x_zero_point", zero_point, err, errlen)))
    return false;
  if (!is_quant_dtype(x->dtype) && x->dtype != NC_DT_U32)
    return nc_kerr(err, errlen, "%s: cannot dequantize %s", op, nc_dtype_name(x->dtype));
  if (!nc_k_is_float(scale->dtype))
    return nc_kerr(err, errlen, "%s: x_scale must be a float tensor", op);
  if (zero_point && zero_point->dtype != x->dtype)
    return nc_kerr(err, errlen, "%s: x_zero_point dtype %s differs from X's %s", op,
                   nc_dtype_name(zero_point->dtype), nc_dtype_name(x->dtype));
  if (!nc_k_check_out(op, y, scale->dtype, x->rank, x->shape, err, errlen))
    return false;
  qindex q;
  if (!qindex_resolve(op, p, x, scale, zero_point, &q, err, errlen))
    return false;
  int64_t n = nc_tensor_num_elements(x);
  for (int64_t i = 0; i < n; i++) {
    int64_t j = qindex_of(&q, i);
    int64_t d =
      nc_elem_load_i64(x->data, x->dtype, i) - (zero_point ? nc_elem_load_i64(zero_point->data, x->dtype, j) : 0);
    double v = (double)d * nc_elem_load_f64(scale->data, scale->dtype, j);
    if (y->dtype == NC_DT_F64)
      ((double *)y->data)[i] = v;
    else
      nc_elem_store_f64(y->data, y->dtype, i, (float)v); /* one rounding to f32, then to f16/bf16 */
  }
  return true;
}

/* --- fixed point ------------------------------------------------------------ */

int64_t nc_round_half_even_shift(int64_t v, int shift)
{
  if (shift <= 0)
    return v;
  if (shift > 63)
    shift = 63;
  int64_t q = v >> shift; /* arithmetic: floor(v / 2^shift) */
  uint64_t r = (uint64_t)v & ((UINT64_C(1) << shift) - 1), half = UINT64_C(1) << (shift - 1);
  if (r > half || (r == half && (q & 1)))
    q++;
  return q;
}

int64_t nc_div_round_half_even(int64_t n, int64_t d)
{
  if (d <= 0)
    return 0;
  int64_t q = n / d, r = n % d; /* truncated: floor when n >= 0 */
  if (r < 0)
    q--, r += d;                /* now q = floor(n / d), 0 <= r < d */
  uint64_t twice = 2 * (uint64_t)r;
  if (twice > (uint64_t)d || (twice == (uint64_t)d && (q & 1)))
    q++;
  return q;
}

bool nc_fixed_point_from_scale(double scale, int32_t *multiplier, int32_t *shift, char *err, size_t errlen)
{
  if (isnan(scale) || isinf(scale) || scale < 0)
    return nc_kerr(err, errlen, "fixed_point: scale %g must be finite and >= 0", scale);
  if (scale == 0) {
    *multiplier = 0;
    *shift = 0;
    return true;
  }
  int e;
  double q = frexp(scale, &e); /* scale = q * 2^e, q in [0.5, 1) */
  int64_t m = (int64_t)nearbyint(ldexp(q, 31));
  if (m == (INT64_C(1) << 31)) {
    m >>= 1;
    e++;
  }
  int64_t s = 31 - (int64_t)e;
  if (s < 0)
    return nc_kerr(err, errlen, "fixed_point: scale %g >= 2^31 needs a left shift", scale);
  if (s > 63) {
    m = s - 63 > 62 ? 0 : nc_round_half_even_shift(m, (int)(s - 63));
    s = 63;
  }
  *multiplier = (int32_t)m;
  *shift = (int32_t)s;
  return true;
}

bool nc_kernel_requantize(const nc_requant_params *p, const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "requantize: missing parameters");
  const char *op = "requantize";
  if (!nc_k_check_in(op, "X", x, err, errlen) || !nc_k_check_in(op, "output", y, err, errlen))
    return false;
  if (x->dtype != NC_DT_I32)
    return nc_kerr(err, errlen, "%s: accumulator must be i32, got %s", op, nc_dtype_name(x->dtype));
  if (!is_quant_dtype(y->dtype) && y->dtype != NC_DT_U32)
    return nc_kerr(err, errlen, "%s: cannot requantize to %s", op, nc_dtype_name(y->dtype));
  if (!nc_k_check_out(op, y, y->dtype, x->rank, x->shape, err, errlen))
    return false;
  int64_t inner = 1, dim = 1;
  if (p->count != 1) {
    int a;
    if (!nc_k_axis(op, p->axis, x->rank, &a, err, errlen))
      return false;
    dim = x->shape[a];
    inner = nc_k_numel(x->rank - a - 1, x->shape + a + 1);
    if (p->count != dim)
      return nc_kerr(err, errlen, "%s: %lld multipliers for a dim of %lld", op, (long long)p->count,
                     (long long)dim);
  }
  if (p->count < 1 || !p->multiplier || !p->shift)
    return nc_kerr(err, errlen, "%s: missing multipliers", op);
  for (int64_t c = 0; c < p->count; c++)
    if (p->multiplier[c] < 0 || p->shift[c] < 0 || p->shift[c] > 63)
      return nc_kerr(err, errlen, "%s: multiplier %d must be >= 0 and shift %d in [0, 63]", op, p->multiplier[c],
                     p->shift[c]);
  int64_t lo, hi, n = nc_tensor_num_elements(x);
  nc_k_int_range(y->dtype, &lo, &hi);
  const int32_t *acc = x->data;
  for (int64_t i = 0; i < n; i++) {
    int64_t c = p->count == 1 ? 0 : (i / inner) % dim;
    int64_t v = nc_round_half_even_shift((int64_t)acc[i] * p->multiplier[c], p->shift[c]) + p->zero_point;
    nc_elem_store_i64(y->data, y->dtype, i, v < lo ? lo : v > hi ? hi : v);
  }
  return true;
}

bool nc_kernel_eltwise_integer(const nc_eltwise_integer_params *p, const nc_tensor *a, const nc_tensor *b,
                               nc_tensor *y, char *err, size_t errlen)
{
  const char *op = "eltwise_integer";
  if (!p)
    return nc_kerr(err, errlen, "%s: missing parameters", op);
  if (!nc_k_check_in(op, "A", a, err, errlen) || !nc_k_check_in(op, "B", b, err, errlen) ||
      !nc_k_check_in(op, "output", y, err, errlen))
    return false;
  if (!is_quant_dtype(a->dtype) || !is_quant_dtype(b->dtype) || (!is_quant_dtype(y->dtype) && y->dtype != NC_DT_U32))
    return nc_kerr(err, errlen, "%s: expects integer inputs and result, got %s, %s and %s", op,
                   nc_dtype_name(a->dtype), nc_dtype_name(b->dtype), nc_dtype_name(y->dtype));
  if (a->rank != b->rank || memcmp(a->shape, b->shape, (size_t)a->rank * sizeof *a->shape))
    return nc_kerr(err, errlen, "%s: inputs of different shapes", op);
  if (!nc_k_check_out(op, y, y->dtype, a->rank, a->shape, err, errlen))
    return false;
  for (int i = 0; i < 2; i++)
    if (p->multiplier[i] < 0 || p->shift[i] < 0 || p->shift[i] > 63)
      return nc_kerr(err, errlen, "%s: multiplier %d must be >= 0 and shift %d in [0, 63]", op, p->multiplier[i],
                     p->shift[i]);
  int64_t lo, hi, n = nc_tensor_num_elements(a);
  nc_k_int_range(y->dtype, &lo, &hi);
  for (int64_t i = 0; i < n; i++) {
    int64_t r0 = nc_round_half_even_shift(nc_tensor_get_i64(a, i) * p->multiplier[0], p->shift[0]);
    int64_t r1 = nc_round_half_even_shift(nc_tensor_get_i64(b, i) * p->multiplier[1], p->shift[1]);
    int64_t r = (p->subtract ? r0 - r1 : r0 + r1) + p->zero_point;
    if (p->relu && r < p->zero_point)
      r = p->zero_point;
    nc_elem_store_i64(y->data, y->dtype, i, r < lo ? lo : r > hi ? hi : r);
  }
  return true;
}
