/* kernels_quant_test.c: QuantizeLinear, DequantizeLinear, ConvInteger,
 * MatMulInteger, QLinearConv, QLinearMatMul and the fixed-point requantize
 * path, all compared exactly (integer results must be bit-exact).
 *
 * References: exact int64 loops for the integer convolutions and products
 * (straight from the definitions, zero points subtracted, padding holding
 * the zero point); the float requantization rule of ONNX's reference
 * implementation written out operation by operation; an independent
 * round-half-even by truncating division for the fixed-point path. Hand
 * cases: the ONNX operator doc examples, round half to even of 2.5 and
 * -2.5, saturation of every narrow type, NaN.
 */
#define KERNELS_TEST_SEED 0x94D049BB133111EBULL
#include "kernels_test_util.h"

static nc_tensor *scalar_i(nc_dtype dt, int64_t v)
{
  nc_tensor *t = make(dt, 0, NULL);
  nc_tensor_set_i64(t, 0, v);
  return t;
}

static nc_tensor *scalar_f(float v)
{
  nc_tensor *t = make(NC_DT_F32, 0, NULL);
  ((float *)t->data)[0] = v;
  return t;
}

static void range_of(nc_dtype dt, int64_t *lo, int64_t *hi)
{
  switch (dt) {
  case NC_DT_I2: *lo = -2; *hi = 1; break;
  case NC_DT_U2: *lo = 0; *hi = 3; break;
  case NC_DT_I4: *lo = -8; *hi = 7; break;
  case NC_DT_U4: *lo = 0; *hi = 15; break;
  case NC_DT_I8: *lo = -128; *hi = 127; break;
  case NC_DT_U8: *lo = 0; *hi = 255; break;
  case NC_DT_I16: *lo = -32768; *hi = 32767; break;
  case NC_DT_U16: *lo = 0; *hi = 65535; break;
  default: *lo = INT32_MIN; *hi = INT32_MAX; break;
  }
}

static nc_tensor *make_rand_int(nc_dtype dt, int rank, const int64_t *shape)
{
  int64_t lo, hi;
  range_of(dt, &lo, &hi);
  nc_tensor *t = make(dt, rank, shape);
  for (int64_t i = 0; i < nc_tensor_num_elements(t); i++)
    nc_tensor_set_i64(t, i, rnd_in(lo, hi));
  return t;
}

/* --- QuantizeLinear / DequantizeLinear ------------------------------------------------ */

static void expect_quant(const char *what, nc_dtype ydt, int n, const float *x, float scale, const nc_tensor *zp,
                         const int64_t *want)
{
  char err[256];
  int64_t s[1] = {n};
  nc_tensor *tx = make(NC_DT_F32, 1, s), *ts = scalar_f(scale), *y = make(ydt, 1, s);
  memcpy(tx->data, x, (size_t)n * sizeof(float));
  nc_quant_params p = {1, 0};
  CHECK(nc_kernel_quantize_linear(&p, tx, ts, zp, y, err, sizeof err), "%s: %s", what, err);
  for (int i = 0; i < n; i++)
    CHECK(nc_tensor_get_i64(y, i) == want[i], "%s: x=%g -> %lld, want %lld", what, x[i],
          (long long)nc_tensor_get_i64(y, i), (long long)want[i]);
  nc_tensor_destroy(tx);
  nc_tensor_destroy(ts);
  nc_tensor_destroy(y);
}

static void test_quantize_hand(void)
{
  nc_tensor *zp = scalar_i(NC_DT_U8, 128);
  expect_quant("quantizelinear (ONNX doc)", NC_DT_U8, 6, (const float[]){0, 2, 3, 1000, -254, -1000}, 2, zp,
               (const int64_t[]){128, 129, 130, 255, 1, 0});
  nc_tensor_destroy(zp);
  expect_quant("round half to even", NC_DT_I8, 8, (const float[]){2.5f, -2.5f, 0.5f, -0.5f, 1.5f, -1.5f, 3.5f, 2.4999998f},
               1, NULL, (const int64_t[]){2, -2, 0, 0, 2, -2, 4, 2});
  expect_quant("int8 saturation", NC_DT_I8, 4, (const float[]){200, -200, 127.4f, -128.6f}, 1, NULL,
               (const int64_t[]){127, -128, 127, -128});
  expect_quant("uint8 default zp", NC_DT_U8, 3, (const float[]){-3, 7.5f, 300}, 1, NULL, (const int64_t[]){0, 8, 255});
  expect_quant("int4", NC_DT_I4, 4, (const float[]){10, -10, 6.5f, -7.5f}, 1, NULL, (const int64_t[]){7, -8, 6, -8});
  expect_quant("uint4", NC_DT_U4, 3, (const float[]){-1, 15.5f, 7}, 1, NULL, (const int64_t[]){0, 15, 7});
  expect_quant("int2", NC_DT_I2, 4, (const float[]){5, -5, 0.5f, -1.5f}, 1, NULL, (const int64_t[]){1, -2, 0, -2});
  expect_quant("uint2", NC_DT_U2, 3, (const float[]){5, -5, 2.5f}, 1, NULL, (const int64_t[]){3, 0, 2});
  expect_quant("int16", NC_DT_I16, 2, (const float[]){1e6f, -40000.5f}, 1, NULL, (const int64_t[]){32767, -32768});
  expect_quant("int32", NC_DT_I32, 3, (const float[]){3e9f, -3e9f, 1e9f}, 1, NULL,
               (const int64_t[]){INT32_MAX, INT32_MIN, 1000000000});
  nc_tensor *z4 = scalar_i(NC_DT_I4, -3);
  expect_quant("int4 with zero point", NC_DT_I4, 3, (const float[]){4, 30, NAN}, 2, z4, (const int64_t[]){-1, 7, -3});
  nc_tensor_destroy(z4);
}

/* The ONNX reference's QuantizeLinear for f32 x: rint(fl32(x / s)) + zp, clipped. */
static int64_t ref_quantize(float x, float s, int64_t zp, nc_dtype dt)
{
  int64_t lo, hi;
  range_of(dt, &lo, &hi);
  float q = x / s;
  if (isnan(q))
    return zp;
  double v = (double)nearbyintf(q) + (double)zp;
  return v < (double)lo ? lo : v > (double)hi ? hi : (int64_t)v;
}

static void test_quantize_random(void)
{
  char err[256];
  static const nc_dtype dts[] = {NC_DT_I8, NC_DT_U8, NC_DT_I4, NC_DT_U4, NC_DT_I2, NC_DT_U2, NC_DT_I16, NC_DT_U16};
  for (int it = 0; it < 300; it++) {
    nc_dtype dt = dts[it % 8];
    int rank = (int)rnd_in(1, 4);
    int64_t xs[4];
    for (int d = 0; d < rank; d++)
      xs[d] = rnd_in(1, 6);
    int gran = (int)rnd_in(0, 2); /* per tensor, per axis, blocked */
    int64_t axis = rnd_in(-rank, rank - 1), a = axis < 0 ? axis + rank : axis, bs = rnd_in(1, 3);
    int64_t ss[4], srank;
    if (gran == 0) {
      srank = rnd_in(0, 1);
      ss[0] = 1;
    } else if (gran == 1) {
      srank = 1;
      ss[0] = xs[a];
    } else {
      srank = rank;
      memcpy(ss, xs, sizeof ss);
      ss[a] = (xs[a] + bs - 1) / bs;
    }
    nc_tensor *x = make(NC_DT_F32, rank, xs), *s = make(NC_DT_F32, (int)srank, ss);
    nc_tensor *zp = rnd_in(0, 3) ? make_rand_int(dt, (int)srank, ss) : NULL;
    for (int64_t i = 0; i < nc_tensor_num_elements(x); i++)
      ((float *)x->data)[i] = (float)rnd_in(-40000, 40000) / 64.0f;
    for (int64_t i = 0; i < nc_tensor_num_elements(s); i++)
      ((float *)s->data)[i] = (float)rnd_in(1, 4000) / 1000.0f;
    nc_tensor *y = make(dt, rank, xs), *back = make(NC_DT_F32, rank, xs);
    nc_quant_params p = {axis, gran == 2 ? bs : 0};
    CHECK(nc_kernel_quantize_linear(&p, x, s, zp, y, err, sizeof err), "quantize: %s", err);
    CHECK(nc_kernel_dequantize_linear(&p, y, s, zp, back, err, sizeof err), "dequantize: %s", err);
    int64_t inner = 1;
    for (int d = (int)a + 1; d < rank; d++)
      inner *= xs[d];
    for (int64_t i = 0; i < nc_tensor_num_elements(x); i++) {
      int64_t c[4], rem = i, j = 0;
      for (int d = rank - 1; d >= 0; d--) {
        c[d] = rem % xs[d];
        rem /= xs[d];
      }
      if (gran == 1)
        j = c[a];
      else if (gran == 2) {
        c[a] /= bs;
        for (int d = 0; d < rank; d++)
          j = j * ss[d] + c[d];
      }
      float sv = ((float *)s->data)[j];
      int64_t zv = zp ? nc_tensor_get_i64(zp, j) : 0;
      int64_t want = ref_quantize(((float *)x->data)[i], sv, zv, dt);
      float wantf = (float)((double)(nc_tensor_get_i64(y, i) - zv) * (double)sv);
      if (nc_tensor_get_i64(y, i) != want || ((float *)back->data)[i] != wantf) {
        CHECK(0, "quant %s gran %d iter %d elem %lld: got %lld want %lld (dequant %g vs %g)", nc_dtype_name(dt), gran,
              it, (long long)i, (long long)nc_tensor_get_i64(y, i), (long long)want, ((float *)back->data)[i], wantf);
        break;
      }
    }
    (void)inner;
    nc_tensor_destroy(x);
    nc_tensor_destroy(s);
    nc_tensor_destroy(zp);
    nc_tensor_destroy(y);
    nc_tensor_destroy(back);
  }
}

static void test_dequantize_hand(void)
{
  char err[256];
  nc_tensor *x = vec_i(NC_DT_U8, 4, (const int64_t[]){0, 3, 128, 255}), *s = scalar_f(2), *zp = scalar_i(NC_DT_U8, 128);
  int64_t s4[1] = {4};
  nc_tensor *y = make(NC_DT_F32, 1, s4);
  nc_quant_params p = {1, 0};
  CHECK(nc_kernel_dequantize_linear(&p, x, s, zp, y, err, sizeof err), "%s", err);
  static const float want[4] = {-256, -250, 0, 254};
  CHECK(!memcmp(y->data, want, sizeof want), "dequantizelinear (ONNX doc)");
  /* int32 beyond 2^24 is exact: (2^30 + 1) * 1.0 rounds once to f32 */
  nc_tensor *xi = vec_i(NC_DT_I32, 1, (const int64_t[]){(1 << 30) + 1}), *one = scalar_f(1), *yi = make(NC_DT_F32, 1, (int64_t[]){1});
  CHECK(nc_kernel_dequantize_linear(&p, xi, one, NULL, yi, err, sizeof err) && ((float *)yi->data)[0] == 1073741824.0f,
        "int32 dequantize");
  nc_tensor *bad_zp = scalar_i(NC_DT_I8, 0);
  CHECK(!nc_kernel_dequantize_linear(&p, x, s, bad_zp, y, err, sizeof err), "zero point of another dtype accepted");
  nc_tensor *s3 = make(NC_DT_F32, 1, (int64_t[]){3});
  CHECK(!nc_kernel_dequantize_linear(&p, x, s3, NULL, y, err, sizeof err), "per-axis scale of the wrong size accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(s);
  nc_tensor_destroy(zp);
  nc_tensor_destroy(y);
  nc_tensor_destroy(xi);
  nc_tensor_destroy(one);
  nc_tensor_destroy(yi);
  nc_tensor_destroy(bad_zp);
  nc_tensor_destroy(s3);
}

/* --- integer conv and matmul ----------------------------------------------------------------- */

typedef struct qconv_case {
  int nsp;
  int64_t n, c, m, group, in[3], k[3], s[3], d[3], pads[6];
} qconv_case;

/* acc[n][m][o] = sum (x - xzp) * (w - wzp[m]) over the window, exact. */
static void naive_conv_int(const qconv_case *q, const nc_tensor *x, const nc_tensor *w, int64_t xzp,
                           const int64_t *wzp, const int32_t *bias, int64_t *acc, int64_t *out3)
{
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1}, d[3] = {1, 1, 1}, pb[3] = {0}, out[3] = {1, 1, 1};
  for (int i = 0; i < q->nsp; i++) {
    int j = 3 - q->nsp + i;
    in[j] = q->in[i];
    k[j] = q->k[i];
    s[j] = q->s[i];
    d[j] = q->d[i];
    pb[j] = q->pads[i];
    out[j] = (q->in[i] + q->pads[i] + q->pads[q->nsp + i] - (q->k[i] - 1) * q->d[i] - 1) / q->s[i] + 1;
  }
  memcpy(out3, out, sizeof out);
  int64_t cg = q->c / q->group, mg = q->m / q->group, idx = 0;
  for (int64_t n = 0; n < q->n; n++)
    for (int64_t m = 0; m < q->m; m++)
      for (int64_t o0 = 0; o0 < out[0]; o0++)
        for (int64_t o1 = 0; o1 < out[1]; o1++)
          for (int64_t o2 = 0; o2 < out[2]; o2++, idx++) {
            int64_t a = bias ? bias[m] : 0;
            for (int64_t c = 0; c < cg; c++)
              for (int64_t k0 = 0; k0 < k[0]; k0++)
                for (int64_t k1 = 0; k1 < k[1]; k1++)
                  for (int64_t k2 = 0; k2 < k[2]; k2++) {
                    int64_t i0 = o0 * s[0] - pb[0] + k0 * d[0], i1 = o1 * s[1] - pb[1] + k1 * d[1],
                            i2 = o2 * s[2] - pb[2] + k2 * d[2];
                    if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1] || i2 < 0 || i2 >= in[2])
                      continue; /* padding is the zero point: contributes 0 */
                    int64_t xi = (((n * q->c + (m / mg) * cg + c) * in[0] + i0) * in[1] + i1) * in[2] + i2;
                    int64_t wi = (((m * cg + c) * k[0] + k0) * k[1] + k1) * k[2] + k2;
                    a += (nc_tensor_get_i64(x, xi) - xzp) * (nc_tensor_get_i64(w, wi) - wzp[m]);
                  }
            acc[idx] = a;
          }
}

static void random_qconv(qconv_case *q, bool big)
{
  memset(q, 0, sizeof *q);
  q->nsp = big ? 2 : (int)rnd_in(1, 3);
  q->n = rnd_in(1, 2);
  int kind = (int)rnd_in(0, 3);
  q->group = kind == 0 ? rnd_in(2, 3) : 1;
  if (kind == 1) { /* depthwise */
    q->group = rnd_in(1, 6);
    q->c = q->group;
    q->m = q->group * rnd_in(1, 2);
  } else {
    q->c = q->group * (big ? rnd_in(20, 40) : rnd_in(1, 6));
    q->m = q->group * (big ? rnd_in(10, 70) : rnd_in(1, 6));
  }
  for (int i = 0; i < q->nsp; i++) {
    q->k[i] = rnd_in(1, 3);
    q->s[i] = rnd_in(1, 2);
    q->d[i] = rnd_in(1, 2);
    q->pads[i] = rnd_in(0, 1);
    q->pads[q->nsp + i] = rnd_in(0, 1);
    int64_t ek = (q->k[i] - 1) * q->d[i] + 1;
    q->in[i] = rnd_in(ek, ek + (big ? 30 : q->nsp == 3 ? 4 : 8));
  }
}

static void fill_conv_params(const qconv_case *q, nc_conv_params *p)
{
  memset(p, 0, sizeof *p);
  p->group = q->group;
  for (int i = 0; i < q->nsp; i++) {
    p->strides[i] = q->s[i];
    p->dilations[i] = q->d[i];
    p->pads[i] = q->pads[i];
    p->pads[q->nsp + i] = q->pads[q->nsp + i];
  }
}

static void test_conv_integer_random(int iters, bool big)
{
  char err[256];
  static const nc_dtype xd[] = {NC_DT_U8, NC_DT_I8, NC_DT_U8, NC_DT_I4, NC_DT_U4, NC_DT_I2};
  static const nc_dtype wd[] = {NC_DT_I8, NC_DT_I8, NC_DT_U8, NC_DT_I4, NC_DT_I8, NC_DT_U2};
  for (int it = 0; it < iters; it++) {
    qconv_case q;
    random_qconv(&q, big);
    int t = it % 6, rank = q.nsp + 2;
    nc_dtype xdt = xd[t], wdt = wd[t];
    int64_t xs[5] = {q.n, q.c}, ws[5] = {q.m, q.c / q.group}, ys[5];
    for (int i = 0; i < q.nsp; i++) {
      xs[2 + i] = q.in[i];
      ws[2 + i] = q.k[i];
    }
    nc_conv_params p;
    fill_conv_params(&q, &p);
    if (!nc_kernel_conv_shape(&p, rank, xs, ws, ys, err, sizeof err)) {
      CHECK(0, "qconv shape: %s", err);
      continue;
    }
    nc_tensor *x = make_rand_int(xdt, rank, xs), *w = make_rand_int(wdt, rank, ws);
    int64_t lo, hi, mcount = q.m;
    range_of(xdt, &lo, &hi);
    nc_tensor *xzp = rnd_in(0, 3) ? scalar_i(xdt, rnd_in(lo, hi)) : NULL;
    range_of(wdt, &lo, &hi);
    int wzmode = (int)rnd_in(0, 2);
    nc_tensor *wzp = wzmode == 0 ? NULL : wzmode == 1 ? scalar_i(wdt, rnd_in(lo, hi)) : make_rand_int(wdt, 1, &mcount);
    int64_t *wz = calloc((size_t)q.m, sizeof(int64_t));
    for (int64_t m = 0; m < q.m; m++)
      wz[m] = wzp ? nc_tensor_get_i64(wzp, wzmode == 2 ? m : 0) : 0;
    nc_tensor *y = make(NC_DT_I32, rank, ys);
    CHECK(nc_kernel_conv_integer(&p, x, w, xzp, wzp, y, err, sizeof err), "conv_integer: %s", err);
    int64_t ny = nc_tensor_num_elements(y), out3[3];
    int64_t *acc = malloc((size_t)(ny + 1) * sizeof(int64_t));
    naive_conv_int(&q, x, w, xzp ? nc_tensor_get_i64(xzp, 0) : 0, wz, NULL, acc, out3);
    for (int64_t i = 0; i < ny; i++)
      if (nc_tensor_get_i64(y, i) != acc[i]) {
        CHECK(0, "conv_integer %s x %s iter %d elem %lld: got %lld want %lld", nc_dtype_name(xdt), nc_dtype_name(wdt),
              it, (long long)i, (long long)nc_tensor_get_i64(y, i), (long long)acc[i]);
        break;
      }
    /* QLinearConv on the same operands (8-bit only): requantize by the reference rule */
    if ((xdt == NC_DT_U8 || xdt == NC_DT_I8) && (wdt == NC_DT_U8 || wdt == NC_DT_I8)) {
      nc_dtype ydt = rnd_in(0, 1) ? NC_DT_U8 : NC_DT_I8;
      int64_t ylo, yhi;
      range_of(ydt, &ylo, &yhi);
      nc_tensor *xs_t = scalar_f((float)rnd_in(1, 1000) / 20000.0f), *ys_t = scalar_f((float)rnd_in(1, 1000) / 1000.0f);
      nc_tensor *ws_t = rnd_in(0, 1) ? scalar_f((float)rnd_in(1, 1000) / 20000.0f) : make(NC_DT_F32, 1, &mcount);
      if (ws_t->rank == 1)
        for (int64_t m = 0; m < q.m; m++)
          ((float *)ws_t->data)[m] = (float)rnd_in(1, 1000) / 20000.0f;
      nc_tensor *yzp = scalar_i(ydt, rnd_in(ylo, yhi));
      nc_tensor *bias = rnd_in(0, 1) ? make(NC_DT_I32, 1, &mcount) : NULL;
      int32_t *bv = NULL;
      if (bias) {
        for (int64_t m = 0; m < q.m; m++)
          nc_tensor_set_i64(bias, m, rnd_in(-20000, 20000));
        bv = bias->data;
      }
      nc_tensor *yq = make(ydt, rank, ys);
      nc_tensor *xzp8 = xzp ? xzp : scalar_i(xdt, 0);
      CHECK(nc_kernel_qlinear_conv(&p, x, xs_t, xzp8, w, ws_t, wzp, ys_t, yzp, bias, yq, err, sizeof err),
            "qlinear_conv: %s", err);
      naive_conv_int(&q, x, w, nc_tensor_get_i64(xzp8, 0), wz, bv, acc, out3);
      int64_t ohw = out3[0] * out3[1] * out3[2];
      for (int64_t i = 0; i < ny; i++) {
        int64_t m = (i / ohw) % q.m;
        float wsv = ((float *)ws_t->data)[ws_t->rank == 1 ? m : 0];
        float prod = ((float *)xs_t->data)[0] * wsv;
        float scale = prod / ((float *)ys_t->data)[0];
        double r = (double)(int32_t)acc[i] * (double)scale;
        r = r + (double)nc_tensor_get_i64(yzp, 0);
        r = r < (double)ylo ? (double)ylo : r > (double)yhi ? (double)yhi : r;
        int64_t want = (int64_t)nearbyint(r);
        if (nc_tensor_get_i64(yq, i) != want) {
          CHECK(0, "qlinear_conv iter %d elem %lld: got %lld want %lld", it, (long long)i,
                (long long)nc_tensor_get_i64(yq, i), (long long)want);
          break;
        }
      }
      nc_tensor_destroy(xs_t);
      nc_tensor_destroy(ys_t);
      nc_tensor_destroy(ws_t);
      nc_tensor_destroy(yzp);
      nc_tensor_destroy(bias);
      nc_tensor_destroy(yq);
      if (!xzp)
        nc_tensor_destroy(xzp8);
    }
    free(acc);
    free(wz);
    nc_tensor_destroy(x);
    nc_tensor_destroy(w);
    nc_tensor_destroy(xzp);
    nc_tensor_destroy(wzp);
    nc_tensor_destroy(y);
  }
}

static void test_qconv_examples(void)
{
  char err[256];
  /* ConvInteger without and with padding */
  int64_t xs[4] = {1, 1, 3, 3}, ws[4] = {1, 1, 2, 2};
  nc_tensor *x = make(NC_DT_U8, 4, xs), *w = make(NC_DT_U8, 4, ws), *xzp = scalar_i(NC_DT_U8, 1);
  for (int i = 0; i < 9; i++)
    nc_tensor_set_i64(x, i, i + 2);
  for (int i = 0; i < 4; i++)
    nc_tensor_set_i64(w, i, 1);
  nc_conv_params nopad = {0}, pad = {.pads = {1, 1, 1, 1}};
  nc_tensor *y = make(NC_DT_I32, 4, (int64_t[]){1, 1, 2, 2});
  CHECK(nc_kernel_conv_integer(&nopad, x, w, xzp, NULL, y, err, sizeof err), "%s", err);
  static const int32_t want1[4] = {12, 16, 24, 28};
  CHECK(!memcmp(y->data, want1, sizeof want1), "convinteger_without_padding");
  nc_tensor *y4 = make(NC_DT_I32, 4, (int64_t[]){1, 1, 4, 4});
  CHECK(nc_kernel_conv_integer(&pad, x, w, xzp, NULL, y4, err, sizeof err), "%s", err);
  static const int32_t want2[16] = {1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9};
  CHECK(!memcmp(y4->data, want2, sizeof want2), "convinteger_with_padding");
  nc_tensor_destroy(x);
  nc_tensor_destroy(w);
  nc_tensor_destroy(xzp);
  nc_tensor_destroy(y);
  nc_tensor_destroy(y4);
  /* QLinearConv (ONNX doc): 7x7 u8, 1x1 kernel of 0 with zero point 255 */
  static const uint8_t xv[49] = {255, 174, 162, 25,  203, 168, 58,  15,  59,  237, 95,  129, 0,   64,  56,  242, 153,
                                 221, 168, 12,  166, 232, 178, 186, 195, 237, 162, 237, 188, 39,  124, 77,  80,  102,
                                 43,  127, 230, 21,  83,  41,  40,  134, 255, 154, 92,  141, 42,  148, 247};
  static const uint8_t yv[49] = {0,   81,  93,  230, 52,  87,  197, 240, 196, 18,  160, 126, 255, 191, 199, 13,  102,
                                 34,  87,  243, 89,  23,  77,  69,  60,  18,  93,  18,  67,  216, 131, 178, 175, 153,
                                 212, 128, 25,  234, 172, 214, 215, 121, 0,   101, 163, 114, 213, 107, 8};
  int64_t s7[4] = {1, 1, 7, 7}, s1[4] = {1, 1, 1, 1}, one = 1;
  x = make(NC_DT_U8, 4, s7);
  memcpy(x->data, xv, 49);
  w = make(NC_DT_U8, 4, s1);
  nc_tensor *xsc = scalar_f(0.00369204697f), *xz = scalar_i(NC_DT_U8, 132), *wsc = make(NC_DT_F32, 1, &one);
  ((float *)wsc->data)[0] = 0.00172794575f;
  nc_tensor *wz = vec_i(NC_DT_U8, 1, (const int64_t[]){255}), *ysc = scalar_f(0.00162681262f), *yz = scalar_i(NC_DT_U8, 123);
  y = make(NC_DT_U8, 4, s7);
  CHECK(nc_kernel_qlinear_conv(&nopad, x, xsc, xz, w, wsc, wz, ysc, yz, NULL, y, err, sizeof err), "%s", err);
  CHECK(!memcmp(y->data, yv, 49), "qlinearconv (ONNX doc)");
  nc_tensor *y8 = make(NC_DT_I32, 4, s7);
  CHECK(!nc_kernel_qlinear_conv(&nopad, x, xsc, xz, w, wsc, wz, ysc, yz, NULL, y8, err, sizeof err),
        "qlinear_conv producing i32 without an i32 zero point accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(w);
  nc_tensor_destroy(xsc);
  nc_tensor_destroy(xz);
  nc_tensor_destroy(wsc);
  nc_tensor_destroy(wz);
  nc_tensor_destroy(ysc);
  nc_tensor_destroy(yz);
  nc_tensor_destroy(y);
  nc_tensor_destroy(y8);
}

static void test_matmul_integer(void)
{
  char err[256];
  /* MatMulInteger (ONNX doc) */
  int64_t as[2] = {4, 3}, bs[2] = {3, 2}, ys[2] = {4, 2};
  nc_tensor *a = make(NC_DT_U8, 2, as), *b = make(NC_DT_U8, 2, bs), *y = make(NC_DT_I32, 2, ys);
  static const int64_t av[12] = {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0}, bv[6] = {1, 4, 2, 5, 3, 6};
  for (int i = 0; i < 12; i++)
    nc_tensor_set_i64(a, i, av[i]);
  for (int i = 0; i < 6; i++)
    nc_tensor_set_i64(b, i, bv[i]);
  nc_tensor *azp = vec_i(NC_DT_U8, 1, (const int64_t[]){12}), *bzp = vec_i(NC_DT_U8, 1, (const int64_t[]){0});
  CHECK(nc_kernel_matmul_integer(a, b, azp, bzp, y, err, sizeof err), "%s", err);
  static const int32_t want[8] = {-38, -83, -44, -98, -50, -113, -56, -128};
  CHECK(!memcmp(y->data, want, sizeof want), "matmulinteger (ONNX doc)");
  nc_tensor_destroy(a);
  nc_tensor_destroy(b);
  nc_tensor_destroy(y);
  nc_tensor_destroy(azp);
  nc_tensor_destroy(bzp);
  /* QLinearMatMul (ONNX doc, 2-D and 3-D) */
  static const int64_t qa[8] = {208, 236, 0, 238, 3, 214, 255, 29};
  static const int64_t qb[12] = {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247};
  static const uint8_t qy[6] = {168, 115, 255, 1, 66, 151};
  for (int r3 = 0; r3 < 2; r3++) {
    int64_t as2[3] = {2, 2, 4}, bs2[3] = {2, 4, 3}, ys2[3] = {2, 2, 3};
    int rank = r3 ? 3 : 2, batch = r3 ? 2 : 1;
    a = make(NC_DT_U8, rank, r3 ? as2 : as2 + 1);
    b = make(NC_DT_U8, rank, r3 ? bs2 : bs2 + 1);
    y = make(NC_DT_U8, rank, r3 ? ys2 : ys2 + 1);
    for (int t = 0; t < batch; t++) {
      for (int i = 0; i < 8; i++)
        nc_tensor_set_i64(a, t * 8 + i, qa[i]);
      for (int i = 0; i < 12; i++)
        nc_tensor_set_i64(b, t * 12 + i, qb[i]);
    }
    nc_tensor *asc = scalar_f(0.0066f), *bsc = scalar_f(0.00705f), *ysc = scalar_f(0.0107f);
    nc_tensor *az = scalar_i(NC_DT_U8, 113), *bz = scalar_i(NC_DT_U8, 114), *yz = scalar_i(NC_DT_U8, 118);
    CHECK(nc_kernel_qlinear_matmul(a, asc, az, b, bsc, bz, ysc, yz, y, err, sizeof err), "%s", err);
    for (int t = 0; t < batch; t++)
      CHECK(!memcmp((uint8_t *)y->data + 6 * t, qy, 6), "qlinearmatmul (ONNX doc, rank %d)", rank);
    nc_tensor_destroy(a);
    nc_tensor_destroy(b);
    nc_tensor_destroy(y);
    nc_tensor_destroy(asc);
    nc_tensor_destroy(bsc);
    nc_tensor_destroy(ysc);
    nc_tensor_destroy(az);
    nc_tensor_destroy(bz);
    nc_tensor_destroy(yz);
  }
  /* random: batch broadcast, per-row / per-column zero points and scales, sizes across GEMM blocks */
  for (int it = 0; it < 80; it++) {
    bool big = it < 4;
    int64_t m = rnd_in(1, big ? 130 : 9), k = rnd_in(1, big ? 700 : 20), n = rnd_in(1, big ? 40 : 9);
    int ra = (int)rnd_in(2, 3), rb = (int)rnd_in(2, 3);
    int64_t bt = rnd_in(1, 3), as3[3], bs3[3], ys3[3];
    if (ra == 3) { as3[0] = bt; as3[1] = m; as3[2] = k; } else { as3[0] = m; as3[1] = k; }
    if (rb == 3) { bs3[0] = rnd_in(0, 1) ? bt : 1; bs3[1] = k; bs3[2] = n; } else { bs3[0] = k; bs3[1] = n; }
    nc_dtype adt = rnd_in(0, 1) ? NC_DT_U8 : NC_DT_I8, bdt = rnd_in(0, 1) ? NC_DT_U8 : NC_DT_I8;
    a = make_rand_int(adt, ra, as3);
    b = make_rand_int(bdt, rb, bs3);
    int yr;
    if (!nc_kernel_matmul_shape(ra, as3, rb, bs3, &yr, ys3, err, sizeof err)) {
      CHECK(0, "%s", err);
      continue;
    }
    nc_tensor *az = rnd_in(0, 1) ? make_rand_int(adt, 1, &m) : scalar_i(adt, rnd_in(-5, 100));
    nc_tensor *bz = rnd_in(0, 1) ? make_rand_int(bdt, 1, &n) : scalar_i(bdt, rnd_in(-5, 100));
    y = make(NC_DT_I32, yr, ys3);
    CHECK(nc_kernel_matmul_integer(a, b, az, bz, y, err, sizeof err), "matmul_integer: %s", err);
    nc_tensor *asc = make(NC_DT_F32, 1, &m), *bsc = make(NC_DT_F32, 0, NULL), *ysc = scalar_f(0.37f);
    for (int64_t i = 0; i < m; i++)
      ((float *)asc->data)[i] = (float)rnd_in(1, 100) / 1000.0f;
    ((float *)bsc->data)[0] = 0.0123f;
    nc_tensor *yz = scalar_i(NC_DT_I8, rnd_in(-20, 20)), *yq = make(NC_DT_I8, yr, ys3);
    CHECK(nc_kernel_qlinear_matmul(a, asc, az, b, bsc, bz, ysc, yz, yq, err, sizeof err), "qlinear_matmul: %s", err);
    int64_t nb = yr == 3 ? ys3[0] : 1;
    for (int64_t t = 0; t < nb; t++)
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
          int64_t acc = 0;
          for (int64_t kk = 0; kk < k; kk++) {
            int64_t ai = (ra == 3 ? t * m * k : 0) + i * k + kk;
            int64_t bi = (rb == 3 && bs3[0] > 1 ? t * k * n : 0) + kk * n + j;
            acc += (nc_tensor_get_i64(a, ai) - nc_tensor_get_i64(az, az->rank ? i : 0)) *
                   (nc_tensor_get_i64(b, bi) - nc_tensor_get_i64(bz, bz->rank ? j : 0));
          }
          int64_t o = (t * m + i) * n + j;
          if (nc_tensor_get_i64(y, o) != acc) {
            CHECK(0, "matmul_integer iter %d (%lld,%lld,%lld): got %lld want %lld", it, (long long)t, (long long)i,
                  (long long)j, (long long)nc_tensor_get_i64(y, o), (long long)acc);
            t = nb;
            i = m;
            break;
          }
          float prod = ((float *)asc->data)[i] * 0.0123f, s = prod / 0.37f;
          double r = (double)acc * (double)s;
          r = r + (double)nc_tensor_get_i64(yz, 0);
          int64_t want = (int64_t)nearbyint(r < -128 ? -128 : r > 127 ? 127 : r);
          if (nc_tensor_get_i64(yq, o) != want) {
            CHECK(0, "qlinear_matmul iter %d: got %lld want %lld", it, (long long)nc_tensor_get_i64(yq, o),
                  (long long)want);
            t = nb;
            i = m;
            break;
          }
        }
    nc_tensor_destroy(a);
    nc_tensor_destroy(b);
    nc_tensor_destroy(az);
    nc_tensor_destroy(bz);
    nc_tensor_destroy(y);
    nc_tensor_destroy(asc);
    nc_tensor_destroy(bsc);
    nc_tensor_destroy(ysc);
    nc_tensor_destroy(yz);
    nc_tensor_destroy(yq);
  }
}

/* --- fixed point ------------------------------------------------------------------------- */

/* Round-half-even of v / 2^s by truncating division and the remainder's size. */
static int64_t ref_shift(int64_t v, int s)
{
  if (s == 0)
    return v;
  int64_t d = INT64_C(1) << (s > 62 ? 62 : s);
  if (s == 63) /* v / 2^63 is in [-1, 1): round by sign and magnitude */
    return v == INT64_MIN ? -1 : 0 + (v < INT64_MIN / 2 ? -1 : 0);
  int64_t q = v / d, r = v % d; /* truncated toward zero, r has v's sign */
  int64_t twice = r < 0 ? -r : r;
  bool more = twice > d - twice, tie = twice == d - twice;
  if (more || (tie && (q % 2 != 0)))
    q += v < 0 ? -1 : 1;
  return q;
}

static void test_fixed_point(void)
{
  char err[256];
  static const struct { int64_t v; int s; int64_t want; } hand[] = {
      {5, 1, 2},   {7, 1, 4},   {-5, 1, -2}, {-7, 1, -4}, {3, 2, 1},   {-3, 2, -1},
      {6, 2, 2},   {-6, 2, -2}, {10, 2, 2},  {-10, 2, -2}, {1, 1, 0},  {-1, 1, 0},
      {12345, 0, 12345}, {INT64_MIN, 63, -1}, {INT64_MAX, 63, 1}, {INT64_C(1) << 62, 63, 0},
      {(INT64_C(1) << 62) + 1, 63, 1}, {-(INT64_C(1) << 62), 63, 0}, {-(INT64_C(1) << 62) - 1, 63, -1},
  };
  for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++)
    CHECK(nc_round_half_even_shift(hand[i].v, hand[i].s) == hand[i].want, "shift(%lld, %d) = %lld, want %lld",
          (long long)hand[i].v, hand[i].s, (long long)nc_round_half_even_shift(hand[i].v, hand[i].s),
          (long long)hand[i].want);
  for (int it = 0; it < 20000; it++) {
    int s = (int)rnd_in(1, 62);
    int64_t v = (int64_t)((uint64_t)rnd() << 32 | rnd()) >> rnd_in(0, 40);
    CHECK(nc_round_half_even_shift(v, s) == ref_shift(v, s), "shift(%lld, %d)", (long long)v, s);
  }
  int32_t m, sh;
  CHECK(nc_fixed_point_from_scale(0.5, &m, &sh, err, sizeof err) && m == (1 << 30) && sh == 31, "scale 0.5");
  CHECK(nc_fixed_point_from_scale(1.0, &m, &sh, err, sizeof err) && m == (1 << 30) && sh == 30, "scale 1");
  CHECK(nc_fixed_point_from_scale(0.75, &m, &sh, err, sizeof err) && m == 1610612736 && sh == 31, "scale 0.75");
  CHECK(nc_fixed_point_from_scale(0, &m, &sh, err, sizeof err) && m == 0 && sh == 0, "scale 0");
  CHECK(nc_fixed_point_from_scale(1.0 - 0x1p-40, &m, &sh, err, sizeof err) && m == (1 << 30) && sh == 30,
        "rounding up to 2^31 renormalizes");
  CHECK(nc_fixed_point_from_scale(1e-30, &m, &sh, err, sizeof err) && sh == 63 && m == 0, "tiny scale");
  /* below 2^-32 the shift saturates at 63 and the multiplier loses bits: still the nearest m * 2^-63 */
  CHECK(nc_fixed_point_from_scale(0x1.8p-40, &m, &sh, err, sizeof err) && sh == 63 && m == (3 << 22),
        "scale 1.5 * 2^-40 -> %d * 2^-%d", m, sh);
  CHECK(!nc_fixed_point_from_scale(-1, &m, &sh, err, sizeof err), "negative scale accepted");
  CHECK(!nc_fixed_point_from_scale(NAN, &m, &sh, err, sizeof err), "NaN scale accepted");
  CHECK(!nc_fixed_point_from_scale(INFINITY, &m, &sh, err, sizeof err), "inf scale accepted");
  CHECK(!nc_fixed_point_from_scale(0x1p31, &m, &sh, err, sizeof err), "scale 2^31 accepted");
  CHECK(nc_fixed_point_from_scale(0x1p31 - 1, &m, &sh, err, sizeof err) && sh == 0, "scale just below 2^31");
  for (int it = 0; it < 2000; it++) {
    double scale = ldexp((double)rnd_in(1 << 29, 1 << 30) / (double)(1 << 30), (int)rnd_in(-30, 20));
    CHECK(nc_fixed_point_from_scale(scale, &m, &sh, err, sizeof err), "%s", err);
    double approx = ldexp((double)m, -sh);
    CHECK(m >= (1 << 30) && fabs(approx - scale) <= scale * 0x1p-31, "scale %.17g -> %d * 2^-%d", scale, m, sh);
  }
  /* requantize: per tensor and per axis, saturating */
  int64_t xs[3] = {2, 3, 4};
  nc_tensor *acc = make(NC_DT_I32, 3, xs);
  for (int64_t i = 0; i < 24; i++)
    nc_tensor_set_i64(acc, i, rnd_in(-3000000, 3000000));
  nc_tensor_set_i64(acc, 0, INT32_MIN);
  nc_tensor_set_i64(acc, 1, INT32_MAX);
  static const nc_dtype outs[] = {NC_DT_I8, NC_DT_U8, NC_DT_I4, NC_DT_I2, NC_DT_I16, NC_DT_I32};
  for (size_t o = 0; o < sizeof outs / sizeof outs[0]; o++) {
    int32_t mult[3], shift[3];
    for (int c = 0; c < 3; c++)
      CHECK(nc_fixed_point_from_scale((double)rnd_in(1, 1000) / 1e5, &mult[c], &shift[c], err, sizeof err), "%s",
            err);
    for (int per_axis = 0; per_axis < 2; per_axis++) {
      nc_requant_params p = {per_axis ? -2 : 0, per_axis ? 3 : 1, mult, shift, (int32_t)rnd_in(-5, 5)};
      nc_tensor *y = make(outs[o], 3, xs);
      CHECK(nc_kernel_requantize(&p, acc, y, err, sizeof err), "requantize: %s", err);
      int64_t lo, hi;
      range_of(outs[o], &lo, &hi);
      for (int64_t i = 0; i < 24; i++) {
        int c = per_axis ? (int)((i / 4) % 3) : 0;
        int64_t v = ref_shift(nc_tensor_get_i64(acc, i) * mult[c], shift[c]) + p.zero_point;
        v = v < lo ? lo : v > hi ? hi : v;
        CHECK(nc_tensor_get_i64(y, i) == v, "requantize %s elem %lld: got %lld want %lld", nc_dtype_name(outs[o]),
              (long long)i, (long long)nc_tensor_get_i64(y, i), (long long)v);
      }
      nc_tensor_destroy(y);
    }
  }
  nc_tensor *y8 = make(NC_DT_I8, 3, xs);
  int32_t bm[1] = {-1}, bsft[1] = {3}, gm[2] = {1, 1}, gs[2] = {64, 1};
  nc_requant_params neg = {0, 1, bm, bsft, 0}, bigs = {0, 1, gm, gs, 0}, wrong = {1, 2, gm, bsft, 0};
  CHECK(!nc_kernel_requantize(&neg, acc, y8, err, sizeof err), "negative multiplier accepted");
  CHECK(!nc_kernel_requantize(&bigs, acc, y8, err, sizeof err), "shift 64 accepted");
  CHECK(!nc_kernel_requantize(&wrong, acc, y8, err, sizeof err), "2 multipliers for a dim of 3 accepted");
  nc_tensor *f = make(NC_DT_F32, 3, xs);
  nc_requant_params ok = {0, 1, gm, bsft, 0};
  CHECK(!nc_kernel_requantize(&ok, f, y8, err, sizeof err), "float accumulator accepted");
  nc_tensor_destroy(acc);
  nc_tensor_destroy(y8);
  nc_tensor_destroy(f);
}

/* The integer residual add / sub: hand-picked ties (round half to even per
 * input), relu, saturation, and random inputs against ref_shift. */
static void test_eltwise_integer(void)
{
  char err[256];
  int64_t shape[1] = {6};
  nc_tensor *a = make(NC_DT_I8, 1, shape), *b = make(NC_DT_I8, 1, shape), *y = make(NC_DT_I8, 1, shape);
  /* a * 1/2 (2^30 / 2^31), b * 1 (2^30 / 2^30): a = 1, 3, -1 are ties; 100 + 100 saturates */
  static const int8_t av[6] = {1, 3, -1, -3, 100, -128}, bv[6] = {0, 0, 0, -5, 100, -128};
  for (int i = 0; i < 6; i++)
    nc_tensor_set_i64(a, i, av[i]), nc_tensor_set_i64(b, i, bv[i]);
  nc_eltwise_integer_params p = {{1 << 30, 1 << 30}, {31, 30}, 0, false, false};
  CHECK(nc_kernel_eltwise_integer(&p, a, b, y, err, sizeof err), "eltwise_integer: %s", err);
  static const int64_t add[6] = {0, 2, 0, -7, 127, -128}; /* 0.5->0, 1.5->2, -0.5->0, -1.5->-2 */
  for (int i = 0; i < 6; i++)
    CHECK(nc_tensor_get_i64(y, i) == add[i], "add elem %d: got %lld want %lld", i, (long long)nc_tensor_get_i64(y, i),
          (long long)add[i]);
  p.subtract = true;
  p.relu = true;
  CHECK(nc_kernel_eltwise_integer(&p, a, b, y, err, sizeof err), "eltwise_integer: %s", err);
  static const int64_t sub_relu[6] = {0, 2, 0, 3, 0, 64}; /* -64 - (-128) = 64 */
  for (int i = 0; i < 6; i++)
    CHECK(nc_tensor_get_i64(y, i) == sub_relu[i], "sub+relu elem %d: got %lld want %lld", i,
          (long long)nc_tensor_get_i64(y, i), (long long)sub_relu[i]);
  /* random scales and values */
  for (int iter = 0; iter < 50; iter++) {
    nc_eltwise_integer_params q = {{0, 0}, {0, 0}, (int32_t)rnd_in(-5, 5), iter % 2 == 1, iter % 3 == 0};
    for (int k = 0; k < 2; k++)
      CHECK(nc_fixed_point_from_scale((double)rnd_in(1, 3000) / 1000.0, &q.multiplier[k], &q.shift[k], err,
                                      sizeof err), "%s", err);
    for (int i = 0; i < 6; i++)
      nc_tensor_set_i64(a, i, rnd_in(-128, 127)), nc_tensor_set_i64(b, i, rnd_in(-128, 127));
    CHECK(nc_kernel_eltwise_integer(&q, a, b, y, err, sizeof err), "eltwise_integer: %s", err);
    for (int i = 0; i < 6; i++) {
      int64_t r0 = ref_shift(nc_tensor_get_i64(a, i) * q.multiplier[0], q.shift[0]);
      int64_t r1 = ref_shift(nc_tensor_get_i64(b, i) * q.multiplier[1], q.shift[1]);
      int64_t v = (q.subtract ? r0 - r1 : r0 + r1) + q.zero_point;
      v = q.relu && v < q.zero_point ? q.zero_point : v;
      v = v < -128 ? -128 : v > 127 ? 127 : v;
      CHECK(nc_tensor_get_i64(y, i) == v, "random eltwise elem %d: got %lld want %lld", i,
            (long long)nc_tensor_get_i64(y, i), (long long)v);
    }
  }
  int64_t other[1] = {5};
  nc_tensor *c = make(NC_DT_I8, 1, other);
  CHECK(!nc_kernel_eltwise_integer(&p, a, c, y, err, sizeof err), "inputs of different shapes accepted");
  nc_eltwise_integer_params bad = {{-1, 1}, {3, 3}, 0, false, false};
  CHECK(!nc_kernel_eltwise_integer(&bad, a, b, y, err, sizeof err), "negative multiplier accepted");
  nc_tensor_destroy(a);
  nc_tensor_destroy(b);
  nc_tensor_destroy(c);
  nc_tensor_destroy(y);
}

/* The average pools' division: hand cases (ties both ways, negatives), then
 * random against the exact rational rule with long double-free arithmetic:
 * 2n vs (2q + 1)d decides. */
static void test_div_round_half_even(void)
{
  static const struct { int64_t n, d, want; } hand[] = {
    {2, 4, 0},   {6, 4, 2},   {10, 4, 2},   {14, 4, 4},   {-2, 4, 0},  {-6, 4, -2}, {-14, 4, -4},
    {15, 4, 4},  {-15, 4, -4}, {13, 4, 3},  {-13, 4, -3}, {7, 3, 2},   {-7, 3, -2}, {0, 9, 0},
    {154, 9, 17}, {142, 12, 12}, {5, 1, 5},  {-5, 1, -5}, {INT64_MAX, 2, INT64_C(1) << 62},
  };
  for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++)
    CHECK(nc_div_round_half_even(hand[i].n, hand[i].d) == hand[i].want, "div(%lld, %lld) = %lld, want %lld",
          (long long)hand[i].n, (long long)hand[i].d, (long long)nc_div_round_half_even(hand[i].n, hand[i].d),
          (long long)hand[i].want);
  for (int it = 0; it < 20000; it++) {
    int64_t n = (int64_t)rnd_in(-(1 << 20), 1 << 20), d = (int64_t)rnd_in(1, 5000);
    int64_t q = nc_div_round_half_even(n, d);
    /* |n/d - q| <= 1/2, and exactly 1/2 only with q even */
    int64_t twice_off = 2 * n - 2 * q * d; /* 2d (n/d - q) */
    CHECK(twice_off <= d && twice_off >= -d && ((twice_off != d && twice_off != -d) || q % 2 == 0),
          "div(%lld, %lld) = %lld", (long long)n, (long long)d, (long long)q);
  }
}

int main(void)
{
  test_quantize_hand();
  test_quantize_random();
  test_dequantize_hand();
  test_qconv_examples();
  test_conv_integer_random(250, false);
  test_conv_integer_random(6, true);
  test_matmul_integer();
  test_fixed_point();
  test_eltwise_integer();
  test_div_round_half_even();
  return kernels_test_report("kernels_quant_test");
}
