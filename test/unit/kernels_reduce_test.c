/* kernels_reduce_test.c: reductions, Softmax/LogSoftmax (both opset flavours),
 * BatchNormalization, InstanceNormalization and LRN against naive references
 * that follow the ONNX formulas in double precision, on seeded random shapes,
 * axes and keepdims; integer reductions must match exactly. Also the
 * documented edge cases (empty reductions, noop_with_empty_axes, negative and
 * repeated axes).
 */
#define KERNELS_TEST_SEED 0xE7037ED1A0B428DBULL
#include "kernels_test_util.h"

static nc_tensor *make_rand(nc_dtype dt, int rank, const int64_t *shape, double lo, double hi)
{
  nc_tensor *t = make(dt, rank, shape);
  for (int64_t i = 0; i < nc_tensor_num_elements(t); i++) {
    if (nc_dtype_is_integer(dt))
      nc_tensor_set_i64(t, i, rnd_in((int64_t)lo, (int64_t)hi));
    else
      nc_tensor_set_f64(t, i, lo + (hi - lo) * (double)rnd_in(0, 100000) / 100000.0);
  }
  return t;
}

static double eps_of(nc_dtype dt)
{
  return dt == NC_DT_F64 ? 1e-13 : dt == NC_DT_F32 ? 2e-6 : dt == NC_DT_F16 ? 2e-3 : 1.6e-2;
}

/* v wrapped to an integer dtype's width. */
static int64_t wrap_to(nc_dtype dt, int64_t v)
{
  nc_tensor *t = make(dt, 0, NULL);
  nc_tensor_set_i64(t, 0, v);
  int64_t r = nc_tensor_get_i64(t, 0);
  nc_tensor_destroy(t);
  return r;
}

/* --- reductions ------------------------------------------------------------------ */

static void test_reduce_random(nc_dtype dt, int iters)
{
  char err[256];
  bool fl = !nc_dtype_is_integer(dt);
  for (int it = 0; it < iters; it++) {
    nc_reduce_op op = (nc_reduce_op)rnd_in(0, NC_REDUCE_LOG_SUM_EXP);
    if (!fl && op >= NC_REDUCE_L2)
      op = NC_REDUCE_SUM;
    int rank = (int)rnd_in(0, 4);
    int64_t xs[4];
    for (int i = 0; i < rank; i++)
      xs[i] = rnd_in(0, 12) == 0 ? 0 : rnd_in(1, 5);
    int64_t axes[4];
    int naxes = 0;
    bool red[4] = {false};
    for (int i = 0; i < rank; i++)
      if (rnd_in(0, 1)) {
        axes[naxes++] = rnd_in(0, 1) ? i : i - rank;
        red[i] = true;
      }
    nc_reduce_params p = {naxes, axes, rnd_in(0, 1), rnd_in(0, 1)};
    if (naxes == 0)
      for (int i = 0; i < rank; i++)
        red[i] = !p.noop_with_empty_axes;
    bool positive = op == NC_REDUCE_LOG_SUM || op == NC_REDUCE_PROD;
    nc_tensor *x = fl ? make_rand(dt, rank, xs, positive ? 0.5 : -3, positive ? 1.5 : 3)
                      : make_rand(dt, rank, xs, nc_dtype_is_signed(dt) ? -100 : 0, 100);
    int yr;
    int64_t ys[4];
    if (!nc_kernel_reduce_shape(&p, rank, xs, &yr, ys, err, sizeof err)) {
      CHECK(0, "reduce shape: %s", err);
      continue;
    }
    nc_tensor *y = make(dt, yr, ys);
    CHECK(nc_kernel_reduce(op, &p, x, y, err, sizeof err), "reduce %d: %s", (int)op, err);
    /* naive: walk x, fold each element into its output slot */
    int64_t ny = nc_tensor_num_elements(y), nx = nc_tensor_num_elements(x);
    double *acc = calloc((size_t)ny + 1, sizeof(double)), *mag = calloc((size_t)ny + 1, sizeof(double));
    int64_t *iacc = calloc((size_t)ny + 1, sizeof(int64_t)), *cnt = calloc((size_t)ny + 1, sizeof(int64_t));
    double *mx = malloc(((size_t)ny + 1) * sizeof(double));
    for (int64_t i = 0; i < ny; i++) {
      mx[i] = -INFINITY;
      acc[i] = op == NC_REDUCE_PROD ? 1 : op == NC_REDUCE_MAX ? -INFINITY : op == NC_REDUCE_MIN ? INFINITY : 0;
      iacc[i] = op == NC_REDUCE_PROD ? 1 : 0;
    }
    for (int64_t i = 0; i < nx; i++) { /* pass 1: max for log_sum_exp */
      int64_t rem = i, o = 0, os = 1;
      for (int d = rank - 1; d >= 0; d--) {
        int64_t c = rem % xs[d];
        rem /= xs[d];
        if (!red[d]) {
          o += c * os;
          os *= xs[d];
        }
      }
      double v = nc_tensor_get_f64(x, i);
      mx[o] = v > mx[o] ? v : mx[o];
    }
    for (int64_t i = 0; i < nx; i++) {
      int64_t rem = i, o = 0, os = 1;
      for (int d = rank - 1; d >= 0; d--) {
        int64_t c = rem % xs[d];
        rem /= xs[d];
        if (!red[d]) {
          o += c * os;
          os *= xs[d];
        }
      }
      double v = nc_tensor_get_f64(x, i);
      int64_t iv = nc_tensor_get_i64(x, i);
      cnt[o]++;
      switch (op) {
      case NC_REDUCE_MAX: acc[o] = v > acc[o] ? v : acc[o]; break;
      case NC_REDUCE_MIN: acc[o] = v < acc[o] ? v : acc[o]; break;
      case NC_REDUCE_PROD: acc[o] *= v; iacc[o] = (int64_t)((uint64_t)iacc[o] * (uint64_t)iv); break;
      case NC_REDUCE_SUM_SQUARE: case NC_REDUCE_L2: acc[o] += v * v; iacc[o] += iv * iv; break;
      case NC_REDUCE_L1: acc[o] += fabs(v); iacc[o] += iv < 0 ? -iv : iv; break;
      case NC_REDUCE_LOG_SUM_EXP: acc[o] += exp(v - mx[o]); break;
      default: acc[o] += v; iacc[o] += iv; break;
      }
      mag[o] += fabs(v) * (op == NC_REDUCE_SUM_SQUARE || op == NC_REDUCE_L2 ? fabs(v) : 1);
    }
    for (int64_t o = 0; o < ny; o++) {
      double want = acc[o];
      int64_t iwant = iacc[o];
      switch (op) {
      case NC_REDUCE_MEAN: want = acc[o] / (double)cnt[o]; iwant = cnt[o] ? iacc[o] / cnt[o] : 0; break;
      case NC_REDUCE_L2: want = sqrt(acc[o]); break;
      case NC_REDUCE_LOG_SUM: want = log(acc[o]); break;
      case NC_REDUCE_LOG_SUM_EXP: want = cnt[o] ? mx[o] + log(acc[o]) : -INFINITY; break;
      case NC_REDUCE_MAX:
      case NC_REDUCE_MIN:
        if (!fl && cnt[o] > 0)
          iwant = (int64_t)acc[o];
        break;
      default: break;
      }
      if (fl) {
        double got = nc_tensor_get_f64(y, o);
        double tol = eps_of(dt) * (mag[o] + fabs(want) + 1);
        bool ok = got == want || (isnan(got) && isnan(want)) || fabs(got - want) <= tol;
        if (!ok) {
          CHECK(0, "reduce %d %s iter %d out %lld: got %.9g want %.9g", (int)op, nc_dtype_name(dt), it, (long long)o,
                got, want);
          break;
        }
      } else if (cnt[o] > 0 && nc_tensor_get_i64(y, o) != wrap_to(dt, iwant)) {
        CHECK(0, "reduce %d %s iter %d out %lld: got %lld want %lld", (int)op, nc_dtype_name(dt), it, (long long)o,
              (long long)nc_tensor_get_i64(y, o), (long long)iwant);
        break;
      }
    }
    free(acc);
    free(mag);
    free(iacc);
    free(cnt);
    free(mx);
    nc_tensor_destroy(x);
    nc_tensor_destroy(y);
  }
}

static void test_reduce_edges(void)
{
  char err[256];
  int64_t xs[2] = {3, 0}, axes1[1] = {1}, ys[2];
  int yr;
  nc_reduce_params p = {1, axes1, false, false};
  CHECK(nc_kernel_reduce_shape(&p, 2, xs, &yr, ys, err, sizeof err) && yr == 1 && ys[0] == 3, "shape");
  nc_tensor *x = make(NC_DT_F32, 2, xs), *y = make(NC_DT_F32, 1, ys);
  CHECK(nc_kernel_reduce(NC_REDUCE_SUM, &p, x, y, err, sizeof err) && nc_tensor_get_f64(y, 0) == 0, "empty sum");
  CHECK(nc_kernel_reduce(NC_REDUCE_PROD, &p, x, y, err, sizeof err) && nc_tensor_get_f64(y, 0) == 1, "empty prod");
  CHECK(nc_kernel_reduce(NC_REDUCE_MAX, &p, x, y, err, sizeof err) && nc_tensor_get_f64(y, 0) == -INFINITY, "empty max");
  CHECK(nc_kernel_reduce(NC_REDUCE_MIN, &p, x, y, err, sizeof err) && nc_tensor_get_f64(y, 0) == INFINITY, "empty min");
  CHECK(nc_kernel_reduce(NC_REDUCE_MEAN, &p, x, y, err, sizeof err) && isnan(nc_tensor_get_f64(y, 0)), "empty mean");
  nc_tensor *xi = make(NC_DT_I8, 2, xs), *yi = make(NC_DT_I8, 1, ys);
  CHECK(nc_kernel_reduce(NC_REDUCE_MAX, &p, xi, yi, err, sizeof err) && nc_tensor_get_i64(yi, 0) == -128, "empty i8 max");
  /* noop_with_empty_axes */
  int64_t s2[2] = {2, 3};
  nc_reduce_params noop = {0, NULL, true, true}, all = {0, NULL, false, false};
  CHECK(nc_kernel_reduce_shape(&noop, 2, s2, &yr, ys, err, sizeof err) && yr == 2 && ys[0] == 2 && ys[1] == 3, "noop");
  CHECK(nc_kernel_reduce_shape(&all, 2, s2, &yr, ys, err, sizeof err) && yr == 0, "reduce all");
  int64_t rep[2] = {1, -1};
  nc_reduce_params bad = {2, rep, true, false};
  CHECK(!nc_kernel_reduce_shape(&bad, 2, s2, &yr, ys, err, sizeof err), "repeated axis accepted");
  int64_t oob[1] = {2};
  nc_reduce_params bad2 = {1, oob, true, false};
  CHECK(!nc_kernel_reduce_shape(&bad2, 2, s2, &yr, ys, err, sizeof err), "axis 2 of rank 2 accepted");
  /* integer mean truncates toward zero */
  int64_t s3[1] = {3}, ax0[1] = {0};
  nc_tensor *v = make(NC_DT_I32, 1, s3), *m = make(NC_DT_I32, 0, NULL);
  nc_tensor_set_i64(v, 0, -7);
  nc_tensor_set_i64(v, 1, 0);
  nc_tensor_set_i64(v, 2, 2);
  nc_reduce_params p0 = {1, ax0, false, false};
  CHECK(nc_kernel_reduce(NC_REDUCE_MEAN, &p0, v, m, err, sizeof err) && nc_tensor_get_i64(m, 0) == -1, "int mean");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
  nc_tensor_destroy(xi);
  nc_tensor_destroy(yi);
  nc_tensor_destroy(v);
  nc_tensor_destroy(m);
}

/* --- softmax ------------------------------------------------------------------------ */

static void test_softmax(nc_dtype dt, int iters)
{
  char err[256];
  for (int it = 0; it < iters; it++) {
    int rank = (int)rnd_in(1, 4);
    int64_t xs[4];
    for (int i = 0; i < rank; i++)
      xs[i] = rnd_in(1, 5);
    nc_softmax_params p = {rnd_in(-rank, rank - 1), rnd_in(0, 1)};
    bool logsm = rnd_in(0, 1);
    nc_tensor *x = make_rand(dt, rank, xs, -5, 5), *y = make(dt, rank, xs);
    CHECK((logsm ? nc_kernel_log_softmax : nc_kernel_softmax)(&p, x, y, err, sizeof err), "softmax: %s", err);
    int a = (int)(p.axis < 0 ? p.axis + rank : p.axis);
    int64_t outer = 1, len = 1, inner = 1;
    for (int i = 0; i < rank; i++) {
      if (i < a)
        outer *= xs[i];
      else if (i == a || p.coerce_2d)
        len *= xs[i];
      else
        inner *= xs[i];
    }
    for (int64_t o = 0; o < outer; o++)
      for (int64_t in = 0; in < inner; in++) {
        double m = -INFINITY, s = 0;
        for (int64_t i = 0; i < len; i++)
          m = fmax(m, nc_tensor_get_f64(x, (o * len + i) * inner + in));
        for (int64_t i = 0; i < len; i++)
          s += exp(nc_tensor_get_f64(x, (o * len + i) * inner + in) - m);
        for (int64_t i = 0; i < len; i++) {
          int64_t e = (o * len + i) * inner + in;
          double xv = nc_tensor_get_f64(x, e);
          double want = logsm ? xv - m - log(s) : exp(xv - m) / s, got = nc_tensor_get_f64(y, e);
          if (fabs(got - want) > eps_of(dt) * (fabs(want) + 1)) {
            CHECK(0, "%s %s iter %d: got %.9g want %.9g", logsm ? "log_softmax" : "softmax", nc_dtype_name(dt), it,
                  got, want);
            o = outer;
            in = inner;
            break;
          }
        }
      }
    nc_tensor_destroy(x);
    nc_tensor_destroy(y);
  }
  /* the two opset flavours differ on rank > 2 */
  int64_t s3[3] = {1, 2, 2};
  nc_tensor *x = make(NC_DT_F32, 3, s3), *y = make(NC_DT_F32, 3, s3);
  for (int i = 0; i < 4; i++)
    nc_tensor_set_f64(x, i, i);
  nc_softmax_params legacy = {1, true}, modern = {1, false};
  CHECK(nc_kernel_softmax(&legacy, x, y, err, sizeof err), "%s", err);
  double z = exp(0) + exp(1) + exp(2) + exp(3);
  CHECK(fabs(nc_tensor_get_f64(y, 0) - 1 / z) < 1e-7, "opset < 13 normalises the whole 2x2 block");
  CHECK(nc_kernel_softmax(&modern, x, y, err, sizeof err), "%s", err);
  CHECK(fabs(nc_tensor_get_f64(y, 0) - 1 / (1 + exp(2))) < 1e-7, "opset 13 normalises along axis 1 only");
  nc_softmax_params bad = {3, false};
  CHECK(!nc_kernel_softmax(&bad, x, y, err, sizeof err), "axis 3 of rank 3 accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
}

/* --- normalisations --------------------------------------------------------------------- */

static void test_norms(nc_dtype dt, int iters)
{
  char err[256];
  for (int it = 0; it < iters; it++) {
    int rank = (int)rnd_in(2, 5);
    int64_t xs[5], cs[1];
    for (int i = 0; i < rank; i++)
      xs[i] = rnd_in(1, 5);
    cs[0] = xs[1];
    int64_t n = xs[0], c = xs[1], hw = 1;
    for (int i = 2; i < rank; i++)
      hw *= xs[i];
    nc_tensor *x = make_rand(dt, rank, xs, -3, 3), *y = make(dt, rank, xs);
    nc_tensor *scale = make_rand(dt, 1, cs, -2, 2), *bias = make_rand(dt, 1, cs, -2, 2);
    nc_tensor *mean = make_rand(dt, 1, cs, -1, 1), *var = make_rand(dt, 1, cs, 0.1, 2);
    double epsv = 1e-5;
    CHECK(nc_kernel_batch_norm(epsv, x, scale, bias, mean, var, y, err, sizeof err), "batch_norm: %s", err);
    for (int64_t i = 0; i < n * c * hw; i++) {
      int64_t ch = (i / hw) % c;
      double want = (nc_tensor_get_f64(x, i) - nc_tensor_get_f64(mean, ch)) /
                        sqrt(nc_tensor_get_f64(var, ch) + epsv) * nc_tensor_get_f64(scale, ch) +
                    nc_tensor_get_f64(bias, ch);
      if (fabs(nc_tensor_get_f64(y, i) - want) > 4 * eps_of(dt) * (fabs(want) + 4)) {
        CHECK(0, "batch_norm %s: got %.9g want %.9g", nc_dtype_name(dt), nc_tensor_get_f64(y, i), want);
        break;
      }
    }
    CHECK(nc_kernel_instance_norm(epsv, x, scale, bias, y, err, sizeof err), "instance_norm: %s", err);
    for (int64_t pl = 0; pl < n * c; pl++) {
      double mu = 0, var2 = 0;
      for (int64_t i = 0; i < hw; i++)
        mu += nc_tensor_get_f64(x, pl * hw + i) / (double)hw;
      for (int64_t i = 0; i < hw; i++)
        var2 += pow(nc_tensor_get_f64(x, pl * hw + i) - mu, 2) / (double)hw;
      for (int64_t i = 0; i < hw; i++) {
        double want = nc_tensor_get_f64(scale, pl % c) * (nc_tensor_get_f64(x, pl * hw + i) - mu) / sqrt(var2 + epsv) +
                      nc_tensor_get_f64(bias, pl % c);
        if (fabs(nc_tensor_get_f64(y, pl * hw + i) - want) > 8 * eps_of(dt) * (fabs(want) + 4) + (hw == 1 ? 0 : 1e-4 * (dt == NC_DT_F32))) {
          CHECK(0, "instance_norm %s: got %.9g want %.9g", nc_dtype_name(dt), nc_tensor_get_f64(y, pl * hw + i), want);
          pl = n * c;
          break;
        }
      }
    }
    nc_lrn_params lp = {1e-4 * (double)rnd_in(1, 100), 0.75, 1 + (double)rnd_in(0, 4) / 2, rnd_in(1, 6)};
    CHECK(nc_kernel_lrn(&lp, x, y, err, sizeof err), "lrn: %s", err);
    for (int64_t i = 0; i < n * c * hw; i++) {
      int64_t ch = (i / hw) % c, b = i / (c * hw), s = i % hw;
      double sq = 0;
      for (int64_t cc = ch - (lp.size - 1) / 2; cc <= ch + lp.size / 2; cc++)
        if (cc >= 0 && cc < c)
          sq += pow(nc_tensor_get_f64(x, (b * c + cc) * hw + s), 2);
      double want = nc_tensor_get_f64(x, i) / pow(lp.bias + lp.alpha / (double)lp.size * sq, lp.beta);
      if (fabs(nc_tensor_get_f64(y, i) - want) > 2 * eps_of(dt) * (fabs(want) + 1)) {
        CHECK(0, "lrn %s size %lld: got %.9g want %.9g", nc_dtype_name(dt), (long long)lp.size, nc_tensor_get_f64(y, i),
              want);
        break;
      }
    }
    nc_tensor_destroy(x);
    nc_tensor_destroy(y);
    nc_tensor_destroy(scale);
    nc_tensor_destroy(bias);
    nc_tensor_destroy(mean);
    nc_tensor_destroy(var);
  }
  int64_t xs[3] = {1, 3, 2}, bad[1] = {2};
  nc_tensor *x = make(dt, 3, xs), *y = make(dt, 3, xs), *s = make(dt, 1, bad);
  CHECK(!nc_kernel_batch_norm(1e-5, x, s, s, s, s, y, err, sizeof err), "batch_norm with 2 of 3 channels accepted");
  nc_lrn_params zero = {1e-4, 0.75, 1, 0};
  CHECK(!nc_kernel_lrn(&zero, x, y, err, sizeof err), "lrn size 0 accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
  nc_tensor_destroy(s);
}

int main(void)
{
  static const nc_dtype dts[] = {NC_DT_F32, NC_DT_F64, NC_DT_F16, NC_DT_BF16, NC_DT_I8, NC_DT_U8, NC_DT_I32, NC_DT_I64};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++)
    test_reduce_random(dts[i], 250);
  test_reduce_edges();
  test_softmax(NC_DT_F32, 200);
  test_softmax(NC_DT_F64, 50);
  test_softmax(NC_DT_F16, 50);
  test_norms(NC_DT_F32, 100);
  test_norms(NC_DT_F64, 30);
  test_norms(NC_DT_F16, 30);
  return kernels_test_report("kernels_reduce_test");
}
