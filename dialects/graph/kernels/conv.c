/* conv.c: float Conv and ConvTranspose.
 *
 * Conv is one GEMM per (batch item, group): Y_g[Mg x OHW] = W_g[Mg x Cg*K] *
 * patches[Cg*K x OHW]. The patch matrix is never materialized: the GEMM's
 * B-pack callback gathers it from the image (implicit im2col), and 1x1
 * stride-1 unpadded convs pack the image directly. Groups with a single
 * input channel (depthwise) take a direct loop instead, since their GEMMs
 * would be one row deep. f16/bf16 run in f32 (rounded once at the end); f64
 * runs the f64 GEMM. ConvTranspose is a GEMM W^T * X followed by col2im.
 */
#include "kernels_internal.h"

#include <stdlib.h>

/* --- implicit im2col packs ---------------------------------------------------- */

typedef struct im2col_ctx {
  nc_im2col *ic;
  const void *img; /* one group's channels of one batch item */
} im2col_ctx;

#define DEFINE_IM2COL_PACK(T, NAME)                                                                    \
  static void NAME(const void *ctxp, int64_t r0, int64_t rn, int64_t k0, int64_t kc, int width, void *dstp) \
  {                                                                                                   \
    const im2col_ctx *ctx = ctxp;                                                                     \
    T *dst = dstp;                                                                                    \
    for (int64_t k = 0; k < kc; k++) {                                                                \
      int64_t cofs;                                                                                   \
      const int64_t *offs = nc_k_im2col_row(ctx->ic, k0 + k, r0, rn, &cofs);                          \
      const T *img = (const T *)ctx->img + cofs;                                                      \
      for (int64_t jp = 0; jp < rn; jp += width) {                                                    \
        T *d = dst + (jp / width * kc + k) * width;                                                   \
        const int64_t *off = offs + jp;                                                               \
        int w = rn - jp < width ? (int)(rn - jp) : width;                                             \
        for (int j = 0; j < w; j++)                                                                   \
          d[j] = off[j] >= 0 ? img[off[j]] : (T)0;                                                    \
        for (int j = w; j < width; j++)                                                               \
          d[j] = 0;                                                                                   \
      }                                                                                               \
    }                                                                                                 \
  }

DEFINE_IM2COL_PACK(float, pack_im2col_f32)
DEFINE_IM2COL_PACK(double, pack_im2col_f64)

/* --- direct depthwise loop ---------------------------------------------------- */

/* y[OD x OH x OW] += w * x[D x H x W] over the kernel window (one channel).
 * lo/hi hold each kw tap's range of valid output columns. */
#define DEFINE_DEPTHWISE(T, NAME)                                                                         \
  static void NAME(const nc_conv_geom *g, const int64_t *lo, const int64_t *hi, const T *x, const T *w, T *y) \
  {                                                                                                      \
    for (int64_t od = 0; od < g->out[0]; od++)                                                           \
      for (int64_t oh = 0; oh < g->out[1]; oh++) {                                                       \
        T *yrow = y + (od * g->out[1] + oh) * g->out[2];                                                 \
        for (int64_t kd = 0; kd < g->k[0]; kd++) {                                                       \
          int64_t id = od * g->s[0] - g->pb[0] + kd * g->d[0];                                           \
          if (id < 0 || id >= g->in[0])                                                                  \
            continue;                                                                                    \
          for (int64_t kh = 0; kh < g->k[1]; kh++) {                                                     \
            int64_t ih = oh * g->s[1] - g->pb[1] + kh * g->d[1];                                         \
            if (ih < 0 || ih >= g->in[1])                                                                \
              continue;                                                                                  \
            const T *xrow = x + (id * g->in[1] + ih) * g->in[2];                                         \
            const T *wk = w + (kd * g->k[1] + kh) * g->k[2];                                             \
            for (int64_t kw = 0; kw < g->k[2]; kw++)                                                     \
              if (hi[kw] > lo[kw])                                                                       \
                AXPY(hi[kw] - lo[kw], wk[kw], xrow + lo[kw] * g->s[2] + kw * g->d[2] - g->pb[2], g->s[2], \
                     yrow + lo[kw]);                                                                     \
          }                                                                                              \
        }                                                                                                \
      }                                                                                                  \
  }

/* y[0..n) += a * x[0, s, 2s, ...]; restrict lets gcc vectorize the s == 1 loop. */
#define DEFINE_AXPY(T, NAME)                                                                  \
  static void NAME(int64_t n, T a, const T *restrict x, int64_t s, T *restrict y)             \
  {                                                                                          \
    if (s == 1)                                                                              \
      NC_VLOOP(i, n, y[i] += a * x[i]);                                                      \
    else                                                                                     \
      for (int64_t i = 0; i < n; i++)                                                        \
        y[i] += a * x[i * s];                                                                \
  }

DEFINE_AXPY(float, axpy_f32)
DEFINE_AXPY(double, axpy_f64)
#define AXPY axpy_f32
DEFINE_DEPTHWISE(float, depthwise_f32)
#undef AXPY
#define AXPY axpy_f64
DEFINE_DEPTHWISE(double, depthwise_f64)
#undef AXPY

/* --- conv driver --------------------------------------------------------------- */

/* Conv on raw f32 (is_f64 false) or f64 buffers; b may be NULL. */
static void conv_real(const nc_conv_geom *g, bool is_f64, const void *x, const void *w, const void *b, void *y)
{
  size_t es = is_f64 ? sizeof(double) : sizeof(float);
  int64_t cg = g->c / g->group, mg = g->m / g->group;
  int64_t kprod = g->k[0] * g->k[1] * g->k[2];
  int64_t inhw = g->in[0] * g->in[1] * g->in[2], ohw = g->out[0] * g->out[1] * g->out[2];
  int64_t kg = cg * kprod;
  const nc_gemm_kind *kind = is_f64 ? &nc_gemm_kind_f64 : &nc_gemm_kind_f32;
  bool pointwise = kprod == 1 && g->s[0] == 1 && g->s[1] == 1 && g->s[2] == 1 && g->pb[0] == 0 &&
                   g->pb[1] == 0 && g->pb[2] == 0 && g->out[0] == g->in[0] && g->out[1] == g->in[1] &&
                   g->out[2] == g->in[2];
  nc_im2col ic;
  nc_k_im2col_init(&ic, g, cg == 1 || pointwise ? 0 : kind->nc);
  int64_t *lo = nc_xmalloc((size_t)g->k[2] * 2 * sizeof(int64_t)), *hi = lo + g->k[2];
  for (int64_t kw = 0; kw < g->k[2]; kw++)
    nc_k_valid_range(kw * g->d[2] - g->pb[2], g->s[2], g->in[2], g->out[2], &lo[kw], &hi[kw]);
  float one32 = 1.0f;
  double one64 = 1.0;
  for (int64_t n = 0; n < g->n; n++) {
    for (int64_t m = 0; m < g->m; m++) { /* initialise with the bias */
      char *yc = (char *)y + (size_t)((n * g->m + m) * ohw) * es;
      if (is_f64) {
        double bv = b ? ((const double *)b)[m] : 0, *restrict yd = (double *)yc;
        NC_VLOOP(j, ohw, yd[j] = bv);
      } else {
        float bv = b ? ((const float *)b)[m] : 0, *restrict yf = (float *)yc;
        NC_VLOOP(j, ohw, yf[j] = bv);
      }
    }
    for (int64_t grp = 0; grp < g->group; grp++) {
      const char *img = (const char *)x + (size_t)((n * g->c + grp * cg) * inhw) * es;
      char *yg = (char *)y + (size_t)((n * g->m + grp * mg) * ohw) * es;
      const char *wg = (const char *)w + (size_t)(grp * mg * kg) * es;
      if (cg == 1) {
        for (int64_t m = 0; m < mg; m++) {
          if (is_f64)
            depthwise_f64(g, lo, hi, (const double *)img, (const double *)wg + m * kprod, (double *)yg + m * ohw);
          else
            depthwise_f32(g, lo, hi, (const float *)img, (const float *)wg + m * kprod, (float *)yg + m * ohw);
        }
        continue;
      }
      nc_gemm_src a = {.p = wg, .rs = kg, .ks = 1};
      nc_gemm_pack_fn *pack_a = is_f64 ? nc_gemm_pack_f64 : nc_gemm_pack_f32;
      const void *alpha = is_f64 ? (const void *)&one64 : (const void *)&one32;
      if (pointwise) {
        nc_gemm_src bsrc = {.p = img, .rs = 1, .ks = inhw};
        nc_gemm_run(kind, mg, ohw, kg, pack_a, &a, pack_a, &bsrc, yg, ohw, alpha);
      } else {
        im2col_ctx ctx = {&ic, img};
        nc_gemm_run(kind, mg, ohw, kg, pack_a, &a, is_f64 ? pack_im2col_f64 : pack_im2col_f32, &ctx, yg, ohw,
                    alpha);
      }
    }
  }
  nc_k_im2col_free(&ic);
  free(lo);
}

/* Common checks of Conv's float operands. */
static bool check_float_operands(const char *op, const nc_tensor *x, const nc_tensor *w, const nc_tensor *b,
                                 int64_t bias_len, char *err, size_t errlen)
{
  if (!nc_k_check_in(op, "X", x, err, errlen) || !nc_k_check_in(op, "W", w, err, errlen))
    return false;
  if (!nc_k_is_float(x->dtype))
    return nc_kerr(err, errlen, "%s: X has dtype %s, expected a float type", op, nc_dtype_name(x->dtype));
  if (w->dtype != x->dtype)
    return nc_kerr(err, errlen, "%s: W dtype %s differs from X (%s)", op, nc_dtype_name(w->dtype),
                   nc_dtype_name(x->dtype));
  if (w->rank != x->rank)
    return nc_kerr(err, errlen, "%s: W rank %d differs from X rank %d", op, w->rank, x->rank);
  if (b) {
    if (!nc_k_check_in(op, "B", b, err, errlen))
      return false;
    if (b->dtype != x->dtype || b->rank != 1 || b->shape[0] != bias_len)
      return nc_kerr(err, errlen, "%s: B must be a 1-D %s tensor of %lld elements", op, nc_dtype_name(x->dtype),
                     (long long)bias_len);
  }
  return true;
}

bool nc_kernel_conv_shape(const nc_conv_params *p, int rank, const int64_t *x_shape, const int64_t *w_shape,
                          int64_t *out_shape, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "conv_shape: missing parameters");
  nc_conv_geom g;
  if (!nc_k_conv_geom("conv", p, rank, x_shape, w_shape, &g, err, errlen))
    return false;
  nc_k_geom_out_shape(&g, out_shape);
  return true;
}

/* Runs fn on f32/f64 data directly and on f16/bf16 through f32 copies. */
static void run_real(nc_dtype dt, const nc_tensor *x, const nc_tensor *w, const nc_tensor *b, nc_tensor *y,
                     void (*fn)(const void *ctx, bool is_f64, const void *x, const void *w, const void *b, void *y),
                     const void *ctx)
{
  if (dt == NC_DT_F32 || dt == NC_DT_F64) {
    fn(ctx, dt == NC_DT_F64, x->data, w->data, b ? b->data : NULL, y->data);
    return;
  }
  float *xf = nc_k_to_f32(x), *wf = nc_k_to_f32(w), *bf = b ? nc_k_to_f32(b) : NULL;
  int64_t ny = nc_tensor_num_elements(y);
  float *yf = nc_xmalloc((size_t)(ny ? ny : 1) * sizeof(float));
  fn(ctx, false, xf, wf, bf, yf);
  nc_k_from_f32(yf, ny, y->data, dt);
  free(xf);
  free(wf);
  free(bf);
  free(yf);
}

static void conv_thunk(const void *ctx, bool is_f64, const void *x, const void *w, const void *b, void *y)
{
  conv_real(ctx, is_f64, x, w, b, y);
}

bool nc_kernel_conv(const nc_conv_params *p, const nc_tensor *x, const nc_tensor *w, const nc_tensor *b,
                    nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "conv: missing parameters");
  if (!check_float_operands("conv", x, w, b, w ? w->shape[0] : 0, err, errlen))
    return false;
  nc_conv_geom g;
  if (!nc_k_conv_geom("conv", p, x->rank, x->shape, w->shape, &g, err, errlen))
    return false;
  int64_t out_shape[NC_TENSOR_MAX_RANK];
  nc_k_geom_out_shape(&g, out_shape);
  if (!nc_k_check_out("conv", y, x->dtype, x->rank, out_shape, err, errlen))
    return false;
  if (nc_tensor_num_elements(y) == 0)
    return true; /* also bounds the group loop: group <= M when M > 0 */
  run_real(x->dtype, x, w, b, y, conv_thunk, &g);
  return true;
}

/* --- ConvTranspose ------------------------------------------------------------- */

static int64_t floor_half(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

static bool convt_geom(const nc_conv_transpose_params *p, int rank, const int64_t *x_shape, const int64_t *w_shape,
                       nc_conv_geom *g, char *err, size_t errlen)
{
  const char *op = "conv_transpose";
  if (!nc_k_geom_begin(op, rank, x_shape, w_shape, g, err, errlen))
    return false;
  g->group = p->group ? p->group : 1;
  if (g->group < 1 || g->c % g->group)
    return nc_kerr(err, errlen, "%s: group %lld must be positive and divide the %lld input channels", op,
                   (long long)g->group, (long long)g->c);
  if (w_shape[0] != g->c)
    return nc_kerr(err, errlen, "%s: W has %lld input channels, X has %lld", op, (long long)w_shape[0],
                   (long long)g->c);
  if (w_shape[1] > INT64_MAX / g->group)
    return nc_kerr(err, errlen, "%s: too many output channels", op);
  if ((int)p->auto_pad < 0 || p->auto_pad > NC_AUTO_PAD_VALID)
    return nc_kerr(err, errlen, "%s: bad auto_pad", op);
  g->m = w_shape[1] * g->group;
  bool explicit_kernel = false;
  for (int i = 0; i < g->nsp; i++)
    explicit_kernel |= p->kernel_shape[i] != 0;
  int off = NC_KERNEL_MAX_SPATIAL - g->nsp;
  for (int i = 0; i < NC_KERNEL_MAX_SPATIAL; i++)
    g->in[i] = g->k[i] = g->s[i] = g->d[i] = g->out[i] = 1;
  for (int i = 0; i < g->nsp; i++) {
    int j = off + i;
    if (explicit_kernel && p->kernel_shape[i] != w_shape[2 + i])
      return nc_kerr(err, errlen, "%s: kernel_shape[%d] does not match W", op, i);
    int64_t in = g->in[j] = x_shape[2 + i], k = g->k[j] = w_shape[2 + i];
    int64_t s = g->s[j] = p->strides[i] ? p->strides[i] : 1;
    int64_t d = g->d[j] = p->dilations[i] ? p->dilations[i] : 1;
    int64_t opad = p->output_padding[i];
    if (k < 1 || s < 1 || d < 1 || opad < 0)
      return nc_kerr(err, errlen, "%s: kernel, strides and dilations must be positive, output_padding >= 0", op);
    if (in < 1)
      return nc_kerr(err, errlen, "%s: empty spatial dim %d", op, i);
    if (s > INT64_MAX / 8 || k > (INT64_MAX / 8) / d || in > (INT64_MAX / 8) / s || opad > INT64_MAX / 8 ||
        p->pads[i] > INT64_MAX / 8 || p->pads[g->nsp + i] > INT64_MAX / 8 ||
        (p->has_output_shape && (p->output_shape[i] > INT64_MAX / 8 || p->output_shape[i] < 0)))
      return nc_kerr(err, errlen, "%s: attribute out of range", op);
    int64_t full = s * (in - 1) + opad + d * (k - 1) + 1;
    bool same = p->auto_pad == NC_AUTO_PAD_SAME_UPPER || p->auto_pad == NC_AUTO_PAD_SAME_LOWER;
    if (p->has_output_shape || same) {
      int64_t out = p->has_output_shape ? p->output_shape[i] : in * s;
      int64_t total = full - out;
      if (p->auto_pad == NC_AUTO_PAD_SAME_UPPER) {
        g->pb[j] = floor_half(total);
        g->pe[j] = total - g->pb[j];
      } else {
        g->pe[j] = floor_half(total);
        g->pb[j] = total - g->pe[j];
      }
      g->out[j] = out;
    } else {
      int64_t pb = p->auto_pad == NC_AUTO_PAD_VALID ? 0 : p->pads[i];
      int64_t pe = p->auto_pad == NC_AUTO_PAD_VALID ? 0 : p->pads[g->nsp + i];
      if (pb < 0 || pe < 0)
        return nc_kerr(err, errlen, "%s: negative pads", op);
      g->pb[j] = pb;
      g->pe[j] = pe;
      g->out[j] = full - pb - pe;
      if (g->out[j] < 0)
        return nc_kerr(err, errlen, "%s: pads larger than the output in spatial dim %d", op, i);
    }
  }
  return true;
}

bool nc_kernel_conv_transpose_shape(const nc_conv_transpose_params *p, int rank, const int64_t *x_shape,
                                    const int64_t *w_shape, int64_t *out_shape, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "conv_transpose_shape: missing parameters");
  nc_conv_geom g;
  if (!convt_geom(p, rank, x_shape, w_shape, &g, err, errlen))
    return false;
  nc_k_geom_out_shape(&g, out_shape);
  return true;
}

/* col [Mg*K x IHW] scattered into y [Mg x OHW] (adds). */
#define DEFINE_COL2IM(T, NAME)                                                                            \
  static void NAME(const nc_conv_geom *g, int64_t mg, const T *col, T *y)                                 \
  {                                                                                                      \
    int64_t kprod = g->k[0] * g->k[1] * g->k[2];                                                         \
    int64_t ihw = g->in[0] * g->in[1] * g->in[2], ohw = g->out[0] * g->out[1] * g->out[2];               \
    for (int64_t row = 0; row < mg * kprod; row++) {                                                     \
      int64_t m = row / kprod, r = row % kprod;                                                          \
      int64_t kw = r % g->k[2], kh = (r / g->k[2]) % g->k[1], kd = r / g->k[2] / g->k[1];                \
      const T *crow = col + row * ihw;                                                                   \
      T *ym = y + m * ohw;                                                                               \
      for (int64_t id = 0; id < g->in[0]; id++) {                                                        \
        int64_t od = id * g->s[0] - g->pb[0] + kd * g->d[0];                                             \
        if (od < 0 || od >= g->out[0])                                                                   \
          continue;                                                                                      \
        for (int64_t ih = 0; ih < g->in[1]; ih++) {                                                      \
          int64_t oh = ih * g->s[1] - g->pb[1] + kh * g->d[1];                                           \
          if (oh < 0 || oh >= g->out[1])                                                                 \
            continue;                                                                                    \
          const T *cr = crow + (id * g->in[1] + ih) * g->in[2];                                          \
          T *yr = ym + (od * g->out[1] + oh) * g->out[2];                                                \
          for (int64_t iw = 0; iw < g->in[2]; iw++) {                                                    \
            int64_t ow = iw * g->s[2] - g->pb[2] + kw * g->d[2];                                         \
            if (ow >= 0 && ow < g->out[2])                                                               \
              yr[ow] += cr[iw];                                                                          \
          }                                                                                              \
        }                                                                                                \
      }                                                                                                  \
    }                                                                                                    \
  }

DEFINE_COL2IM(float, col2im_f32)
DEFINE_COL2IM(double, col2im_f64)

static void convt_real(const void *ctx, bool is_f64, const void *x, const void *w, const void *b, void *y)
{
  const nc_conv_geom *g = ctx;
  size_t es = is_f64 ? sizeof(double) : sizeof(float);
  int64_t cg = g->c / g->group, mg = g->m / g->group;
  int64_t kprod = g->k[0] * g->k[1] * g->k[2];
  int64_t ihw = g->in[0] * g->in[1] * g->in[2], ohw = g->out[0] * g->out[1] * g->out[2];
  int64_t rows = mg * kprod;
  const nc_gemm_kind *kind = is_f64 ? &nc_gemm_kind_f64 : &nc_gemm_kind_f32;
  nc_gemm_pack_fn *pack = is_f64 ? nc_gemm_pack_f64 : nc_gemm_pack_f32;
  float one32 = 1.0f;
  double one64 = 1.0;
  const void *alpha = is_f64 ? (const void *)&one64 : (const void *)&one32;
  char *col = nc_xmalloc((size_t)(rows * ihw + 1) * es);
  for (int64_t n = 0; n < g->n; n++) {
    for (int64_t m = 0; m < g->m; m++) {
      char *ym = (char *)y + (size_t)((n * g->m + m) * ohw) * es;
      for (int64_t j = 0; j < ohw; j++) {
        if (is_f64)
          ((double *)ym)[j] = b ? ((const double *)b)[m] : 0;
        else
          ((float *)ym)[j] = b ? ((const float *)b)[m] : 0;
      }
    }
    for (int64_t grp = 0; grp < g->group; grp++) {
      memset(col, 0, (size_t)(rows * ihw) * es);
      /* A = W_g^T: W_g is [Cg x rows] row-major, so A(r, k) = W_g[k][r]. */
      nc_gemm_src a = {.p = (const char *)w + (size_t)(grp * cg * rows) * es, .rs = 1, .ks = rows};
      nc_gemm_src bs = {.p = (const char *)x + (size_t)((n * g->c + grp * cg) * ihw) * es, .rs = 1, .ks = ihw};
      nc_gemm_run(kind, rows, ihw, cg, pack, &a, pack, &bs, col, ihw, alpha);
      char *yg = (char *)y + (size_t)((n * g->m + grp * mg) * ohw) * es;
      if (is_f64)
        col2im_f64(g, mg, (const double *)col, (double *)yg);
      else
        col2im_f32(g, mg, (const float *)col, (float *)yg);
    }
  }
  free(col);
}

bool nc_kernel_conv_transpose(const nc_conv_transpose_params *p, const nc_tensor *x, const nc_tensor *w,
                              const nc_tensor *b, nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "conv_transpose: missing parameters");
  if (!check_float_operands("conv_transpose", x, w, NULL, 0, err, errlen))
    return false;
  nc_conv_geom g;
  if (!convt_geom(p, x->rank, x->shape, w->shape, &g, err, errlen) ||
      !check_float_operands("conv_transpose", x, w, b, g.m, err, errlen))
    return false;
  int64_t out_shape[NC_TENSOR_MAX_RANK];
  nc_k_geom_out_shape(&g, out_shape);
  if (!nc_k_check_out("conv_transpose", y, x->dtype, x->rank, out_shape, err, errlen))
    return false;
  if (nc_tensor_num_elements(y) == 0)
    return true;
  run_real(x->dtype, x, w, b, y, convt_real, &g);
  return true;
}
