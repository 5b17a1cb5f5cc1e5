/* kernels_quant_acts_test.c: the integer kernels of concat with a rescale
 * per input, the (channel-broadcast) product, table lookup, softmax by an
 * exponential table, and the table construction nc_lut_build, all compared exactly: hand cases for the
 * ties (round half to even), saturation and table sizes by bit width, and
 * random cases against an independent round-half-even by truncating
 * division.
 */
#define KERNELS_TEST_SEED 0x2545F4914F6CDD1DULL
#include <math.h>

#include "kernels_test_util.h"

/* round_half_even(v / 2^s) by truncating division. */
static int64_t ref_shift(int64_t v, int s)
{
  if (s == 0)
    return v;
  int64_t d = (int64_t)1 << s, q = v / d, r = v % d;
  if (r < 0)
    q--, r += d; /* floor */
  if (2 * r > d || (2 * r == d && (q & 1)))
    q++;
  return q;
}

static int64_t sat8(int64_t v) { return v < -128 ? -128 : v > 127 ? 127 : v; }

static void set_all(nc_tensor *t, const int64_t *v)
{
  for (int64_t i = 0; i < nc_tensor_num_elements(t); i++)
    nc_tensor_set_i64(t, i, v[i]);
}

static void expect_all(const char *what, const nc_tensor *y, const int64_t *want)
{
  for (int64_t i = 0; i < nc_tensor_num_elements(y); i++)
    CHECK(nc_tensor_get_i64(y, i) == want[i], "%s elem %lld: got %lld want %lld", what, (long long)i,
          (long long)nc_tensor_get_i64(y, i), (long long)want[i]);
}

/* [1, 1, 2] and [1, 2, 2] joined along axis 1: the first halved (ties to
 * even: 1 -> 0, 3 -> 2, -1 -> 0, -3 -> -2), the second doubled (saturating). */
static void test_concat_integer(void)
{
  char err[256];
  int64_t s0[3] = {1, 1, 2}, s1[3] = {1, 2, 2}, sy[3] = {1, 3, 2};
  nc_tensor *a = make(NC_DT_I8, 3, s0), *b = make(NC_DT_I8, 3, s1), *y = make(NC_DT_I8, 3, sy);
  set_all(a, (int64_t[]){1, 3});
  set_all(b, (int64_t[]){-1, 70, -100, 5});
  const nc_tensor *xs[2] = {a, b};
  int32_t m[2] = {1 << 30, 1 << 30}, s[2] = {31, 29};
  CHECK(nc_kernel_concat_integer(1, 2, xs, m, s, 0, y, err, sizeof err), "concat_integer: %s", err);
  expect_all("concat", y, (int64_t[]){0, 2, -2, 127, -128, 10});
  set_all(a, (int64_t[]){-1, -3});
  CHECK(nc_kernel_concat_integer(-2, 2, xs, m, s, 3, y, err, sizeof err), "concat_integer: %s", err);
  expect_all("concat zp", y, (int64_t[]){3, 1, 1, 127, -128, 13});
  /* random: three inputs along the last axis */
  for (int iter = 0; iter < 40; iter++) {
    int64_t sh[3][2] = {{2, 1}, {2, 3}, {2, 2}}, so[2] = {2, 6};
    nc_tensor *x[3], *o = make(NC_DT_I8, 2, so);
    int32_t mm[3], ss[3];
    for (int k = 0; k < 3; k++) {
      x[k] = make(NC_DT_I8, 2, sh[k]);
      for (int64_t i = 0; i < nc_tensor_num_elements(x[k]); i++)
        nc_tensor_set_i64(x[k], i, rnd_in(-128, 127));
      CHECK(nc_fixed_point_from_scale((double)rnd_in(1, 4000) / 1000.0, &mm[k], &ss[k], err, sizeof err), "%s", err);
    }
    CHECK(nc_kernel_concat_integer(1, 3, (const nc_tensor *const *)x, mm, ss, 0, o, err, sizeof err), "%s", err);
    for (int64_t r = 0; r < 2; r++)
      for (int64_t c = 0, k = 0, off = 0; c < 6; c++) {
        while (c - off >= sh[k][1])
          off += sh[k][1], k++;
        int64_t v = sat8(ref_shift(nc_tensor_get_i64(x[k], r * sh[k][1] + c - off) * mm[k], ss[k]));
        CHECK(nc_tensor_get_i64(o, r * 6 + c) == v, "random concat [%lld, %lld]: got %lld want %lld", (long long)r,
              (long long)c, (long long)nc_tensor_get_i64(o, r * 6 + c), (long long)v);
      }
    for (int k = 0; k < 3; k++)
      nc_tensor_destroy(x[k]);
    nc_tensor_destroy(o);
  }
  int32_t bad_m[2] = {-1, 1};
  CHECK(!nc_kernel_concat_integer(1, 2, xs, bad_m, s, 0, y, err, sizeof err), "negative multiplier accepted");
  CHECK(!nc_kernel_concat_integer(0, 2, xs, m, s, 0, y, err, sizeof err), "mismatched dims accepted");
  nc_tensor_destroy(a);
  nc_tensor_destroy(b);
  nc_tensor_destroy(y);
}

/* [1, 2, 1, 2] times a [1, 2, 1, 1] gate, scaled by 1/4 (2^30 / 2^32): the
 * ties 2/4 -> 0 and 6/4 -> 2, -2/4 -> 0, saturation, relu. */
static void test_mul_integer(void)
{
  char err[256];
  int64_t sa[4] = {1, 2, 1, 2}, sb[4] = {1, 2, 1, 1};
  nc_tensor *a = make(NC_DT_I8, 4, sa), *b = make(NC_DT_I8, 4, sb), *y = make(NC_DT_I8, 4, sa);
  set_all(a, (int64_t[]){1, 3, -1, 127});
  set_all(b, (int64_t[]){2, 100});
  CHECK(nc_kernel_mul_integer(1 << 30, 32, 0, false, a, b, y, err, sizeof err), "mul_integer: %s", err);
  expect_all("mul", y, (int64_t[]){0, 2, -25, 127});
  CHECK(nc_kernel_mul_integer(1 << 30, 32, 0, true, a, b, y, err, sizeof err), "mul_integer: %s", err);
  expect_all("mul relu", y, (int64_t[]){0, 2, 0, 127});
  /* random, same shapes */
  for (int iter = 0; iter < 40; iter++) {
    nc_tensor *c = make(NC_DT_I8, 4, sa);
    int32_t m, s;
    CHECK(nc_fixed_point_from_scale((double)rnd_in(1, 1000) / 50000.0, &m, &s, err, sizeof err), "%s", err);
    for (int64_t i = 0; i < 4; i++)
      nc_tensor_set_i64(a, i, rnd_in(-128, 127)), nc_tensor_set_i64(c, i, rnd_in(-128, 127));
    CHECK(nc_kernel_mul_integer(m, s, 1, false, a, c, y, err, sizeof err), "%s", err);
    for (int64_t i = 0; i < 4; i++) {
      int64_t v = sat8(ref_shift(nc_tensor_get_i64(a, i) * nc_tensor_get_i64(c, i) * m, s) + 1);
      CHECK(nc_tensor_get_i64(y, i) == v, "random mul %lld: got %lld want %lld", (long long)i,
            (long long)nc_tensor_get_i64(y, i), (long long)v);
    }
    nc_tensor_destroy(c);
  }
  int64_t sw[4] = {1, 3, 1, 1};
  nc_tensor *w = make(NC_DT_I8, 4, sw);
  CHECK(!nc_kernel_mul_integer(1, 0, 0, false, a, w, y, err, sizeof err), "a gate of the wrong channels accepted");
  CHECK(!nc_kernel_mul_integer(1, 64, 0, false, a, b, y, err, sizeof err), "shift 64 accepted");
  nc_tensor_destroy(w);
  nc_tensor_destroy(a);
  nc_tensor_destroy(b);
  nc_tensor_destroy(y);
}

static double identity(double x, void *userData)
{
  (void)userData;
  return x;
}

static double logistic(double x, void *userData)
{
  (void)userData;
  return 1.0 / (1.0 + exp(-x));
}

static double infinite(double x, void *userData)
{
  (void)userData;
  return x > 0 ? INFINITY : 0;
}

/* Tables by width: 256 entries at 8 bits, 16 at 4, 4 at 2; ties to even
 * (x * 1 / 2: 1/2 -> 0, 3/2 -> 2), saturation to the width, and the lookup
 * kernel indexing by x - min. */
static void test_lut(void)
{
  char err[256];
  int64_t t8[256], t4[16], t2[4];
  CHECK(nc_lut_build(identity, NULL, 1.0, 2.0, 8, t8, err, sizeof err), "lut 8: %s", err);
  CHECK(t8[0] == -64 && t8[127] == 0 && t8[128] == 0 && t8[129] == 0 && t8[130] == 1 && t8[131] == 2 &&
            t8[127 - 2] == -2 && t8[255] == 64,
        "identity / 2 table: %lld %lld %lld %lld %lld %lld", (long long)t8[0], (long long)t8[129],
        (long long)t8[130], (long long)t8[131], (long long)t8[125], (long long)t8[255]);
  CHECK(nc_lut_build(identity, NULL, 1.0, 0.25, 4, t4, err, sizeof err), "lut 4: %s", err);
  CHECK(t4[0] == -8 && t4[7] == -4 && t4[8] == 0 && t4[9] == 4 && t4[10] == 7 && t4[15] == 7,
        "identity * 4 at 4 bits saturates to [-8, 7]: %lld %lld %lld %lld", (long long)t4[0], (long long)t4[7],
        (long long)t4[9], (long long)t4[10]);
  CHECK(nc_lut_build(logistic, NULL, 1.0, 1.0 / 64, 2, t2, err, sizeof err), "lut 2: %s", err);
  CHECK(t2[0] == 1 && t2[1] == 1 && t2[2] == 1 && t2[3] == 1, "sigmoid at 2 bits saturates to 1: %lld %lld %lld",
        (long long)t2[0], (long long)t2[2], (long long)t2[3]);
  CHECK(nc_lut_build(logistic, NULL, 1.0 / 16, 1.0 / 127, 8, t8, err, sizeof err), "%s", err);
  for (int i = 0; i < 256; i++) {
    int64_t v = (int64_t)nearbyint(127.0 / (1.0 + exp(-(i - 128) / 16.0)));
    CHECK(t8[i] == (v > 127 ? 127 : v), "sigmoid entry %d: got %lld want %lld", i, (long long)t8[i], (long long)v);
  }
  CHECK(!nc_lut_build(infinite, NULL, 1.0, 1.0, 8, t8, err, sizeof err), "an infinite value accepted");
  CHECK(!nc_lut_build(identity, NULL, 0.0, 1.0, 8, t8, err, sizeof err), "a zero scale accepted");
  CHECK(!nc_lut_build(identity, NULL, 1.0, 1.0, 1, t8, err, sizeof err), "1 bit accepted");

  /* lookup: i8 indexes a 256-entry table, i4 a 16-entry one */
  int64_t shape[1] = {4};
  nc_tensor *x = make(NC_DT_I8, 1, shape), *y = make(NC_DT_I8, 1, shape);
  set_all(x, (int64_t[]){-128, -1, 0, 127});
  for (int i = 0; i < 256; i++)
    t8[i] = 300 - 2 * i; /* saturates at both ends */
  CHECK(nc_kernel_lut_integer(t8, 256, x, y, err, sizeof err), "lut_integer: %s", err);
  expect_all("lut i8", y, (int64_t[]){127, 46, 44, -128});
  CHECK(!nc_kernel_lut_integer(t8, 16, x, y, err, sizeof err), "a 16-entry table for i8 accepted");
  nc_tensor *x4 = make(NC_DT_I4, 1, shape), *y4 = make(NC_DT_I4, 1, shape);
  set_all(x4, (int64_t[]){-8, -1, 0, 7});
  for (int i = 0; i < 16; i++)
    t4[i] = i - 4;
  CHECK(nc_kernel_lut_integer(t4, 16, x4, y4, err, sizeof err), "lut_integer i4: %s", err);
  expect_all("lut i4", y4, (int64_t[]){-4, 3, 4, 7});
  CHECK(!nc_kernel_lut_integer(t8, 256, x4, y4, err, sizeof err), "a 256-entry table for i4 accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
  nc_tensor_destroy(x4);
  nc_tensor_destroy(y4);
}

/* Softmax rows of 4: entries chosen so that the divisions tie (2 * 127 / 4 =
 * 63.5 -> 64, 127 / 4 = 31.75 -> 32, 1 * 127 / 2 = 63.5 -> 64); the row's
 * maximum indexes the last entry whatever its value; an i4 table of 16. */
static void test_softmax_integer(void)
{
  char err[256];
  int64_t t[256] = {0}, shape[2] = {2, 4};
  t[255] = 2, t[254] = 1, t[253] = 0; /* e(0) = 2, e(-1) = 1, e(-2) = 0 */
  nc_tensor *x = make(NC_DT_I8, 2, shape), *y = make(NC_DT_I8, 2, shape);
  set_all(x, (int64_t[]){5, 4, 4, 3, -128, -128, 127, 126});
  CHECK(nc_kernel_softmax_integer(t, 256, x, y, err, sizeof err), "softmax_integer: %s", err);
  /* row 0: e = 2, 1, 1, 0, sum 4: 254/4 = 63.5 -> 64, 127/4 = 31.75 -> 32; row 1: 0, 0, 2, 1, sum 3 */
  expect_all("softmax", y, (int64_t[]){64, 32, 32, 0, 0, 0, 85, 42});
  t[254] = 2; /* row 0: 2, 2, 2, 0 sum 6: 254/6 = 42.33 -> 42 */
  CHECK(nc_kernel_softmax_integer(t, 256, x, y, err, sizeof err), "softmax_integer: %s", err);
  expect_all("softmax flat", y, (int64_t[]){42, 42, 42, 0, 0, 0, 64, 64});
  int64_t t4[16] = {0};
  t4[15] = 3, t4[14] = 1;
  int64_t s4[1] = {4};
  nc_tensor *x4 = make(NC_DT_I4, 1, s4), *y4 = make(NC_DT_I4, 1, s4);
  set_all(x4, (int64_t[]){-8, 7, 6, 7});
  CHECK(nc_kernel_softmax_integer(t4, 16, x4, y4, err, sizeof err), "softmax_integer i4: %s", err);
  expect_all("softmax i4", y4, (int64_t[]){0, 3, 1, 3}); /* 3*7/7 = 3, 1*7/7 = 1 */
  CHECK(!nc_kernel_softmax_integer(t, 16, x, y, err, sizeof err), "a 16-entry table for i8 accepted");
  t[255] = 0;
  CHECK(!nc_kernel_softmax_integer(t, 256, x, y, err, sizeof err), "a zero last entry accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
  nc_tensor_destroy(x4);
  nc_tensor_destroy(y4);
}

int main(void)
{
  test_softmax_integer();
  test_concat_integer();
  test_mul_integer();
  test_lut();
  return kernels_test_report("kernels_quant_acts_test");
}
