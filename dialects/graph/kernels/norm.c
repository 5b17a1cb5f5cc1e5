/* norm.c: BatchNormalization (inference), InstanceNormalization and LRN.
 *
 * Statistics and per-channel factors are computed in double and the result
 * rounded once to the dtype, so f16/bf16 and f32 results are as accurate as
 * the dtype allows (ONNX's reference computes in the dtype and may differ by
 * a few ulps).
 */
#include "kernels_internal.h"

#include <stdlib.h>

/* Checks a per-channel parameter tensor: float, 1-D of c elements. */
static bool check_channel_param(const char *op, const char *what, const nc_tensor *t, int64_t c, char *err,
                                size_t errlen)
{
  if (!nc_k_check_in(op, what, t, err, errlen))
    return false;
  if (!nc_k_is_float(t->dtype) || t->rank != 1 || t->shape[0] != c)
    return nc_kerr(err, errlen, "%s: %s must be a 1-D float tensor of %lld elements", op, what, (long long)c);
  return true;
}

static bool check_nc_input(const char *op, const nc_tensor *x, const nc_tensor *y, int min_rank, char *err,
                           size_t errlen)
{
  if (!nc_k_check_in(op, "X", x, err, errlen))
    return false;
  if (!nc_k_is_float(x->dtype))
    return nc_kerr(err, errlen, "%s: X has dtype %s, expected a float type", op, nc_dtype_name(x->dtype));
  if (x->rank < min_rank)
    return nc_kerr(err, errlen, "%s: X has rank %d, expected at least %d", op, x->rank, min_rank);
  return nc_k_check_out(op, y, x->dtype, x->rank, x->shape, err, errlen);
}

/* y = x * a + b over n floats (vectorized). */
static void scale_shift_f32(int64_t n, const float *restrict x, float a, float b, float *restrict y)
{
  NC_VLOOP(i, n, y[i] = x[i] * a + b);
}

bool nc_kernel_batch_norm(double epsilon, const nc_tensor *x, const nc_tensor *scale, const nc_tensor *bias,
                          const nc_tensor *mean, const nc_tensor *var, nc_tensor *y, char *err, size_t errlen)
{
  const char *op = "batch_norm";
  if (!check_nc_input(op, x, y, 2, err, errlen))
    return false;
  int64_t n = x->shape[0], c = x->shape[1], hw = 1;
  for (int i = 2; i < x->rank; i++)
    hw *= x->shape[i];
  if (!check_channel_param(op, "scale", scale, c, err, errlen) ||
      !check_channel_param(op, "B", bias, c, err, errlen) ||
      !check_channel_param(op, "mean", mean, c, err, errlen) || !check_channel_param(op, "var", var, c, err, errlen))
    return false;
  for (int64_t ch = 0; ch < c; ch++) {
    double a =
      nc_elem_load_f64(scale->data, scale->dtype, ch) / sqrt(nc_elem_load_f64(var->data, var->dtype, ch) + epsilon);
    double b = nc_elem_load_f64(bias->data, bias->dtype, ch) - nc_elem_load_f64(mean->data, mean->dtype, ch) * a;
    for (int64_t b0 = 0; b0 < n; b0++) {
      int64_t base = (b0 * c + ch) * hw;
      if (x->dtype == NC_DT_F32) {
        scale_shift_f32(hw, (const float *)x->data + base, (float)a, (float)b, (float *)y->data + base);
      } else {
        for (int64_t i = 0; i < hw; i++)
          nc_elem_store_f64(y->data, x->dtype, base + i, nc_elem_load_f64(x->data, x->dtype, base + i) * a + b);
      }
    }
  }
  return true;
}

bool nc_kernel_instance_norm(double epsilon, const nc_tensor *x, const nc_tensor *scale, const nc_tensor *bias,
                             nc_tensor *y, char *err, size_t errlen)
{
  const char *op = "instance_norm";
  if (!check_nc_input(op, x, y, 2, err, errlen))
    return false;
  int64_t n = x->shape[0], c = x->shape[1], hw = 1;
  for (int i = 2; i < x->rank; i++)
    hw *= x->shape[i];
  if (!check_channel_param(op, "scale", scale, c, err, errlen) || !check_channel_param(op, "B", bias, c, err, errlen))
    return false;
  for (int64_t b0 = 0; b0 < n; b0++)
    for (int64_t ch = 0; ch < c; ch++) {
      int64_t base = (b0 * c + ch) * hw;
      double sum = 0, sq = 0;
      for (int64_t i = 0; i < hw; i++)
        sum += nc_elem_load_f64(x->data, x->dtype, base + i);
      double mu = hw ? sum / (double)hw : 0;
      for (int64_t i = 0; i < hw; i++) {
        double d = nc_elem_load_f64(x->data, x->dtype, base + i) - mu;
        sq += d * d;
      }
      double var = hw ? sq / (double)hw : 0;
      double a = nc_elem_load_f64(scale->data, scale->dtype, ch) / sqrt(var + epsilon);
      double b = nc_elem_load_f64(bias->data, bias->dtype, ch);
      for (int64_t i = 0; i < hw; i++)
        nc_elem_store_f64(y->data, x->dtype, base + i, (nc_elem_load_f64(x->data, x->dtype, base + i) - mu) * a + b);
    }
  return true;
}

bool nc_kernel_lrn(const nc_lrn_params *p, const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "lrn: missing parameters");
  const char *op = "lrn";
  if (!check_nc_input(op, x, y, 2, err, errlen))
    return false;
  if (p->size < 1)
    return nc_kerr(err, errlen, "lrn: size %lld must be positive", (long long)p->size);
  int64_t n = x->shape[0], c = x->shape[1], hw = 1;
  for (int i = 2; i < x->rank; i++)
    hw *= x->shape[i];
  int64_t before = (p->size - 1) / 2, after = p->size - 1 - before; /* floor and ceil of (size-1)/2 */
  double *sq = nc_xmalloc((size_t)(hw ? hw : 1) * sizeof(double));
  for (int64_t b0 = 0; b0 < n; b0++)
    for (int64_t ch = 0; ch < c; ch++) {
      int64_t lo = ch - before < 0 ? 0 : ch - before, hi = ch + after > c - 1 ? c - 1 : ch + after;
      memset(sq, 0, (size_t)hw * sizeof(double));
      for (int64_t cc = lo; cc <= hi; cc++)
        for (int64_t i = 0; i < hw; i++) {
          double v = nc_elem_load_f64(x->data, x->dtype, (b0 * c + cc) * hw + i);
          sq[i] += v * v;
        }
      int64_t base = (b0 * c + ch) * hw;
      for (int64_t i = 0; i < hw; i++) {
        double v = nc_elem_load_f64(x->data, x->dtype, base + i);
        nc_elem_store_f64(y->data, x->dtype, base + i, v / pow(p->bias + p->alpha / (double)p->size * sq[i], p->beta));
      }
    }
  free(sq);
  return true;
}
