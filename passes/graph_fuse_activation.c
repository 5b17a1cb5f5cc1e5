/* graph_fuse_activation.c: graph-fuse-activation, which folds a bias add
 * and an activation into the conv, gemm or matmul producing their input.
 *
 * Accelerators apply bias and activation on the way out of the
 * multiply-accumulate array, so the graph level records them on the op:
 *  - graph.add of a conv / conv_transpose result and a constant that is
 *    per output channel ([M], [M, 1, 1], [1, M, 1, 1], a scalar, ...) goes
 *    into the conv's bias operand (added to the existing constant bias);
 *    added to a gemm result, a constant broadcastable to [M, N] goes into
 *    the gemm's c (beta * c + d, beta becomes 1); a 2-D matmul plus such a
 *    constant becomes a graph.gemm;
 *  - graph.relu, leaky_relu, clip, sigmoid and tanh of a conv,
 *    conv_transpose, gemm, matmul (or, with fuse-into-add, add) result
 *    become the producer's `activation` attributes (activation_alpha,
 *    activation_min / activation_max carry the parameters).
 * Only when the intermediate value has no other use, the producer has no
 * activation yet, and the tensors are floating point: integer graphs keep
 * their explicit ops for the quantization passes. Bias adds go first, so
 * conv + add + relu ends as one conv.
 */

#include "graph_util.h"
#include "nc/ir/pass.h"

static const nc_pass_option_def options[] = {
  {"fuse-bias", NC_PASS_OPT_BOOL, "true", "Fold adds of constant biases into conv / gemm bias operands"},
  {"fuse-into-add", NC_PASS_OPT_BOOL, "true", "Also fuse activations into graph.add (residual connections)"},
};

static const nc_pass_stat_def stats[] = {
  {"num-fused", "Number of bias adds and activations fused"},
};

static const char *const activation_attrs[] = {"activation", "activation_alpha", "activation_min", "activation_max"};

static bool has_activation(nc_op *op) { return nc_op_get_attr_str(op, "activation") != NULL; }

static bool is_float_value(nc_value *v)
{
  return nc_type_is_float(nc_type_get_element_type(nc_value_get_type(v)));
}

static bool is_linear(nc_op *op)
{
  return gp_is(op, "conv") || gp_is(op, "conv_transpose") || gp_is(op, "gemm") || gp_is(op, "matmul");
}

/* --- bias adds ------------------------------------------------------------------------------------------- */

static nc_type *tensor_type(nc_context *ctx, int rank, const int64_t *shape, nc_type *elt)
{
  return nc_type_tensor(ctx, (size_t)rank, shape, elt, NULL);
}

/* conv / conv_transpose y [N, M, ..] + d (per channel) into the bias. */
static bool bias_into_conv(nc_op *conv, nc_value *dv, nc_rewriter *rw)
{
  nc_type *yt = nc_value_get_type(nc_op_get_result(conv, 0));
  size_t r = nc_type_get_rank(yt);
  int64_t m = r >= 3 ? nc_type_get_shape(yt)[1] : NC_DYNAMIC;
  nc_value *bv = nc_op_get_num_operands(conv) > 2 ? nc_op_get_operand(conv, 2) : NULL;
  nc_tensor *d = gp_constant_tensor(dv), *b = bv ? gp_constant_tensor(bv) : NULL;
  bool ok = m != NC_DYNAMIC && d && (size_t)d->rank <= r && (!bv || (b && b->dtype == d->dtype));
  bool per_channel = false; /* d has M entries (else one, broadcast) */
  for (int j = 0; ok && j < d->rank; j++) {
    size_t k = r - (size_t)d->rank + (size_t)j;
    int64_t dim = d->shape[j];
    ok = dim == 1 || (k == 1 && dim == m);
    per_channel |= k == 1 && dim == m && m != 1;
  }
  if (ok) {
    nc_tensor *nb = nc_tensor_create(d->dtype, 1, &m, 0);
    for (int64_t i = 0; i < m; i++) {
      double v = nc_tensor_get_f64(d, per_channel ? i : 0);
      nc_tensor_set_f64(nb, i, b ? gp_round(d->dtype, nc_tensor_get_f64(b, i) + v) : v);
    }
    nc_context *ctx = nc_op_get_context(conv);
    nc_type *bt = bv ? nc_value_get_type(bv) : tensor_type(ctx, 1, &m, nc_type_get_element_type(yt));
    nc_rewriter_set_insertion_point_before(rw, conv);
    nc_value *nbv =
      gp_create_tensor_constant(rw, nb, bt, bv ? bv : dv, bv ? "_fused" : "", "bias", nc_op_get_loc(conv));
    nc_tensor_destroy(nb);
    gp_set_bias_operand(conv, nbv);
    nc_rewriter_modified(rw, conv);
  }
  nc_tensor_destroy(d);
  nc_tensor_destroy(b);
  return ok;
}

/* True if shape (rank n) broadcasts unidirectionally to [rows, cols]. */
static bool broadcasts_to(int n, const int64_t *shape, int64_t rows, int64_t cols)
{
  if (n > 2 || rows == NC_DYNAMIC || cols == NC_DYNAMIC)
    return false;
  int64_t target[2] = {rows, cols};
  for (int j = 0; j < n; j++) {
    int64_t t = target[2 - n + j];
    if (shape[j] != 1 && shape[j] != t)
      return false;
  }
  return true;
}

/* Element (i, j) of a tensor of rank <= 2 broadcast to 2-D. */
static double at2(const nc_tensor *t, int64_t i, int64_t j)
{
  int64_t rows = t->rank == 2 ? t->shape[0] : 1, cols = t->rank >= 1 ? t->shape[t->rank - 1] : 1;
  return nc_tensor_get_f64(t, (rows > 1 ? i : 0) * cols + (cols > 1 ? j : 0));
}

/* gemm y [M, N] + d into c: c' = beta * c + d (beta becomes 1). */
static bool bias_into_gemm(nc_op *gemm, nc_value *dv, nc_rewriter *rw)
{
  nc_type *yt = nc_value_get_type(nc_op_get_result(gemm, 0));
  const int64_t *ys = nc_type_get_shape(yt);
  nc_type *dt = nc_value_get_type(dv);
  nc_gemm_params gp;
  if (!nc_graph_get_gemm_params(gemm, &gp) ||
      !broadcasts_to((int)nc_type_get_rank(dt), nc_type_get_shape(dt), ys[0], ys[1]))
    return false;
  nc_context *ctx = nc_op_get_context(gemm);
  nc_value *cv = nc_op_get_num_operands(gemm) > 2 ? nc_op_get_operand(gemm, 2) : NULL, *ncv;
  nc_op *ddef = nc_value_get_defining_op(dv);
  if (!cv) {
    /* d itself is the new c; a copy of its constant comes before the gemm */
    nc_rewriter_set_insertion_point_before(rw, gemm);
    ncv = gp_create_constant(rw, nc_op_get_attr_str(ddef, "value"), nc_op_get_loc(ddef));
  } else {
    nc_tensor *c = gp_constant_tensor(cv), *d = gp_constant_tensor(dv);
    bool ok = c && d && c->dtype == d->dtype && c->rank <= 2;
    if (ok) {
      /* c' has the broadcast shape of c and d */
      int64_t crow = c->rank == 2 ? c->shape[0] : 1, ccol = c->rank >= 1 ? c->shape[c->rank - 1] : 1;
      int64_t drow = d->rank == 2 ? d->shape[0] : 1, dcol = d->rank >= 1 ? d->shape[d->rank - 1] : 1;
      int64_t shape[2] = {crow > drow ? crow : drow, ccol > dcol ? ccol : dcol};
      int rank = c->rank > d->rank ? c->rank : d->rank;
      nc_tensor *n = nc_tensor_create(c->dtype, rank, rank == 2 ? shape : shape + 1, 0);
      double beta = gp_round(c->dtype, gp.beta);
      for (int64_t i = 0; i < shape[0]; i++)
        for (int64_t j = 0; j < shape[1]; j++) {
          double cb = gp.beta == 1.0 ? at2(c, i, j) : gp_round(c->dtype, beta * at2(c, i, j));
          nc_tensor_set_f64(n, i * shape[1] + j, gp_round(c->dtype, cb + at2(d, i, j)));
        }
      nc_type *nt = tensor_type(ctx, rank, rank == 2 ? shape : shape + 1, nc_type_get_element_type(yt));
      nc_rewriter_set_insertion_point_before(rw, gemm);
      ncv = gp_create_tensor_constant(rw, n, nt, cv, "_fused", "bias", nc_op_get_loc(gemm));
      nc_tensor_destroy(n);
    }
    nc_tensor_destroy(c);
    nc_tensor_destroy(d);
    if (!ok)
      return false;
  }
  gp_set_bias_operand(gemm, ncv);
  nc_op_remove_attr(gemm, nc_ident_get_cstr(ctx, "beta"));
  nc_rewriter_modified(rw, gemm);
  return true;
}

/* matmul [M, K] x [K, N] + d: a graph.gemm with c = d, placed at the add. */
static nc_op *matmul_to_gemm(nc_op *matmul, nc_op *add, nc_value *dv, nc_rewriter *rw)
{
  nc_value *a = nc_op_get_operand(matmul, 0), *b = nc_op_get_operand(matmul, 1);
  nc_type *yt = nc_value_get_type(nc_op_get_result(matmul, 0)), *dt = nc_value_get_type(dv);
  if (nc_type_get_rank(nc_value_get_type(a)) != 2 || nc_type_get_rank(nc_value_get_type(b)) != 2 ||
      !broadcasts_to((int)nc_type_get_rank(dt), nc_type_get_shape(dt), nc_type_get_shape(yt)[0],
                     nc_type_get_shape(yt)[1]))
    return NULL;
  nc_op *g = nc_graph_create_op(nc_op_get_context(matmul), "graph.gemm", nc_op_get_loc(matmul), 3,
                                (nc_value *[]){a, b, dv}, 0, NULL, 1, &yt);
  if (!g)
    return NULL;
  nc_value_set_type(nc_op_get_result(g, 0), yt);
  nc_rewriter_set_insertion_point_before(rw, add);
  nc_rewriter_insert(rw, g);
  return g;
}

static bool fuse_bias(nc_op *add, nc_rewriter *rw)
{
  nc_value *y = nc_op_get_result(add, 0);
  for (int side = 0; side < 2; side++) {
    nc_value *pv = nc_op_get_operand(add, (size_t)side), *dv = nc_op_get_operand(add, (size_t)(1 - side));
    nc_op *p = nc_value_get_defining_op(pv), *ddef = nc_value_get_defining_op(dv);
    if (!p || !is_linear(p) || !gp_only_user(pv, add) || has_activation(p) || !ddef || !gp_is(ddef, "constant") ||
        nc_value_get_type(pv) != nc_value_get_type(y) || !is_float_value(y))
      continue;
    nc_op *fused = p;
    if (gp_is(p, "conv") || gp_is(p, "conv_transpose")) {
      if (!bias_into_conv(p, dv, rw))
        continue;
    } else if (gp_is(p, "gemm")) {
      if (!bias_into_gemm(p, dv, rw))
        continue;
    } else if (!(fused = matmul_to_gemm(p, add, dv, rw))) {
      continue;
    }
    /* an activation already fused into the add moves to the producer */
    for (size_t i = 0; i < NC_COUNTOF(activation_attrs); i++) {
      nc_attr *a = nc_op_get_attr_str(add, activation_attrs[i]);
      if (a)
        nc_op_set_attr_str(fused, activation_attrs[i], a);
    }
    nc_rewriter_modified(rw, fused);
    nc_rewriter_replace_op(rw, add, (nc_value *[]){nc_op_get_result(fused, 0)});
    if (fused != p)
      nc_rewriter_erase_op(rw, p);
    return true;
  }
  return false;
}

/* --- activations ----------------------------------------------------------------------------------------- */

static bool fuse_activation(nc_op *act, nc_rewriter *rw, bool into_add)
{
  nc_value *x = nc_op_get_operand(act, 0);
  nc_op *p = nc_value_get_defining_op(x);
  if (!p || !(is_linear(p) || (into_add && gp_is(p, "add"))) || !gp_only_user(x, act) || has_activation(p) ||
      !is_float_value(x) || nc_value_get_type(x) != nc_value_get_type(nc_op_get_result(act, 0)))
    return false;
  nc_context *ctx = nc_op_get_context(act);
  nc_type *f32 = nc_type_f32(ctx);
  const char *kind;
  nc_graph_clip_bounds cb;
  if (gp_is(act, "relu")) {
    kind = "relu";
  } else if (gp_is(act, "sigmoid")) {
    kind = "sigmoid";
  } else if (gp_is(act, "tanh")) {
    kind = "tanh";
  } else if (gp_is(act, "leaky_relu")) {
    kind = "leaky_relu";
    if (nc_op_get_attr_str(act, "alpha"))
      nc_op_set_attr_str(p, "activation_alpha", nc_attr_float(ctx, f32, nc_graph_attr_float(act, "alpha", 0.01)));
  } else if (nc_graph_get_clip_bounds(act, &cb) && cb.is_float) {
    kind = "clip";
    if (cb.has_min)
      nc_op_set_attr_str(p, "activation_min", nc_attr_float(ctx, f32, cb.min_f));
    if (cb.has_max)
      nc_op_set_attr_str(p, "activation_max", nc_attr_float(ctx, f32, cb.max_f));
  } else {
    return false;
  }
  nc_op_set_attr_str(p, "activation", nc_attr_string_cstr(ctx, kind));
  nc_rewriter_modified(rw, p);
  nc_rewriter_replace_op(rw, act, (nc_value *[]){x});
  return true;
}

static bool fuse_activation_linear(nc_op *act, nc_rewriter *rw) { return fuse_activation(act, rw, false); }
static bool fuse_activation_any(nc_op *act, nc_rewriter *rw) { return fuse_activation(act, rw, true); }

/* bias first (higher benefit), so the activation lands on the conv */
static const nc_pattern bias_pattern = {"FuseBiasAdd", 2, fuse_bias};
static const nc_pattern act_pattern = {"FuseActivation", 1, fuse_activation_linear};
static const nc_pattern act_add_pattern = {"FuseActivation", 1, fuse_activation_any};
static const char *const activation_ops[] = {"graph.relu", "graph.leaky_relu", "graph.clip", "graph.sigmoid",
                                             "graph.tanh"};

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  nc_pattern_set *set = nc_pattern_set_create(ctx);
  if (nc_pass_get_option_bool(pass, "fuse-bias"))
    nc_pattern_set_add(set, "graph.add", &bias_pattern);
  bool into_add = nc_pass_get_option_bool(pass, "fuse-into-add");
  for (size_t i = 0; i < NC_COUNTOF(activation_ops); i++)
    nc_pattern_set_add(set, activation_ops[i], into_add ? &act_add_pattern : &act_pattern);
  nc_pass_set_state(pass, set, gp_free_pattern_set);
  return true;
}

const nc_pass_def nc_graph_fuse_activation_pass = {
  .argument = "graph-fuse-activation",
  .name = "GraphFuseActivation",
  .group = "Graph",
  .summary = "Fuse bias adds and activations into conv, gemm and matmul",
  .description =
    "Folds graph.add of a conv / conv_transpose result and a per-channel constant into the conv's bias, of a gemm "
    "result and a constant broadcastable to [M, N] into the gemm's c, and turns a 2-D matmul plus such a constant "
    "into a graph.gemm (fuse-bias). Then graph.relu, leaky_relu, clip, sigmoid and tanh of a conv, conv_transpose, "
    "gemm, matmul or (fuse-into-add) add result become that op's `activation` attributes. Only for floating-point "
    "tensors, when the intermediate value has no other use and the producer has no activation yet.",
  .anchor = "func.func",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .initialize = initialize,
  .run = gp_run_patterns,
};
