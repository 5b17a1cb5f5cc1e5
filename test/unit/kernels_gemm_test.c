/* kernels_gemm_test.c: MatMul and Gemm against naive references.
 *
 * The references implement numpy.matmul (1-D promotion, batch broadcasting)
 * and ONNX Gemm (transA/transB, alpha, beta, unidirectional C broadcast) with
 * plain loops, on seeded random shapes, for float dtypes (tolerance from the
 * sum of |terms|) and integer dtypes (exact, wrapping), plus shapes that
 * cross every cache block of the blocked GEMM and error cases.
 */
#define KERNELS_TEST_SEED 0x9E3779B97F4A7C15ULL
#include "kernels_test_util.h"

static nc_tensor *make_rand(nc_dtype dt, int rank, const int64_t *shape)
{
  nc_tensor *t = make(dt, rank, shape);
  int64_t n = nc_tensor_num_elements(t);
  for (int64_t i = 0; i < n; i++) {
    if (nc_dtype_is_integer(dt))
      nc_tensor_set_i64(t, i, dt == NC_DT_I64 ? (int64_t)((uint64_t)rnd() << 32 | rnd()) : (int64_t)rnd());
    else
      nc_tensor_set_f64(t, i, (double)rnd_in(-1000, 1000) / 400.0);
  }
  return t;
}

/* Small integers, so that Gemm's double path (alpha/beta != 1) stays exact. */
static nc_tensor *make_small(nc_dtype dt, int rank, const int64_t *shape)
{
  if (is_float(dt))
    return make_rand(dt, rank, shape);
  nc_tensor *t = make(dt, rank, shape);
  int64_t n = nc_tensor_num_elements(t);
  for (int64_t i = 0; i < n; i++)
    nc_tensor_set_i64(t, i, rnd_in(-1000, 1000));
  return t;
}

/* --- MatMul ------------------------------------------------------------------ */

/* numpy.matmul by definition; want/mag sized to the output. */
static void naive_matmul(const nc_tensor *a, const nc_tensor *b, const nc_tensor *y, double *want, uint64_t *iwant,
                         double *mag)
{
  int ra = a->rank, rb = b->rank;
  int64_t as[8], bs[8];
  int na = 0, nb = 0;
  if (ra == 1) { as[na++] = 1; as[na++] = a->shape[0]; }
  else for (int i = 0; i < ra; i++) as[na++] = a->shape[i];
  if (rb == 1) { bs[nb++] = b->shape[0]; bs[nb++] = 1; }
  else for (int i = 0; i < rb; i++) bs[nb++] = b->shape[i];
  int64_t m = as[na - 2], k = as[na - 1], n = bs[nb - 1];
  int br = (na > nb ? na : nb) - 2;
  int64_t bshape[8], nbatch = 1;
  for (int i = 0; i < br; i++) {
    int ia = i - (br - (na - 2)), ib = i - (br - (nb - 2));
    int64_t da = ia >= 0 ? as[ia] : 1, db = ib >= 0 ? bs[ib] : 1;
    bshape[i] = da > db ? da : db;
    nbatch *= bshape[i];
  }
  for (int64_t t = 0; t < nbatch; t++) {
    int64_t idx[8], rem = t, aoff = 0, boff = 0, sa = m * k, sb = k * n;
    for (int i = br - 1; i >= 0; i--) {
      idx[i] = rem % bshape[i];
      rem /= bshape[i];
    }
    for (int i = br - 1, ia = na - 3, ib = nb - 3; i >= 0; i--, ia--, ib--) {
      if (ia >= 0) {
        aoff += (as[ia] == 1 ? 0 : idx[i]) * sa;
        sa *= as[ia];
      }
      if (ib >= 0) {
        boff += (bs[ib] == 1 ? 0 : idx[i]) * sb;
        sb *= bs[ib];
      }
    }
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double s = 0, mg = 0;
        uint64_t is = 0;
        for (int64_t kk = 0; kk < k; kk++) {
          int64_t ai = aoff + i * k + kk, bi = boff + kk * n + j;
          if (is_float(a->dtype)) {
            double tv = nc_tensor_get_f64(a, ai) * nc_tensor_get_f64(b, bi);
            s += tv;
            mg += fabs(tv);
          } else {
            is += (uint64_t)nc_tensor_get_i64(a, ai) * (uint64_t)nc_tensor_get_i64(b, bi);
          }
        }
        int64_t o = (t * m + i) * n + j;
        want[o] = s;
        mag[o] = mg;
        iwant[o] = is;
      }
  }
  (void)y;
}

static double eps_of(nc_dtype dt)
{
  return dt == NC_DT_F64 ? 2e-16 : dt == NC_DT_F32 ? 1.2e-7 : dt == NC_DT_F16 ? 1e-3 : 8e-3;
}

static void check_matmul(const nc_tensor *a, const nc_tensor *b, const char *what)
{
  char err[256];
  int yr;
  int64_t ys[8];
  if (!nc_kernel_matmul_shape(a->rank, a->shape, b->rank, b->shape, &yr, ys, err, sizeof err)) {
    CHECK(0, "%s: shape: %s", what, err);
    return;
  }
  nc_tensor *y = make(a->dtype, yr, ys);
  CHECK(nc_kernel_matmul(a, b, y, err, sizeof err), "%s: %s", what, err);
  int64_t ny = nc_tensor_num_elements(y), k = a->shape[a->rank - 1];
  double *want = malloc((size_t)(ny + 1) * sizeof(double)), *mag = malloc((size_t)(ny + 1) * sizeof(double));
  uint64_t *iwant = malloc((size_t)(ny + 1) * sizeof(uint64_t));
  naive_matmul(a, b, y, want, iwant, mag);
  nc_tensor *ref = make(a->dtype, yr, ys);
  for (int64_t i = 0; i < ny; i++) {
    if (is_float(a->dtype)) {
      double got = nc_tensor_get_f64(y, i), tol = (double)(k + 1) * eps_of(a->dtype) * mag[i] + 1e-30;
      if (fabs(got - want[i]) > tol) {
        CHECK(0, "%s (%s) elem %lld: got %.10g want %.10g", what, nc_dtype_name(a->dtype), (long long)i, got,
              want[i]);
        break;
      }
    } else {
      nc_tensor_set_i64(ref, i, (int64_t)iwant[i]); /* wraps to the dtype */
      if (nc_tensor_get_i64(ref, i) != nc_tensor_get_i64(y, i)) {
        CHECK(0, "%s (%s) elem %lld: got %lld want %lld", what, nc_dtype_name(a->dtype), (long long)i,
              (long long)nc_tensor_get_i64(y, i), (long long)nc_tensor_get_i64(ref, i));
        break;
      }
    }
  }
  free(want);
  free(mag);
  free(iwant);
  nc_tensor_destroy(y);
  nc_tensor_destroy(ref);
}

static void test_matmul_random(nc_dtype dt, int iters)
{
  for (int it = 0; it < iters; it++) {
    int ra = (int)rnd_in(1, 4), rb = (int)rnd_in(1, 4);
    int64_t m = rnd_in(1, 20), k = rnd_in(1, 40), n = rnd_in(1, 20);
    int64_t as[4], bs[4];
    int br = (ra > rb ? ra : rb) - 2;
    int64_t batch[4];
    for (int i = 0; i < br; i++)
      batch[i] = rnd_in(1, 3);
    /* a: [batch..., m, k] with some batch dims set to 1 (broadcast) */
    for (int i = 0; i < ra - 2; i++)
      as[i] = rnd_in(0, 2) ? batch[br - (ra - 2) + i] : 1;
    if (ra == 1)
      as[0] = k;
    else {
      as[ra - 2] = m;
      as[ra - 1] = k;
    }
    for (int i = 0; i < rb - 2; i++)
      bs[i] = rnd_in(0, 2) ? batch[br - (rb - 2) + i] : 1;
    if (rb == 1)
      bs[0] = k;
    else {
      bs[rb - 2] = k;
      bs[rb - 1] = n;
    }
    nc_tensor *a = make_rand(dt, ra, as), *b = make_rand(dt, rb, bs);
    char what[64];
    snprintf(what, sizeof what, "matmul random %d (ranks %d,%d)", it, ra, rb);
    check_matmul(a, b, what);
    nc_tensor_destroy(a);
    nc_tensor_destroy(b);
  }
}

static void test_matmul_blocking(void)
{
  /* m > MC, k > KC, n > NC of the f32 GEMM */
  int64_t as[2] = {130, 300}, bs[2] = {300, 1100};
  nc_tensor *a = make_rand(NC_DT_F32, 2, as), *b = make_rand(NC_DT_F32, 2, bs);
  check_matmul(a, b, "matmul 130x300x1100");
  nc_tensor_destroy(a);
  nc_tensor_destroy(b);
  /* batch folded into M (b shared), and b batched with a broadcast */
  int64_t as3[3] = {3, 50, 64}, bs2[2] = {64, 40}, bs3[3] = {3, 64, 40}, as1[3] = {1, 50, 64};
  a = make_rand(NC_DT_F32, 3, as3);
  b = make_rand(NC_DT_F32, 2, bs2);
  check_matmul(a, b, "matmul [3,50,64]x[64,40]");
  nc_tensor_destroy(b);
  b = make_rand(NC_DT_F32, 3, bs3);
  nc_tensor *a1 = make_rand(NC_DT_F32, 3, as1);
  check_matmul(a1, b, "matmul [1,50,64]x[3,64,40]");
  nc_tensor_destroy(a);
  nc_tensor_destroy(a1);
  nc_tensor_destroy(b);
  int64_t d1[2] = {70, 300}, d2[2] = {300, 90};
  a = make_rand(NC_DT_F64, 2, d1);
  b = make_rand(NC_DT_F64, 2, d2);
  check_matmul(a, b, "matmul f64 70x300x90");
  nc_tensor_destroy(a);
  nc_tensor_destroy(b);
}

static void test_matmul_errors(void)
{
  char err[256];
  int yr;
  int64_t ys[8], a[2] = {3, 4}, b[2] = {5, 6}, a3[3] = {2, 3, 4}, b3[3] = {3, 4, 6};
  CHECK(!nc_kernel_matmul_shape(2, a, 2, b, &yr, ys, err, sizeof err), "inner mismatch accepted");
  CHECK(!nc_kernel_matmul_shape(3, a3, 3, b3, &yr, ys, err, sizeof err), "batch mismatch accepted");
  CHECK(!nc_kernel_matmul_shape(0, a, 2, b, &yr, ys, err, sizeof err), "rank 0 accepted");
  int64_t k[1] = {4}, v[2] = {4, 6};
  CHECK(nc_kernel_matmul_shape(1, k, 2, v, &yr, ys, err, sizeof err) && yr == 1 && ys[0] == 6, "[4]x[4,6] -> [6]");
  CHECK(nc_kernel_matmul_shape(2, v + 0, 1, k, &yr, ys, err, sizeof err) == false, "[4,6]x[4] must fail");
  CHECK(nc_kernel_matmul_shape(1, k, 1, k, &yr, ys, err, sizeof err) && yr == 0, "[4]x[4] -> scalar");
  int64_t xy[2] = {3, 6}; /* [3,4] x [4,6] */
  nc_tensor *x = make_rand(NC_DT_F32, 2, a), *w = make_rand(NC_DT_F64, 2, v), *y = make(NC_DT_F32, 2, xy);
  CHECK(!nc_kernel_matmul(x, w, y, err, sizeof err), "mixed dtypes accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(w);
  nc_tensor_destroy(y);
}

/* --- Gemm ---------------------------------------------------------------------- */

static void test_gemm_random(nc_dtype dt, int iters)
{
  char err[256];
  for (int it = 0; it < iters; it++) {
    int64_t m = rnd_in(1, it < 3 ? 140 : 25), k = rnd_in(1, it < 3 ? 300 : 30), n = rnd_in(1, it < 3 ? 40 : 25);
    nc_gemm_params p = {.alpha = (double)rnd_in(-4, 4) / 2, .beta = (double)rnd_in(-4, 4) / 2,
                        .trans_a = rnd_in(0, 1), .trans_b = rnd_in(0, 1)};
    if (!is_float(dt) && rnd_in(0, 1)) {
      p.alpha = 1;
      p.beta = rnd_in(0, 1);
    }
    int64_t as[2] = {p.trans_a ? k : m, p.trans_a ? m : k}, bs[2] = {p.trans_b ? n : k, p.trans_b ? k : n};
    int cform = (int)rnd_in(0, 5); /* none, scalar, [n], [m,1], [1,n], [m,n] */
    int64_t cs[2];
    int cr = -1;
    switch (cform) {
    case 1: cr = 0; break;
    case 2: cr = 1; cs[0] = n; break;
    case 3: cr = 2; cs[0] = m; cs[1] = 1; break;
    case 4: cr = 2; cs[0] = 1; cs[1] = n; break;
    case 5: cr = 2; cs[0] = m; cs[1] = n; break;
    default: break;
    }
    bool exact = p.alpha == 1 && (p.beta == 1 || p.beta == 0);
    nc_tensor *(*gen)(nc_dtype, int, const int64_t *) = exact ? make_rand : make_small;
    nc_tensor *a = gen(dt, 2, as), *b = gen(dt, 2, bs), *c = cr >= 0 ? gen(dt, cr, cs) : NULL;
    int64_t ys[2];
    if (!nc_kernel_gemm_shape(&p, as, bs, cr, cs, ys, err, sizeof err)) {
      CHECK(0, "gemm shape: %s", err);
      continue;
    }
    CHECK(ys[0] == m && ys[1] == n, "gemm shape");
    nc_tensor *y = make(dt, 2, ys);
    CHECK(nc_kernel_gemm(&p, a, b, c, y, err, sizeof err), "gemm: %s", err);
    nc_tensor *ref = make(dt, 2, ys);
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double s = 0, mg = 0;
        uint64_t is = 0;
        for (int64_t kk = 0; kk < k; kk++) {
          int64_t ai = p.trans_a ? kk * m + i : i * k + kk, bi = p.trans_b ? j * k + kk : kk * n + j;
          if (is_float(dt)) {
            double tv = nc_tensor_get_f64(a, ai) * nc_tensor_get_f64(b, bi);
            s += tv;
            mg += fabs(tv);
          } else {
            is += (uint64_t)nc_tensor_get_i64(a, ai) * (uint64_t)nc_tensor_get_i64(b, bi);
          }
        }
        int64_t ci = 0;
        if (cr == 1)
          ci = j;
        else if (cr == 2)
          ci = (cs[0] == 1 ? 0 : i) * cs[1] + (cs[1] == 1 ? 0 : j);
        bool use_c = c && p.beta != 0;
        if (is_float(dt)) {
          double want = p.alpha * s + (use_c ? p.beta * nc_tensor_get_f64(c, ci) : 0);
          double tol = (double)(k + 3) * eps_of(dt) * (fabs(p.alpha) * mg + (use_c ? fabs(p.beta * nc_tensor_get_f64(c, ci)) : 0)) + 1e-30;
          double got = nc_tensor_get_f64(y, i * n + j);
          if (fabs(got - want) > tol) {
            CHECK(0, "gemm %s iter %d (%lld,%lld): got %.10g want %.10g", nc_dtype_name(dt), it, (long long)i,
                  (long long)j, got, want);
            i = m;
            break;
          }
        } else {
          int64_t want;
          if (p.alpha == 1 && (!use_c || p.beta == 1))
            want = (int64_t)(is + (use_c ? (uint64_t)nc_tensor_get_i64(c, ci) : 0));
          else
            want = (int64_t)((double)(int64_t)is * p.alpha + (use_c ? (double)nc_tensor_get_i64(c, ci) * p.beta : 0));
          nc_tensor_set_i64(ref, i * n + j, want);
          if (nc_tensor_get_i64(ref, i * n + j) != nc_tensor_get_i64(y, i * n + j)) {
            CHECK(0, "gemm %s iter %d (%lld,%lld): got %lld want %lld", nc_dtype_name(dt), it, (long long)i,
                  (long long)j, (long long)nc_tensor_get_i64(y, i * n + j), (long long)nc_tensor_get_i64(ref, i * n + j));
            i = m;
            break;
          }
        }
      }
    nc_tensor_destroy(a);
    nc_tensor_destroy(b);
    nc_tensor_destroy(c);
    nc_tensor_destroy(y);
    nc_tensor_destroy(ref);
  }
}

static void test_gemm_errors(void)
{
  char err[256];
  nc_gemm_params p = {1, 1, false, false};
  int64_t a[2] = {3, 4}, b[2] = {4, 5}, c_bad[2] = {2, 5}, c3[3] = {1, 3, 5}, ys[2];
  CHECK(!nc_kernel_gemm_shape(&p, a, b, 2, c_bad, ys, err, sizeof err), "C [2,5] to [3,5] accepted");
  CHECK(!nc_kernel_gemm_shape(&p, a, b, 3, c3, ys, err, sizeof err), "rank-3 C accepted");
  p.trans_b = true;
  CHECK(!nc_kernel_gemm_shape(&p, a, b, -1, NULL, ys, err, sizeof err), "transB mismatch accepted");
}

int main(void)
{
  test_matmul_errors();
  test_matmul_blocking();
  test_matmul_random(NC_DT_F32, 200);
  test_matmul_random(NC_DT_F64, 50);
  test_matmul_random(NC_DT_F16, 30);
  test_matmul_random(NC_DT_BF16, 30);
  test_matmul_random(NC_DT_I32, 60);
  test_matmul_random(NC_DT_I64, 30);
  test_matmul_random(NC_DT_U32, 30);
  test_matmul_random(NC_DT_I8, 30);
  test_gemm_errors();
  test_gemm_random(NC_DT_F32, 150);
  test_gemm_random(NC_DT_F64, 40);
  test_gemm_random(NC_DT_F16, 20);
  test_gemm_random(NC_DT_I32, 60);
  test_gemm_random(NC_DT_I64, 30);
  return kernels_test_report("kernels_gemm_test");
}
