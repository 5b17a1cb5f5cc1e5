/* interp_test.c: the graph interpreter's C API (nc/dialects/graph/interp.h).
 *
 * Dispatch covers every graph op; fused activations give exactly what the
 * unfused ops give; the observer sees every op in order; outputs are always
 * fresh tensors (returned arguments, constants and values returned twice
 * included) and buffer donation never touches the caller's inputs; batched
 * runs equal separate runs; dynamic dims; single-op evaluation; Cast and
 * the quantized ops' integer semantics checked against values computed here
 * by hand from the ONNX formulas; errors are diagnostics at the right place.
 */
#include <math.h>

#include "ir_check.h"
#include "nc/dialects/graph/graph.h"
#include "nc/dialects/graph/interp.h"

static nc_context *ctx;

static nc_tensor *tensor(nc_dtype dt, int rank, const int64_t *shape, const double *vals)
{
  nc_tensor *t = nc_tensor_create(dt, rank, shape, 0);
  for (int64_t i = 0; vals && i < nc_tensor_num_elements(t); i++)
    nc_tensor_set_f64(t, i, vals[i]);
  return t;
}

static nc_tensor *random_f32(int rank, const int64_t *shape, unsigned seed)
{
  nc_tensor *t = nc_tensor_create(NC_DT_F32, rank, shape, 0);
  float *p = t->data;
  for (int64_t i = 0; i < nc_tensor_num_elements(t); i++) {
    seed = seed * 1103515245u + 12345u;
    p[i] = (float)((int)(seed >> 8) % 2001 - 1000) / 250.0f;
  }
  return t;
}

static bool same_tensor(const nc_tensor *a, const nc_tensor *b)
{
  return a && b && a->dtype == b->dtype && a->rank == b->rank &&
         !memcmp(a->shape, b->shape, sizeof a->shape) && !memcmp(a->data, b->data, nc_tensor_num_bytes(a));
}

/* Parses a module with one function and creates an interpreter for it. */
static nc_interp *make(const char *text, nc_op **module)
{
  *module = ir_parse(ctx, text);
  if (!*module)
    return NULL;
  return nc_interp_create(ir_body_op(*module, 0));
}

/* Runs with n inputs; returns the outputs (NULL on failure). */
static nc_tensor **run(nc_interp *it, size_t n, nc_tensor **in, size_t *n_out)
{
  nc_tensor **out = NULL;
  if (!nc_interp_run(it, n, (const nc_tensor *const *)in, n_out, &out))
    return NULL;
  return out;
}

static void test_dispatch_covers_the_dialect(void)
{
  for (size_t i = 0; i < nc_graph_dialect.n_ops; i++)
    CHECK(nc_interp_supports_op(nc_graph_dialect.ops[i].name), "no interpreter handler for %s",
          nc_graph_dialect.ops[i].name);
  CHECK(nc_interp_supports_op("graph.requantize"), "no handler for graph.requantize (docs/design/spine.md)");
  CHECK(!nc_interp_supports_op("graph.nonexistent"), "unknown op accepted");
  CHECK(!nc_interp_supports_op("arith.addi"), "arith op accepted");
}

/* conv (+ bias) with each fused activation equals conv followed by the op. */
static void test_fused_activations(void)
{
  static const char *const acts[][2] = {
    {"activation = \"relu\"", "graph.relu %0"},
    {"activation = \"leaky_relu\", activation_alpha = 0.2 : f32", "graph.leaky_relu %0 {alpha = 0.2 : f32}"},
    {"activation = \"clip\", activation_min = -1.5 : f32, activation_max = 2.0 : f32",
     "graph.clip %0 {min = -1.5 : f32, max = 2.0 : f32}"},
    {"activation = \"clip\", activation_max = 0.5 : f32", "graph.clip %0 {max = 0.5 : f32}"},
    {"activation = \"sigmoid\"", "graph.sigmoid %0"},
    {"activation = \"tanh\"", "graph.tanh %0"},
  };
  static const char *const dts[] = {"f32", "f16"};
  for (size_t d = 0; d < NC_COUNTOF(dts); d++)
    for (size_t i = 0; i < NC_COUNTOF(acts); i++) {
      char fused[2048], plain[2048];
      const char *t = dts[d];
      snprintf(fused, sizeof fused,
               "func.func @f(%%x: tensor<1x2x5x5x%s>, %%w: tensor<3x2x3x3x%s>, %%b: tensor<3x%s>) -> tensor<1x3x5x5x%s> {\n"
               "  %%0 = graph.conv %%x, %%w, %%b {pads = array<i64: 1, 1, 1, 1>, %s} : (tensor<1x2x5x5x%s>, "
               "tensor<3x2x3x3x%s>, tensor<3x%s>) -> tensor<1x3x5x5x%s>\n"
               "  return %%0 : tensor<1x3x5x5x%s>\n}\n",
               t, t, t, t, acts[i][0], t, t, t, t, t);
      snprintf(plain, sizeof plain,
               "func.func @f(%%x: tensor<1x2x5x5x%s>, %%w: tensor<3x2x3x3x%s>, %%b: tensor<3x%s>) -> tensor<1x3x5x5x%s> {\n"
               "  %%0 = graph.conv %%x, %%w, %%b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5x%s>, "
               "tensor<3x2x3x3x%s>, tensor<3x%s>) -> tensor<1x3x5x5x%s>\n"
               "  %%1 = %s : (tensor<1x3x5x5x%s>) -> tensor<1x3x5x5x%s>\n"
               "  return %%1 : tensor<1x3x5x5x%s>\n}\n",
               t, t, t, t, t, t, t, t, acts[i][1], t, t, t);
      nc_op *m1, *m2;
      nc_interp *a = make(fused, &m1), *b = make(plain, &m2);
      CHECK(a && b, "cannot build the %s functions for %s", t, acts[i][0]);
      if (a && b) {
        nc_dtype dt = d ? NC_DT_F16 : NC_DT_F32;
        nc_tensor *in[3];
        int64_t xs[] = {1, 2, 5, 5}, ws[] = {3, 2, 3, 3}, bs[] = {3};
        nc_tensor *f[3] = {random_f32(4, xs, 1), random_f32(4, ws, 2), random_f32(1, bs, 3)};
        for (int k = 0; k < 3; k++) {
          in[k] = nc_tensor_create(dt, f[k]->rank, f[k]->shape, 0);
          for (int64_t e = 0; e < nc_tensor_num_elements(f[k]); e++)
            nc_tensor_set_f64(in[k], e, nc_tensor_get_f64(f[k], e) / 4);
          nc_tensor_destroy(f[k]);
        }
        size_t na, nb;
        nc_tensor **ya = run(a, 3, in, &na), **yb = run(b, 3, in, &nb);
        CHECK(ya && yb && same_tensor(ya[0], yb[0]), "fused %s differs from the unfused op (%s)", acts[i][0], t);
        nc_interp_outputs_destroy(na, ya);
        nc_interp_outputs_destroy(nb, yb);
        for (int k = 0; k < 3; k++)
          nc_tensor_destroy(in[k]);
      }
      nc_interp_destroy(a);
      nc_interp_destroy(b);
      if (m1)
        nc_op_destroy(m1);
      if (m2)
        nc_op_destroy(m2);
    }
}

/* Integer results take relu and clip (bounds rounded inward), nothing else. */
static void test_integer_activation(void)
{
  const char *text =
    "func.func @f(%a: tensor<6xi8>, %b: tensor<6xi8>) -> tensor<6xi8> {\n"
    "  %0 = graph.add %a, %b {activation = \"clip\", activation_min = -2.5 : f32, activation_max = 3.5 : f32} : "
    "(tensor<6xi8>, tensor<6xi8>) -> tensor<6xi8>\n"
    "  return %0 : tensor<6xi8>\n}\n";
  nc_op *m;
  nc_interp *it = make(text, &m);
  CHECK(it != NULL, "cannot build the integer clip function");
  if (it) {
    int64_t s[] = {6};
    nc_tensor *in[2] = {tensor(NC_DT_I8, 1, s, (double[]){-100, -3, -2, 3, 4, 100}),
                        tensor(NC_DT_I8, 1, s, (double[]){-100, 0, 0, 0, 0, 100})};
    size_t n;
    nc_tensor **y = run(it, 2, in, &n);
    /* -200 wraps to 56 and 200 to -56, then clip; the bounds are ceil(-2.5) = -2 and floor(3.5) = 3 */
    static const int8_t want[] = {3, -2, -2, 3, 3, -2};
    CHECK(y && !memcmp(y[0]->data, want, 6), "integer clip activation");
    nc_interp_outputs_destroy(n, y);
    nc_tensor_destroy(in[0]);
    nc_tensor_destroy(in[1]);
    nc_interp_destroy(it);
  }
  if (m)
    nc_op_destroy(m);
  const char *bad = "func.func @f(%a: tensor<6xi8>) -> tensor<6xi8> {\n"
                    "  %0 = graph.add %a, %a {activation = \"sigmoid\"} : (tensor<6xi8>, tensor<6xi8>) -> tensor<6xi8>\n"
                    "  return %0 : tensor<6xi8>\n}\n";
  ir_diags[0] = 0;
  it = make(bad, &m);
  CHECK(!it && strstr(ir_diags, "fused activation \"sigmoid\" on a result of type i8"), "sigmoid on i8: %s",
        ir_diags);
  nc_interp_destroy(it);
  if (m)
    nc_op_destroy(m);
}

/* `activation` means something only on the ops that declare it; on another
 * op it is a discardable attribute, and ignored. */
static void test_activation_only_where_declared(void)
{
  nc_op *m;
  nc_interp *it = make("func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
                       "  %0 = graph.mul %x, %x {activation = \"tanh\"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>\n"
                       "  return %0 : tensor<3xf32>\n}\n",
                       &m);
  CHECK(it != NULL, "cannot build the function");
  if (it) {
    int64_t s[] = {3};
    nc_tensor *x = tensor(NC_DT_F32, 1, s, (double[]){1, -2, 3});
    size_t n;
    nc_tensor **y = run(it, 1, &x, &n);
    CHECK(y && ((float *)y[0]->data)[1] == 4.0f && ((float *)y[0]->data)[2] == 9.0f, "activation on graph.mul");
    nc_interp_outputs_destroy(n, y);
    nc_tensor_destroy(x);
    nc_interp_destroy(it);
  }
  if (m)
    nc_op_destroy(m);
}

typedef struct seen {
  char names[16][32];
  int64_t numel[16];
  int n;
} seen;

static void observe(nc_op *op, size_t n_results, const nc_tensor *const *results, void *user)
{
  seen *s = user;
  if (s->n < 16) {
    snprintf(s->names[s->n], sizeof s->names[0], "%s", nc_ident_str(nc_op_get_name(op)));
    s->numel[s->n] = n_results ? nc_tensor_num_elements(results[0]) : -1;
  }
  s->n++;
}

/* Outputs are fresh; constants, arguments and twice-returned values too;
 * reshapes of dying temporaries take their buffer, of arguments never. */
static void test_outputs_observer_and_donation(void)
{
  const char *text =
    "func.func @f(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, "
    "tensor<2x3xf32>) {\n"
    "  %c = graph.constant {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>\n"
    "  %0 = graph.reshape %x {shape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>\n"
    "  %1 = graph.mul %x, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "  %2 = graph.reshape %1 {shape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
    "  return %0, %2, %2, %c, %x : tensor<6xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>\n"
    "}\n";
  nc_op *m;
  nc_interp *it = make(text, &m);
  CHECK(it != NULL, "cannot build the function");
  if (!it)
    return;
  CHECK(nc_interp_get_num_inputs(it) == 1 && nc_interp_get_num_outputs(it) == 5, "signature");
  seen s = {0};
  nc_interp_set_observer(it, observe, &s);
  int64_t sh[] = {2, 3};
  nc_tensor *x = tensor(NC_DT_F32, 2, sh, (double[]){1, -1, 2, -2, 3, -3});
  nc_tensor *x_copy = nc_tensor_clone(x);
  size_t n;
  nc_tensor **y = run(it, 1, &x, &n);
  CHECK(y && n == 5, "run");
  if (y) {
    static const float prod[] = {1, -2, 6, -8, 15, -18};
    CHECK(y[0]->rank == 1 && y[0]->shape[0] == 6 && !memcmp(y[0]->data, x->data, 24), "reshape of the argument");
    CHECK(y[1]->rank == 2 && y[1]->shape[0] == 3 && !memcmp(y[1]->data, prod, 24), "reshape of a product");
    CHECK(same_tensor(y[1], y[2]) && y[1] != y[2] && y[1]->data != y[2]->data, "a value returned twice");
    CHECK(y[3]->data != y[4]->data && y[4] != x && y[4]->data != x->data && same_tensor(y[4], x), "argument returned");
    CHECK(((float *)y[3]->data)[5] == 6.0f, "constant returned");
  }
  CHECK(same_tensor(x, x_copy), "the input was modified");
  CHECK(s.n == 4 && !strcmp(s.names[0], "graph.constant") && !strcmp(s.names[1], "graph.reshape") &&
            !strcmp(s.names[2], "graph.mul") && !strcmp(s.names[3], "graph.reshape") && s.numel[3] == 6,
        "observer saw %d ops", s.n);
  /* a second run gives the same outputs (constants survive runs) */
  size_t n2;
  nc_tensor **y2 = run(it, 1, &x, &n2);
  for (size_t k = 0; y && y2 && k < n; k++)
    CHECK(same_tensor(y[k], y2[k]), "second run differs at output %zu", k);
  nc_interp_outputs_destroy(n, y);
  nc_interp_outputs_destroy(n2, y2);
  nc_tensor_destroy(x);
  nc_tensor_destroy(x_copy);
  nc_interp_destroy(it);
  nc_op_destroy(m);
}

/* N inferences on a batch equal N separate runs; bad batches are errors. */
static void test_batch_and_dynamic(void)
{
  const char *text =
    "func.func @f(%x: tensor<1x4xf32>, %s: tensor<f32>) -> tensor<1x2xf32> {\n"
    "  %w = graph.constant {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>} : "
    "() -> tensor<4x2xf32>\n"
    "  %0 = graph.matmul %x, %w : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>\n"
    "  %1 = graph.mul %0, %s : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>\n"
    "  return %1 : tensor<1x2xf32>\n}\n";
  nc_op *m;
  nc_interp *it = make(text, &m);
  CHECK(it != NULL, "cannot build the batch function");
  if (!it)
    return;
  int64_t s3[] = {3, 4}, s1[] = {1, 4};
  nc_tensor *xb = random_f32(2, s3, 7), *sc = tensor(NC_DT_F32, 0, NULL, (double[]){0.5});
  size_t n;
  nc_tensor *in[2] = {xb, sc};
  nc_tensor **yb = run(it, 2, in, &n);
  CHECK(yb && yb[0]->rank == 2 && yb[0]->shape[0] == 3 && yb[0]->shape[1] == 2, "batched output shape");
  for (int b = 0; yb && b < 3; b++) {
    nc_tensor *x1 = nc_tensor_create(NC_DT_F32, 2, s1, 0);
    memcpy(x1->data, (float *)xb->data + 4 * b, 16);
    nc_tensor *in1[2] = {x1, sc};
    size_t n1;
    nc_tensor **y1 = run(it, 2, in1, &n1);
    CHECK(y1 && !memcmp(y1[0]->data, (float *)yb[0]->data + 2 * b, 8), "batch item %d differs", b);
    nc_interp_outputs_destroy(n1, y1);
    nc_tensor_destroy(x1);
  }
  nc_interp_outputs_destroy(n, yb);
  /* not a multiple: an error at the argument */
  int64_t s5[] = {2, 5};
  nc_tensor *bad = random_f32(2, s5, 1);
  in[0] = bad;
  ir_diags[0] = 0;
  nc_tensor **out = (nc_tensor **)1;
  CHECK(!nc_interp_run(it, 2, (const nc_tensor *const *)in, &n, &out) && !out &&
            strstr(ir_diags, "input #0 has type tensor<2x5xf32> but the function expects tensor<1x4xf32>"),
        "bad input: %s", ir_diags);
  ir_diags[0] = 0;
  CHECK(!nc_interp_run(it, 1, (const nc_tensor *const *)in, &n, &out) && strstr(ir_diags, "expects 2 inputs, got 1"),
        "missing input: %s", ir_diags);
  nc_tensor_destroy(bad);
  nc_tensor_destroy(xb);
  nc_tensor_destroy(sc);
  nc_interp_destroy(it);
  nc_op_destroy(m);

  /* two batched inputs must have the same multiple */
  const char *two = "func.func @f(%a: tensor<1x2xf32>, %b: tensor<1x2xf32>) -> tensor<1x2xf32> {\n"
                    "  %0 = graph.add %a, %b : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>\n"
                    "  return %0 : tensor<1x2xf32>\n}\n";
  it = make(two, &m);
  int64_t s2[] = {2, 2}, s4[] = {4, 2};
  nc_tensor *a2 = random_f32(2, s2, 1), *b4 = random_f32(2, s4, 2);
  nc_tensor *ab[2] = {a2, b4};
  ir_diags[0] = 0;
  CHECK(it && !nc_interp_run(it, 2, (const nc_tensor *const *)ab, &n, &out) &&
            strstr(ir_diags, "input #0 has type tensor<2x2xf32>") && strstr(ir_diags, "4 times"),
        "mismatched batches: %s", ir_diags);
  nc_tensor_destroy(a2);
  nc_tensor_destroy(b4);
  nc_interp_destroy(it);
  nc_op_destroy(m);

  /* dynamic dims take any size */
  const char *dyn = "func.func @f(%a: tensor<?x3xf32>) -> tensor<?x3xf32> {\n"
                    "  %0 = graph.relu %a : (tensor<?x3xf32>) -> tensor<?x3xf32>\n"
                    "  return %0 : tensor<?x3xf32>\n}\n";
  it = make(dyn, &m);
  for (int64_t rows = 0; it && rows < 6; rows += 5) {
    int64_t sh[] = {rows, 3};
    nc_tensor *a = random_f32(2, sh, 3);
    nc_tensor **y = run(it, 1, &a, &n);
    CHECK(y && y[0]->shape[0] == rows, "dynamic dim %lld", (long long)rows);
    for (int64_t i = 0; y && i < rows * 3; i++)
      CHECK(((float *)y[0]->data)[i] == fmaxf(((float *)a->data)[i], 0), "relu");
    nc_interp_outputs_destroy(n, y);
    nc_tensor_destroy(a);
  }
  nc_interp_destroy(it);
  nc_op_destroy(m);
}

/* Evaluates the single op of `text`'s function body on the given operands. */
static bool eval1(const char *text, size_t n, nc_tensor **in, nc_tensor **out)
{
  nc_op *m = ir_parse(ctx, text);
  if (!m)
    return false;
  nc_op *f = ir_body_op(m, 0);
  nc_op *op = nc_block_get_first_op(nc_region_get_first_block(nc_op_get_region(f, 0)));
  (void)n;
  bool ok = nc_interp_eval_op(op, (const nc_tensor *const *)in, out);
  nc_op_destroy(m);
  return ok;
}

/* Cast follows numpy's astype: truncation, wrapping, NaN to 0, one rounding. */
static void test_cast(void)
{
  int64_t s[] = {6};
  nc_tensor *x = tensor(NC_DT_F32, 1, s, (double[]){300.7, -1.9, NAN, 1e20, -129.0, 0.5});
  nc_tensor *y = NULL;
  CHECK(eval1("func.func @f(%x: tensor<6xf32>) -> tensor<6xi8> {\n"
              "  %0 = graph.cast %x : (tensor<6xf32>) -> tensor<6xi8>\n  return %0 : tensor<6xi8>\n}\n",
              1, &x, &y),
        "cast f32 -> i8");
  /* 300 wraps to 44; 1e20 saturates to INT64_MAX, whose low byte is -1 */
  static const int8_t want[] = {44, -1, 0, -1, 127, 0};
  CHECK(y && !memcmp(y->data, want, 6), "cast f32 -> i8 values");
  nc_tensor_destroy(x);
  nc_tensor_destroy(y);
  int64_t s2[] = {3};
  nc_tensor *xi = nc_tensor_create(NC_DT_I64, 1, s2, 0);
  ((int64_t *)xi->data)[0] = 16777217;            /* rounds to even: 16777216 */
  ((int64_t *)xi->data)[1] = (1LL << 53) + 1;     /* one rounding, not two: 2^53 */
  ((int64_t *)xi->data)[2] = -3;
  CHECK(eval1("func.func @f(%x: tensor<3xi64>) -> tensor<3xf32> {\n"
              "  %0 = graph.cast %x : (tensor<3xi64>) -> tensor<3xf32>\n  return %0 : tensor<3xf32>\n}\n",
              1, &xi, &y),
        "cast i64 -> f32");
  CHECK(y && ((float *)y->data)[0] == 16777216.0f && ((float *)y->data)[1] == 9007199254740992.0f &&
            ((float *)y->data)[2] == -3.0f,
        "cast i64 -> f32 values");
  nc_tensor_destroy(y);
  CHECK(eval1("func.func @f(%x: tensor<3xi64>) -> tensor<3xi1> {\n"
              "  %0 = graph.cast %x : (tensor<3xi64>) -> tensor<3xi1>\n  return %0 : tensor<3xi1>\n}\n",
              1, &xi, &y),
        "cast i64 -> i1");
  CHECK(y && y->dtype == NC_DT_BOOL && ((uint8_t *)y->data)[2] == 1, "cast to bool");
  nc_tensor_destroy(y);
  nc_tensor_destroy(xi);
}

static int64_t round_half_even(double v)
{
  double r = nearbyint(v); /* default rounding mode: to nearest, ties to even */
  return (int64_t)r;
}

/* QuantizeLinear rounds half to even and saturates; QLinearMatMul
 * accumulates exactly in int32 and requantizes as ONNX's reference does. */
static void test_quantized(void)
{
  int64_t s[] = {10};
  nc_tensor *x = tensor(NC_DT_F32, 1, s, (double[]){0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1000, -1000, 0.49, NAN});
  nc_tensor *sc = tensor(NC_DT_F32, 0, NULL, (double[]){1.0});
  nc_tensor *zp = tensor(NC_DT_I8, 0, NULL, (double[]){0});
  nc_tensor *in[3] = {x, sc, zp}, *y = NULL;
  CHECK(eval1("func.func @f(%x: tensor<10xf32>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<10xi8> {\n"
              "  %0 = graph.quantize_linear %x, %s, %z : (tensor<10xf32>, tensor<f32>, tensor<i8>) -> tensor<10xi8>\n"
              "  return %0 : tensor<10xi8>\n}\n",
              3, in, &y),
        "quantize_linear");
  static const int8_t want[] = {0, 2, 2, 0, -2, -2, 127, -128, 0, 0};
  CHECK(y && !memcmp(y->data, want, 10), "quantize_linear values");
  nc_tensor_destroy(y);
  nc_tensor_destroy(x);
  nc_tensor_destroy(sc);
  nc_tensor_destroy(zp);

  /* qlinear_matmul of [2x3] u8 by [3x2] u8 */
  int64_t sa[] = {2, 3}, sb[] = {3, 2};
  double av[] = {0, 17, 255, 128, 3, 200}, bv[] = {1, 250, 60, 7, 133, 128};
  double a_s = 0.02, b_s = 0.0075, y_s = 0.37;
  int a_zp = 120, b_zp = 130, y_zp = 5;
  nc_tensor *q[8] = {
    tensor(NC_DT_U8, 2, sa, av), tensor(NC_DT_F32, 0, NULL, &a_s), tensor(NC_DT_U8, 0, NULL, (double[]){a_zp}),
    tensor(NC_DT_U8, 2, sb, bv), tensor(NC_DT_F32, 0, NULL, &b_s), tensor(NC_DT_U8, 0, NULL, (double[]){b_zp}),
    tensor(NC_DT_F32, 0, NULL, &y_s), tensor(NC_DT_U8, 0, NULL, (double[]){y_zp}),
  };
  CHECK(eval1("func.func @f(%a: tensor<2x3xui8>, %as: tensor<f32>, %az: tensor<ui8>, %b: tensor<3x2xui8>, "
              "%bs: tensor<f32>, %bz: tensor<ui8>, %ys: tensor<f32>, %yz: tensor<ui8>) -> tensor<2x2xui8> {\n"
              "  %0 = graph.qlinear_matmul %a, %as, %az, %b, %bs, %bz, %ys, %yz : (tensor<2x3xui8>, tensor<f32>, "
              "tensor<ui8>, tensor<3x2xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x2xui8>\n"
              "  return %0 : tensor<2x2xui8>\n}\n",
              8, q, &y),
        "qlinear_matmul");
  /* s = fl32(fl32(a_s * b_s) / y_s); y = saturate(rint(acc * s + y_zp)) */
  float s32 = (float)((float)((float)a_s * (float)b_s) / (float)y_s);
  for (int i = 0; y && i < 2; i++)
    for (int j = 0; j < 2; j++) {
      int32_t acc = 0;
      for (int k = 0; k < 3; k++)
        acc += ((int32_t)av[i * 3 + k] - a_zp) * ((int32_t)bv[k * 2 + j] - b_zp);
      int64_t v = round_half_even((double)acc * (double)s32 + y_zp);
      v = v < 0 ? 0 : v > 255 ? 255 : v;
      CHECK(((uint8_t *)y->data)[i * 2 + j] == v, "qlinear_matmul[%d][%d] = %d, want %lld", i, j,
            ((uint8_t *)y->data)[i * 2 + j], (long long)v);
    }
  nc_tensor_destroy(y);
  for (int k = 0; k < 8; k++)
    nc_tensor_destroy(q[k]);

  /* matmul_integer wraps in int32 */
  int64_t s1[] = {1, 2}, s21[] = {2, 1};
  nc_tensor *mi[2] = {tensor(NC_DT_I8, 2, s1, (double[]){-128, -128}), tensor(NC_DT_I8, 2, s21, (double[]){-128, -128})};
  CHECK(eval1("func.func @f(%a: tensor<1x2xi8>, %b: tensor<2x1xi8>) -> tensor<1x1xi32> {\n"
              "  %0 = graph.matmul_integer %a, %b : (tensor<1x2xi8>, tensor<2x1xi8>) -> tensor<1x1xi32>\n"
              "  return %0 : tensor<1x1xi32>\n}\n",
              2, mi, &y),
        "matmul_integer");
  CHECK(y && ((int32_t *)y->data)[0] == 32768, "matmul_integer value");
  nc_tensor_destroy(y);
  nc_tensor_destroy(mi[0]);
  nc_tensor_destroy(mi[1]);
}

/* round(v / 2^s), ties to even, computed the long way. */
static int64_t shift_round(int64_t v, int s)
{
  int64_t q = v >= 0 ? v / ((int64_t)1 << s) : -((-v + ((int64_t)1 << s) - 1) / ((int64_t)1 << s)); /* floor */
  int64_t r = v - q * ((int64_t)1 << s), half = s ? (int64_t)1 << (s - 1) : 0;
  return s && (r > half || (r == half && (q & 1))) ? q + 1 : q;
}

/* graph.requantize as docs/design/spine.md defines it: the int32 bias along
 * `axis` (wrapping), per-channel fixed-point multipliers, round half to
 * even, relu at the zero point, saturation. */
static void test_requantize(void)
{
  int64_t s[] = {1, 2, 3};
  double accv[] = {1000, -1000, 2147483647, 77, -78, 3};
  nc_tensor *in[2] = {tensor(NC_DT_I32, 3, s, accv), tensor(NC_DT_I32, 1, (int64_t[]){2}, (double[]){5, -6})};
  nc_tensor *y = NULL;
  const char *text =
    "func.func @f(%a: tensor<1x2x3xi32>, %b: tensor<2xi32>) -> tensor<1x2x3xi8> {\n"
    "  %0 = \"graph.requantize\"(%a, %b) {multiplier = array<i64: 1073741824, 1610612736>, "
    "shift = array<i64: 33, 31>, axis = 1 : i64, output_zero_point = -3 : i64, activation = \"relu\"} : "
    "(tensor<1x2x3xi32>, tensor<2xi32>) -> tensor<1x2x3xi8>\n  return %0 : tensor<1x2x3xi8>\n}\n";
  nc_op *m = nc_parse_string(ctx, text, strlen(text), "requantize.mlir");
  CHECK(m && nc_op_verify(m), "cannot build the requantize function: %s", ir_diags);
  if (m) {
    nc_op *f = ir_body_op(m, 0);
    nc_op *op = nc_block_get_first_op(nc_region_get_first_block(nc_op_get_region(f, 0)));
    CHECK(nc_interp_eval_op(op, (const nc_tensor *const *)in, &y), "requantize: %s", ir_diags);
    nc_op_destroy(m);
  }
  static const int64_t mult[] = {1073741824, 1610612736}, shift[] = {33, 31}, bias[] = {5, -6};
  for (int i = 0; y && i < 6; i++) {
    int ch = i / 3;
    int32_t v = (int32_t)((uint32_t)(int32_t)accv[i] + (uint32_t)bias[ch]); /* wraps */
    int64_t r = shift_round((int64_t)v * mult[ch], (int)shift[ch]) - 3;
    r = r < -3 ? -3 : r; /* relu at the zero point */
    r = r < -128 ? -128 : r > 127 ? 127 : r;
    CHECK(((int8_t *)y->data)[i] == r, "requantize[%d] = %d, want %lld", i, ((int8_t *)y->data)[i], (long long)r);
  }
  nc_tensor_destroy(y);
  nc_tensor_destroy(in[0]);
  nc_tensor_destroy(in[1]);
}

/* eval_op on a multi-result op, and its errors. */
static void test_eval_op(void)
{
  int64_t s[] = {5};
  nc_tensor *x = tensor(NC_DT_F32, 1, s, (double[]){1, 2, 3, 4, 5});
  nc_tensor *y[2] = {NULL, NULL};
  CHECK(eval1("func.func @f(%x: tensor<5xf32>) -> (tensor<2xf32>, tensor<3xf32>) {\n"
              "  %0:2 = graph.split %x {split = array<i64: 2, 3>} : (tensor<5xf32>) -> (tensor<2xf32>, tensor<3xf32>)\n"
              "  return %0#0, %0#1 : tensor<2xf32>, tensor<3xf32>\n}\n",
              1, &x, y),
        "split");
  CHECK(y[0] && y[1] && ((float *)y[0]->data)[1] == 2 && ((float *)y[1]->data)[2] == 5, "split values");
  nc_tensor_destroy(y[0]);
  nc_tensor_destroy(y[1]);
  int64_t s4[] = {4};
  nc_tensor *x4 = tensor(NC_DT_F32, 1, s4, NULL);
  ir_diags[0] = 0;
  CHECK(!eval1("func.func @f(%x: tensor<5xf32>) -> tensor<5xf32> {\n"
               "  %0 = graph.relu %x : (tensor<5xf32>) -> tensor<5xf32>\n  return %0 : tensor<5xf32>\n}\n",
               1, &x4, y) &&
            !y[0] && strstr(ir_diags, "operand #0: expected tensor<5xf32>, got tensor<4xf32>"),
        "eval_op with a wrong operand: %s", ir_diags);
  nc_tensor_destroy(x);
  nc_tensor_destroy(x4);
}

/* Errors at creation name the op. */
static void test_create_errors(void)
{
  nc_op *m;
  ir_diags[0] = 0;
  nc_interp *it = make("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
                       "  %0 = \"test.op\"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
                       "  return %0 : tensor<2xf32>\n}\n",
                       &m);
  CHECK(!it && strstr(ir_diags, "'test.op' op is not supported by the graph interpreter"), "unknown op: %s",
        ir_diags);
  nc_op_destroy(m);
  ir_diags[0] = 0;
  it = make("func.func @f(%x: i32) -> i32 {\n  return %x : i32\n}\n", &m);
  CHECK(!it && strstr(ir_diags, "argument #0 has type i32"), "scalar argument: %s", ir_diags);
  nc_op_destroy(m);
}

int main(void)
{
  ctx = ir_context();
  unsigned h = nc_context_push_diag_handler(ctx, ir_record_diag, NULL);
  test_dispatch_covers_the_dialect();
  test_fused_activations();
  test_integer_activation();
  test_activation_only_where_declared();
  test_outputs_observer_and_donation();
  test_batch_and_dynamic();
  test_cast();
  test_quantized();
  test_eval_op();
  test_requantize();
  test_create_errors();
  nc_context_pop_diag_handler(ctx, h);
  nc_context_destroy(ctx);
  return ir_check_status("interp_test");
}
