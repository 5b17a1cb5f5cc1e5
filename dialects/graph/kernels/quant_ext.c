/* quant_ext.c: the integer kernels of the ops graph-quantize emits beyond
 * conv / matmul / requantize / residual add: concat with a rescale per input,
 * the elementwise product (channel broadcast, as squeeze-and-excitation
 * gates scale channels), table lookup (the smooth activations) and softmax
 * by an exponential table and one exact division per element, plus the
 * table construction itself, so the quantizer and the unit tests share it.
 * Pure int64 arithmetic with graph.requantize's rounding (round half to
 * even), because every simulator reproduces these bit for bit.
 */
#include <math.h>

#include "kernels_internal.h"

static bool int_dtype(nc_dtype dt)
{
  return nc_k_is_narrow_int(dt) || dt == NC_DT_I16 || dt == NC_DT_U16 || dt == NC_DT_I32 || dt == NC_DT_U32;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

bool nc_kernel_concat_integer(int64_t axis, int n, const nc_tensor *const *xs, const int32_t *multiplier,
                              const int32_t *shift, int32_t zero_point, nc_tensor *y, char *err, size_t errlen)
{
  const char *op = "concat_integer";
  if (n < 1 || !xs || !multiplier || !shift)
    return nc_kerr(err, errlen, "%s: needs at least one input and one rescale per input", op);
  if (!nc_k_check_in(op, "output", y, err, errlen) || !int_dtype(y->dtype))
    return nc_kerr(err, errlen, "%s: expects an integer result", op);
  int rank = xs[0]->rank, a;
  if (!nc_k_axis(op, axis, rank, &a, err, errlen))
    return false;
  int64_t shape[NC_TENSOR_MAX_RANK], total = 0;
  for (int i = 0; i < n; i++) {
    if (!nc_k_check_in(op, "input", xs[i], err, errlen))
      return false;
    if (!int_dtype(xs[i]->dtype) || xs[i]->rank != rank)
      return nc_kerr(err, errlen, "%s: input %d is not an integer tensor of rank %d", op, i, rank);
    for (int d = 0; d < rank; d++)
      if (d != a && xs[i]->shape[d] != xs[0]->shape[d])
        return nc_kerr(err, errlen, "%s: input %d differs from input 0 in dim %d", op, i, d);
    if (multiplier[i] < 0 || shift[i] < 0 || shift[i] > 63)
      return nc_kerr(err, errlen, "%s: multiplier %d must be >= 0 and shift %d in [0, 63]", op, multiplier[i],
                     shift[i]);
    total += xs[i]->shape[a];
  }
  memcpy(shape, xs[0]->shape, (size_t)rank * sizeof *shape);
  shape[a] = total;
  if (!nc_k_check_out(op, y, y->dtype, rank, shape, err, errlen))
    return false;
  int64_t outer = nc_k_numel(a, shape), inner = nc_k_numel(rank - a - 1, shape + a + 1), lo, hi;
  nc_k_int_range(y->dtype, &lo, &hi);
  for (int64_t o = 0; o < outer; o++)
    for (int i = 0, off = 0; i < n; off += (int)xs[i]->shape[a], i++) {
      int64_t block = xs[i]->shape[a] * inner;
      for (int64_t k = 0; k < block; k++) {
        int64_t v = nc_tensor_get_i64(xs[i], o * block + k);
        int64_t r = nc_round_half_even_shift(v * multiplier[i], shift[i]) + zero_point;
        nc_elem_store_i64(y->data, y->dtype, (o * total + off) * inner + k, clamp64(r, lo, hi));
      }
    }
  return true;
}

bool nc_kernel_mul_integer(int32_t multiplier, int32_t shift, int32_t zero_point, bool relu, const nc_tensor *a,
                           const nc_tensor *b, nc_tensor *y, char *err, size_t errlen)
{
  const char *op = "mul_integer";
  if (!nc_k_check_in(op, "A", a, err, errlen) || !nc_k_check_in(op, "B", b, err, errlen) ||
      !nc_k_check_in(op, "output", y, err, errlen))
    return false;
  if (!int_dtype(a->dtype) || !int_dtype(b->dtype) || !int_dtype(y->dtype))
    return nc_kerr(err, errlen, "%s: expects integer inputs and result", op);
  if (nc_dtype_size(a->dtype) > 2 || nc_dtype_size(b->dtype) > 2) /* a * b * multiplier stays inside int64 */
    return nc_kerr(err, errlen, "%s: expects inputs of at most 16 bits, got %s and %s", op, nc_dtype_name(a->dtype),
                   nc_dtype_name(b->dtype));
  if (b->rank > a->rank)
    return nc_kerr(err, errlen, "%s: B has more dims than A", op);
  int off = a->rank - b->rank;
  for (int d = 0; d < b->rank; d++)
    if (b->shape[d] != 1 && b->shape[d] != a->shape[d + off])
      return nc_kerr(err, errlen, "%s: B does not broadcast to A's shape in dim %d", op, d);
  if (multiplier < 0 || shift < 0 || shift > 63)
    return nc_kerr(err, errlen, "%s: multiplier %d must be >= 0 and shift %d in [0, 63]", op, multiplier, shift);
  if (!nc_k_check_out(op, y, y->dtype, a->rank, a->shape, err, errlen))
    return false;
  int64_t n = nc_tensor_num_elements(a), lo, hi;
  nc_k_int_range(y->dtype, &lo, &hi);
  for (int64_t e = 0; e < n; e++) {
    int64_t rem = e, bi = 0, stride = 1; /* b's index: a's coordinates, 0 where b has 1 */
    for (int d = a->rank - 1; d >= 0; d--) {
      int64_t c = rem % a->shape[d];
      rem /= a->shape[d];
      if (d >= off) {
        int64_t bd = b->shape[d - off];
        bi += (bd == 1 ? 0 : c) * stride;
        stride *= bd;
      }
    }
    int64_t r = nc_round_half_even_shift(nc_tensor_get_i64(a, e) * nc_tensor_get_i64(b, bi) * multiplier, shift) +
                zero_point;
    if (relu && r < zero_point)
      r = zero_point;
    nc_elem_store_i64(y->data, y->dtype, e, clamp64(r, lo, hi));
  }
  return true;
}

bool nc_kernel_lut_integer(const int64_t *table, size_t n_table, const nc_tensor *x, nc_tensor *y, char *err,
                           size_t errlen)
{
  const char *op = "lut_integer";
  if (!nc_k_check_in(op, "input", x, err, errlen) || !nc_k_check_in(op, "output", y, err, errlen))
    return false;
  if (!int_dtype(x->dtype) || !int_dtype(y->dtype))
    return nc_kerr(err, errlen, "%s: expects integer input and result", op);
  int64_t lo, hi, ylo, yhi;
  nc_k_int_range(x->dtype, &lo, &hi);
  if (!table || hi - lo + 1 != (int64_t)n_table)
    return nc_kerr(err, errlen, "%s: the table has %zu entries, %s needs %lld", op, n_table, nc_dtype_name(x->dtype),
                   (long long)(hi - lo + 1));
  if (!nc_k_check_out(op, y, y->dtype, x->rank, x->shape, err, errlen))
    return false;
  nc_k_int_range(y->dtype, &ylo, &yhi);
  for (int64_t e = 0, n = nc_tensor_num_elements(x); e < n; e++)
    nc_elem_store_i64(y->data, y->dtype, e, clamp64(table[nc_tensor_get_i64(x, e) - lo], ylo, yhi));
  return true;
}

bool nc_lut_build(double (*f)(double x, void *userData), void *userData, double in_scale, double out_scale,
                  unsigned bits, int64_t *table, char *err, size_t errlen)
{
  if (bits < 2 || bits > 16)
    return nc_kerr(err, errlen, "lookup tables have 2 to 16 bits, got %u", bits);
  if (!(in_scale > 0) || !(out_scale > 0) || !isfinite(in_scale) || !isfinite(out_scale))
    return nc_kerr(err, errlen, "lookup table scales must be positive and finite (in %g, out %g)", in_scale,
                   out_scale);
  int64_t n = (int64_t)1 << bits, half = n / 2;
  for (int64_t i = 0; i < n; i++) {
    double x = (double)(i - half) * in_scale, v = f(x, userData);
    if (!isfinite(v))
      return nc_kerr(err, errlen, "the function is not finite at %g (table entry %lld)", x, (long long)i);
    double q = nearbyint(v / out_scale); /* the default rounding mode: half to even */
    table[i] = q < (double)-half ? -half : q > (double)(half - 1) ? half - 1 : (int64_t)q;
  }
  return true;
}

bool nc_kernel_softmax_integer(const int64_t *table, size_t n_table, const nc_tensor *x, nc_tensor *y, char *err,
                               size_t errlen)
{
  const char *op = "softmax_integer";
  if (!nc_k_check_in(op, "input", x, err, errlen) || !nc_k_check_in(op, "output", y, err, errlen))
    return false;
  if (!int_dtype(x->dtype) || !int_dtype(y->dtype) || x->rank < 1)
    return nc_kerr(err, errlen, "%s: expects integer input and result of rank >= 1", op);
  int64_t lo, hi, ylo, yhi;
  nc_k_int_range(x->dtype, &lo, &hi);
  if (!table || hi - lo + 1 != (int64_t)n_table)
    return nc_kerr(err, errlen, "%s: the table has %zu entries, %s needs %lld", op, n_table, nc_dtype_name(x->dtype),
                   (long long)(hi - lo + 1));
  for (size_t i = 0; i < n_table; i++)
    if (table[i] < 0 || table[i] > INT32_MAX || (i + 1 == n_table && table[i] < 1))
      return nc_kerr(err, errlen, "%s: table entry %zu (%lld) outside [0, 2^31) or a last entry below 1", op, i,
                     (long long)table[i]);
  if (!nc_k_check_out(op, y, y->dtype, x->rank, x->shape, err, errlen))
    return false;
  nc_k_int_range(y->dtype, &ylo, &yhi);
  int64_t n = x->shape[x->rank - 1], rows = n ? nc_tensor_num_elements(x) / n : 0;
  for (int64_t r = 0; r < rows; r++) {
    int64_t m = INT64_MIN, sum = 0;
    for (int64_t j = 0; j < n; j++)
      m = nc_tensor_get_i64(x, r * n + j) > m ? nc_tensor_get_i64(x, r * n + j) : m;
    for (int64_t j = 0; j < n; j++)
      sum += table[nc_tensor_get_i64(x, r * n + j) - m + (int64_t)n_table - 1];
    for (int64_t j = 0; j < n; j++) {
      int64_t num = table[nc_tensor_get_i64(x, r * n + j) - m + (int64_t)n_table - 1] * yhi, q = num / sum,
              rem = num % sum;
      if (2 * rem > sum || (2 * rem == sum && (q & 1)))
        q++;
      nc_elem_store_i64(y->data, y->dtype, r * n + j, clamp64(q, ylo, yhi));
    }
  }
  return true;
}
