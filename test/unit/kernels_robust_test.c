/* kernels_robust_test.c: bad input never crashes a kernel.
 *
 * Every kernel gets seeded random attributes (zero, negative, huge), random
 * small shapes, mismatched dtypes and outputs of random shapes, missing
 * operands and NULL parameter structs. Each call must either succeed or
 * return false with a message; run under ASan/UBSan this also checks that
 * nothing reads or writes out of bounds. When a call succeeds on a random
 * output shape, that shape must be the one the shape function returns.
 */
#define KERNELS_TEST_SEED 0x5851F42D4C957F2DULL
#include "kernels_test_util.h"

/* An attribute value: mostly sensible, sometimes zero, negative or huge. */
static int64_t wild(int64_t lo, int64_t hi)
{
  switch (rnd_in(0, 9)) {
  case 0: return 0;
  case 1: return -rnd_in(1, 3);
  case 2: return rnd_in(0, 1) ? INT64_MAX : INT64_MIN;
  case 3: return rnd_in(0, 1) ? INT64_MAX / 3 : (int64_t)1 << 40;
  default: return rnd_in(lo, hi);
  }
}

static nc_tensor *rand_tensor(nc_dtype dt, int rank, int64_t maxdim)
{
  int64_t s[8];
  for (int i = 0; i < rank; i++)
    s[i] = rnd_in(0, 9) == 0 ? 0 : rnd_in(1, maxdim);
  nc_tensor *t = nc_tensor_create(dt, rank, s, 0);
  for (int64_t i = 0; i < nc_tensor_num_elements(t); i++)
    nc_tensor_set_i64(t, i, rnd_in(-3, 3));
  return t;
}

static nc_dtype rand_dtype(void)
{
  static const nc_dtype dts[] = {NC_DT_F32, NC_DT_F32, NC_DT_F32, NC_DT_F64, NC_DT_F16, NC_DT_I8,
                                 NC_DT_U8,  NC_DT_I32, NC_DT_I64, NC_DT_BOOL, NC_DT_I4};
  return dts[rnd_in(0, (int64_t)(sizeof dts / sizeof dts[0]) - 1)];
}

/* Output candidates: the shape the shape function predicts (if any), or a random one. */
static nc_tensor *out_for(nc_dtype dt, bool have, int rank, const int64_t *shape)
{
  if (have && rnd_in(0, 3)) {
    int64_t n = 1;
    for (int i = 0; i < rank; i++) {
      if (shape[i] < 0 || shape[i] > 4096)
        return rand_tensor(dt, rank, 4);
      n *= shape[i];
      if (n > (1 << 20))
        return rand_tensor(dt, rank, 4);
    }
    return nc_tensor_create(rnd_in(0, 5) ? dt : rand_dtype(), rank, shape, 0);
  }
  return rand_tensor(dt, rank < 0 ? 0 : rank, 4);
}

static void expect_message(bool ok, const char *err, const char *what)
{
  if (!ok)
    CHECK(err[0] != 0, "%s failed without a message", what);
}

static void fuzz_conv(void)
{
  char err[256];
  for (int it = 0; it < 3000; it++) {
    err[0] = 0;
    int rank = (int)rnd_in(1, 6);
    nc_dtype dt = rnd_in(0, 3) ? NC_DT_F32 : rand_dtype();
    nc_tensor *x = rand_tensor(dt, rank, 6), *w = rand_tensor(rnd_in(0, 5) ? dt : rand_dtype(), rank, 4);
    nc_conv_params p = {.group = wild(1, 3), .auto_pad = (nc_auto_pad)rnd_in(0, 4)};
    for (int i = 0; i < 3; i++) {
      p.strides[i] = wild(1, 3);
      p.dilations[i] = wild(1, 2);
      p.pads[i] = wild(0, 2);
      p.pads[3 + i] = wild(0, 2);
      p.kernel_shape[i] = rnd_in(0, 3) ? 0 : wild(1, 3);
    }
    if (rnd_in(0, 3) == 0 && x->rank >= 2) { /* make channels consistent sometimes */
      int64_t ws[8];
      memcpy(ws, w->shape, sizeof ws);
      ws[1] = x->shape[1];
      nc_tensor_destroy(w);
      w = nc_tensor_create(x->dtype, rank, ws, 0);
      p.group = 1;
    }
    int64_t ys[8];
    bool have = nc_kernel_conv_shape(&p, rank, x->shape, w->shape, ys, err, sizeof err);
    expect_message(have, err, "conv_shape");
    nc_tensor *y = out_for(dt, have, rank, ys), *b = rnd_in(0, 1) ? rand_tensor(dt, 1, 4) : NULL;
    bool ok = nc_kernel_conv(rnd_in(0, 20) ? &p : NULL, x, w, b, y, err, sizeof err);
    expect_message(ok, err, "conv");
    if (ok)
      CHECK(have && !memcmp(y->shape, ys, (size_t)rank * 8), "conv accepted an output its shape function rejects");
    nc_conv_transpose_params tp = {.group = p.group, .auto_pad = p.auto_pad, .has_output_shape = rnd_in(0, 3) == 0};
    for (int i = 0; i < 3; i++) {
      tp.strides[i] = p.strides[i];
      tp.dilations[i] = p.dilations[i];
      tp.pads[i] = p.pads[i];
      tp.pads[3 + i] = p.pads[3 + i];
      tp.output_padding[i] = wild(0, 1);
      tp.output_shape[i] = wild(1, 9);
    }
    have = nc_kernel_conv_transpose_shape(&tp, rank, x->shape, w->shape, ys, err, sizeof err);
    nc_tensor *y2 = out_for(dt, have, rank, ys);
    ok = nc_kernel_conv_transpose(&tp, x, w, b, y2, err, sizeof err);
    expect_message(ok, err, "conv_transpose");
    nc_tensor *xi = rand_tensor(rnd_in(0, 1) ? NC_DT_U8 : NC_DT_I8, rank, 6), *wi = rand_tensor(NC_DT_I8, rank, 4);
    have = nc_kernel_conv_shape(&p, rank, xi->shape, wi->shape, ys, err, sizeof err);
    nc_tensor *y3 = out_for(NC_DT_I32, have, rank, ys);
    ok = nc_kernel_conv_integer(&p, xi, wi, NULL, rnd_in(0, 1) ? wi : NULL, y3, err, sizeof err);
    expect_message(ok, err, "conv_integer");
    nc_tensor_destroy(x);
    nc_tensor_destroy(w);
    nc_tensor_destroy(y);
    nc_tensor_destroy(b);
    nc_tensor_destroy(y2);
    nc_tensor_destroy(xi);
    nc_tensor_destroy(wi);
    nc_tensor_destroy(y3);
  }
}

static void fuzz_pool_reduce(void)
{
  char err[256];
  for (int it = 0; it < 3000; it++) {
    err[0] = 0;
    int rank = (int)rnd_in(0, 6);
    nc_dtype dt = rnd_in(0, 2) ? NC_DT_F32 : rand_dtype();
    nc_tensor *x = rand_tensor(dt, rank, 6);
    nc_pool_params p = {.auto_pad = (nc_auto_pad)rnd_in(0, 4), .ceil_mode = rnd_in(0, 1),
                        .count_include_pad = rnd_in(0, 1)};
    for (int i = 0; i < 3; i++) {
      p.kernel_shape[i] = wild(1, 3);
      p.strides[i] = wild(1, 3);
      p.dilations[i] = wild(1, 2);
      p.pads[i] = wild(0, 2);
      p.pads[3 + i] = wild(0, 2);
    }
    int64_t ys[8];
    bool have = nc_kernel_pool_shape(&p, rank, x->shape, ys, err, sizeof err);
    nc_tensor *y = out_for(dt, have, rank, ys);
    bool ok = rnd_in(0, 1) ? nc_kernel_max_pool(&p, x, y, err, sizeof err) : nc_kernel_avg_pool(&p, x, y, err, sizeof err);
    expect_message(ok, err, "pool");
    nc_tensor_destroy(y);
    have = nc_kernel_global_pool_shape(rank, x->shape, ys, err, sizeof err);
    y = out_for(dt, have, rank, ys);
    expect_message(nc_kernel_global_avg_pool(x, y, err, sizeof err), err, "global_avg_pool");
    expect_message(nc_kernel_global_max_pool(x, y, err, sizeof err), err, "global_max_pool");
    nc_tensor_destroy(y);
    int64_t axes[4] = {wild(-3, 3), wild(-3, 3), wild(-3, 3), wild(-3, 3)};
    nc_reduce_params rp = {(int)rnd_in(0, 4), axes, rnd_in(0, 1), rnd_in(0, 1)};
    int yr;
    have = nc_kernel_reduce_shape(&rp, rank, x->shape, &yr, ys, err, sizeof err);
    y = out_for(dt, have, have ? yr : rank, ys);
    ok = nc_kernel_reduce((nc_reduce_op)rnd_in(0, 10), &rp, x, y, err, sizeof err);
    expect_message(ok, err, "reduce");
    nc_tensor_destroy(y);
    y = out_for(dt, true, rank, x->shape);
    nc_softmax_params sp = {wild(-2, 2), rnd_in(0, 1)};
    expect_message(nc_kernel_softmax(&sp, x, y, err, sizeof err), err, "softmax");
    nc_lrn_params lp = {1e-4, 0.75, 1, wild(1, 5)};
    expect_message(nc_kernel_lrn(&lp, x, y, err, sizeof err), err, "lrn");
    nc_tensor *c = rand_tensor(dt, 1, 4);
    expect_message(nc_kernel_batch_norm(1e-5, x, c, c, c, c, y, err, sizeof err), err, "batch_norm");
    expect_message(nc_kernel_instance_norm(1e-5, x, c, c, y, err, sizeof err), err, "instance_norm");
    nc_unary_params up = nc_unary_params_default(NC_UNARY_ELU);
    expect_message(nc_kernel_unary((nc_unary_op)rnd_in(0, NC_UNARY_COUNT), &up, x, y, err, sizeof err), err,
                   "unary");
    expect_message(nc_kernel_clip(x, rnd_in(0, 1) ? c : NULL, NULL, y, err, sizeof err), err, "clip");
    nc_tensor_destroy(c);
    nc_tensor_destroy(y);
    nc_tensor_destroy(x);
  }
}

static void fuzz_binary_matmul(void)
{
  char err[256];
  for (int it = 0; it < 3000; it++) {
    err[0] = 0;
    nc_dtype dt = rand_dtype();
    nc_tensor *a = rand_tensor(dt, (int)rnd_in(0, 4), 4), *b = rand_tensor(rnd_in(0, 5) ? dt : rand_dtype(), (int)rnd_in(0, 4), 4);
    int yr;
    int64_t ys[8];
    bool have = nc_kernel_broadcast_shape(a->rank, a->shape, b->rank, b->shape, &yr, ys, err, sizeof err);
    nc_tensor *y = out_for(dt, have, have ? yr : a->rank, ys);
    expect_message(nc_kernel_binary((nc_binary_op)rnd_in(0, 10), a, b, y, err, sizeof err), err, "binary");
    const nc_tensor *xs[2] = {a, b};
    expect_message(nc_kernel_variadic((nc_variadic_op)rnd_in(0, 4), (int)rnd_in(0, 2), xs, y, err, sizeof err), err,
                   "variadic");
    expect_message(nc_kernel_expand(a, y, err, sizeof err), err, "expand");
    nc_tensor_destroy(y);
    have = nc_kernel_matmul_shape(a->rank, a->shape, b->rank, b->shape, &yr, ys, err, sizeof err);
    y = out_for(dt, have, have ? yr : 2, ys);
    expect_message(nc_kernel_matmul(a, b, y, err, sizeof err), err, "matmul");
    nc_tensor_destroy(y);
    y = out_for(NC_DT_I32, have, have ? yr : 2, ys);
    expect_message(nc_kernel_matmul_integer(a, b, NULL, NULL, y, err, sizeof err), err, "matmul_integer");
    nc_tensor_destroy(y);
    nc_gemm_params gp = {1, 1, rnd_in(0, 1), rnd_in(0, 1)};
    if (a->rank == 2 && b->rank == 2) {
      have = nc_kernel_gemm_shape(&gp, a->shape, b->shape, -1, NULL, ys, err, sizeof err);
      y = out_for(dt, have, 2, ys);
      expect_message(nc_kernel_gemm(&gp, a, b, rnd_in(0, 1) ? b : NULL, y, err, sizeof err), err, "gemm");
      nc_tensor_destroy(y);
    }
    nc_tensor_destroy(a);
    nc_tensor_destroy(b);
  }
}

static void fuzz_shape_ops(void)
{
  char err[256];
  for (int it = 0; it < 4000; it++) {
    err[0] = 0;
    int rank = (int)rnd_in(0, 5);
    nc_dtype dt = rand_dtype();
    nc_tensor *x = rand_tensor(dt, rank, 5);
    int64_t v1[16], v2[16], v3[16], v4[16], ys[16];
    for (int i = 0; i < 16; i++) {
      v1[i] = wild(-5, 5);
      v2[i] = wild(-5, 5);
      v3[i] = wild(-4, 4);
      v4[i] = wild(-3, 3);
    }
    int n = (int)rnd_in(0, rank + 1);
    nc_slice_params sp = {n, v1, v2, rnd_in(0, 1) ? v3 : NULL, rnd_in(0, 1) ? v4 : NULL};
    bool have = nc_kernel_slice_shape(&sp, rank, x->shape, ys, err, sizeof err);
    nc_tensor *y = out_for(dt, have, rank, ys);
    expect_message(nc_kernel_slice(&sp, x, y, err, sizeof err), err, "slice");
    nc_tensor_destroy(y);
    nc_pad_params pp = {(nc_pad_mode)rnd_in(0, 4), (int)rnd_in(0, rank), v3, v1};
    have = nc_kernel_pad_shape(&pp, rank, x->shape, ys, err, sizeof err);
    y = out_for(dt, have, rank, ys);
    expect_message(nc_kernel_pad(&pp, x, rnd_in(0, 1) ? x : NULL, y, err, sizeof err), err, "pad");
    nc_tensor_destroy(y);
    have = nc_kernel_transpose_shape(rnd_in(0, 1) ? v4 : NULL, rank, x->shape, ys, err, sizeof err);
    y = out_for(dt, have, rank, ys);
    expect_message(nc_kernel_transpose(rnd_in(0, 1) ? v4 : NULL, x, y, err, sizeof err), err, "transpose");
    nc_tensor_destroy(y);
    int64_t sizes[8];
    int parts = (int)rnd_in(0, 4);
    have = nc_kernel_split_sizes(v4[0], rank, x->shape, parts, rnd_in(0, 1) ? v2 : NULL, sizes, err, sizeof err);
    nc_tensor *outs[4] = {0};
    for (int i = 0; i < parts; i++) {
      int64_t s[8];
      memcpy(s, x->shape, sizeof s);
      if (have && rank)
        s[v4[0] < 0 ? v4[0] + rank : v4[0]] = sizes[i];
      outs[i] = out_for(dt, true, rank, s);
    }
    if (have)
      expect_message(nc_kernel_split(v4[0], parts, sizes, x, outs, err, sizeof err), err, "split");
    const nc_tensor *cat[4] = {x, x, x, x};
    if (parts > 0)
      expect_message(nc_kernel_concat(v4[1], parts, cat, outs[0], err, sizeof err), err, "concat");
    for (int i = 0; i < parts; i++)
      nc_tensor_destroy(outs[i]);
    int r2;
    nc_kernel_reshape_shape(rank, x->shape, (int)rnd_in(-1, 9), v2, rnd_in(0, 1), ys, err, sizeof err);
    nc_kernel_squeeze_shape((int)rnd_in(0, 3), v4, rank, x->shape, &r2, ys, err, sizeof err);
    nc_kernel_unsqueeze_shape((int)rnd_in(0, 9), v4, rank, x->shape, &r2, ys, err, sizeof err);
    nc_kernel_flatten_shape(v4[2], rank, x->shape, ys, err, sizeof err);
    nc_kernel_expand_shape(rank, x->shape, (int)rnd_in(-1, 9), v2, &r2, ys, err, sizeof err);
    y = rand_tensor(dt, (int)rnd_in(0, 3), 5);
    expect_message(nc_kernel_reshape(x, y, err, sizeof err), err, "reshape");
    nc_tensor_destroy(y);
    nc_tensor_destroy(x);
  }
}

static void fuzz_quant(void)
{
  char err[256];
  static const nc_dtype qd[] = {NC_DT_I8, NC_DT_U8, NC_DT_I4, NC_DT_U2, NC_DT_I32, NC_DT_F32, NC_DT_I16};
  for (int it = 0; it < 3000; it++) {
    err[0] = 0;
    int rank = (int)rnd_in(0, 4);
    nc_tensor *x = rand_tensor(rnd_in(0, 3) ? NC_DT_F32 : rand_dtype(), rank, 5);
    nc_tensor *s = rand_tensor(NC_DT_F32, (int)rnd_in(0, 2), 5);
    nc_dtype qdt = qd[rnd_in(0, 6)];
    nc_tensor *zp = rnd_in(0, 1) ? rand_tensor(rnd_in(0, 3) ? qdt : rand_dtype(), s->rank, 5) : NULL;
    nc_tensor *y = out_for(qdt, true, rank, x->shape);
    nc_quant_params qp = {wild(-2, 2), rnd_in(0, 3) ? 0 : wild(1, 3)};
    expect_message(nc_kernel_quantize_linear(&qp, x, s, zp, y, err, sizeof err), err, "quantize_linear");
    nc_tensor *back = out_for(NC_DT_F32, true, rank, x->shape);
    expect_message(nc_kernel_dequantize_linear(&qp, y, s, zp, back, err, sizeof err), err, "dequantize_linear");
    int32_t m[8], sh[8];
    for (int i = 0; i < 8; i++) {
      m[i] = (int32_t)wild(0, 1 << 30);
      sh[i] = (int32_t)wild(0, 40);
    }
    nc_requant_params rp = {wild(-2, 2), wild(1, 4), m, sh, (int32_t)rnd_in(-9, 9)};
    nc_tensor *acc = rand_tensor(NC_DT_I32, rank, 5), *yq = out_for(qdt, true, rank, acc->shape);
    if (rp.count > 8)
      rp.count = 8;
    expect_message(nc_kernel_requantize(&rp, acc, yq, err, sizeof err), err, "requantize");
    int32_t mm, ss;
    nc_fixed_point_from_scale((double)wild(0, 5) / (double)rnd_in(1, 1000), &mm, &ss, err, sizeof err);
    nc_tensor *a = rand_tensor(NC_DT_U8, (int)rnd_in(1, 3), 4), *b = rand_tensor(NC_DT_I8, (int)rnd_in(1, 3), 4);
    int yr;
    int64_t ys[8];
    bool have = nc_kernel_matmul_shape(a->rank, a->shape, b->rank, b->shape, &yr, ys, err, sizeof err);
    nc_tensor *ym = out_for(NC_DT_U8, have, have ? yr : 2, ys), *ysc = rand_tensor(NC_DT_F32, 0, 1);
    expect_message(nc_kernel_qlinear_matmul(a, s, zp, b, s, NULL, ysc, NULL, ym, err, sizeof err), err,
                   "qlinear_matmul");
    nc_tensor_destroy(x);
    nc_tensor_destroy(s);
    nc_tensor_destroy(zp);
    nc_tensor_destroy(y);
    nc_tensor_destroy(back);
    nc_tensor_destroy(acc);
    nc_tensor_destroy(yq);
    nc_tensor_destroy(a);
    nc_tensor_destroy(b);
    nc_tensor_destroy(ym);
    nc_tensor_destroy(ysc);
  }
}

static void null_params(void)
{
  char err[256] = "";
  int64_t s4[4] = {1, 1, 3, 3}, ys[8];
  nc_tensor *x = nc_tensor_create(NC_DT_F32, 4, s4, 0);
  int r;
  CHECK(!nc_kernel_conv_shape(NULL, 4, s4, s4, ys, err, sizeof err), "conv_shape(NULL)");
  CHECK(!nc_kernel_pool_shape(NULL, 4, s4, ys, err, sizeof err), "pool_shape(NULL)");
  CHECK(!nc_kernel_max_pool(NULL, x, x, err, sizeof err), "max_pool(NULL)");
  CHECK(!nc_kernel_reduce_shape(NULL, 4, s4, &r, ys, err, sizeof err), "reduce_shape(NULL)");
  CHECK(!nc_kernel_reduce(NC_REDUCE_SUM, NULL, x, x, err, sizeof err), "reduce(NULL)");
  CHECK(!nc_kernel_softmax(NULL, x, x, err, sizeof err), "softmax(NULL)");
  CHECK(!nc_kernel_slice(NULL, x, x, err, sizeof err), "slice(NULL)");
  CHECK(!nc_kernel_pad(NULL, x, NULL, x, err, sizeof err), "pad(NULL)");
  CHECK(!nc_kernel_gemm(NULL, x, x, NULL, x, err, sizeof err), "gemm(NULL)");
  CHECK(!nc_kernel_quantize_linear(NULL, x, x, NULL, x, err, sizeof err), "quantize_linear(NULL)");
  CHECK(!nc_kernel_requantize(NULL, x, x, err, sizeof err), "requantize(NULL)");
  CHECK(!nc_kernel_lrn(NULL, x, x, err, sizeof err), "lrn(NULL)");
  CHECK(!nc_kernel_binary(NC_BINARY_ADD, NULL, x, x, err, sizeof err), "binary(NULL operand)");
  CHECK(!nc_kernel_concat(0, 1, NULL, x, err, sizeof err), "concat(NULL inputs)");
  CHECK(!nc_kernel_variadic(NC_VARIADIC_SUM, 2, NULL, x, err, sizeof err), "variadic(NULL inputs)");
  CHECK(strstr(err, "sum") != NULL, "message names the op: %s", err);
  nc_tensor_destroy(x);
}

int main(void)
{
  null_params();
  fuzz_conv();
  fuzz_pool_reduce();
  fuzz_binary_matmul();
  fuzz_shape_ops();
  fuzz_quant();
  return kernels_test_report("kernels_robust_test");
}
