/* kernels_elementwise_test.c: binary, variadic and unary elementwise kernels,
 * Clip, PRelu and Expand against naive references.
 *
 * The reference broadcasts by computing each operand's index from the output
 * index (numpy rules) and applies the op with the documented semantics, on
 * seeded random shapes and every dtype class; float results must match
 * exactly (both sides perform the same IEEE operation in the same precision)
 * except for transcendental unary ops, which get a tolerance. Hand cases pin
 * integer division/modulo/pow, round-half-even and NaN handling.
 */
#define KERNELS_TEST_SEED 0xD1B54A32D192ED03ULL
#include "kernels_test_util.h"

static nc_tensor *make_rand(nc_dtype dt, int rank, const int64_t *shape, bool positive)
{
  nc_tensor *t = make(dt, rank, shape);
  int64_t n = nc_tensor_num_elements(t);
  for (int64_t i = 0; i < n; i++) {
    if (is_float(dt))
      nc_tensor_set_f64(t, i, positive ? (double)rnd_in(1, 4000) / 1000.0 : (double)rnd_in(-4000, 4000) / 1000.0);
    else if (positive)
      nc_tensor_set_i64(t, i, rnd_in(0, 5));
    else
      nc_tensor_set_i64(t, i, rnd_in(0, 3) == 0 ? rnd_in(-3, 3) : (int64_t)((uint64_t)rnd() << 32 | rnd()));
  }
  return t;
}

static nc_tensor *scalar_f(nc_dtype dt, double v)
{
  nc_tensor *t = make(dt, 0, NULL);
  nc_tensor_set_f64(t, 0, v);
  return t;
}

static nc_tensor *vec_f(nc_dtype dt, int n, const double *v)
{
  int64_t s[1] = {n};
  nc_tensor *t = make(dt, 1, s);
  for (int i = 0; i < n; i++)
    nc_tensor_set_f64(t, i, v[i]);
  return t;
}

/* Index into an operand of shape (rank, shape) broadcast to out (orank, oshape). */
static int64_t bcast_index(int64_t flat, int orank, const int64_t *oshape, int rank, const int64_t *shape)
{
  int64_t idx = 0, stride = 1;
  for (int i = orank - 1; i >= 0; i--) {
    int64_t c = flat % oshape[i];
    flat /= oshape[i];
    int j = i - (orank - rank);
    if (j >= 0) {
      idx += (shape[j] == 1 ? 0 : c) * stride;
      stride *= shape[j];
    }
  }
  return idx;
}

/* v rounded to a float dtype (through f32 for f16/bf16, as the kernels do). */
static double round_to(nc_dtype dt, double v)
{
  nc_tensor *t = make(dt, 0, NULL);
  nc_tensor_set_f64(t, 0, dt == NC_DT_F64 ? v : (double)(float)v);
  double r = nc_tensor_get_f64(t, 0);
  nc_tensor_destroy(t);
  return r;
}

static bool same_value(double got, double want) { return got == want || (got != got && want != want); }

/* --- binary ---------------------------------------------------------------------- */

/* The op in the dtype's own arithmetic: float ops in f32 for f32/f16/bf16. */
static double ref_float(nc_binary_op op, nc_dtype dt, double a, double b)
{
  if (dt == NC_DT_F64) {
    switch (op) {
    case NC_BINARY_ADD: return a + b;
    case NC_BINARY_SUB: return a - b;
    case NC_BINARY_MUL: return a * b;
    case NC_BINARY_DIV: return a / b;
    case NC_BINARY_POW: return pow(a, b);
    case NC_BINARY_MAX: return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
    case NC_BINARY_MIN: return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
    case NC_BINARY_FMOD: return fmod(a, b);
    case NC_BINARY_PRELU: return a < 0 ? a * b : a;
    default: return 0;
    }
  }
  float x = (float)a, z = (float)b;
  switch (op) {
  case NC_BINARY_ADD: return x + z;
  case NC_BINARY_SUB: return x - z;
  case NC_BINARY_MUL: return x * z;
  case NC_BINARY_DIV: return x / z;
  case NC_BINARY_POW: return dt == NC_DT_F32 ? powf(x, z) : (float)pow(x, z);
  case NC_BINARY_MAX: return isnan(x) || isnan(z) ? NAN : x > z ? x : z;
  case NC_BINARY_MIN: return isnan(x) || isnan(z) ? NAN : x < z ? x : z;
  case NC_BINARY_FMOD: return fmodf(x, z);
  case NC_BINARY_PRELU: return x < 0 ? z * x : x;
  default: return 0;
  }
}

/* Integer semantics from the header: wrap, truncating div, x/0 = 0, floor mod. */
static int64_t ref_int(nc_binary_op op, bool uns, int64_t a, int64_t b)
{
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch (op) {
  case NC_BINARY_ADD: return (int64_t)(ua + ub);
  case NC_BINARY_SUB: return (int64_t)(ua - ub);
  case NC_BINARY_MUL: return (int64_t)(ua * ub);
  case NC_BINARY_DIV:
    if (b == 0)
      return 0;
    if (uns)
      return (int64_t)(ua / ub);
    if (a == INT64_MIN && b == -1)
      return a;
    return a / b;
  case NC_BINARY_MOD:
  case NC_BINARY_FMOD: {
    if (b == 0)
      return 0;
    if (uns)
      return (int64_t)(ua % ub);
    if (b == -1)
      return 0;
    int64_t r = a % b;
    if (op == NC_BINARY_MOD && r != 0 && ((r < 0) != (b < 0)))
      r += b;
    return r;
  }
  case NC_BINARY_POW: {
    if (b < 0)
      return a == 1 ? 1 : a == -1 ? ((-b) % 2 ? -1 : 1) : 0;
    uint64_t r = 1;
    for (int64_t i = 0; i < b; i++)
      r *= ua;
    return (int64_t)r;
  }
  case NC_BINARY_MAX: return uns ? (ua > ub ? a : b) : (a > b ? a : b);
  case NC_BINARY_MIN: return uns ? (ua < ub ? a : b) : (a < b ? a : b);
  case NC_BINARY_PRELU: return !uns && a < 0 ? (int64_t)(ua * ub) : a;
  }
  return 0;
}

static void random_bcast_shapes(int *ry, int64_t *ys, int *ra, int64_t *as, int *rb, int64_t *bs)
{
  *ry = (int)rnd_in(0, 4);
  for (int i = 0; i < *ry; i++)
    ys[i] = rnd_in(0, 9) == 0 ? 0 : rnd_in(1, 5);
  int64_t *ops[2] = {as, bs};
  int *ranks[2] = {ra, rb};
  int full = (int)rnd_in(0, 1);
  for (int o = 0; o < 2; o++) {
    *ranks[o] = o == full ? *ry : (int)rnd_in(0, *ry);
    for (int i = 0; i < *ranks[o]; i++) {
      int64_t d = ys[*ry - *ranks[o] + i];
      ops[o][i] = o != full && rnd_in(0, 2) == 0 ? 1 : d;
    }
  }
  for (int i = 0; i < *ry; i++) { /* the output dim is the broadcast of the operands' */
    int ia = i - (*ry - *ra), ib = i - (*ry - *rb);
    int64_t da = ia >= 0 ? as[ia] : 1, db = ib >= 0 ? bs[ib] : 1;
    ys[i] = da == 1 ? db : da;
  }
}

static void test_binary_random(nc_dtype dt, int iters)
{
  char err[256];
  for (int it = 0; it < iters; it++) {
    nc_binary_op op = (nc_binary_op)rnd_in(0, NC_BINARY_PRELU);
    if (op == NC_BINARY_MOD && is_float(dt))
      op = NC_BINARY_FMOD;
    int ry, ra, rb;
    int64_t ys[8], as[8], bs[8];
    random_bcast_shapes(&ry, ys, &ra, as, &rb, bs);
    if (op == NC_BINARY_PRELU) { /* slope broadcasts to x only */
      ra = ry;
      memcpy(as, ys, sizeof as);
    }
    bool pos = op == NC_BINARY_POW && is_float(dt);
    nc_tensor *a = make_rand(dt, ra, as, pos), *b = make_rand(dt, rb, bs, op == NC_BINARY_POW);
    int r;
    int64_t s[8];
    CHECK(nc_kernel_broadcast_shape(ra, as, rb, bs, &r, s, err, sizeof err) && r == ry && !memcmp(s, ys, (size_t)r * 8),
          "broadcast shape");
    nc_tensor *y = make(dt, ry, ys), *ref = make(dt, ry, ys);
    if (!nc_kernel_binary(op, a, b, y, err, sizeof err)) {
      CHECK(0, "binary %d %s: %s", (int)op, nc_dtype_name(dt), err);
    } else {
      int64_t n = nc_tensor_num_elements(y);
      for (int64_t i = 0; i < n; i++) {
        int64_t ia = bcast_index(i, ry, ys, ra, as), ib = bcast_index(i, ry, ys, rb, bs);
        if (is_float(dt)) {
          nc_tensor_set_f64(ref, i, ref_float(op, dt, nc_tensor_get_f64(a, ia), nc_tensor_get_f64(b, ib)));
          if (!same_value(nc_tensor_get_f64(y, i), nc_tensor_get_f64(ref, i))) {
            CHECK(0, "binary op %d %s iter %d elem %lld: got %.9g want %.9g", (int)op, nc_dtype_name(dt), it,
                  (long long)i, nc_tensor_get_f64(y, i), nc_tensor_get_f64(ref, i));
            break;
          }
        } else {
          nc_tensor_set_i64(ref, i,
                            ref_int(op, !nc_dtype_is_signed(dt) && op != NC_BINARY_POW, nc_tensor_get_i64(a, ia),
                                    nc_tensor_get_i64(b, ib)));
          if (nc_tensor_get_i64(y, i) != nc_tensor_get_i64(ref, i)) {
            CHECK(0, "binary op %d %s iter %d elem %lld: got %lld want %lld", (int)op, nc_dtype_name(dt), it,
                  (long long)i, (long long)nc_tensor_get_i64(y, i), (long long)nc_tensor_get_i64(ref, i));
            break;
          }
        }
      }
    }
    nc_tensor_destroy(a);
    nc_tensor_destroy(b);
    nc_tensor_destroy(y);
    nc_tensor_destroy(ref);
  }
}

/* Runs op on two 1-D tensors of n elements and compares with want (ints). */
static void expect_int(nc_binary_op op, nc_dtype dt, int n, const int64_t *a, const int64_t *b, const int64_t *want)
{
  char err[256];
  nc_tensor *ta = vec_i(dt, n, a), *tb = vec_i(dt, n, b);
  int64_t s[1] = {n};
  nc_tensor *y = make(dt, 1, s);
  CHECK(nc_kernel_binary(op, ta, tb, y, err, sizeof err), "%s", err);
  for (int i = 0; i < n; i++)
    CHECK(nc_tensor_get_i64(y, i) == want[i], "op %d %s elem %d: %lld op %lld = %lld, want %lld", (int)op,
          nc_dtype_name(dt), i, (long long)a[i], (long long)b[i], (long long)nc_tensor_get_i64(y, i),
          (long long)want[i]);
  nc_tensor_destroy(ta);
  nc_tensor_destroy(tb);
  nc_tensor_destroy(y);
}

static void test_binary_hand(void)
{
  char err[256];
  int64_t a[6] = {-7, 7, -7, 7, 5, 0}, b[6] = {2, -2, -2, 2, 0, 3};
  expect_int(NC_BINARY_DIV, NC_DT_I32, 6, a, b, (int64_t[]){-3, -3, 3, 3, 0, 0});
  expect_int(NC_BINARY_MOD, NC_DT_I32, 6, a, b, (int64_t[]){1, -1, -1, 1, 0, 0});
  expect_int(NC_BINARY_FMOD, NC_DT_I32, 6, a, b, (int64_t[]){-1, 1, -1, 1, 0, 0});
  expect_int(NC_BINARY_DIV, NC_DT_I8, 2, (int64_t[]){-128, 100}, (int64_t[]){-1, 7}, (int64_t[]){-128, 14});
  expect_int(NC_BINARY_ADD, NC_DT_U8, 2, (int64_t[]){200, 255}, (int64_t[]){100, 1}, (int64_t[]){44, 0});
  expect_int(NC_BINARY_SUB, NC_DT_I16, 1, (int64_t[]){-32768}, (int64_t[]){1}, (int64_t[]){32767});
  expect_int(NC_BINARY_POW, NC_DT_I64, 6, (int64_t[]){3, 2, -1, 1, 0, -2}, (int64_t[]){4, -1, -3, -5, -1, 3},
             (int64_t[]){81, 0, -1, 1, 0, -8});
  expect_int(NC_BINARY_MAX, NC_DT_U64, 2, (int64_t[]){-1, 5}, (int64_t[]){3, 9}, (int64_t[]){-1, 9});
  /* mixed-dtype Pow: float base, integer exponent; integer base, float exponent truncates */
  nc_tensor *fb = vec_f(NC_DT_F32, 2, (double[]){2.0, -1.5}), *ie = vec_i(NC_DT_I64, 2, (int64_t[]){3, 2});
  int64_t s2[1] = {2};
  nc_tensor *y = make(NC_DT_F32, 1, s2);
  CHECK(nc_kernel_binary(NC_BINARY_POW, fb, ie, y, err, sizeof err), "%s", err);
  CHECK(nc_tensor_get_f64(y, 0) == 8 && nc_tensor_get_f64(y, 1) == 2.25, "float ^ int pow");
  nc_tensor *ib = vec_i(NC_DT_I32, 2, (int64_t[]){2, 10}), *fe = vec_f(NC_DT_F32, 2, (double[]){0.5, -1.0});
  nc_tensor *yi = make(NC_DT_I32, 1, s2);
  CHECK(nc_kernel_binary(NC_BINARY_POW, ib, fe, yi, err, sizeof err), "%s", err);
  CHECK(nc_tensor_get_i64(yi, 0) == 1 && nc_tensor_get_i64(yi, 1) == 0, "int ^ float pow truncates");
  /* NaN propagates through max/min */
  nc_tensor *fa = vec_f(NC_DT_F32, 2, (double[]){NAN, 1}), *fz = vec_f(NC_DT_F32, 2, (double[]){1, NAN});
  CHECK(nc_kernel_binary(NC_BINARY_MAX, fa, fz, y, err, sizeof err), "%s", err);
  CHECK(isnan(nc_tensor_get_f64(y, 0)) && isnan(nc_tensor_get_f64(y, 1)), "max NaN");
  /* errors */
  CHECK(!nc_kernel_binary(NC_BINARY_ADD, fb, ib, y, err, sizeof err), "mixed dtypes accepted");
  CHECK(!nc_kernel_binary(NC_BINARY_MOD, fb, fb, y, err, sizeof err), "float mod without fmod accepted");
  int64_t s3[1] = {3};
  nc_tensor *f3 = make(NC_DT_F32, 1, s3);
  CHECK(!nc_kernel_binary(NC_BINARY_ADD, fb, f3, y, err, sizeof err), "[2] + [3] accepted");
  CHECK(!nc_kernel_binary(NC_BINARY_ADD, fb, fb, f3, err, sizeof err), "wrong output shape accepted");
  int64_t s21[2] = {2, 1};
  nc_tensor *x21 = make(NC_DT_F32, 2, s21), *y22 = NULL;
  int64_t s22[2] = {2, 2};
  y22 = make(NC_DT_F32, 2, s22);
  CHECK(!nc_kernel_prelu(x21, fb, y22, err, sizeof err), "prelu slope broadcasting X accepted");
  nc_tensor_destroy(fb);
  nc_tensor_destroy(ie);
  nc_tensor_destroy(y);
  nc_tensor_destroy(ib);
  nc_tensor_destroy(fe);
  nc_tensor_destroy(yi);
  nc_tensor_destroy(fa);
  nc_tensor_destroy(fz);
  nc_tensor_destroy(f3);
  nc_tensor_destroy(x21);
  nc_tensor_destroy(y22);
}

/* --- variadic and expand ---------------------------------------------------------- */

static void test_variadic(nc_dtype dt, int iters)
{
  char err[256];
  for (int it = 0; it < iters; it++) {
    nc_variadic_op op = (nc_variadic_op)rnd_in(0, 3);
    int n = (int)rnd_in(1, 4), ry = (int)rnd_in(0, 3);
    int64_t ys[8], shapes[4][8];
    int ranks[4];
    for (int i = 0; i < ry; i++)
      ys[i] = rnd_in(1, 4);
    nc_tensor *xs[4];
    for (int k = 0; k < n; k++) {
      ranks[k] = k == 0 ? ry : (int)rnd_in(0, ry);
      for (int i = 0; i < ranks[k]; i++)
        shapes[k][i] = k && rnd_in(0, 2) == 0 ? 1 : ys[ry - ranks[k] + i];
      xs[k] = make_rand(dt, ranks[k], shapes[k], false);
      if (!is_float(dt)) /* keep integer sums meaningful */
        for (int64_t i = 0; i < nc_tensor_num_elements(xs[k]); i++)
          nc_tensor_set_i64(xs[k], i, nc_dtype_is_signed(dt) ? rnd_in(-30, 30) : rnd_in(0, 60));
    }
    nc_tensor *y = make(dt, ry, ys);
    CHECK(nc_kernel_variadic(op, n, (const nc_tensor *const *)xs, y, err, sizeof err), "variadic: %s", err);
    int64_t ne = nc_tensor_num_elements(y);
    for (int64_t i = 0; i < ne; i++) {
      double acc = 0;
      int64_t iacc = 0;
      for (int k = 0; k < n; k++) {
        int64_t j = bcast_index(i, ry, ys, ranks[k], shapes[k]);
        double v = nc_tensor_get_f64(xs[k], j);
        int64_t iv = nc_tensor_get_i64(xs[k], j);
        if (k == 0) {
          acc = v;
          iacc = iv;
        } else if (op == NC_VARIADIC_MAX) {
          acc = v > acc ? v : acc;
          iacc = iv > iacc ? iv : iacc;
        } else if (op == NC_VARIADIC_MIN) {
          acc = v < acc ? v : acc;
          iacc = iv < iacc ? iv : iacc;
        } else {
          acc = is_float(dt) ? round_to(dt, dt == NC_DT_F64 ? acc + v : (double)((float)acc + (float)v)) : 0;
          iacc += iv;
        }
      }
      if (op == NC_VARIADIC_MEAN && n > 1) {
        acc = is_float(dt) ? round_to(dt, dt == NC_DT_F64 ? acc / n : (double)((float)acc / (float)n)) : 0;
        iacc /= n;
      }
      bool ok = is_float(dt) ? same_value(nc_tensor_get_f64(y, i), acc) : nc_tensor_get_i64(y, i) == iacc;
      if (!ok) {
        CHECK(0, "variadic %d %s n=%d elem %lld: got %g want %g/%lld", (int)op, nc_dtype_name(dt), n, (long long)i,
              nc_tensor_get_f64(y, i), acc, (long long)iacc);
        break;
      }
    }
    for (int k = 0; k < n; k++)
      nc_tensor_destroy(xs[k]);
    nc_tensor_destroy(y);
  }
}

static void test_expand(void)
{
  char err[256];
  int64_t xs[2] = {3, 1}, shape[3] = {2, 1, 6}, ys[8];
  int yr;
  CHECK(nc_kernel_expand_shape(2, xs, 3, shape, &yr, ys, err, sizeof err) && yr == 3 && ys[0] == 2 && ys[1] == 3 &&
            ys[2] == 6,
        "expand shape [3,1] by [2,1,6]");
  nc_tensor *x = make(NC_DT_I16, 2, xs);
  for (int i = 0; i < 3; i++)
    nc_tensor_set_i64(x, i, 10 * (i + 1));
  nc_tensor *y = make(NC_DT_I16, 3, ys);
  CHECK(nc_kernel_expand(x, y, err, sizeof err), "%s", err);
  for (int64_t i = 0; i < 36; i++)
    CHECK(nc_tensor_get_i64(y, i) == 10 * ((i / 6) % 3 + 1), "expand elem %lld", (long long)i);
  int64_t bad[1] = {4};
  CHECK(!nc_kernel_expand_shape(2, xs, 1, bad, &yr, ys, err, sizeof err) == false ||
            !nc_kernel_expand_shape(2, (int64_t[]){3, 2}, 1, bad, &yr, ys, err, sizeof err),
        "expand [3,2] by [4] accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
}

/* --- unary ---------------------------------------------------------------------- */

static double ref_unary(nc_unary_op op, const nc_unary_params *p, double x)
{
  switch (op) {
  case NC_UNARY_IDENTITY: return x;
  case NC_UNARY_NEG: return -x;
  case NC_UNARY_ABS: return fabs(x);
  case NC_UNARY_RELU: return x < 0 ? 0 : x;
  case NC_UNARY_SIGN: return x > 0 ? 1 : x < 0 ? -1 : 0;
  case NC_UNARY_SQRT: return sqrt(x);
  case NC_UNARY_EXP: return exp(x);
  case NC_UNARY_LOG: return log(x);
  case NC_UNARY_RECIPROCAL: return 1 / x;
  case NC_UNARY_FLOOR: return floor(x);
  case NC_UNARY_CEIL: return ceil(x);
  case NC_UNARY_ROUND: return nearbyint(x);
  case NC_UNARY_SIGMOID: return 1 / (1 + exp(-x));
  case NC_UNARY_TANH: return tanh(x);
  case NC_UNARY_ERF: return erf(x);
  case NC_UNARY_SOFTPLUS: return log(exp(x) + 1);
  case NC_UNARY_SOFTSIGN: return x / (1 + fabs(x));
  case NC_UNARY_LEAKY_RELU: return x < 0 ? p->alpha * x : x;
  case NC_UNARY_ELU: return x < 0 ? p->alpha * (exp(x) - 1) : x;
  case NC_UNARY_SELU: return x <= 0 ? p->gamma * (p->alpha * exp(x) - p->alpha) : p->gamma * x;
  case NC_UNARY_HARD_SIGMOID: return fmax(0, fmin(1, p->alpha * x + p->beta));
  case NC_UNARY_HARD_SWISH: return x * fmax(0, fmin(1, x / 6 + 0.5));
  case NC_UNARY_THRESHOLDED_RELU: return x > p->alpha ? x : 0;
  case NC_UNARY_CELU: return x > 0 ? x : p->alpha * (exp(x / p->alpha) - 1);
  default: return NAN;
  }
}

static void test_unary_random(nc_dtype dt)
{
  char err[256];
  double tol = dt == NC_DT_F64 ? 1e-13 : dt == NC_DT_F32 ? 4e-6 : dt == NC_DT_F16 ? 2e-3 : 1.6e-2;
  for (int op = 0; op < NC_UNARY_COUNT; op++) {
    nc_unary_params p = nc_unary_params_default((nc_unary_op)op);
    int64_t shape[3] = {rnd_in(1, 5), rnd_in(1, 7), rnd_in(1, 9)};
    bool positive = op == NC_UNARY_SQRT || op == NC_UNARY_LOG;
    nc_tensor *x = make_rand(dt, 3, shape, positive), *y = make(dt, 3, shape);
    CHECK(nc_kernel_unary((nc_unary_op)op, &p, x, y, err, sizeof err), "unary %d: %s", op, err);
    for (int64_t i = 0; i < nc_tensor_num_elements(x); i++) {
      double xv = nc_tensor_get_f64(x, i), got = nc_tensor_get_f64(y, i), want = ref_unary((nc_unary_op)op, &p, xv);
      if (fabs(got - want) > tol * (fabs(want) + 1e-3 * (op == NC_UNARY_SELU || op == NC_UNARY_ELU || op == NC_UNARY_CELU))) {
        CHECK(0, "unary %d %s x=%.9g: got %.9g want %.9g", op, nc_dtype_name(dt), xv, got, want);
        break;
      }
    }
    nc_tensor_destroy(x);
    nc_tensor_destroy(y);
  }
}

static void test_unary_hand(void)
{
  char err[256];
  /* round half to even */
  nc_tensor *x = vec_f(NC_DT_F32, 8, (double[]){0.5, 1.5, 2.5, -2.5, -0.5, 3.5, 2.4999998, -3.5});
  int64_t s8[1] = {8};
  nc_tensor *y = make(NC_DT_F32, 1, s8);
  CHECK(nc_kernel_unary(NC_UNARY_ROUND, NULL, x, y, err, sizeof err), "%s", err);
  double want[8] = {0, 2, 2, -2, -0.0, 4, 2, -4};
  for (int i = 0; i < 8; i++)
    CHECK(nc_tensor_get_f64(y, i) == want[i], "round elem %d: %g", i, nc_tensor_get_f64(y, i));
  /* relu keeps NaN; sigmoid saturates without overflow */
  nc_tensor *z = vec_f(NC_DT_F32, 3, (double[]){NAN, -1000, 1000});
  int64_t s3[1] = {3};
  nc_tensor *yz = make(NC_DT_F32, 1, s3);
  CHECK(nc_kernel_unary(NC_UNARY_RELU, NULL, z, yz, err, sizeof err), "%s", err);
  CHECK(isnan(nc_tensor_get_f64(yz, 0)) && nc_tensor_get_f64(yz, 1) == 0, "relu NaN/neg");
  CHECK(nc_kernel_unary(NC_UNARY_SIGMOID, NULL, z, yz, err, sizeof err), "%s", err);
  CHECK(nc_tensor_get_f64(yz, 1) == 0 && nc_tensor_get_f64(yz, 2) == 1, "sigmoid saturation");
  CHECK(nc_kernel_unary(NC_UNARY_SOFTPLUS, NULL, z, yz, err, sizeof err), "%s", err);
  CHECK(nc_tensor_get_f64(yz, 2) == 1000, "softplus large x: %g", nc_tensor_get_f64(yz, 2));
  /* integer neg/abs/relu/sign wrap */
  nc_tensor *xi = vec_i(NC_DT_I8, 3, (int64_t[]){-128, -5, 7}), *yi = make(NC_DT_I8, 1, s3);
  CHECK(nc_kernel_unary(NC_UNARY_NEG, NULL, xi, yi, err, sizeof err), "%s", err);
  CHECK(nc_tensor_get_i64(yi, 0) == -128 && nc_tensor_get_i64(yi, 1) == 5 && nc_tensor_get_i64(yi, 2) == -7, "i8 neg");
  CHECK(nc_kernel_unary(NC_UNARY_ABS, NULL, xi, yi, err, sizeof err), "%s", err);
  CHECK(nc_tensor_get_i64(yi, 0) == -128 && nc_tensor_get_i64(yi, 1) == 5, "i8 abs");
  CHECK(nc_kernel_unary(NC_UNARY_RELU, NULL, xi, yi, err, sizeof err), "%s", err);
  CHECK(nc_tensor_get_i64(yi, 1) == 0 && nc_tensor_get_i64(yi, 2) == 7, "i8 relu");
  CHECK(nc_kernel_unary(NC_UNARY_SIGN, NULL, xi, yi, err, sizeof err), "%s", err);
  CHECK(nc_tensor_get_i64(yi, 0) == -1 && nc_tensor_get_i64(yi, 2) == 1, "i8 sign");
  CHECK(!nc_kernel_unary(NC_UNARY_EXP, NULL, xi, yi, err, sizeof err), "exp of i8 accepted");
  CHECK(!nc_kernel_unary(NC_UNARY_COUNT, NULL, x, y, err, sizeof err), "unknown op accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
  nc_tensor_destroy(z);
  nc_tensor_destroy(yz);
  nc_tensor_destroy(xi);
  nc_tensor_destroy(yi);
}

/* --- clip and prelu -------------------------------------------------------------- */

static void test_clip(void)
{
  char err[256];
  int64_t s5[1] = {5};
  nc_tensor *x = vec_f(NC_DT_F32, 5, (double[]){-3, -1, 0.5, 2, NAN}), *y = make(NC_DT_F32, 1, s5);
  nc_tensor *lo = scalar_f(NC_DT_F32, -1.5), *hi = scalar_f(NC_DT_F32, 1);
  CHECK(nc_kernel_clip(x, lo, hi, y, err, sizeof err), "%s", err);
  double want[5] = {-1.5, -1, 0.5, 1, NAN};
  for (int i = 0; i < 5; i++)
    CHECK(same_value(nc_tensor_get_f64(y, i), want[i]), "clip elem %d", i);
  CHECK(nc_kernel_clip(x, NULL, hi, y, err, sizeof err) && nc_tensor_get_f64(y, 0) == -3, "clip without min");
  CHECK(nc_kernel_clip(x, hi, lo, y, err, sizeof err) && nc_tensor_get_f64(y, 2) == -1.5, "clip min > max -> max");
  /* integer clip is exact at the int64 extremes */
  nc_tensor *xi = vec_i(NC_DT_I64, 3, (int64_t[]){INT64_MIN, 0, INT64_MAX}), *yi = vec_i(NC_DT_I64, 3, (int64_t[]){0, 0, 0});
  nc_tensor *li = make(NC_DT_I64, 0, NULL), *hi_i = make(NC_DT_I64, 0, NULL);
  nc_tensor_set_i64(li, 0, INT64_MIN + 1);
  nc_tensor_set_i64(hi_i, 0, INT64_MAX - 1);
  CHECK(nc_kernel_clip(xi, li, hi_i, yi, err, sizeof err), "%s", err);
  CHECK(nc_tensor_get_i64(yi, 0) == INT64_MIN + 1 && nc_tensor_get_i64(yi, 2) == INT64_MAX - 1, "i64 clip");
  nc_tensor *xu = vec_i(NC_DT_U8, 3, (int64_t[]){0, 100, 255}), *yu = vec_i(NC_DT_U8, 3, (int64_t[]){0, 0, 0});
  nc_tensor *lu = make(NC_DT_U8, 0, NULL), *hu = make(NC_DT_U8, 0, NULL);
  nc_tensor_set_i64(lu, 0, 10);
  nc_tensor_set_i64(hu, 0, 200);
  CHECK(nc_kernel_clip(xu, lu, hu, yu, err, sizeof err), "%s", err);
  CHECK(nc_tensor_get_i64(yu, 0) == 10 && nc_tensor_get_i64(yu, 1) == 100 && nc_tensor_get_i64(yu, 2) == 200, "u8 clip");
  CHECK(!nc_kernel_clip(xu, lo, NULL, yu, err, sizeof err), "clip bound of another dtype accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
  nc_tensor_destroy(lo);
  nc_tensor_destroy(hi);
  nc_tensor_destroy(xi);
  nc_tensor_destroy(yi);
  nc_tensor_destroy(li);
  nc_tensor_destroy(hi_i);
  nc_tensor_destroy(xu);
  nc_tensor_destroy(yu);
  nc_tensor_destroy(lu);
  nc_tensor_destroy(hu);
}

static void test_prelu(void)
{
  char err[256];
  int64_t xs[4] = {2, 3, 4, 5}, ss[3] = {3, 1, 1};
  nc_tensor *x = make_rand(NC_DT_F32, 4, xs, false), *s = make_rand(NC_DT_F32, 3, ss, false);
  nc_tensor *y = make(NC_DT_F32, 4, xs);
  CHECK(nc_kernel_prelu(x, s, y, err, sizeof err), "%s", err);
  for (int64_t i = 0; i < 120; i++) {
    float xv = ((float *)x->data)[i], sv = ((float *)s->data)[(i / 20) % 3];
    CHECK(((float *)y->data)[i] == (xv < 0 ? sv * xv : xv), "prelu elem %lld", (long long)i);
  }
  nc_tensor_destroy(x);
  nc_tensor_destroy(s);
  nc_tensor_destroy(y);
}

int main(void)
{
  static const nc_dtype dts[] = {NC_DT_F32, NC_DT_F64, NC_DT_F16, NC_DT_BF16, NC_DT_I8,
                                 NC_DT_U8,  NC_DT_I16, NC_DT_I32, NC_DT_I64,  NC_DT_U64};
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++) {
    test_binary_random(dts[i], 300);
    test_variadic(dts[i], 60);
  }
  test_binary_hand();
  test_expand();
  test_unary_random(NC_DT_F32);
  test_unary_random(NC_DT_F64);
  test_unary_random(NC_DT_F16);
  test_unary_random(NC_DT_BF16);
  test_unary_hand();
  test_clip();
  test_prelu();
  return kernels_test_report("kernels_elementwise_test");
}
