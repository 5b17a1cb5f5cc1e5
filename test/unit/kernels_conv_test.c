/* kernels_conv_test.c: Conv and ConvTranspose against naive references.
 *
 * The references are loops written straight from the ONNX definitions (sum
 * over the window of every output position; ConvTranspose as a scatter of
 * every input position), run on seeded random shapes and attributes, plus
 * the worked examples of the ONNX operator docs (padding, strides, SAME_LOWER,
 * ConvTranspose output_shape/pads/dilations) and error cases.
 */
#define KERNELS_TEST_SEED 0x2545F4914F6CDD1DULL
#include "kernels_test_util.h"
static float rnd_f(void) { return (float)rnd_in(-1000, 1000) / 500.0f; }

static nc_tensor *make_rand(nc_dtype dt, int rank, const int64_t *shape)
{
  nc_tensor *t = make(dt, rank, shape);
  int64_t n = nc_tensor_num_elements(t);
  for (int64_t i = 0; i < n; i++)
    nc_tensor_set_f64(t, i, rnd_f());
  return t;
}

static nc_tensor *make_vals(int rank, const int64_t *shape, const float *v)
{
  nc_tensor *t = make(NC_DT_F32, rank, shape);
  memcpy(t->data, v, nc_tensor_num_bytes(t));
  return t;
}

/* --- naive Conv straight from the spec ------------------------------------------- */

typedef struct conv_case {
  int nsp;
  int64_t n, c, m, group, in[3], k[3], s[3], d[3], pads[6];
  nc_auto_pad ap;
} conv_case;

/* Spec output size and begin pad of one spatial dim. */
static void spec_out(const conv_case *cc, int i, int64_t *out, int64_t *pb)
{
  int64_t ek = (cc->k[i] - 1) * cc->d[i] + 1;
  if (cc->ap == NC_AUTO_PAD_SAME_UPPER || cc->ap == NC_AUTO_PAD_SAME_LOWER) {
    *out = (cc->in[i] + cc->s[i] - 1) / cc->s[i];
    int64_t total = (*out - 1) * cc->s[i] + ek - cc->in[i];
    if (total < 0)
      total = 0;
    *pb = cc->ap == NC_AUTO_PAD_SAME_UPPER ? total / 2 : total - total / 2;
  } else if (cc->ap == NC_AUTO_PAD_VALID) {
    *out = (cc->in[i] - ek) / cc->s[i] + 1;
    *pb = 0;
  } else {
    *out = (cc->in[i] + cc->pads[i] + cc->pads[cc->nsp + i] - ek) / cc->s[i] + 1;
    *pb = cc->pads[i];
  }
}

/* y[n][m][o...] = b[m] + sum_{c,k} x[n][g*Cg+c][o*s - pb + k*d] w[m][c][k]; also
 * returns the sum of |terms| per output for the error bound. */
static void naive_conv(const conv_case *cc, const nc_tensor *x, const nc_tensor *w, const nc_tensor *b, double *y,
                       double *mag)
{
  int64_t out[3] = {1, 1, 1}, pb[3] = {0, 0, 0}, in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1},
          d[3] = {1, 1, 1};
  for (int i = 0; i < cc->nsp; i++) {
    int j = 3 - cc->nsp + i;
    spec_out(cc, i, &out[j], &pb[j]);
    in[j] = cc->in[i];
    k[j] = cc->k[i];
    s[j] = cc->s[i];
    d[j] = cc->d[i];
  }
  int64_t cg = cc->c / cc->group, mg = cc->m / cc->group, idx = 0;
  for (int64_t n = 0; n < cc->n; n++)
    for (int64_t m = 0; m < cc->m; m++)
      for (int64_t o0 = 0; o0 < out[0]; o0++)
        for (int64_t o1 = 0; o1 < out[1]; o1++)
          for (int64_t o2 = 0; o2 < out[2]; o2++, idx++) {
            double acc = b ? nc_tensor_get_f64(b, m) : 0, a = fabs(acc);
            for (int64_t c = 0; c < cg; c++)
              for (int64_t k0 = 0; k0 < k[0]; k0++)
                for (int64_t k1 = 0; k1 < k[1]; k1++)
                  for (int64_t k2 = 0; k2 < k[2]; k2++) {
                    int64_t i0 = o0 * s[0] - pb[0] + k0 * d[0], i1 = o1 * s[1] - pb[1] + k1 * d[1],
                            i2 = o2 * s[2] - pb[2] + k2 * d[2];
                    if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1] || i2 < 0 || i2 >= in[2])
                      continue;
                    int64_t xi = (((n * cc->c + (m / mg) * cg + c) * in[0] + i0) * in[1] + i1) * in[2] + i2;
                    int64_t wi = (((m * cg + c) * k[0] + k0) * k[1] + k1) * k[2] + k2;
                    double t = nc_tensor_get_f64(x, xi) * nc_tensor_get_f64(w, wi);
                    acc += t;
                    a += fabs(t);
                  }
            y[idx] = acc;
            mag[idx] = a;
          }
}

static void random_conv_case(conv_case *cc)
{
  memset(cc, 0, sizeof *cc);
  cc->nsp = (int)rnd_in(1, 3);
  cc->n = rnd_in(1, 2);
  cc->group = rnd_in(0, 3) == 0 ? rnd_in(2, 4) : 1;
  bool depthwise = rnd_in(0, 4) == 0;
  if (depthwise) {
    cc->group = rnd_in(1, 8);
    cc->c = cc->group;
    cc->m = cc->group * rnd_in(1, 2);
  } else {
    cc->c = cc->group * rnd_in(1, cc->nsp == 3 ? 3 : 9);
    cc->m = cc->group * rnd_in(1, cc->nsp == 3 ? 4 : 13);
  }
  int ap = (int)rnd_in(0, 5);
  cc->ap = ap <= 2 ? NC_AUTO_PAD_NOTSET : (nc_auto_pad)(ap - 2);
  for (int i = 0; i < cc->nsp; i++) {
    int64_t maxin = cc->nsp == 3 ? 7 : cc->nsp == 2 ? 14 : 30;
    cc->k[i] = rnd_in(1, 4);
    cc->s[i] = rnd_in(1, 3);
    cc->d[i] = rnd_in(0, 3) == 0 ? 2 : 1;
    int64_t ek = (cc->k[i] - 1) * cc->d[i] + 1;
    cc->pads[i] = rnd_in(0, 2);
    cc->pads[cc->nsp + i] = rnd_in(0, 2);
    int64_t minin = ek - (cc->ap == NC_AUTO_PAD_NOTSET ? cc->pads[i] + cc->pads[cc->nsp + i] : 0);
    if (cc->ap == NC_AUTO_PAD_SAME_UPPER || cc->ap == NC_AUTO_PAD_SAME_LOWER)
      minin = 1;
    cc->in[i] = rnd_in(minin < 1 ? 1 : minin, maxin > minin ? maxin : minin);
  }
}

/* Runs one case through nc_kernel_conv and compares with naive_conv. */
static void run_conv_case(const conv_case *cc_in, nc_dtype dt, int it)
{
  char err[256];
  conv_case cc = *cc_in;
  int rank = cc.nsp + 2;
  int64_t xs[5] = {cc.n, cc.c}, ws[5] = {cc.m, cc.c / cc.group}, bs[1] = {cc.m}, ys[5];
  for (int i = 0; i < cc.nsp; i++) {
    xs[2 + i] = cc.in[i];
    ws[2 + i] = cc.k[i];
  }
  nc_conv_params p = {.auto_pad = cc.ap, .group = cc.group};
  bool explicit_kernel = rnd_in(0, 1);
  for (int i = 0; i < cc.nsp; i++) {
    p.strides[i] = cc.s[i];
    p.dilations[i] = cc.d[i];
    p.pads[i] = cc.pads[i];
    p.pads[cc.nsp + i] = cc.pads[cc.nsp + i];
    if (explicit_kernel)
      p.kernel_shape[i] = cc.k[i];
  }
  if (!nc_kernel_conv_shape(&p, rank, xs, ws, ys, err, sizeof err)) {
    CHECK(0, "conv shape failed: %s", err);
    return;
  }
  for (int i = 0; i < cc.nsp; i++) {
    int64_t o, pb;
    spec_out(&cc, i, &o, &pb);
    CHECK(ys[2 + i] == o, "conv out dim %d: %lld vs spec %lld", i, (long long)ys[2 + i], (long long)o);
  }
  nc_tensor *x = make_rand(dt, rank, xs), *w = make_rand(dt, rank, ws);
  nc_tensor *b = rnd_in(0, 1) ? make_rand(dt, 1, bs) : NULL, *y = make(dt, rank, ys);
  bool ok = nc_kernel_conv(&p, x, w, b, y, err, sizeof err);
  CHECK(ok, "conv failed: %s", err);
  int64_t ny = nc_tensor_num_elements(y);
  double *want = malloc((size_t)(ny + 1) * sizeof(double)), *mag = malloc((size_t)(ny + 1) * sizeof(double));
  naive_conv(&cc, x, w, b, want, mag);
  double eps = dt == NC_DT_F64 ? 1e-15 : dt == NC_DT_F32 ? 1.2e-7 : dt == NC_DT_F16 ? 1e-3 : 8e-3;
  int64_t kk = cc.c / cc.group;
  for (int i = 0; i < cc.nsp; i++)
    kk *= cc.k[i];
  int bad = 0;
  for (int64_t i = 0; ok && i < ny && bad < 3; i++) {
    double got = nc_tensor_get_f64(y, i), tol = (double)(kk + 2) * eps * mag[i] + eps;
    if (fabs(got - want[i]) > tol) {
      bad++;
      CHECK(0, "conv %s case %d nsp %d group %lld elem %lld: got %.9g want %.9g", nc_dtype_name(dt), it, cc.nsp,
            (long long)cc.group, (long long)i, got, want[i]);
    }
  }
  free(want);
  free(mag);
  nc_tensor_destroy(x);
  nc_tensor_destroy(w);
  nc_tensor_destroy(b);
  nc_tensor_destroy(y);
}

static void test_conv_random(nc_dtype dt, int iters)
{
  for (int it = 0; it < iters; it++) {
    conv_case cc;
    random_conv_case(&cc);
    run_conv_case(&cc, dt, it);
  }
}

/* Shapes that cross every cache block of the GEMM (K > KC, M > MC, N > NC)
 * and the pointwise (1x1, no im2col) path. */
static void test_conv_blocking(void)
{
  static const conv_case cases[] = {
      {2, 1, 40, 125, 1, {33, 33}, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, NC_AUTO_PAD_NOTSET},
      {2, 2, 300, 130, 1, {33, 34}, {1, 1}, {1, 1}, {1, 1}, {0}, NC_AUTO_PAD_NOTSET},
      {2, 1, 64, 64, 2, {20, 21}, {3, 3}, {2, 1}, {1, 2}, {0}, NC_AUTO_PAD_SAME_UPPER},
      {1, 1, 600, 7, 1, {50}, {1}, {1}, {1}, {0, 0}, NC_AUTO_PAD_NOTSET},
      {3, 1, 8, 9, 1, {6, 7, 8}, {3, 2, 3}, {1, 2, 1}, {1, 1, 2}, {1, 0, 2, 1, 1, 0}, NC_AUTO_PAD_NOTSET},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run_conv_case(&cases[i], NC_DT_F32, 1000 + (int)i);
    if (i >= 3)
      run_conv_case(&cases[i], NC_DT_F64, 2000 + (int)i);
  }
}

/* Runs a 2-D conv on float data and compares exactly with expected values. */
static void expect_conv2d(const char *what, const nc_conv_params *p, int64_t xh, int64_t xw, const float *xv,
                          int64_t kh, int64_t kw, int64_t yh, int64_t yw, const float *want)
{
  char err[256];
  int64_t xs[4] = {1, 1, xh, xw}, ws[4] = {1, 1, kh, kw}, ys[4], expect_ys[4] = {1, 1, yh, yw};
  float ones[49];
  for (int i = 0; i < 49; i++)
    ones[i] = 1;
  CHECK(nc_kernel_conv_shape(p, 4, xs, ws, ys, err, sizeof err), "%s: %s", what, err);
  CHECK(!memcmp(ys, expect_ys, sizeof ys), "%s: shape %lldx%lld", what, (long long)ys[2], (long long)ys[3]);
  nc_tensor *x = make_vals(4, xs, xv), *w = make_vals(4, ws, ones), *y = make(NC_DT_F32, 4, expect_ys);
  CHECK(nc_kernel_conv(p, x, w, NULL, y, err, sizeof err), "%s: %s", what, err);
  for (int64_t i = 0; i < yh * yw; i++)
    CHECK(((float *)y->data)[i] == want[i], "%s: elem %lld = %g, want %g", what, (long long)i,
          ((float *)y->data)[i], want[i]);
  nc_tensor_destroy(x);
  nc_tensor_destroy(w);
  nc_tensor_destroy(y);
}

/* The worked examples of the ONNX Conv operator docs. */
static void test_conv_spec_examples(void)
{
  float x5[25], x7[35];
  for (int i = 0; i < 35; i++) {
    if (i < 25)
      x5[i] = (float)i;
    x7[i] = (float)i;
  }
  nc_conv_params pad1 = {.pads = {1, 1, 1, 1}};
  static const float with_pad[25] = {12, 21, 27, 33, 24, 33, 54, 63, 72, 51, 63, 99, 108,
                                     117, 81, 93, 144, 153, 162, 111, 72, 111, 117, 123, 84};
  expect_conv2d("conv_with_padding", &pad1, 5, 5, x5, 3, 3, 5, 5, with_pad);
  nc_conv_params nopad = {0};
  static const float no_pad[9] = {54, 63, 72, 99, 108, 117, 144, 153, 162};
  expect_conv2d("conv_without_padding", &nopad, 5, 5, x5, 3, 3, 3, 3, no_pad);
  nc_conv_params stride_pad = {.strides = {2, 2}, .pads = {1, 1, 1, 1}};
  static const float strided[12] = {12, 27, 24, 63, 108, 81, 123, 198, 141, 112, 177, 124};
  expect_conv2d("conv_with_strides_padding", &stride_pad, 7, 5, x7, 3, 3, 4, 3, strided);
  nc_conv_params stride_nopad = {.strides = {2, 2}};
  static const float strided_np[6] = {54, 72, 144, 162, 234, 252};
  expect_conv2d("conv_with_strides_no_padding", &stride_nopad, 7, 5, x7, 3, 3, 3, 2, strided_np);
  nc_conv_params stride_asym = {.strides = {2, 2}, .pads = {1, 0, 1, 0}};
  static const float strided_as[8] = {21, 33, 99, 117, 189, 207, 171, 183};
  expect_conv2d("conv_with_strides_and_asymmetric_padding", &stride_asym, 7, 5, x7, 3, 3, 4, 2, strided_as);
  nc_conv_params same_lower = {.strides = {2, 2}, .auto_pad = NC_AUTO_PAD_SAME_LOWER};
  static const float same_l[9] = {12, 27, 24, 63, 108, 81, 72, 117, 84};
  expect_conv2d("conv_with_autopad_same (SAME_LOWER)", &same_lower, 5, 5, x5, 3, 3, 3, 3, same_l);
  /* SAME_UPPER on the same input puts the odd pad at the end: total pad 2 is even
   * here, so use a 2x2 kernel (total 1): UPPER pads bottom/right, LOWER top/left. */
  nc_conv_params su = {.auto_pad = NC_AUTO_PAD_SAME_UPPER}, sl = {.auto_pad = NC_AUTO_PAD_SAME_LOWER};
  float x3[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  static const float upper[9] = {12, 16, 9, 24, 28, 15, 15, 17, 9};
  static const float lower[9] = {1, 3, 5, 5, 12, 16, 11, 24, 28};
  expect_conv2d("SAME_UPPER 2x2", &su, 3, 3, x3, 2, 2, 3, 3, upper);
  expect_conv2d("SAME_LOWER 2x2", &sl, 3, 3, x3, 2, 2, 3, 3, lower);
}

static void test_conv_errors(void)
{
  char err[256] = "";
  int64_t xs[4] = {1, 4, 5, 5}, ws[4] = {6, 3, 3, 3}, ys[4];
  nc_conv_params p = {.group = 1};
  CHECK(!nc_kernel_conv_shape(&p, 4, xs, ws, ys, err, sizeof err), "channel mismatch accepted");
  CHECK(strstr(err, "conv") != NULL, "message lacks the op: %s", err);
  p.group = 3;
  int64_t ws2[4] = {6, 4, 3, 3};
  CHECK(!nc_kernel_conv_shape(&p, 4, xs, ws2, ys, err, sizeof err), "group not dividing C accepted");
  p.group = 0;
  int64_t ws3[4] = {6, 4, 7, 3};
  CHECK(!nc_kernel_conv_shape(&p, 4, xs, ws3, ys, err, sizeof err), "kernel larger than input accepted");
  nc_conv_params neg = {.pads = {-1, 0, 0, 0}};
  int64_t ws4[4] = {6, 4, 3, 3};
  CHECK(!nc_kernel_conv_shape(&neg, 4, xs, ws4, ys, err, sizeof err), "negative pads accepted");
  nc_conv_params ks = {.kernel_shape = {2, 2}};
  CHECK(!nc_kernel_conv_shape(&ks, 4, xs, ws4, ys, err, sizeof err), "kernel_shape mismatch accepted");
  CHECK(!nc_kernel_conv_shape(&p, 2, xs, ws4, ys, err, sizeof err), "rank 2 accepted");
  /* compute with a wrong output shape or dtype fails cleanly */
  nc_conv_params ok = {0};
  nc_tensor *x = make_rand(NC_DT_F32, 4, xs), *w = make_rand(NC_DT_F32, 4, ws4);
  int64_t bad[4] = {1, 6, 3, 4};
  nc_tensor *y = make(NC_DT_F32, 4, bad);
  CHECK(!nc_kernel_conv(&ok, x, w, NULL, y, err, sizeof err), "wrong output shape accepted");
  nc_tensor *wi = make(NC_DT_I32, 4, ws4);
  int64_t good[4] = {1, 6, 3, 3};
  nc_tensor *y2 = make(NC_DT_F32, 4, good);
  CHECK(!nc_kernel_conv(&ok, x, wi, NULL, y2, err, sizeof err), "mixed dtypes accepted");
  CHECK(!nc_kernel_conv(&ok, x, NULL, NULL, y2, err, sizeof err), "missing W accepted");
  int64_t b5[1] = {5};
  nc_tensor *b = make(NC_DT_F32, 1, b5);
  CHECK(!nc_kernel_conv(&ok, x, w, b, y2, err, sizeof err), "bad bias accepted");
  CHECK(!nc_kernel_conv(&ok, x, w, b, y2, NULL, 0), "a NULL err buffer must still report failure");
  CHECK(nc_kernel_conv(&ok, x, w, NULL, y2, err, sizeof err), "valid conv rejected: %s", err);
  nc_tensor_destroy(x);
  nc_tensor_destroy(w);
  nc_tensor_destroy(wi);
  nc_tensor_destroy(y);
  nc_tensor_destroy(y2);
  nc_tensor_destroy(b);
}

/* --- ConvTranspose ------------------------------------------------------------------ */

typedef struct convt_case {
  int nsp;
  int64_t n, c, m, group, in[3], k[3], s[3], d[3], pads[6], opad[3], oshape[3];
  bool has_oshape;
  nc_auto_pad ap;
} convt_case;

/* Spec output size and begin pad of a ConvTranspose dim. */
static void convt_spec(const convt_case *t, int i, int64_t *out, int64_t *pb)
{
  int64_t full = t->s[i] * (t->in[i] - 1) + t->opad[i] + (t->k[i] - 1) * t->d[i] + 1;
  bool same = t->ap == NC_AUTO_PAD_SAME_UPPER || t->ap == NC_AUTO_PAD_SAME_LOWER;
  if (t->has_oshape || same) {
    *out = t->has_oshape ? t->oshape[i] : t->in[i] * t->s[i];
    int64_t total = full - *out;
    int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2); /* python // */
    *pb = t->ap == NC_AUTO_PAD_SAME_UPPER ? half : total - half;
  } else {
    *out = full - t->pads[i] - t->pads[t->nsp + i];
    *pb = t->pads[i];
  }
}

/* Scatter definition: every x element times every kernel tap lands at o = i*s - pb + k*d. */
static void naive_convt(const convt_case *t, const nc_tensor *x, const nc_tensor *w, const nc_tensor *b, double *y,
                        double *mag, const int64_t *ys)
{
  int64_t out[3] = {1, 1, 1}, pb[3] = {0, 0, 0}, in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1},
          d[3] = {1, 1, 1};
  for (int i = 0; i < t->nsp; i++) {
    int j = 3 - t->nsp + i;
    convt_spec(t, i, &out[j], &pb[j]);
    in[j] = t->in[i];
    k[j] = t->k[i];
    s[j] = t->s[i];
    d[j] = t->d[i];
  }
  int64_t ohw = out[0] * out[1] * out[2], ny = t->n * t->m * ohw;
  (void)ys;
  for (int64_t i = 0; i < ny; i++) {
    y[i] = b ? nc_tensor_get_f64(b, (i / ohw) % t->m) : 0;
    mag[i] = fabs(y[i]);
  }
  int64_t cg = t->c / t->group, mg = t->m / t->group;
  for (int64_t n = 0; n < t->n; n++)
    for (int64_t c = 0; c < t->c; c++)
      for (int64_t i0 = 0; i0 < in[0]; i0++)
        for (int64_t i1 = 0; i1 < in[1]; i1++)
          for (int64_t i2 = 0; i2 < in[2]; i2++) {
            double xv = nc_tensor_get_f64(x, (((n * t->c + c) * in[0] + i0) * in[1] + i1) * in[2] + i2);
            for (int64_t mm = 0; mm < mg; mm++)
              for (int64_t k0 = 0; k0 < k[0]; k0++)
                for (int64_t k1 = 0; k1 < k[1]; k1++)
                  for (int64_t k2 = 0; k2 < k[2]; k2++) {
                    int64_t o0 = i0 * s[0] - pb[0] + k0 * d[0], o1 = i1 * s[1] - pb[1] + k1 * d[1],
                            o2 = i2 * s[2] - pb[2] + k2 * d[2];
                    if (o0 < 0 || o0 >= out[0] || o1 < 0 || o1 >= out[1] || o2 < 0 || o2 >= out[2])
                      continue;
                    int64_t m = (c / cg) * mg + mm;
                    double tv = xv * nc_tensor_get_f64(w, (((c * mg + mm) * k[0] + k0) * k[1] + k1) * k[2] + k2);
                    int64_t yi = ((n * t->m + m) * out[0] + o0) * out[1] * out[2] + o1 * out[2] + o2;
                    y[yi] += tv;
                    mag[yi] += fabs(tv);
                  }
          }
}

static void test_convt_random(int iters)
{
  char err[256];
  for (int it = 0; it < iters; it++) {
    convt_case t;
    memset(&t, 0, sizeof t);
    t.nsp = (int)rnd_in(1, 3);
    t.n = rnd_in(1, 2);
    t.group = rnd_in(0, 2) == 0 ? rnd_in(2, 3) : 1;
    t.c = t.group * rnd_in(1, 4);
    t.m = t.group * rnd_in(1, 4);
    int mode = (int)rnd_in(0, 4); /* 0-1 pads, 2 output_shape, 3 SAME_UPPER, 4 SAME_LOWER */
    t.ap = mode == 3 ? NC_AUTO_PAD_SAME_UPPER : mode == 4 ? NC_AUTO_PAD_SAME_LOWER : NC_AUTO_PAD_NOTSET;
    t.has_oshape = mode == 2;
    for (int i = 0; i < t.nsp; i++) {
      t.in[i] = rnd_in(1, t.nsp == 3 ? 4 : 7);
      t.k[i] = rnd_in(1, 3);
      t.s[i] = rnd_in(1, 3);
      t.d[i] = rnd_in(1, 2);
      t.opad[i] = rnd_in(0, t.s[i] - 1);
      int64_t full = t.s[i] * (t.in[i] - 1) + t.opad[i] + (t.k[i] - 1) * t.d[i] + 1;
      t.pads[i] = rnd_in(0, (full - 1) / 2 < t.k[i] - 1 ? (full - 1) / 2 : t.k[i] - 1);
      t.pads[t.nsp + i] = rnd_in(0, (full - 1) / 2 < t.k[i] - 1 ? (full - 1) / 2 : t.k[i] - 1);
      t.oshape[i] = rnd_in(full > 2 ? full - 2 : 1, full + 1);
    }
    int rank = t.nsp + 2;
    int64_t xs[5] = {t.n, t.c}, ws[5] = {t.c, t.m / t.group}, bs[1] = {t.m}, ys[5];
    nc_conv_transpose_params p = {.auto_pad = t.ap, .group = t.group, .has_output_shape = t.has_oshape};
    for (int i = 0; i < t.nsp; i++) {
      xs[2 + i] = t.in[i];
      ws[2 + i] = t.k[i];
      p.strides[i] = t.s[i];
      p.dilations[i] = t.d[i];
      p.output_padding[i] = t.opad[i];
      p.output_shape[i] = t.oshape[i];
      p.pads[i] = t.pads[i];
      p.pads[t.nsp + i] = t.pads[t.nsp + i];
    }
    if (!nc_kernel_conv_transpose_shape(&p, rank, xs, ws, ys, err, sizeof err)) {
      CHECK(0, "conv_transpose shape failed: %s", err);
      continue;
    }
    for (int i = 0; i < t.nsp; i++) {
      int64_t o, pb;
      convt_spec(&t, i, &o, &pb);
      CHECK(ys[2 + i] == o, "conv_transpose dim %d: %lld vs %lld", i, (long long)ys[2 + i], (long long)o);
    }
    nc_tensor *x = make_rand(NC_DT_F32, rank, xs), *w = make_rand(NC_DT_F32, rank, ws);
    nc_tensor *b = rnd_in(0, 1) ? make_rand(NC_DT_F32, 1, bs) : NULL, *y = make(NC_DT_F32, rank, ys);
    CHECK(nc_kernel_conv_transpose(&p, x, w, b, y, err, sizeof err), "conv_transpose: %s", err);
    int64_t ny = nc_tensor_num_elements(y);
    double *want = malloc((size_t)(ny + 1) * sizeof(double)), *mag = malloc((size_t)(ny + 1) * sizeof(double));
    naive_convt(&t, x, w, b, want, mag, ys);
    for (int64_t i = 0; i < ny; i++) {
      double got = nc_tensor_get_f64(y, i);
      if (fabs(got - want[i]) > 1e-5 * mag[i] + 1e-6) {
        CHECK(0, "conv_transpose iter %d elem %lld: got %.9g want %.9g", it, (long long)i, got, want[i]);
        break;
      }
    }
    free(want);
    free(mag);
    nc_tensor_destroy(x);
    nc_tensor_destroy(w);
    nc_tensor_destroy(b);
    nc_tensor_destroy(y);
  }
}

/* ONNX ConvTranspose doc examples: x = 0..8 (3x3), W = ones (1 -> 2 channels). */
static void test_convt_spec_examples(void)
{
  char err[256];
  float xv[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8}, ones[18];
  for (int i = 0; i < 18; i++)
    ones[i] = 1;
  int64_t xs[4] = {1, 1, 3, 3}, ws[4] = {1, 2, 3, 3};
  nc_tensor *x = make_vals(4, xs, xv), *w = make_vals(4, ws, ones);
  /* convtranspose: plain */
  static const float plain[25] = {0, 1, 3, 3, 2, 3, 8, 15, 12, 7, 9, 21, 36, 27, 15, 9, 20, 33, 24, 13, 6, 13, 21, 15, 8};
  int64_t ys[4] = {1, 2, 5, 5}, got[4];
  nc_conv_transpose_params p = {0};
  CHECK(nc_kernel_conv_transpose_shape(&p, 4, xs, ws, got, err, sizeof err) && !memcmp(got, ys, sizeof ys),
        "convtranspose shape");
  nc_tensor *y = make(NC_DT_F32, 4, ys);
  CHECK(nc_kernel_conv_transpose(&p, x, w, NULL, y, err, sizeof err), "%s", err);
  for (int i = 0; i < 50; i++)
    CHECK(((float *)y->data)[i] == plain[i % 25], "convtranspose elem %d", i);
  nc_tensor_destroy(y);
  /* output_shape [10, 8] with strides [3, 2]; and the equivalent output_padding [1, 1] */
  static const float attrs[80] = {0, 0, 1, 1, 3, 2, 2, 0, 0, 0, 1, 1, 3, 2, 2, 0, 0, 0, 1, 1, 3, 2, 2, 0,
                                  3, 3, 7, 4, 9, 5, 5, 0, 3, 3, 7, 4, 9, 5, 5, 0, 3, 3, 7, 4, 9, 5, 5, 0,
                                  6, 6, 13, 7, 15, 8, 8, 0, 6, 6, 13, 7, 15, 8, 8, 0, 6, 6, 13, 7, 15, 8, 8, 0,
                                  0, 0, 0, 0, 0, 0, 0, 0};
  int64_t ys2[4] = {1, 2, 10, 8};
  nc_conv_transpose_params po = {.strides = {3, 2}, .output_shape = {10, 8}, .has_output_shape = true};
  nc_conv_transpose_params pp = {.strides = {3, 2}, .output_padding = {1, 1}};
  const nc_conv_transpose_params *variants[2] = {&po, &pp};
  for (int v = 0; v < 2; v++) {
    CHECK(nc_kernel_conv_transpose_shape(variants[v], 4, xs, ws, got, err, sizeof err) &&
              !memcmp(got, ys2, sizeof ys2),
          "convtranspose attributes shape (variant %d)", v);
    y = make(NC_DT_F32, 4, ys2);
    CHECK(nc_kernel_conv_transpose(variants[v], x, w, NULL, y, err, sizeof err), "%s", err);
    for (int i = 0; i < 160; i++)
      CHECK(((float *)y->data)[i] == attrs[i % 80], "convtranspose attributes variant %d elem %d: %g", v, i,
            ((float *)y->data)[i]);
    nc_tensor_destroy(y);
  }
  /* pads [1, 2, 1, 2] with strides [3, 2] -> 7x3 */
  static const float pads[21] = {1, 1, 3, 1, 1, 3, 7, 4, 9, 7, 4, 9, 7, 4, 9, 13, 7, 15, 13, 7, 15};
  int64_t ys3[4] = {1, 2, 7, 3};
  nc_conv_transpose_params ppad = {.strides = {3, 2}, .pads = {1, 2, 1, 2}};
  CHECK(nc_kernel_conv_transpose_shape(&ppad, 4, xs, ws, got, err, sizeof err) && !memcmp(got, ys3, sizeof ys3),
        "convtranspose pads shape");
  y = make(NC_DT_F32, 4, ys3);
  CHECK(nc_kernel_conv_transpose(&ppad, x, w, NULL, y, err, sizeof err), "%s", err);
  for (int i = 0; i < 42; i++)
    CHECK(((float *)y->data)[i] == pads[i % 21], "convtranspose pads elem %d", i);
  nc_tensor_destroy(y);
  /* auto_pad SAME_UPPER, strides [2, 2] -> 6x6; the odd pad goes to the end */
  static const float same[36] = {0, 0, 1, 1, 3, 2, 0, 0, 1, 1, 3, 2, 3, 3, 8, 5, 12, 7,
                                 3, 3, 7, 4, 9, 5, 9, 9, 20, 11, 24, 13, 6, 6, 13, 7, 15, 8};
  int64_t ys4[4] = {1, 2, 6, 6};
  nc_conv_transpose_params psame = {.strides = {2, 2}, .auto_pad = NC_AUTO_PAD_SAME_UPPER};
  CHECK(nc_kernel_conv_transpose_shape(&psame, 4, xs, ws, got, err, sizeof err) && !memcmp(got, ys4, sizeof ys4),
        "convtranspose SAME_UPPER shape");
  y = make(NC_DT_F32, 4, ys4);
  CHECK(nc_kernel_conv_transpose(&psame, x, w, NULL, y, err, sizeof err), "%s", err);
  for (int i = 0; i < 72; i++)
    CHECK(((float *)y->data)[i] == same[i % 36], "convtranspose SAME_UPPER elem %d", i);
  nc_tensor_destroy(y);
  nc_tensor_destroy(x);
  nc_tensor_destroy(w);
  /* dilations [2, 2]: x 3x3, W 2x2 */
  float xd[9] = {3, 8, 1, 9, 5, 7, 3, 2, 6}, wd[4] = {7, 2, 1, 9};
  static const float dil[25] = {21, 56, 13, 16, 2, 63, 35, 67, 10, 14, 24, 22, 76, 76, 21, 9, 5, 88, 45, 63, 3, 2, 33, 18, 54};
  int64_t xds[4] = {1, 1, 3, 3}, wds[4] = {1, 1, 2, 2}, yds[4] = {1, 1, 5, 5};
  nc_conv_transpose_params pd = {.dilations = {2, 2}};
  x = make_vals(4, xds, xd);
  w = make_vals(4, wds, wd);
  y = make(NC_DT_F32, 4, yds);
  CHECK(nc_kernel_conv_transpose(&pd, x, w, NULL, y, err, sizeof err), "%s", err);
  for (int i = 0; i < 25; i++)
    CHECK(((float *)y->data)[i] == dil[i], "convtranspose dilations elem %d", i);
  nc_tensor_destroy(x);
  nc_tensor_destroy(w);
  nc_tensor_destroy(y);
}

int main(void)
{
  test_conv_spec_examples();
  test_conv_errors();
  test_conv_blocking();
  test_conv_random(NC_DT_F32, 300);
  test_conv_random(NC_DT_F64, 60);
  test_conv_random(NC_DT_F16, 40);
  test_conv_random(NC_DT_BF16, 30);
  test_convt_spec_examples();
  test_convt_random(200);
  return kernels_test_report("kernels_conv_test");
}
