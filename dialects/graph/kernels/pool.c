/* pool.c: MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool.
 *
 * Windows use the same geometry as Conv (common.c) plus ceil_mode. Every
 * problem is treated as 3-D with leading size-1 dims. Values are staged per
 * plane as f64 (exact for f16, bf16, i8 and u8), so one typed loop serves
 * every dtype. Average pools on i8/u8 (quantized graphs) divide the exact
 * integer sum rounding half to even (docs/quantization.md).
 */
#include "kernels_internal.h"

#include <float.h>
#include <stdlib.h>

static bool pool_geom(const char *op, const nc_pool_params *p, int rank, const int64_t *x_shape, nc_conv_geom *g,
                      char *err, size_t errlen)
{
  if (rank < 3 || rank > 2 + NC_KERNEL_MAX_SPATIAL)
    return nc_kerr(err, errlen, "%s: input rank %d, expected 3 to 5", op, rank);
  if ((int)p->auto_pad < 0 || p->auto_pad > NC_AUTO_PAD_VALID)
    return nc_kerr(err, errlen, "%s: bad auto_pad", op);
  memset(g, 0, sizeof *g);
  g->nsp = rank - 2;
  g->n = x_shape[0];
  g->c = g->m = x_shape[1];
  g->group = 1;
  if (g->n < 0 || g->c < 0)
    return nc_kerr(err, errlen, "%s: negative dim", op);
  int off = NC_KERNEL_MAX_SPATIAL - g->nsp;
  for (int i = 0; i < NC_KERNEL_MAX_SPATIAL; i++)
    g->in[i] = g->k[i] = g->s[i] = g->d[i] = g->out[i] = 1;
  for (int i = 0; i < g->nsp; i++) {
    int j = off + i;
    int64_t in = g->in[j] = x_shape[2 + i], k = g->k[j] = p->kernel_shape[i];
    int64_t s = g->s[j] = p->strides[i] ? p->strides[i] : 1;
    int64_t d = g->d[j] = p->dilations[i] ? p->dilations[i] : 1;
    int64_t pb = p->pads[i], pe = p->pads[g->nsp + i];
    if (k < 1)
      return nc_kerr(err, errlen, "%s: kernel_shape[%d] = %lld must be positive", op, i, (long long)k);
    if (s < 1 || d < 1 || in < 0)
      return nc_kerr(err, errlen, "%s: strides and dilations must be positive", op);
    if (p->auto_pad == NC_AUTO_PAD_NOTSET && (pb < 0 || pe < 0))
      return nc_kerr(err, errlen, "%s: negative pads", op);
    if (k > (INT64_MAX / 4) / d || in > INT64_MAX / 4 || pb > INT64_MAX / 4 || pe > INT64_MAX / 4 ||
        s > INT64_MAX / 4)
      return nc_kerr(err, errlen, "%s: attribute out of range", op);
    if (!nc_k_window_dim(p->auto_pad, in, k, s, d, pb, pe, p->ceil_mode, &g->pb[j], &g->pe[j], &g->out[j]))
      return nc_kerr(err, errlen, "%s: window (%lld) larger than the padded input (%lld) in spatial dim %d", op,
                     (long long)(d * (k - 1) + 1), (long long)(in + g->pb[j] + g->pe[j]), i);
  }
  return true;
}

bool nc_kernel_pool_shape(const nc_pool_params *p, int rank, const int64_t *x_shape, int64_t *out_shape, char *err,
                          size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "pool_shape: missing parameters");
  nc_conv_geom g;
  if (!pool_geom("pool", p, rank, x_shape, &g, err, errlen))
    return false;
  nc_k_geom_out_shape(&g, out_shape);
  return true;
}

/* Window positions along one dim: kernel taps [*k0, *k1) land inside [lo, hi). */
static void taps(int64_t start, int64_t k, int64_t d, int64_t lo, int64_t hi, int64_t *k0, int64_t *k1)
{
  int64_t a = start >= lo ? 0 : (lo - start + d - 1) / d;
  int64_t b = start + (k - 1) * d < hi ? k : (hi - 1 - start < 0 ? 0 : (hi - 1 - start) / d + 1);
  *k0 = a < k ? a : k;
  *k1 = b > *k0 ? b : *k0;
}

#define DEFINE_POOL_PLANE(T, NAME)                                                                          \
  /* One (n, c) plane: max (is_max) or average of each window. */                                          \
  /* integer: the exact sum divided by the count, rounded half to even (sums of integers are exact in T). */ \
  static void NAME(const nc_conv_geom *g, bool is_max, bool include_pad, bool integer, const T *x, T *y)    \
  {                                                                                                         \
    for (int64_t od = 0; od < g->out[0]; od++) {                                                            \
      int64_t sd = od * g->s[0] - g->pb[0], d0, d1, pd0, pd1;                                               \
      taps(sd, g->k[0], g->d[0], 0, g->in[0], &d0, &d1);                                                    \
      taps(sd, g->k[0], g->d[0], -g->pb[0], g->in[0] + g->pe[0], &pd0, &pd1);                               \
      for (int64_t oh = 0; oh < g->out[1]; oh++) {                                                          \
        int64_t sh = oh * g->s[1] - g->pb[1], h0, h1, ph0, ph1;                                             \
        taps(sh, g->k[1], g->d[1], 0, g->in[1], &h0, &h1);                                                  \
        taps(sh, g->k[1], g->d[1], -g->pb[1], g->in[1] + g->pe[1], &ph0, &ph1);                             \
        for (int64_t ow = 0; ow < g->out[2]; ow++) {                                                        \
          int64_t sw = ow * g->s[2] - g->pb[2], w0, w1, pw0, pw1;                                           \
          taps(sw, g->k[2], g->d[2], 0, g->in[2], &w0, &w1);                                                \
          taps(sw, g->k[2], g->d[2], -g->pb[2], g->in[2] + g->pe[2], &pw0, &pw1);                           \
          T best = -(T)INFINITY;                                                                            \
          double sum = 0;                                                                                   \
          bool saw_nan = false, saw_num = false;                                                            \
          for (int64_t kd = d0; kd < d1; kd++)                                                              \
            for (int64_t kh = h0; kh < h1; kh++) {                                                          \
              const T *row = x + ((sd + kd * g->d[0]) * g->in[1] + sh + kh * g->d[1]) * g->in[2] + sw;      \
              for (int64_t kw = w0; kw < w1; kw++) {                                                        \
                T v = row[kw * g->d[2]];                                                                    \
                if (is_max) {                                                                               \
                  if (v != v)                                                                               \
                    saw_nan = true;                                                                         \
                  else {                                                                                    \
                    saw_num = true;                                                                         \
                    if (v > best)                                                                           \
                      best = v;                                                                             \
                  }                                                                                         \
                } else                                                                                      \
                  sum += v;                                                                                 \
              }                                                                                             \
            }                                                                                               \
          T *out = y + (od * g->out[1] + oh) * g->out[2] + ow;                                              \
          if (is_max) {                                                                                     \
            *out = !saw_num && saw_nan ? (T)NAN : best;                                                     \
          } else {                                                                                          \
            double cnt = include_pad ? (double)(pd1 - pd0) * (double)(ph1 - ph0) * (double)(pw1 - pw0)     \
                                     : (double)((d1 - d0) * (h1 - h0) * (w1 - w0));                         \
            if (integer)                                                                                    \
              *out = cnt > 0 ? (T)nc_div_round_half_even((int64_t)sum, (int64_t)cnt) : 0;                  \
            else                                                                                            \
              *out = cnt > 0 ? (T)(sum / cnt) : (T)NAN;                                                     \
          }                                                                                                 \
        }                                                                                                   \
      }                                                                                                     \
    }                                                                                                       \
  }

DEFINE_POOL_PLANE(float, pool_plane_f32)
DEFINE_POOL_PLANE(double, pool_plane_f64)

/* 8-, 4- and 2-bit integers (sub-byte ones stored one per byte): the
 * widths graph-quantize makes. */
static bool narrow_int(nc_dtype dt)
{
  return dt == NC_DT_I8 || dt == NC_DT_U8 || dt == NC_DT_I4 || dt == NC_DT_U4 || dt == NC_DT_I2 || dt == NC_DT_U2;
}

/* Checks the input of a pool: float, or narrow integers. */
static bool check_pool_input(const char *op, const nc_tensor *x, char *err, size_t errlen)
{
  if (!nc_k_check_in(op, "X", x, err, errlen))
    return false;
  if (!nc_k_is_float(x->dtype) && !narrow_int(x->dtype))
    return nc_kerr(err, errlen, "%s: unsupported dtype %s", op, nc_dtype_name(x->dtype));
  return true;
}

static bool pool_run(const char *op, bool is_max, const nc_pool_params *p, const nc_tensor *x, nc_tensor *y,
                     char *err, size_t errlen)
{
  if (!check_pool_input(op, x, err, errlen))
    return false;
  nc_dtype dt = x->dtype;
  bool int8 = narrow_int(dt);
  nc_conv_geom g;
  if (!pool_geom(op, p, x->rank, x->shape, &g, err, errlen))
    return false;
  int64_t out_shape[NC_TENSOR_MAX_RANK];
  nc_k_geom_out_shape(&g, out_shape);
  if (!nc_k_check_out(op, y, dt, x->rank, out_shape, err, errlen))
    return false;
  int64_t ihw = g.in[0] * g.in[1] * g.in[2], ohw = g.out[0] * g.out[1] * g.out[2];
  int64_t planes = g.n * g.c;
  if (dt == NC_DT_F64) {
    for (int64_t pl = 0; pl < planes; pl++)
      pool_plane_f64(&g, is_max, p->count_include_pad, false, (const double *)x->data + pl * ihw,
                     (double *)y->data + pl * ohw);
    return true;
  }
  if (dt == NC_DT_F32) {
    for (int64_t pl = 0; pl < planes; pl++)
      pool_plane_f32(&g, is_max, p->count_include_pad, false, (const float *)x->data + pl * ihw,
                     (float *)y->data + pl * ohw);
    return true;
  }
  /* f16, bf16, i8, u8: staged as f64 (exact; integer sums stay exact below 2^53) */
  double *xf = nc_xmalloc((size_t)(ihw ? ihw : 1) * sizeof(double));
  double *yf = nc_xmalloc((size_t)(ohw ? ohw : 1) * sizeof(double));
  int64_t lo, hi;
  nc_k_int_range(dt, &lo, &hi);
  for (int64_t pl = 0; pl < planes; pl++) {
    for (int64_t i = 0; i < ihw; i++)
      xf[i] =
        int8 ? (double)nc_elem_load_i64(x->data, dt, pl * ihw + i) : nc_elem_load_f64(x->data, dt, pl * ihw + i);
    pool_plane_f64(&g, is_max, p->count_include_pad, int8, xf, yf);
    for (int64_t i = 0; i < ohw; i++) {
      if (int8)
        nc_elem_store_i64(y->data, dt, pl * ohw + i, yf[i] < (double)lo ? lo : (int64_t)yf[i]);
      else
        nc_elem_store_f64(y->data, dt, pl * ohw + i, yf[i]);
    }
  }
  free(xf);
  free(yf);
  return true;
}

bool nc_kernel_max_pool(const nc_pool_params *p, const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "max_pool: missing parameters");
  return pool_run("max_pool", true, p, x, y, err, errlen);
}

bool nc_kernel_avg_pool(const nc_pool_params *p, const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "avg_pool: missing parameters");
  return pool_run("avg_pool", false, p, x, y, err, errlen);
}

/* --- global pools ---------------------------------------------------------- */

bool nc_kernel_global_pool_shape(int rank, const int64_t *x_shape, int64_t *out_shape, char *err, size_t errlen)
{
  if (rank < 2 || rank > NC_TENSOR_MAX_RANK)
    return nc_kerr(err, errlen, "global_pool: input rank %d, expected at least 2", rank);
  if (x_shape[0] < 0 || x_shape[1] < 0)
    return nc_kerr(err, errlen, "global_pool: negative dim");
  out_shape[0] = x_shape[0];
  out_shape[1] = x_shape[1];
  for (int i = 2; i < rank; i++)
    out_shape[i] = 1;
  return true;
}

static bool global_pool(const char *op, bool is_max, const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  if (!check_pool_input(op, x, err, errlen))
    return false;
  nc_dtype dt = x->dtype;
  bool int8 = narrow_int(dt);
  int64_t out_shape[NC_TENSOR_MAX_RANK];
  if (!nc_kernel_global_pool_shape(x->rank, x->shape, out_shape, err, errlen) ||
      !nc_k_check_out(op, y, dt, x->rank, out_shape, err, errlen))
    return false;
  int64_t planes = x->shape[0] * x->shape[1], hw = 1;
  for (int i = 2; i < x->rank; i++)
    hw *= x->shape[i];
  for (int64_t pl = 0; pl < planes; pl++) {
    if (!is_max && int8) { /* the exact sum, divided rounding half to even */
      int64_t sum = 0;
      for (int64_t i = 0; i < hw; i++)
        sum += nc_elem_load_i64(x->data, dt, pl * hw + i);
      nc_elem_store_i64(y->data, dt, pl, hw ? nc_div_round_half_even(sum, hw) : 0);
      continue;
    }
    if (is_max && int8) {
      int64_t lo, hi, best;
      nc_k_int_range(dt, &lo, &hi);
      best = lo;
      for (int64_t i = 0; i < hw; i++) {
        int64_t v = nc_elem_load_i64(x->data, dt, pl * hw + i);
        best = v > best ? v : best;
      }
      nc_elem_store_i64(y->data, dt, pl, best);
      continue;
    }
    double acc = is_max ? -INFINITY : 0;
    bool saw_num = false, saw_nan = false;
    if (dt == NC_DT_F32 && !is_max) {
      const float *xp = (const float *)x->data + pl * hw;
      for (int64_t i = 0; i < hw; i++)
        acc += xp[i];
    } else {
      for (int64_t i = 0; i < hw; i++) {
        double v = nc_elem_load_f64(x->data, dt, pl * hw + i);
        if (!is_max)
          acc += v;
        else if (v != v)
          saw_nan = true;
        else {
          saw_num = true;
          acc = v > acc ? v : acc;
        }
      }
    }
    if (is_max)
      nc_elem_store_f64(y->data, dt, pl, !saw_num && saw_nan ? NAN : acc);
    else
      nc_elem_store_f64(y->data, dt, pl, hw ? acc / (double)hw : NAN);
  }
  return true;
}

bool nc_kernel_global_avg_pool(const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  return global_pool("global_avg_pool", false, x, y, err, errlen);
}

bool nc_kernel_global_max_pool(const nc_tensor *x, nc_tensor *y, char *err, size_t errlen)
{
  return global_pool("global_max_pool", true, x, y, err, errlen);
}
