/* qconv.c: the integer convolution and matmul kernels of quantized models:
 * ConvInteger, MatMulInteger, QLinearConv and QLinearMatMul.
 *
 * Accumulation is exact int32 (wrapping) through the int16 x int16 -> int32
 * GEMM of gemm.c: operands are packed as (value - zero point), which fits in
 * int16 for 8-bit-or-narrower data, and the implicit im2col pack puts 0
 * (i.e. the zero point) in the padding. Single-input-channel groups
 * (depthwise) run a direct loop. QLinear* then requantize with the float
 * rule of ONNX's reference implementation, written so that no compiler may
 * fuse the multiply and add into an FMA.
 */
#include "kernels_internal.h"

#include <stdlib.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* gcc in ISO C mode never contracts */
#endif

/* --- integer conv core ---------------------------------------------------------- */

typedef struct im2col_i16_ctx {
  nc_im2col *ic;
  const void *img;
  bool is_signed;
  int32_t zp;
} im2col_i16_ctx;

static void pack_im2col_i16(const void *ctxp, int64_t r0, int64_t rn, int64_t k0, int64_t kc, int width, void *dstp)
{
  const im2col_i16_ctx *ctx = ctxp;
  int16_t *dst = dstp;
  for (int64_t k = 0; k < kc; k++) {
    int64_t cofs;
    const int64_t *offs = nc_k_im2col_row(ctx->ic, k0 + k, r0, rn, &cofs);
    for (int64_t jp = 0; jp < rn; jp += width) {
      int16_t *d = dst + (jp / width * kc + k) * width;
      const int64_t *off = offs + jp;
      int w = rn - jp < width ? (int)(rn - jp) : width;
      if (ctx->is_signed) {
        const int8_t *img = (const int8_t *)ctx->img + cofs;
        for (int j = 0; j < w; j++)
          d[j] = off[j] >= 0 ? (int16_t)(img[off[j]] - ctx->zp) : 0;
      } else {
        const uint8_t *img = (const uint8_t *)ctx->img + cofs;
        for (int j = 0; j < w; j++)
          d[j] = off[j] >= 0 ? (int16_t)(img[off[j]] - ctx->zp) : 0;
      }
      for (int j = w; j < width; j++)
        d[j] = 0;
    }
  }
}

/* y[0..n) += a * x[0, s, 2s, ...] in wrapping int32 (|a * x| < 2^16). */
static void axpy_i32(int64_t n, int32_t a, const int16_t *restrict x, int64_t s, int32_t *restrict y)
{
  if (s == 1)
    NC_VLOOP(i, n, y[i] = (int32_t)((uint32_t)y[i] + (uint32_t)(a * x[i])));
  else
    for (int64_t i = 0; i < n; i++)
      y[i] = (int32_t)((uint32_t)y[i] + (uint32_t)(a * x[i * s]));
}

/* Direct depthwise: y[OHW] += conv(x[IHW], w[K]) of one channel (int16
 * staged); lo/hi hold each kw tap's range of valid output columns. */
static void depthwise_i32(const nc_conv_geom *g, const int64_t *lo, const int64_t *hi, const int16_t *x,
                          const int16_t *w, int32_t *y)
{
  for (int64_t od = 0; od < g->out[0]; od++)
    for (int64_t oh = 0; oh < g->out[1]; oh++) {
      int32_t *yrow = y + (od * g->out[1] + oh) * g->out[2];
      for (int64_t kd = 0; kd < g->k[0]; kd++) {
        int64_t id = od * g->s[0] - g->pb[0] + kd * g->d[0];
        if (id < 0 || id >= g->in[0])
          continue;
        for (int64_t kh = 0; kh < g->k[1]; kh++) {
          int64_t ih = oh * g->s[1] - g->pb[1] + kh * g->d[1];
          if (ih < 0 || ih >= g->in[1])
            continue;
          const int16_t *xrow = x + (id * g->in[1] + ih) * g->in[2];
          for (int64_t kw = 0; kw < g->k[2]; kw++)
            if (hi[kw] > lo[kw])
              axpy_i32(hi[kw] - lo[kw], w[(kd * g->k[1] + kh) * g->k[2] + kw],
                       xrow + lo[kw] * g->s[2] + kw * g->d[2] - g->pb[2], g->s[2], yrow + lo[kw]);
        }
      }
    }
}

/* acc[N, M, OHW] = bias + conv(x - x_zp, w - w_zp[m]) in wrapping int32. */
static void conv_i32(const nc_conv_geom *g, const nc_tensor *x, const nc_tensor *w, int32_t x_zp,
                     const int32_t *w_zp, const int32_t *bias, int32_t *acc)
{
  int64_t cg = g->c / g->group, mg = g->m / g->group;
  int64_t kprod = g->k[0] * g->k[1] * g->k[2], kg = cg * kprod;
  int64_t ihw = g->in[0] * g->in[1] * g->in[2], ohw = g->out[0] * g->out[1] * g->out[2];
  bool pointwise = kprod == 1 && g->s[0] == 1 && g->s[1] == 1 && g->s[2] == 1 && g->pb[0] == 0 &&
                   g->pb[1] == 0 && g->pb[2] == 0 && g->out[0] == g->in[0] && g->out[1] == g->in[1] &&
                   g->out[2] == g->in[2];
  if (g->n * g->m * ohw == 0)
    return; /* also bounds the group loop: group <= M when M > 0 */
  const int8_t *xb = x->data, *wb = w->data; /* one byte per element */
  nc_im2col ic;
  nc_k_im2col_init(&ic, g, cg == 1 || pointwise ? 0 : nc_gemm_kind_i16.nc);
  int16_t *plane = cg == 1 ? nc_xmalloc((size_t)(ihw ? ihw : 1) * sizeof(int16_t)) : NULL;
  int16_t *wk = cg == 1 ? nc_xmalloc((size_t)kprod * sizeof(int16_t)) : NULL;
  int64_t *lo = nc_xmalloc((size_t)g->k[2] * 2 * sizeof(int64_t)), *hi = lo + g->k[2];
  for (int64_t kw = 0; kw < g->k[2]; kw++)
    nc_k_valid_range(kw * g->d[2] - g->pb[2], g->s[2], g->in[2], g->out[2], &lo[kw], &hi[kw]);
  for (int64_t n = 0; n < g->n; n++) {
    for (int64_t m = 0; m < g->m; m++)
      for (int64_t j = 0; j < ohw; j++)
        acc[(n * g->m + m) * ohw + j] = bias ? bias[m] : 0;
    for (int64_t grp = 0; grp < g->group; grp++) {
      const int8_t *img = xb + (n * g->c + grp * cg) * ihw;
      int32_t *cgp = acc + (n * g->m + grp * mg) * ohw;
      if (cg == 1) {
        for (int64_t i = 0; i < ihw; i++)
          plane[i] = (int16_t)(nc_elem_load_i64(img, x->dtype, i) - x_zp);
        for (int64_t m = 0; m < mg; m++) {
          int64_t mm = grp * mg + m;
          for (int64_t t = 0; t < kprod; t++)
            wk[t] = (int16_t)(nc_elem_load_i64(wb, w->dtype, mm * kprod + t) - w_zp[mm]);
          depthwise_i32(g, lo, hi, plane, wk, cgp + m * ohw);
        }
        continue;
      }
      nc_gemm_src a = {wb + grp * mg * kg, w->dtype, kg, 1, w_zp + grp * mg, 0};
      if (pointwise) {
        nc_gemm_src bs = {img, x->dtype, 1, ihw, NULL, x_zp};
        nc_gemm_run(&nc_gemm_kind_i16, mg, ohw, kg, nc_gemm_pack_i16, &a, nc_gemm_pack_i16, &bs, cgp, ohw, NULL);
      } else {
        im2col_i16_ctx ctx = {&ic, img, nc_dtype_is_signed(x->dtype), x_zp};
        nc_gemm_run(&nc_gemm_kind_i16, mg, ohw, kg, nc_gemm_pack_i16, &a, pack_im2col_i16, &ctx, cgp, ohw, NULL);
      }
    }
  }
  nc_k_im2col_free(&ic);
  free(plane);
  free(wk);
  free(lo);
}

/* Reads a zero point that is NULL, one element, or (if count > 0) count
 * elements into out[count or 1]. */
static bool read_zp(const char *op, const char *what, const nc_tensor *zp, nc_dtype dt, int64_t count,
                    int32_t *out, char *err, size_t errlen)
{
  int64_t fill = count > 0 ? count : 1;
  if (!zp) {
    for (int64_t i = 0; i < fill; i++)
      out[i] = 0;
    return true;
  }
  if (!nc_k_check_in(op, what, zp, err, errlen))
    return false;
  if (zp->dtype != dt)
    return nc_kerr(err, errlen, "%s: %s has dtype %s, expected %s", op, what, nc_dtype_name(zp->dtype),
                   nc_dtype_name(dt));
  int64_t n = nc_tensor_num_elements(zp);
  if (n != 1 && (count < 1 || n != count))
    return nc_kerr(err, errlen, "%s: %s has %lld elements, expected 1%s", op, what, (long long)n,
                   count > 1 ? " or one per output channel" : "");
  for (int64_t i = 0; i < fill; i++)
    out[i] = (int32_t)nc_elem_load_i64(zp->data, dt, n == 1 ? 0 : i);
  return true;
}

/* Checks the integer conv operands and resolves geometry and zero points. */
static bool conv_int_setup(const char *op, const nc_conv_params *p, const nc_tensor *x, const nc_tensor *w,
                           const nc_tensor *x_zp, const nc_tensor *w_zp, nc_conv_geom *g, int32_t *xz,
                           int32_t **wz, char *err, size_t errlen)
{
  if (!nc_k_check_in(op, "X", x, err, errlen) || !nc_k_check_in(op, "W", w, err, errlen))
    return false;
  if (!nc_k_is_narrow_int(x->dtype) || !nc_k_is_narrow_int(w->dtype))
    return nc_kerr(err, errlen, "%s: X and W must be 8-bit or narrower integers, got %s and %s", op,
                   nc_dtype_name(x->dtype), nc_dtype_name(w->dtype));
  if (w->rank != x->rank)
    return nc_kerr(err, errlen, "%s: W rank %d differs from X rank %d", op, w->rank, x->rank);
  if (!nc_k_conv_geom(op, p, x->rank, x->shape, w->shape, g, err, errlen))
    return false;
  if (!read_zp(op, "x_zero_point", x_zp, x->dtype, 0, xz, err, errlen))
    return false;
  *wz = nc_xmalloc((size_t)(g->m ? g->m : 1) * sizeof(int32_t));
  if (!read_zp(op, "w_zero_point", w_zp, w->dtype, g->m, *wz, err, errlen)) {
    free(*wz);
    return false;
  }
  return true;
}

bool nc_kernel_conv_integer(const nc_conv_params *p, const nc_tensor *x, const nc_tensor *w,
                            const nc_tensor *x_zero_point, const nc_tensor *w_zero_point, nc_tensor *y, char *err,
                            size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "conv_integer: missing parameters");
  const char *op = "conv_integer";
  nc_conv_geom g;
  int32_t xz, *wz;
  if (!conv_int_setup(op, p, x, w, x_zero_point, w_zero_point, &g, &xz, &wz, err, errlen))
    return false;
  int64_t ys[NC_TENSOR_MAX_RANK];
  nc_k_geom_out_shape(&g, ys);
  if (!nc_k_check_out(op, y, NC_DT_I32, x->rank, ys, err, errlen)) {
    free(wz);
    return false;
  }
  conv_i32(&g, x, w, xz, wz, NULL, y->data);
  free(wz);
  return true;
}

/* --- requantization (ONNX reference float rule) ------------------------------------ */

/* Reads a float scale tensor of 1 or count elements as f32 values. */
static bool read_scale(const char *op, const char *what, const nc_tensor *s, int64_t count, float *out, char *err,
                       size_t errlen)
{
  if (!nc_k_check_in(op, what, s, err, errlen))
    return false;
  if (!nc_k_is_float(s->dtype))
    return nc_kerr(err, errlen, "%s: %s must be a float tensor", op, what);
  int64_t n = nc_tensor_num_elements(s);
  if (n != 1 && (count < 1 || n != count))
    return nc_kerr(err, errlen, "%s: %s has %lld elements, expected 1%s", op, what, (long long)n,
                   count > 1 ? " or one per channel" : "");
  for (int64_t i = 0; i < (count > 0 ? count : 1); i++)
    out[i] = (float)nc_elem_load_f64(s->data, s->dtype, n == 1 ? 0 : i);
  return true;
}

/* y = saturate(rint((double)acc * s + zp)): the product and the sum are two
 * separately rounded double operations, as numpy performs them. */
static int64_t requant_ref(int32_t acc, float s, int64_t zp, int64_t lo, int64_t hi)
{
  double r = (double)acc * (double)s;
  r = r + (double)zp;
  r = nearbyint(r);
  return r <= (double)lo ? lo : r >= (double)hi ? hi : (int64_t)r;
}

/* Output dtype and zero point of a QLinear op. */
static bool read_out_zp(const char *op, const nc_tensor *y, const nc_tensor *y_zp, int64_t *zp, char *err,
                        size_t errlen)
{
  if (!nc_k_check_in(op, "output", y, err, errlen))
    return false;
  if (!nc_k_is_narrow_int(y->dtype) && y->dtype != NC_DT_I16 && y->dtype != NC_DT_U16 && y->dtype != NC_DT_I32)
    return nc_kerr(err, errlen, "%s: cannot produce %s", op, nc_dtype_name(y->dtype));
  int32_t z;
  if (!read_zp(op, "y_zero_point", y_zp, y->dtype, 0, &z, err, errlen))
    return false;
  *zp = z;
  return true;
}

bool nc_kernel_qlinear_conv(const nc_conv_params *p, const nc_tensor *x, const nc_tensor *x_scale,
                            const nc_tensor *x_zero_point, const nc_tensor *w, const nc_tensor *w_scale,
                            const nc_tensor *w_zero_point, const nc_tensor *y_scale, const nc_tensor *y_zero_point,
                            const nc_tensor *bias, nc_tensor *y, char *err, size_t errlen)
{
  if (!p)
    return nc_kerr(err, errlen, "qlinear_conv: missing parameters");
  const char *op = "qlinear_conv";
  nc_conv_geom g;
  int32_t xz, *wz;
  int64_t yz;
  if (!read_out_zp(op, y, y_zero_point, &yz, err, errlen) ||
      !conv_int_setup(op, p, x, w, x_zero_point, w_zero_point, &g, &xz, &wz, err, errlen))
    return false;
  int64_t ys[NC_TENSOR_MAX_RANK];
  nc_k_geom_out_shape(&g, ys);
  float xs, ysc, *ws = nc_xmalloc((size_t)(g.m ? g.m : 1) * sizeof(float));
  bool ok = nc_k_check_out(op, y, y->dtype, x->rank, ys, err, errlen) &&
            read_scale(op, "x_scale", x_scale, 0, &xs, err, errlen) &&
            read_scale(op, "w_scale", w_scale, g.m, ws, err, errlen) &&
            read_scale(op, "y_scale", y_scale, 0, &ysc, err, errlen);
  if (ok && bias) {
    ok = nc_k_check_in(op, "B", bias, err, errlen);
    if (ok && (bias->dtype != NC_DT_I32 || bias->rank != 1 || bias->shape[0] != g.m))
      ok = nc_kerr(err, errlen, "%s: B must be a 1-D i32 tensor of %lld elements", op, (long long)g.m);
  }
  if (!ok) {
    free(wz);
    free(ws);
    return false;
  }
  int64_t n = nc_tensor_num_elements(y), ohw = g.out[0] * g.out[1] * g.out[2];
  int32_t *acc = nc_xmalloc((size_t)(n ? n : 1) * sizeof(int32_t));
  conv_i32(&g, x, w, xz, wz, bias ? bias->data : NULL, acc);
  float *s = ws; /* s[m] = fl32(fl32(x_scale * w_scale[m]) / y_scale), in place */
  for (int64_t m = 0; m < g.m; m++) {
    float t = xs * ws[m];
    s[m] = t / ysc;
  }
  int64_t lo, hi;
  nc_k_int_range(y->dtype, &lo, &hi);
  for (int64_t i = 0; i < n; i++)
    nc_elem_store_i64(y->data, y->dtype, i, requant_ref(acc[i], s[(i / ohw) % g.m], yz, lo, hi));
  free(acc);
  free(wz);
  free(ws);
  return true;
}

/* --- matmul ----------------------------------------------------------------- */

bool nc_kernel_matmul_integer(const nc_tensor *a, const nc_tensor *b, const nc_tensor *a_zero_point,
                              const nc_tensor *b_zero_point, nc_tensor *y, char *err, size_t errlen)
{
  if (!nc_k_check_in("matmul_integer", "output", y, err, errlen))
    return false;
  if (y->dtype != NC_DT_I32)
    return nc_kerr(err, errlen, "matmul_integer: output dtype is %s, expected i32", nc_dtype_name(y->dtype));
  return nc_k_matmul_i32("matmul_integer", a, b, a_zero_point, b_zero_point, y->data, y->rank, y->shape, err,
                         errlen);
}

bool nc_kernel_qlinear_matmul(const nc_tensor *a, const nc_tensor *a_scale, const nc_tensor *a_zero_point,
                              const nc_tensor *b, const nc_tensor *b_scale, const nc_tensor *b_zero_point,
                              const nc_tensor *y_scale, const nc_tensor *y_zero_point, nc_tensor *y, char *err,
                              size_t errlen)
{
  const char *op = "qlinear_matmul";
  int64_t yz;
  if (!read_out_zp(op, y, y_zero_point, &yz, err, errlen) || !nc_k_check_in(op, "A", a, err, errlen) ||
      !nc_k_check_in(op, "B", b, err, errlen))
    return false;
  if (a->rank < 1 || b->rank < 1)
    return nc_kerr(err, errlen, "%s: operands must have rank >= 1", op);
  int64_t m = a->rank == 1 ? 1 : a->shape[a->rank - 2], nn = b->rank == 1 ? 1 : b->shape[b->rank - 1];
  float ysc, *as = nc_xmalloc((size_t)(m ? m : 1) * sizeof(float));
  float *bs = nc_xmalloc((size_t)(nn ? nn : 1) * sizeof(float));
  int64_t n = nc_tensor_num_elements(y);
  int32_t *acc = nc_xmalloc((size_t)(n ? n : 1) * sizeof(int32_t));
  bool ok = read_scale(op, "a_scale", a_scale, m, as, err, errlen) &&
            read_scale(op, "b_scale", b_scale, nn, bs, err, errlen) &&
            read_scale(op, "y_scale", y_scale, 0, &ysc, err, errlen) &&
            nc_k_matmul_i32(op, a, b, a_zero_point, b_zero_point, acc, y->rank, y->shape, err, errlen);
  if (ok) {
    int64_t lo, hi;
    nc_k_int_range(y->dtype, &lo, &hi);
    for (int64_t i = 0; i < n; i++) {
      int64_t row = (i / nn) % m, col = i % nn;
      float t = as[row] * bs[col];
      float s = t / ysc;
      nc_elem_store_i64(y->data, y->dtype, i, requant_ref(acc[i], s, yz, lo, hi));
    }
  }
  free(as);
  free(bs);
  free(acc);
  return ok;
}
