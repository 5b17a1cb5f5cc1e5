/* kernels_shape_test.c: Concat, Split, Slice, Reshape/Flatten/Squeeze/
 * Unsqueeze shapes, Transpose and Pad.
 *
 * Random cases are checked against index-by-index references (the pad
 * reference bounces reflected indices back and forth rather than using a
 * closed form); hand cases are the ONNX operator doc examples (negative
 * slice steps, out-of-bounds starts/ends, reshape with 0/-1/allowzero, the
 * four pad modes, uneven num_outputs splits) and the documented errors.
 */
#define KERNELS_TEST_SEED 0x8EBC6AF09C88C6E3ULL
#include "kernels_test_util.h"

/* Tensor whose element i holds i (wrapped to the dtype), so moves are traceable. */
static nc_tensor *make_iota(nc_dtype dt, int rank, const int64_t *shape)
{
  nc_tensor *t = make(dt, rank, shape);
  for (int64_t i = 0; i < nc_tensor_num_elements(t); i++)
    nc_tensor_set_i64(t, i, i * 7 + 3);
  return t;
}

/* Unravels flat index i of shape into coords. */
static void unravel(int64_t i, int rank, const int64_t *shape, int64_t *c)
{
  for (int d = rank - 1; d >= 0; d--) {
    c[d] = shape[d] ? i % shape[d] : 0;
    i = shape[d] ? i / shape[d] : 0;
  }
}

static int64_t ravel(int rank, const int64_t *shape, const int64_t *c)
{
  int64_t i = 0;
  for (int d = 0; d < rank; d++)
    i = i * shape[d] + c[d];
  return i;
}

static bool elem_eq(const nc_tensor *a, int64_t i, const nc_tensor *b, int64_t j)
{
  size_t es = nc_dtype_size(a->dtype);
  return !memcmp((const char *)a->data + (size_t)i * es, (const char *)b->data + (size_t)j * es, es);
}

/* --- concat / split ------------------------------------------------------------------ */

static void test_concat_split(void)
{
  char err[256];
  static const nc_dtype dts[] = {NC_DT_F32, NC_DT_I8, NC_DT_F16, NC_DT_I64, NC_DT_BOOL};
  for (int it = 0; it < 200; it++) {
    nc_dtype dt = dts[it % 5];
    int rank = (int)rnd_in(1, 4), n = (int)rnd_in(1, 4);
    int64_t axis = rnd_in(-rank, rank - 1), a = axis < 0 ? axis + rank : axis;
    int64_t base[4], shapes[4][4];
    const int64_t *sp[4];
    nc_tensor *xs[4];
    for (int d = 0; d < rank; d++)
      base[d] = rnd_in(1, 4);
    for (int k = 0; k < n; k++) {
      memcpy(shapes[k], base, sizeof base);
      shapes[k][a] = rnd_in(0, 3);
      sp[k] = shapes[k];
      xs[k] = make_iota(dt, rank, shapes[k]);
      for (int64_t i = 0; i < nc_tensor_num_elements(xs[k]); i++)
        nc_tensor_set_i64(xs[k], i, dt == NC_DT_BOOL ? (i + k) % 2 : 1000 * k + i);
    }
    int64_t ys[4];
    if (!nc_kernel_concat_shape(axis, n, rank, sp, ys, err, sizeof err)) {
      CHECK(0, "concat shape: %s", err);
      continue;
    }
    nc_tensor *y = make(dt, rank, ys);
    CHECK(nc_kernel_concat(axis, n, (const nc_tensor *const *)xs, y, err, sizeof err), "concat: %s", err);
    for (int64_t i = 0; i < nc_tensor_num_elements(y); i++) {
      int64_t c[4];
      unravel(i, rank, ys, c);
      int k = 0;
      while (c[a] >= shapes[k][a]) {
        c[a] -= shapes[k][a];
        k++;
      }
      if (!elem_eq(y, i, xs[k], ravel(rank, shapes[k], c))) {
        CHECK(0, "concat iter %d elem %lld", it, (long long)i);
        break;
      }
    }
    /* split y back into the same parts */
    int64_t sizes[4], got[4];
    for (int k = 0; k < n; k++)
      sizes[k] = shapes[k][a];
    CHECK(nc_kernel_split_sizes(axis, rank, ys, n, sizes, got, err, sizeof err) && !memcmp(got, sizes, (size_t)n * 8),
          "split sizes: %s", err);
    nc_tensor *parts[4];
    for (int k = 0; k < n; k++)
      parts[k] = make(dt, rank, shapes[k]);
    CHECK(nc_kernel_split(axis, n, sizes, y, parts, err, sizeof err), "split: %s", err);
    for (int k = 0; k < n; k++) {
      CHECK(!memcmp(parts[k]->data, xs[k]->data, nc_tensor_num_bytes(xs[k])), "split part %d iter %d", k, it);
      nc_tensor_destroy(parts[k]);
      nc_tensor_destroy(xs[k]);
    }
    nc_tensor_destroy(y);
  }
  /* opset 18 num_outputs: 7 into 3 parts is 3, 3, 1; 6 into 3 is 2, 2, 2 */
  int64_t s7[1] = {7}, s6[2] = {2, 6}, sz[3];
  CHECK(nc_kernel_split_sizes(0, 1, s7, 3, NULL, sz, err, sizeof err) && sz[0] == 3 && sz[1] == 3 && sz[2] == 1,
        "uneven split");
  CHECK(nc_kernel_split_sizes(-1, 2, s6, 3, NULL, sz, err, sizeof err) && sz[0] == 2 && sz[2] == 2, "even split");
  int64_t bad[2] = {3, 3};
  CHECK(!nc_kernel_split_sizes(0, 1, s7, 2, bad, sz, err, sizeof err), "split sizes 3+3 of 7 accepted");
  int64_t sz8[9];
  CHECK(nc_kernel_split_sizes(0, 1, s7, 8, NULL, sz8, err, sizeof err) && sz8[6] == 1 && sz8[7] == 0,
        "8 parts of 7: seven of 1, then an empty one (as ONNX's reference)");
  CHECK(!nc_kernel_split_sizes(0, 1, s7, 9, NULL, sz8, err, sizeof err), "9 parts of 7 accepted");
  /* dims near 2^63 must not overflow ceil(dim / n) or part * (n - 1) */
  int64_t huge[1] = {INT64_MAX}, neg[1] = {-4};
  CHECK(nc_kernel_split_sizes(0, 1, huge, 2, NULL, sz, err, sizeof err) && sz[0] == INT64_MAX / 2 + 1 &&
            sz[1] == INT64_MAX / 2,
        "2 parts of INT64_MAX: %s", err);
  CHECK(nc_kernel_split_sizes(0, 1, huge, 3, NULL, sz, err, sizeof err) && sz[0] + sz[1] + sz[2] == INT64_MAX,
        "3 parts of INT64_MAX: %s", err);
  CHECK(!nc_kernel_split_sizes(0, 1, neg, 2, NULL, sz, err, sizeof err), "negative dim accepted");
  int64_t big_split[2] = {INT64_MAX, 1};
  CHECK(!nc_kernel_split_sizes(0, 1, huge, 2, big_split, sz, err, sizeof err), "sizes past INT64_MAX accepted");
  int64_t a3[2] = {2, 3}, b3[2] = {3, 3};
  const int64_t *mism[2] = {a3, b3};
  int64_t ys[2];
  CHECK(!nc_kernel_concat_shape(1, 2, 2, mism, ys, err, sizeof err), "concat of [2,3] and [3,3] on axis 1 accepted");
  CHECK(!nc_kernel_concat_shape(2, 2, 2, mism, ys, err, sizeof err), "concat axis 2 of rank 2 accepted");
}

/* --- slice ---------------------------------------------------------------------------- */

/* Indices a slice selects along one dim, by walking from the clamped start. */
static int64_t slice_indices(int64_t dim, int64_t s, int64_t e, int64_t st, int64_t *out)
{
  if (s < 0)
    s += dim;
  if (e < 0)
    e += dim;
  if (st > 0) {
    s = s < 0 ? 0 : s > dim ? dim : s;
    e = e < 0 ? 0 : e > dim ? dim : e;
  } else {
    s = s < 0 ? 0 : s > dim - 1 ? dim - 1 : s;
    e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
  }
  int64_t n = 0;
  for (int64_t i = s; (st > 0 ? i < e : i > e) && i >= 0 && i < dim; i += st)
    out[n++] = i;
  return n;
}

static void test_slice_random(void)
{
  char err[256];
  for (int it = 0; it < 300; it++) {
    int rank = (int)rnd_in(1, 4);
    int64_t xs[4], starts[4], ends[4], axes[4], steps[4];
    for (int d = 0; d < rank; d++)
      xs[d] = rnd_in(0, 6);
    int n = (int)rnd_in(0, rank);
    int perm[4] = {0, 1, 2, 3};
    for (int i = rank - 1; i > 0; i--) {
      int j = (int)rnd_in(0, i), t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    for (int i = 0; i < n; i++) {
      axes[i] = rnd_in(0, 1) ? perm[i] : perm[i] - rank;
      starts[i] = rnd_in(0, 9) == 0 ? INT64_MIN : rnd_in(-9, 9);
      ends[i] = rnd_in(0, 9) == 0 ? INT64_MAX : rnd_in(0, 9) == 0 ? INT64_MIN : rnd_in(-9, 9);
      steps[i] = rnd_in(0, 1) ? rnd_in(1, 3) : -rnd_in(1, 3);
    }
    nc_slice_params p = {n, starts, ends, axes, steps};
    int64_t ys[4], idx[4][16], len[4];
    for (int d = 0; d < rank; d++) {
      len[d] = xs[d];
      for (int64_t i = 0; i < xs[d]; i++)
        idx[d][i] = i;
    }
    for (int i = 0; i < n; i++) {
      int a = (int)(axes[i] < 0 ? axes[i] + rank : axes[i]);
      len[a] = slice_indices(xs[a], starts[i], ends[i], steps[i], idx[a]);
    }
    if (!nc_kernel_slice_shape(&p, rank, xs, ys, err, sizeof err)) {
      CHECK(0, "slice shape: %s", err);
      continue;
    }
    CHECK(!memcmp(ys, len, (size_t)rank * 8), "slice shape iter %d", it);
    nc_tensor *x = make_iota(NC_DT_I32, rank, xs), *y = make(NC_DT_I32, rank, ys);
    CHECK(nc_kernel_slice(&p, x, y, err, sizeof err), "slice: %s", err);
    for (int64_t i = 0; i < nc_tensor_num_elements(y); i++) {
      int64_t c[4], xc[4];
      unravel(i, rank, ys, c);
      for (int d = 0; d < rank; d++)
        xc[d] = idx[d][c[d]];
      if (!elem_eq(y, i, x, ravel(rank, xs, xc))) {
        CHECK(0, "slice iter %d elem %lld", it, (long long)i);
        break;
      }
    }
    nc_tensor_destroy(x);
    nc_tensor_destroy(y);
  }
}

static void expect_slice_shape(const char *what, int n, const int64_t *starts, const int64_t *ends,
                               const int64_t *axes, const int64_t *steps, const int64_t *want)
{
  char err[256];
  int64_t xs[3] = {20, 10, 5}, ys[3];
  nc_slice_params p = {n, starts, ends, axes, steps};
  CHECK(nc_kernel_slice_shape(&p, 3, xs, ys, err, sizeof err), "%s: %s", what, err);
  CHECK(!memcmp(ys, want, sizeof ys), "%s: got [%lld,%lld,%lld]", what, (long long)ys[0], (long long)ys[1],
        (long long)ys[2]);
}

static void test_slice_examples(void)
{
  char err[256];
  expect_slice_shape("slice", 2, (int64_t[]){0, 0}, (int64_t[]){3, 10}, (int64_t[]){0, 1}, (int64_t[]){1, 1},
                     (int64_t[]){3, 10, 5});
  expect_slice_shape("slice_neg", 1, (int64_t[]){0}, (int64_t[]){-1}, (int64_t[]){1}, (int64_t[]){1},
                     (int64_t[]){20, 9, 5});
  expect_slice_shape("slice_neg_steps", 3, (int64_t[]){20, 10, 4}, (int64_t[]){0, 0, 1}, (int64_t[]){0, 1, 2},
                     (int64_t[]){-1, -3, -2}, (int64_t[]){19, 3, 2});
  expect_slice_shape("slice_negative_axes", 3, (int64_t[]){0, 0, 3}, (int64_t[]){20, 10, 4},
                     (int64_t[]){0, -2, -1}, NULL, (int64_t[]){20, 10, 1});
  expect_slice_shape("slice_end_out_of_bounds", 1, (int64_t[]){1}, (int64_t[]){1000}, (int64_t[]){1}, NULL,
                     (int64_t[]){20, 9, 5});
  expect_slice_shape("slice_start_out_of_bounds", 1, (int64_t[]){1000}, (int64_t[]){1000}, (int64_t[]){1}, NULL,
                     (int64_t[]){20, 0, 5});
  expect_slice_shape("slice_default_axes", 3, (int64_t[]){0, 0, 3}, (int64_t[]){20, 10, 4}, NULL, NULL,
                     (int64_t[]){20, 10, 1});
  expect_slice_shape("full reverse (INT64_MIN end)", 1, (int64_t[]){-1}, (int64_t[]){INT64_MIN}, (int64_t[]){0},
                     (int64_t[]){-1}, (int64_t[]){20, 10, 5});
  expect_slice_shape("huge step", 1, (int64_t[]){0}, (int64_t[]){INT64_MAX}, (int64_t[]){0}, (int64_t[]){INT64_MAX},
                     (int64_t[]){1, 10, 5});
  /* values of a reversed stride-2 slice: x[4:0:-2] of 0..5 is {4, 2} */
  int64_t s6[1] = {6}, s2[1] = {2};
  nc_tensor *x = make(NC_DT_I16, 1, s6), *y = make(NC_DT_I16, 1, s2);
  for (int i = 0; i < 6; i++)
    nc_tensor_set_i64(x, i, i);
  nc_slice_params p = {1, (int64_t[]){4}, (int64_t[]){0}, NULL, (int64_t[]){-2}};
  CHECK(nc_kernel_slice(&p, x, y, err, sizeof err) && nc_tensor_get_i64(y, 0) == 4 && nc_tensor_get_i64(y, 1) == 2,
        "x[4:0:-2]");
  nc_slice_params zero = {1, (int64_t[]){0}, (int64_t[]){1}, NULL, (int64_t[]){0}};
  CHECK(!nc_kernel_slice(&zero, x, y, err, sizeof err), "step 0 accepted");
  nc_slice_params rep = {2, (int64_t[]){0, 0}, (int64_t[]){1, 1}, (int64_t[]){0, -1}, NULL};
  CHECK(!nc_kernel_slice(&rep, x, y, err, sizeof err), "repeated axis accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
}

/* --- reshape family ------------------------------------------------------------------------ */

static void expect_reshape(const char *what, int rank, const int64_t *xs, int n, const int64_t *shape, bool allowzero,
                           const int64_t *want)
{
  char err[256];
  int64_t ys[8];
  bool ok = nc_kernel_reshape_shape(rank, xs, n, shape, allowzero, ys, err, sizeof err);
  if (!want) {
    CHECK(!ok, "%s: accepted", what);
    return;
  }
  CHECK(ok && !memcmp(ys, want, (size_t)n * 8), "%s: %s", what, ok ? "wrong shape" : err);
}

static void test_reshape_family(void)
{
  char err[256];
  int64_t x234[3] = {2, 3, 4};
  expect_reshape("reordered_all_dims", 3, x234, 3, (int64_t[]){4, 2, 3}, false, (int64_t[]){4, 2, 3});
  expect_reshape("reduced_dims", 3, x234, 2, (int64_t[]){2, 12}, false, (int64_t[]){2, 12});
  expect_reshape("extended_dims", 3, x234, 4, (int64_t[]){2, 3, 2, 2}, false, (int64_t[]){2, 3, 2, 2});
  expect_reshape("one_dim", 3, x234, 1, (int64_t[]){24}, false, (int64_t[]){24});
  expect_reshape("negative_dim", 3, x234, 3, (int64_t[]){2, -1, 2}, false, (int64_t[]){2, 6, 2});
  expect_reshape("negative_extended_dims", 3, x234, 4, (int64_t[]){-1, 2, 3, 4}, false, (int64_t[]){1, 2, 3, 4});
  expect_reshape("zero_dim", 3, x234, 4, (int64_t[]){2, 0, 4, 1}, false, (int64_t[]){2, 3, 4, 1});
  expect_reshape("zero_and_negative_dim", 3, x234, 4, (int64_t[]){2, 0, 1, -1}, false, (int64_t[]){2, 3, 1, 4});
  int64_t x034[3] = {0, 3, 4};
  expect_reshape("allowzero_reordered", 3, x034, 3, (int64_t[]){3, 4, 0}, true, (int64_t[]){3, 4, 0});
  expect_reshape("two -1", 3, x234, 3, (int64_t[]){-1, -1, 4}, false, NULL);
  expect_reshape("bad count", 3, x234, 2, (int64_t[]){5, 5}, false, NULL);
  expect_reshape("allowzero with 0 and -1", 3, x034, 2, (int64_t[]){0, -1}, true, NULL);
  expect_reshape("0 past the input rank", 1, (int64_t[]){6}, 2, (int64_t[]){6, 0}, false, NULL);
  expect_reshape("-2", 3, x234, 2, (int64_t[]){-2, -12}, false, NULL);
  /* the data copy */
  int64_t s24[1] = {24};
  nc_tensor *x = make_iota(NC_DT_F32, 3, x234), *y = make(NC_DT_F32, 1, s24);
  CHECK(nc_kernel_reshape(x, y, err, sizeof err) && !memcmp(x->data, y->data, 96), "reshape copy");
  nc_tensor *bad = make(NC_DT_F32, 1, (int64_t[]){23});
  CHECK(!nc_kernel_reshape(x, bad, err, sizeof err), "reshape to 23 elements accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
  nc_tensor_destroy(bad);
  /* flatten */
  int64_t f[2];
  CHECK(nc_kernel_flatten_shape(0, 3, x234, f, err, sizeof err) && f[0] == 1 && f[1] == 24, "flatten axis 0");
  CHECK(nc_kernel_flatten_shape(3, 3, x234, f, err, sizeof err) && f[0] == 24 && f[1] == 1, "flatten axis 3");
  CHECK(nc_kernel_flatten_shape(-1, 3, x234, f, err, sizeof err) && f[0] == 6 && f[1] == 4, "flatten axis -1");
  CHECK(!nc_kernel_flatten_shape(4, 3, x234, f, err, sizeof err), "flatten axis 4 accepted");
  /* squeeze / unsqueeze */
  int64_t s[8];
  int r;
  int64_t x1[4] = {1, 3, 1, 5};
  CHECK(nc_kernel_squeeze_shape(0, NULL, 4, x1, &r, s, err, sizeof err) && r == 2 && s[0] == 3 && s[1] == 5,
        "squeeze all");
  CHECK(nc_kernel_squeeze_shape(1, (int64_t[]){-2}, 4, x1, &r, s, err, sizeof err) && r == 3 && s[2] == 5,
        "squeeze -2");
  CHECK(!nc_kernel_squeeze_shape(1, (int64_t[]){1}, 4, x1, &r, s, err, sizeof err), "squeeze of a dim of 3 accepted");
  int64_t x345[3] = {3, 4, 5};
  CHECK(nc_kernel_unsqueeze_shape(2, (int64_t[]){0, 4}, 3, x345, &r, s, err, sizeof err) && r == 5 && s[0] == 1 &&
            s[1] == 3 && s[4] == 1,
        "unsqueeze [0, 4]");
  CHECK(nc_kernel_unsqueeze_shape(2, (int64_t[]){-1, 1}, 3, x345, &r, s, err, sizeof err) && r == 5 && s[1] == 1 &&
            s[4] == 1 && s[2] == 4,
        "unsqueeze negative");
  CHECK(!nc_kernel_unsqueeze_shape(2, (int64_t[]){1, 1}, 3, x345, &r, s, err, sizeof err), "duplicate accepted");
  CHECK(!nc_kernel_unsqueeze_shape(1, (int64_t[]){5}, 3, x345, &r, s, err, sizeof err), "axis 5 accepted");
}

/* --- transpose ---------------------------------------------------------------------------------- */

static void test_transpose(void)
{
  char err[256];
  for (int it = 0; it < 200; it++) {
    int rank = (int)rnd_in(0, 5);
    int64_t xs[5], perm[5], ys[5];
    for (int d = 0; d < rank; d++) {
      xs[d] = rnd_in(1, 4);
      perm[d] = d;
    }
    for (int i = rank - 1; i > 0; i--) {
      int j = (int)rnd_in(0, i);
      int64_t t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    bool dflt = rnd_in(0, 3) == 0;
    const int64_t *pp = dflt ? NULL : perm;
    if (dflt)
      for (int d = 0; d < rank; d++)
        perm[d] = rank - 1 - d;
    nc_dtype dt = it % 2 ? NC_DT_U16 : NC_DT_F64;
    CHECK(nc_kernel_transpose_shape(pp, rank, xs, ys, err, sizeof err), "transpose shape: %s", err);
    nc_tensor *x = make_iota(dt, rank, xs), *y = make(dt, rank, ys);
    CHECK(nc_kernel_transpose(pp, x, y, err, sizeof err), "transpose: %s", err);
    for (int64_t i = 0; i < nc_tensor_num_elements(y); i++) {
      int64_t c[5], xc[5];
      unravel(i, rank, ys, c);
      for (int d = 0; d < rank; d++)
        xc[perm[d]] = c[d];
      if (!elem_eq(y, i, x, ravel(rank, xs, xc))) {
        CHECK(0, "transpose iter %d elem %lld", it, (long long)i);
        break;
      }
    }
    nc_tensor_destroy(x);
    nc_tensor_destroy(y);
  }
  int64_t xs[2] = {2, 3}, ys[2];
  CHECK(!nc_kernel_transpose_shape((int64_t[]){0, 0}, 2, xs, ys, err, sizeof err), "perm [0,0] accepted");
  CHECK(!nc_kernel_transpose_shape((int64_t[]){0, 2}, 2, xs, ys, err, sizeof err), "perm [0,2] accepted");
}

/* --- pad ------------------------------------------------------------------------------------------ */

/* Source index of output position o along one dim, by the crop-then-extend rule. */
static int64_t pad_ref_index(nc_pad_mode mode, int64_t o, int64_t pb, int64_t dim, int64_t pe)
{
  int64_t cb = pb < 0 ? -pb : 0, len = dim - cb - (pe < 0 ? -pe : 0);
  int64_t q = o - (pb > 0 ? pb : 0);
  if (q >= 0 && q < len)
    return cb + q;
  switch (mode) {
  case NC_PAD_EDGE: return cb + (q < 0 ? 0 : len - 1);
  case NC_PAD_WRAP:
    while (q < 0)
      q += len;
    while (q >= len)
      q -= len;
    return cb + q;
  case NC_PAD_REFLECT:
    if (len == 1)
      return cb;
    while (q < 0 || q >= len) /* bounce off both edges */
      q = q < 0 ? -q : 2 * (len - 1) - q;
    return cb + q;
  default: return -1;
  }
}

static void test_pad_random(void)
{
  char err[256];
  for (int it = 0; it < 300; it++) {
    nc_pad_mode mode = (nc_pad_mode)rnd_in(0, 3);
    int rank = (int)rnd_in(1, 4);
    int64_t xs[4], pads[8], axes[4], pb[4] = {0}, pe[4] = {0}, ys[4];
    for (int d = 0; d < rank; d++)
      xs[d] = rnd_in(1, 5);
    bool use_axes = rnd_in(0, 1);
    int na = use_axes ? (int)rnd_in(1, rank) : rank;
    for (int i = 0; i < na; i++) {
      int a = use_axes ? (int)((rank - 1 - i + it) % rank) : i;
      axes[i] = rnd_in(0, 1) ? a : a - rank;
      int64_t dim = xs[a];
      pads[i] = rnd_in(-(dim - 1) / 2, 7);
      pads[na + i] = rnd_in(-(dim - 1) / 2, 7);
      pb[a] = pads[i];
      pe[a] = pads[na + i];
    }
    nc_pad_params p = {mode, use_axes ? na : 0, use_axes ? axes : NULL, pads};
    if (!nc_kernel_pad_shape(&p, rank, xs, ys, err, sizeof err)) {
      CHECK(0, "pad shape: %s", err);
      continue;
    }
    nc_tensor *x = make_iota(NC_DT_I32, rank, xs), *y = make(NC_DT_I32, rank, ys), *v = make(NC_DT_I32, 0, NULL);
    nc_tensor_set_i64(v, 0, -99);
    CHECK(nc_kernel_pad(&p, x, v, y, err, sizeof err), "pad: %s", err);
    for (int64_t i = 0; i < nc_tensor_num_elements(y); i++) {
      int64_t c[4], xc[4];
      bool constant = false;
      unravel(i, rank, ys, c);
      for (int d = 0; d < rank; d++) {
        xc[d] = pad_ref_index(mode, c[d], pb[d], xs[d], pe[d]);
        constant |= xc[d] < 0;
      }
      int64_t want = constant ? -99 : nc_tensor_get_i64(x, ravel(rank, xs, xc));
      if (nc_tensor_get_i64(y, i) != want) {
        CHECK(0, "pad mode %d iter %d elem %lld: got %lld want %lld", (int)mode, it, (long long)i,
              (long long)nc_tensor_get_i64(y, i), (long long)want);
        break;
      }
    }
    nc_tensor_destroy(x);
    nc_tensor_destroy(y);
    nc_tensor_destroy(v);
  }
}

static void expect_pad(const char *what, nc_pad_mode mode, const int64_t *pads, int64_t oh, int64_t ow,
                       const float *want)
{
  char err[256];
  static const float xv[6] = {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f};
  int64_t xs[2] = {3, 2}, ys[2];
  nc_pad_params p = {mode, 0, NULL, pads};
  CHECK(nc_kernel_pad_shape(&p, 2, xs, ys, err, sizeof err) && ys[0] == oh && ys[1] == ow, "%s shape", what);
  nc_tensor *x = make(NC_DT_F32, 2, xs), *y = make(NC_DT_F32, 2, ys);
  memcpy(x->data, xv, sizeof xv);
  CHECK(nc_kernel_pad(&p, x, NULL, y, err, sizeof err), "%s: %s", what, err);
  for (int64_t i = 0; i < oh * ow; i++)
    CHECK(((float *)y->data)[i] == want[i], "%s elem %lld: %g want %g", what, (long long)i, ((float *)y->data)[i],
          want[i]);
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
}

static void test_pad_examples(void)
{
  char err[256];
  int64_t p0200[4] = {0, 2, 0, 0};
  expect_pad("constant_pad", NC_PAD_CONSTANT, p0200, 3, 4,
             (const float[]){0, 0, 1.0f, 1.2f, 0, 0, 2.3f, 3.4f, 0, 0, 4.5f, 5.7f});
  expect_pad("reflect_pad", NC_PAD_REFLECT, p0200, 3, 4,
             (const float[]){1.0f, 1.2f, 1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f, 4.5f, 5.7f});
  expect_pad("edge_pad", NC_PAD_EDGE, p0200, 3, 4,
             (const float[]){1.0f, 1.0f, 1.0f, 1.2f, 2.3f, 2.3f, 2.3f, 3.4f, 4.5f, 4.5f, 4.5f, 5.7f});
  expect_pad("wrap_pad", NC_PAD_WRAP, (const int64_t[]){2, 1, 1, 1}, 6, 4,
             (const float[]){3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f,
                             3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f});
  /* reflect longer than the dim, as numpy: [1,2,3] padded (5, 0) is 2 1 2 3 2 1 2 3 */
  int64_t s3[1] = {3}, s8[1] = {8};
  nc_tensor *x = make(NC_DT_I8, 1, s3), *y = make(NC_DT_I8, 1, s8);
  for (int i = 0; i < 3; i++)
    nc_tensor_set_i64(x, i, i + 1);
  nc_pad_params p = {NC_PAD_REFLECT, 0, NULL, (int64_t[]){5, 0}};
  CHECK(nc_kernel_pad(&p, x, NULL, y, err, sizeof err), "%s", err);
  static const int8_t want[8] = {2, 1, 2, 3, 2, 1, 2, 3};
  CHECK(!memcmp(y->data, want, 8), "long reflect");
  /* negative pads crop: [1,2,3] with (-1, 2) edge is 2 3 3 3 */
  nc_tensor *y4 = make(NC_DT_I8, 1, (int64_t[]){4});
  nc_pad_params crop = {NC_PAD_EDGE, 0, NULL, (int64_t[]){-1, 2}};
  CHECK(nc_kernel_pad(&crop, x, NULL, y4, err, sizeof err), "%s", err);
  static const int8_t want4[4] = {2, 3, 3, 3};
  CHECK(!memcmp(y4->data, want4, 4), "crop then edge");
  nc_pad_params over = {NC_PAD_CONSTANT, 0, NULL, (int64_t[]){-2, -2}};
  int64_t ys[1];
  CHECK(!nc_kernel_pad_shape(&over, 1, s3, ys, err, sizeof err), "cropping 4 of 3 accepted");
  nc_pad_params empty = {NC_PAD_REFLECT, 0, NULL, (int64_t[]){1, 0}};
  int64_t s0[1] = {0};
  CHECK(!nc_kernel_pad_shape(&empty, 1, s0, ys, err, sizeof err), "reflect-padding an empty dim accepted");
  nc_tensor *v = make(NC_DT_F32, 0, NULL);
  nc_pad_params c1 = {NC_PAD_CONSTANT, 0, NULL, (int64_t[]){1, 0}};
  nc_tensor *y4b = make(NC_DT_I8, 1, (int64_t[]){4});
  CHECK(!nc_kernel_pad(&c1, x, v, y4b, err, sizeof err), "constant of another dtype accepted");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
  nc_tensor_destroy(y4);
  nc_tensor_destroy(y4b);
  nc_tensor_destroy(v);
}

int main(void)
{
  test_concat_split();
  test_slice_random();
  test_slice_examples();
  test_reshape_family();
  test_transpose();
  test_pad_random();
  test_pad_examples();
  return kernels_test_report("kernels_shape_test");
}
