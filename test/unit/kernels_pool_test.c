/* kernels_pool_test.c: MaxPool, AveragePool and the global pools against a
 * naive reference written from the ONNX definitions: every window tap at
 * o*stride - pad_begin + t*dilation that lands in the input contributes; the
 * average divides by the taps in the input, or with count_include_pad by the
 * taps inside [-pad_begin, in + pad_end). The output size is the spec's
 * floor/ceil formula, dropping a ceil_mode window that would start in the end
 * padding. Hand cases are the ONNX operator doc examples (precomputed pads,
 * strides, SAME_UPPER, ceil, dilations) plus SAME_UPPER vs SAME_LOWER with an
 * odd total pad.
 */
#define KERNELS_TEST_SEED 0xA0761D6478BD642FULL
#include "kernels_test_util.h"

/* --- naive reference ------------------------------------------------------------ */

typedef struct pool_case {
  int nsp;
  int64_t in[3], k[3], s[3], d[3], pads[6];
  nc_auto_pad ap;
  bool ceil, include_pad;
} pool_case;

/* Spec output size and pads of one dim. */
static void spec_dim(const pool_case *pc, int i, int64_t *out, int64_t *pb, int64_t *pe)
{
  int64_t ek = (pc->k[i] - 1) * pc->d[i] + 1, in = pc->in[i], s = pc->s[i];
  if (pc->ap == NC_AUTO_PAD_SAME_UPPER || pc->ap == NC_AUTO_PAD_SAME_LOWER) {
    *out = (in + s - 1) / s;
    int64_t total = (*out - 1) * s + ek - in;
    total = total < 0 ? 0 : total;
    *pb = pc->ap == NC_AUTO_PAD_SAME_UPPER ? total / 2 : total - total / 2;
    *pe = total - *pb;
    return;
  }
  *pb = pc->ap == NC_AUTO_PAD_VALID ? 0 : pc->pads[i];
  *pe = pc->ap == NC_AUTO_PAD_VALID ? 0 : pc->pads[pc->nsp + i];
  double q = (double)(in + *pb + *pe - ek) / (double)s;
  *out = (int64_t)(pc->ceil ? ceil(q) : floor(q)) + 1;
  if (pc->ceil && (*out - 1) * s >= in + *pb)
    (*out)--;
}

static void naive_pool(const pool_case *pc, bool is_max, int64_t planes, const double *x, double *y)
{
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, pb[3] = {0}, pe[3] = {0}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1},
          d[3] = {1, 1, 1};
  for (int i = 0; i < pc->nsp; i++) {
    int j = 3 - pc->nsp + i;
    spec_dim(pc, i, &out[j], &pb[j], &pe[j]);
    in[j] = pc->in[i];
    k[j] = pc->k[i];
    s[j] = pc->s[i];
    d[j] = pc->d[i];
  }
  int64_t idx = 0;
  for (int64_t p = 0; p < planes; p++)
    for (int64_t o0 = 0; o0 < out[0]; o0++)
      for (int64_t o1 = 0; o1 < out[1]; o1++)
        for (int64_t o2 = 0; o2 < out[2]; o2++, idx++) {
          double best = -INFINITY, sum = 0;
          int64_t cnt = 0, cnt_pad = 0;
          for (int64_t t0 = 0; t0 < k[0]; t0++)
            for (int64_t t1 = 0; t1 < k[1]; t1++)
              for (int64_t t2 = 0; t2 < k[2]; t2++) {
                int64_t c[3] = {o0 * s[0] - pb[0] + t0 * d[0], o1 * s[1] - pb[1] + t1 * d[1],
                                o2 * s[2] - pb[2] + t2 * d[2]};
                bool inside = true, inside_pad = true;
                for (int q = 0; q < 3; q++) {
                  inside &= c[q] >= 0 && c[q] < in[q];
                  inside_pad &= c[q] >= -pb[q] && c[q] < in[q] + pe[q];
                }
                cnt_pad += inside_pad;
                if (!inside)
                  continue;
                double v = x[((p * in[0] + c[0]) * in[1] + c[1]) * in[2] + c[2]];
                best = v > best ? v : best;
                sum += v;
                cnt++;
              }
          y[idx] = is_max ? best : sum / (double)(pc->include_pad ? cnt_pad : cnt);
        }
}

static void fill_params(const pool_case *pc, nc_pool_params *p)
{
  memset(p, 0, sizeof *p);
  p->auto_pad = pc->ap;
  p->ceil_mode = pc->ceil;
  p->count_include_pad = pc->include_pad;
  for (int i = 0; i < pc->nsp; i++) {
    p->kernel_shape[i] = pc->k[i];
    p->strides[i] = pc->s[i];
    p->dilations[i] = pc->d[i];
    p->pads[i] = pc->pads[i];
    p->pads[pc->nsp + i] = pc->pads[pc->nsp + i];
  }
}

static void test_pool_random(nc_dtype dt, int iters)
{
  char err[256];
  for (int it = 0; it < iters; it++) {
    pool_case pc;
    memset(&pc, 0, sizeof pc);
    pc.nsp = (int)rnd_in(1, 3);
    pc.ceil = rnd_in(0, 1);
    pc.include_pad = rnd_in(0, 1);
    int ap = (int)rnd_in(0, 5);
    pc.ap = ap <= 2 ? NC_AUTO_PAD_NOTSET : (nc_auto_pad)(ap - 2);
    for (int i = 0; i < pc.nsp; i++) {
      pc.k[i] = rnd_in(1, 4);
      pc.s[i] = rnd_in(1, 3);
      pc.d[i] = rnd_in(0, 3) == 0 ? 2 : 1;
      pc.pads[i] = rnd_in(0, pc.k[i] - 1);
      pc.pads[pc.nsp + i] = rnd_in(0, pc.k[i] - 1);
      int64_t ek = (pc.k[i] - 1) * pc.d[i] + 1;
      pc.in[i] = rnd_in(ek, ek + (pc.nsp == 3 ? 5 : 12));
    }
    bool is_max = rnd_in(0, 1), integer = dt == NC_DT_I8 || dt == NC_DT_U8 || dt == NC_DT_I4 || dt == NC_DT_I2;
    int64_t n = rnd_in(1, 2), c = rnd_in(1, 3), xs[5] = {n, c}, ys[5], want_ys[5] = {n, c};
    for (int i = 0; i < pc.nsp; i++) {
      xs[2 + i] = pc.in[i];
      int64_t pb, pe;
      spec_dim(&pc, i, &want_ys[2 + i], &pb, &pe);
    }
    nc_pool_params p;
    fill_params(&pc, &p);
    int rank = pc.nsp + 2;
    if (!nc_kernel_pool_shape(&p, rank, xs, ys, err, sizeof err)) {
      CHECK(0, "pool shape: %s", err);
      continue;
    }
    CHECK(!memcmp(ys, want_ys, (size_t)rank * sizeof(int64_t)), "pool shape iter %d differs from the spec", it);
    nc_tensor *x = make(dt, rank, xs), *y = make(dt, rank, ys);
    int64_t nx = nc_tensor_num_elements(x), ny = nc_tensor_num_elements(y);
    double *xv = malloc((size_t)nx * sizeof(double)), *want = malloc((size_t)ny * sizeof(double));
    for (int64_t i = 0; i < nx; i++) {
      if (integer) {
        int64_t lo = dt == NC_DT_U8 ? 0 : dt == NC_DT_I8 ? -128 : dt == NC_DT_I4 ? -8 : -2;
        nc_tensor_set_i64(x, i, rnd_in(lo, dt == NC_DT_U8 ? 255 : -lo - 1));
      }
      else
        nc_tensor_set_f64(x, i, (double)rnd_in(-3000, 3000) / 1000.0);
      xv[i] = nc_tensor_get_f64(x, i);
    }
    bool ok = is_max ? nc_kernel_max_pool(&p, x, y, err, sizeof err) : nc_kernel_avg_pool(&p, x, y, err, sizeof err);
    CHECK(ok, "pool: %s", err);
    naive_pool(&pc, is_max, n * c, xv, want);
    for (int64_t i = 0; integer && !is_max && i < ny; i++) /* the integer mean: sum / count rounded half to even */
      want[i] = rint(want[i]);
    double tol = dt == NC_DT_F64 ? 1e-14 : dt == NC_DT_F32 ? 3e-7 : dt == NC_DT_F16 ? 1e-3 : integer ? 0 : 8e-3;
    for (int64_t i = 0; ok && i < ny; i++) {
      double got = nc_tensor_get_f64(y, i);
      if (fabs(got - want[i]) > tol * (fabs(want[i]) + 1)) {
        CHECK(0, "%s %s iter %d elem %lld: got %.9g want %.9g", is_max ? "max_pool" : "avg_pool", nc_dtype_name(dt),
              it, (long long)i, got, want[i]);
        break;
      }
    }
    free(xv);
    free(want);
    nc_tensor_destroy(x);
    nc_tensor_destroy(y);
  }
}

/* --- ONNX doc examples --------------------------------------------------------------- */

static void expect_pool(const char *what, bool is_max, const nc_pool_params *p, int64_t h, int64_t w,
                        int64_t oh, int64_t ow, const float *want)
{
  char err[256];
  int64_t xs[4] = {1, 1, h, w}, ys[4], wys[4] = {1, 1, oh, ow};
  CHECK(nc_kernel_pool_shape(p, 4, xs, ys, err, sizeof err), "%s: %s", what, err);
  CHECK(!memcmp(ys, wys, sizeof ys), "%s: shape %lldx%lld, want %lldx%lld", what, (long long)ys[2], (long long)ys[3],
        (long long)oh, (long long)ow);
  nc_tensor *x = make(NC_DT_F32, 4, xs), *y = make(NC_DT_F32, 4, wys);
  for (int64_t i = 0; i < h * w; i++)
    ((float *)x->data)[i] = (float)(i + 1);
  CHECK(is_max ? nc_kernel_max_pool(p, x, y, err, sizeof err) : nc_kernel_avg_pool(p, x, y, err, sizeof err), "%s: %s",
        what, err);
  for (int64_t i = 0; i < oh * ow; i++)
    CHECK(fabsf(((float *)y->data)[i] - want[i]) <= 1e-6f * fabsf(want[i]), "%s: elem %lld = %.7g, want %.7g", what,
          (long long)i, ((float *)y->data)[i], want[i]);
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
}

static void test_pool_spec_examples(void)
{
  nc_pool_params p = {.kernel_shape = {5, 5}, .pads = {2, 2, 2, 2}};
  static const float pads_excl[25] = {7, 7.5, 8, 8.5, 9, 9.5, 10, 10.5, 11, 11.5, 12, 12.5, 13,
                                      13.5, 14, 14.5, 15, 15.5, 16, 16.5, 17, 17.5, 18, 18.5, 19};
  expect_pool("averagepool_2d_precomputed_pads", false, &p, 5, 5, 5, 5, pads_excl);
  p.count_include_pad = true;
  static const float pads_incl[25] = {2.52f, 3.6f, 4.8f, 4.08f, 3.24f, 4.56f, 6.4f, 8.4f, 7.04f,
                                      5.52f, 7.2f, 10, 13, 10.8f, 8.4f, 6.96f, 9.6f, 12.4f,
                                      10.24f, 7.92f, 6.12f, 8.4f, 10.8f, 8.88f, 6.84f};
  expect_pool("averagepool_2d_precomputed_pads_count_include_pad", false, &p, 5, 5, 5, 5, pads_incl);
  static const float maxpads[25] = {13, 14, 15, 15, 15, 18, 19, 20, 20, 20, 23, 24, 25,
                                    25, 25, 23, 24, 25, 25, 25, 23, 24, 25, 25, 25};
  expect_pool("maxpool_2d_precomputed_pads", true, &p, 5, 5, 5, 5, maxpads);
  nc_pool_params st = {.kernel_shape = {2, 2}, .strides = {2, 2}};
  expect_pool("averagepool_2d_precomputed_strides", false, &st, 5, 5, 2, 2, (const float[]){4, 6, 14, 16});
  expect_pool("maxpool_2d_precomputed_strides", true, &st, 5, 5, 2, 2, (const float[]){7, 9, 17, 19});
  nc_pool_params su = {.kernel_shape = {3, 3}, .strides = {2, 2}, .auto_pad = NC_AUTO_PAD_SAME_UPPER};
  expect_pool("averagepool_2d_precomputed_same_upper", false, &su, 5, 5, 3, 3,
              (const float[]){4, 5.5, 7, 11.5, 13, 14.5, 19, 20.5, 22});
  expect_pool("maxpool_2d_precomputed_same_upper", true, &su, 5, 5, 3, 3,
              (const float[]){7, 9, 10, 17, 19, 20, 22, 24, 25});
  nc_pool_params ce = {.kernel_shape = {3, 3}, .strides = {2, 2}, .ceil_mode = true};
  expect_pool("averagepool_2d_ceil", false, &ce, 4, 4, 2, 2, (const float[]){6, 7.5, 12, 13.5});
  expect_pool("maxpool_2d_ceil", true, &ce, 4, 4, 2, 2, (const float[]){11, 12, 15, 16});
  nc_pool_params dl = {.kernel_shape = {2, 2}, .dilations = {2, 2}};
  expect_pool("maxpool_2d_dilations", true, &dl, 4, 4, 2, 2, (const float[]){11, 12, 15, 16});
  expect_pool("averagepool_2d_dilations", false, &dl, 4, 4, 2, 2, (const float[]){6, 7, 10, 11});
  /* odd total pad: SAME_UPPER pads the end, SAME_LOWER the beginning */
  nc_pool_params up = {.kernel_shape = {2, 2}, .auto_pad = NC_AUTO_PAD_SAME_UPPER};
  nc_pool_params lo = {.kernel_shape = {2, 2}, .auto_pad = NC_AUTO_PAD_SAME_LOWER};
  expect_pool("avg SAME_UPPER 2x2 on 3x3", false, &up, 3, 3, 3, 3, (const float[]){3, 4, 4.5, 6, 7, 7.5, 7.5, 8.5, 9});
  expect_pool("avg SAME_LOWER 2x2 on 3x3", false, &lo, 3, 3, 3, 3, (const float[]){1, 1.5, 2.5, 2.5, 3, 4, 5.5, 6, 7});
  up.count_include_pad = true;
  expect_pool("avg SAME_UPPER count_include_pad", false, &up, 3, 3, 3, 3,
              (const float[]){3, 4, 2.25, 6, 7, 3.75, 3.75, 4.25, 2.25});
  /* ceil_mode drops a window that would start in the end padding (length 3, k 2, s 2, pads 1/1) */
  nc_pool_params cd = {.kernel_shape = {1, 2}, .strides = {1, 2}, .pads = {0, 1, 0, 1}, .ceil_mode = true};
  expect_pool("ceil window starting in the end padding", true, &cd, 1, 3, 1, 2, (const float[]){1, 3});
  /* ceil_mode + count_include_pad: the part of a window past the end padding is not counted */
  nc_pool_params ci = {.kernel_shape = {1, 3}, .strides = {1, 2}, .pads = {0, 1, 0, 1}, .ceil_mode = true,
                       .count_include_pad = true};
  expect_pool("ceil + count_include_pad", false, &ci, 1, 4, 1, 3, (const float[]){1, 3, 2});
}

static void test_global_and_errors(void)
{
  char err[256];
  int64_t xs[4] = {2, 3, 4, 5}, ys[4];
  CHECK(nc_kernel_global_pool_shape(4, xs, ys, err, sizeof err) && ys[2] == 1 && ys[3] == 1, "global shape");
  nc_tensor *x = make(NC_DT_F32, 4, xs), *y = make(NC_DT_F32, 4, ys);
  for (int64_t i = 0; i < 120; i++)
    ((float *)x->data)[i] = (float)((i * 37) % 101) - 50;
  CHECK(nc_kernel_global_avg_pool(x, y, err, sizeof err), "%s", err);
  for (int pl = 0; pl < 6; pl++) {
    double s = 0, m = -INFINITY;
    for (int i = 0; i < 20; i++) {
      s += ((float *)x->data)[pl * 20 + i];
      m = fmax(m, ((float *)x->data)[pl * 20 + i]);
    }
    CHECK(fabs(((float *)y->data)[pl] - s / 20) < 1e-5, "global avg plane %d", pl);
    nc_tensor *ym = make(NC_DT_F32, 4, ys);
    CHECK(nc_kernel_global_max_pool(x, ym, err, sizeof err) && ((float *)ym->data)[pl] == m, "global max plane %d", pl);
    nc_tensor_destroy(ym);
  }
  nc_tensor *xi = make(NC_DT_I8, 4, xs), *yi = make(NC_DT_I8, 4, ys);
  for (int64_t i = 0; i < 120; i++)
    nc_tensor_set_i64(xi, i, -100 - (i % 20));
  CHECK(nc_kernel_global_max_pool(xi, yi, err, sizeof err) && nc_tensor_get_i64(yi, 0) == -100, "global max i8");
  /* each plane holds -100 - (0..19): sum -2190, / 20 = -109.5, a tie rounding to the even -110 */
  CHECK(nc_kernel_global_avg_pool(xi, yi, err, sizeof err) && nc_tensor_get_i64(yi, 0) == -110 &&
        nc_tensor_get_i64(yi, 5) == -110, "global avg i8: %lld", (long long)nc_tensor_get_i64(yi, 0));
  nc_tensor_set_i64(xi, 0, -99); /* sum -2189: -109.45 -> -109 */
  CHECK(nc_kernel_global_avg_pool(xi, yi, err, sizeof err) && nc_tensor_get_i64(yi, 0) == -109, "global avg i8 -109");
  /* errors */
  nc_pool_params p = {.kernel_shape = {0, 2}};
  CHECK(!nc_kernel_pool_shape(&p, 4, xs, ys, err, sizeof err), "kernel 0 accepted");
  nc_pool_params big = {.kernel_shape = {5, 2}};
  CHECK(!nc_kernel_pool_shape(&big, 4, xs, ys, err, sizeof err), "kernel larger than input accepted");
  nc_pool_params ok = {.kernel_shape = {2, 2}};
  CHECK(!nc_kernel_max_pool(&ok, x, y, err, sizeof err), "wrong output shape accepted");
  CHECK(!nc_kernel_pool_shape(&ok, 2, xs, ys, err, sizeof err), "rank 2 accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
  nc_tensor_destroy(xi);
  nc_tensor_destroy(yi);
}

int main(void)
{
  test_pool_spec_examples();
  test_global_and_errors();
  test_pool_random(NC_DT_F32, 400);
  test_pool_random(NC_DT_F64, 80);
  test_pool_random(NC_DT_F16, 60);
  test_pool_random(NC_DT_BF16, 40);
  test_pool_random(NC_DT_I8, 60);
  test_pool_random(NC_DT_U8, 60);
  test_pool_random(NC_DT_I4, 40);
  test_pool_random(NC_DT_I2, 40);
  return kernels_test_report("kernels_pool_test");
}
