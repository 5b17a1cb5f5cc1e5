/* graph_fold_batchnorm.c: graph-fold-batchnorm, which folds an inference
 * graph.batch_norm into the graph.conv, graph.gemm or graph.matmul that
 * produces its input.
 *
 * Batch normalization after a linear op is an affine map per output channel,
 * y = x * s + t with s = scale / sqrt(var + epsilon), so it can live in the
 * weights (scaled by s along the output channel) and the bias (t plus the
 * old bias times s). The arithmetic is onnxruntime's ConvBNFusion and
 * MatMulBNFusion step for step, each step rounded to the element type:
 *   s  = scale / sqrt(var + epsilon)
 *   W' = W * s                         (per output channel)
 *   B' = (B - mean) * s + b            with a bias B
 *   B' = b - mean * s                  without one (the bias is created)
 * A graph.matmul of 2-D operands becomes a graph.gemm (which has a bias).
 * Only when the weights, the existing bias and the four batch_norm operands
 * are constants, the producer's result feeds nothing but the batch_norm,
 * and the producer has no fused activation (which would come before the
 * normalization). Any other batch_norm of a static 4-D input (after a
 * concat, as in DenseNet) becomes the 1x1 depthwise conv computing the same
 * per-channel affine map.
 */
#include <math.h>
#include <stdlib.h>

#include "graph_util.h"
#include "nc/dialects/graph/interp.h"
#include "nc/ir/pass.h"

static const nc_pass_stat_def stats[] = {
  {"num-folded", "Number of batch_norm ops folded (into their producer, or into a new depthwise conv)"},
};

/* The batch_norm's per-channel factor s and shift t (as for a producer
 * without bias), and its raw mean and b, all as double holding dtype values. */
typedef struct bn {
  nc_dtype dt;
  int64_t c;
  double *s, *mean, *b;
} bn;

static void bn_free(bn *p)
{
  free(p->s);
  free(p->mean);
  free(p->b);
}

static bool bn_read(nc_op *op, nc_dtype dt, bn *p)
{
  nc_tensor *t[4] = {0};
  bool ok = true;
  for (int i = 0; i < 4; i++)
    ok = ok && (t[i] = gp_constant_tensor(nc_op_get_operand(op, i + 1))) != NULL && t[i]->dtype == dt &&
         t[i]->rank == 1 && t[i]->shape[0] == t[0]->shape[0];
  double eps;
  ok = ok && nc_graph_get_norm_epsilon(op, &eps);
  if (ok) {
    p->dt = dt;
    p->c = t[0]->shape[0];
    p->s = nc_xcalloc((size_t)p->c + 1, sizeof *p->s);
    p->mean = nc_xcalloc((size_t)p->c + 1, sizeof *p->mean);
    p->b = nc_xcalloc((size_t)p->c + 1, sizeof *p->b);
    double e = gp_round(dt, (float)eps);
    for (int64_t i = 0; i < p->c; i++) {
      double scale = nc_tensor_get_f64(t[0], i), var = nc_tensor_get_f64(t[3], i);
      double sd = gp_round(dt, sqrt(gp_round(dt, var + e)));
      p->s[i] = gp_round(dt, scale / sd);
      p->mean[i] = nc_tensor_get_f64(t[2], i);
      p->b[i] = nc_tensor_get_f64(t[1], i);
    }
  }
  for (int i = 0; i < 4; i++)
    nc_tensor_destroy(t[i]);
  return ok;
}

/* The new bias entry for channel i, from the old bias value (has_old). */
static double new_bias(const bn *p, int64_t i, bool has_old, double old)
{
  if (has_old)
    return gp_round(p->dt, gp_round(p->dt, gp_round(p->dt, old - p->mean[i]) * p->s[i]) + p->b[i]);
  return gp_round(p->dt, p->b[i] - gp_round(p->dt, p->mean[i] * p->s[i]));
}

/* W[.., i, ..] *= s[i] where i is the index along `axis`. */
static void scale_along(const bn *p, nc_tensor *w, int axis)
{
  int64_t inner = 1, n = nc_tensor_num_elements(w);
  for (int d = axis + 1; d < w->rank; d++)
    inner *= w->shape[d];
  for (int64_t k = 0; k < n; k++) {
    int64_t ch = (k / inner) % w->shape[axis];
    nc_tensor_set_f64(w, k, gp_round(p->dt, nc_tensor_get_f64(w, k) * p->s[ch]));
  }
}

static nc_value *make_const(nc_rewriter *rw, nc_tensor *t, nc_type *type, nc_value *like, const char *suffix,
                            nc_location loc)
{
  return gp_create_tensor_constant(rw, t, type, like, suffix, "bn_folded", loc);
}

static nc_type *vec_type(nc_context *ctx, int64_t n, nc_type *elt) { return nc_type_tensor(ctx, 1, &n, elt, NULL); }

/* conv: W [M, C/g, k..] scaled along dim 0; bias [M]. */
static bool fold_into_conv(nc_op *conv, const bn *p, nc_rewriter *rw, nc_type *elt)
{
  size_t nops = nc_op_get_num_operands(conv);
  nc_value *wv = nc_op_get_operand(conv, 1), *bv = nops > 2 ? nc_op_get_operand(conv, 2) : NULL;
  nc_tensor *w = gp_constant_tensor(wv), *b = bv ? gp_constant_tensor(bv) : NULL;
  bool ok = w && w->dtype == p->dt && w->shape[0] == p->c && (!bv || (b && b->dtype == p->dt));
  if (ok) {
    nc_context *ctx = nc_op_get_context(conv);
    scale_along(p, w, 0);
    nc_tensor *nb = nc_tensor_create(p->dt, 1, &p->c, 0);
    for (int64_t i = 0; i < p->c; i++)
      nc_tensor_set_f64(nb, i, new_bias(p, i, b != NULL, b ? nc_tensor_get_f64(b, i) : 0));
    nc_rewriter_set_insertion_point_before(rw, conv);
    nc_value *nw = make_const(rw, w, nc_value_get_type(wv), wv, "_bn", nc_op_get_loc(conv));
    nc_value *nbv = make_const(rw, nb, bv ? nc_value_get_type(bv) : vec_type(ctx, p->c, elt), bv ? bv : wv,
                               bv ? "_bn" : "_bn_bias", nc_op_get_loc(conv));
    nc_op_set_operand(conv, 1, nw);
    gp_set_bias_operand(conv, nbv);
    nc_rewriter_modified(rw, conv);
    nc_tensor_destroy(nb);
  }
  nc_tensor_destroy(w);
  nc_tensor_destroy(b);
  return ok;
}

/* gemm / matmul: y [M, N] = alpha * A' B' + beta * C; B' scaled per column
 * (B [K, N], or [N, K] with trans_b), C' = (beta * C - mean) * s + b, beta 1. */
static bool fold_into_gemm(nc_op *op, const bn *p, nc_rewriter *rw, nc_type *elt)
{
  bool is_gemm = gp_is(op, "gemm");
  nc_gemm_params gp = {1.0, 1.0, false, false};
  if (is_gemm && !nc_graph_get_gemm_params(op, &gp))
    return false;
  size_t nops = nc_op_get_num_operands(op);
  nc_value *av = nc_op_get_operand(op, 0), *bv = nc_op_get_operand(op, 1);
  nc_value *cv = is_gemm && nops > 2 ? nc_op_get_operand(op, 2) : NULL;
  nc_type *yt = nc_value_get_type(nc_op_get_result(op, 0));
  if (nc_type_get_rank(yt) != 2 || nc_type_get_rank(nc_value_get_type(av)) != 2)
    return false;
  nc_tensor *b = gp_constant_tensor(bv), *c = cv ? gp_constant_tensor(cv) : NULL;
  bool ok = b && b->dtype == p->dt && b->rank == 2 && b->shape[gp.trans_b ? 0 : 1] == p->c &&
            (!cv || (c && c->dtype == p->dt && c->rank <= 2));
  if (ok) {
    nc_context *ctx = nc_op_get_context(op);
    scale_along(p, b, gp.trans_b ? 0 : 1);
    /* C' has C's rows (when C has more than one) and N columns */
    int64_t rows = c && c->rank == 2 ? c->shape[0] : 1, cshape[2] = {rows, p->c};
    int crank = rows > 1 ? 2 : 1;
    nc_tensor *nc_ = nc_tensor_create(p->dt, crank, crank == 2 ? cshape : &p->c, 0);
    for (int64_t m = 0; m < rows; m++)
      for (int64_t n = 0; n < p->c; n++) {
        double old = 0;
        if (c) {
          int64_t cols = c->rank >= 1 ? c->shape[c->rank - 1] : 1;
          int64_t idx = (c->rank == 2 && c->shape[0] > 1 ? m * cols : 0) + (cols > 1 ? n : 0);
          old = nc_tensor_get_f64(c, idx);
          if (gp.beta != 1.0)
            old = gp_round(p->dt, gp_round(p->dt, gp.beta) * old);
        }
        nc_tensor_set_f64(nc_, m * p->c + n, new_bias(p, n, c != NULL, old));
      }
    nc_rewriter_set_insertion_point_before(rw, op);
    nc_value *nb = make_const(rw, b, nc_value_get_type(bv), bv, "_bn", nc_op_get_loc(op));
    nc_type *ct = crank == 2 ? nc_type_tensor(ctx, 2, cshape, elt, NULL) : vec_type(ctx, p->c, elt);
    nc_value *ncv = make_const(rw, nc_, ct, cv ? cv : bv, cv ? "_bn" : "_bn_bias", nc_op_get_loc(op));
    nc_tensor_destroy(nc_);
    if (is_gemm) {
      nc_op_set_operand(op, 1, nb);
      gp_set_bias_operand(op, ncv);
      nc_op_remove_attr(op, nc_ident_get_cstr(ctx, "beta"));
      nc_rewriter_modified(rw, op);
    } else {
      nc_value *ops[] = {av, nb, ncv};
      nc_op *g = nc_graph_create_op(ctx, "graph.gemm", nc_op_get_loc(op), 3, ops, 0, NULL, 1, &yt);
      ok = g != NULL;
      if (g) {
        nc_value_set_type(nc_op_get_result(g, 0), yt); /* users keep seeing the matmul's type */
        nc_rewriter_insert(rw, g);
        nc_rewriter_replace_op_with_op(rw, op, g);
      }
    }
  }
  nc_tensor_destroy(b);
  nc_tensor_destroy(c);
  return ok;
}

/* A batch_norm with no producer to fold into (after a concat, as in
 * DenseNet's pre-activation layers) on an [N, C, H, W] input: the 1x1
 * depthwise conv (group C) with weight s[c] and bias b[c] - mean[c] * s[c],
 * the same per-channel affine map, which every level below runs (and the
 * relu after it fuses into). */
static bool batchnorm_to_depthwise(nc_op *op, nc_rewriter *rw)
{
  nc_value *x = nc_op_get_operand(op, 0), *y = nc_op_get_result(op, 0);
  nc_type *xt = nc_value_get_type(x), *elt = nc_type_get_element_type(xt);
  nc_dtype dt;
  if (nc_value_get_type(y) != xt || nc_type_get_rank(xt) != 4 || !nc_type_has_static_shape(xt) ||
      !nc_type_is_float(elt) || !nc_interp_dtype_from_type(elt, &dt))
    return false;
  bn p;
  if (!bn_read(op, dt, &p))
    return false;
  bool ok = p.c == nc_type_get_shape(xt)[1];
  if (ok) {
    nc_context *ctx = nc_op_get_context(op);
    int64_t wshape[4] = {p.c, 1, 1, 1};
    nc_tensor *w = nc_tensor_create(dt, 4, wshape, 0), *b = nc_tensor_create(dt, 1, &p.c, 0);
    for (int64_t i = 0; i < p.c; i++) {
      nc_tensor_set_f64(w, i, p.s[i]);
      nc_tensor_set_f64(b, i, new_bias(&p, i, false, 0));
    }
    nc_location loc = nc_op_get_loc(op);
    nc_rewriter_set_insertion_point_before(rw, op);
    nc_value *wv = make_const(rw, w, nc_type_tensor(ctx, 4, wshape, elt, NULL), nc_op_get_operand(op, 1), "_dw",
                              loc);
    nc_value *bv = make_const(rw, b, vec_type(ctx, p.c, elt), nc_op_get_operand(op, 2), "_dw", loc);
    nc_type *i64 = nc_type_integer(ctx, 64, NC_SIGNLESS);
    int64_t ones[2] = {1, 1};
    nc_named_attr attrs[] = {
      {nc_ident_get_cstr(ctx, "group"), nc_attr_integer(ctx, i64, p.c)},
      {nc_ident_get_cstr(ctx, "kernel_shape"), nc_attr_dense_array(ctx, i64, 2, ones)},
    };
    nc_op *conv = nc_graph_create_op(ctx, "graph.conv", loc, 3, (nc_value *[]){x, wv, bv}, NC_COUNTOF(attrs), attrs,
                                     1, &xt);
    ok = conv != NULL;
    if (conv) {
      nc_value_set_type(nc_op_get_result(conv, 0), xt);
      nc_rewriter_insert(rw, conv);
      nc_rewriter_replace_op_with_op(rw, op, conv);
    }
    nc_tensor_destroy(w);
    nc_tensor_destroy(b);
  }
  bn_free(&p);
  return ok;
}

static bool fold_batchnorm(nc_op *op, nc_rewriter *rw)
{
  nc_value *x = nc_op_get_operand(op, 0), *y = nc_op_get_result(op, 0);
  nc_op *p = nc_value_get_defining_op(x);
  nc_graph_activation act;
  if (!p || !gp_only_user(x, op) || nc_value_get_type(x) != nc_value_get_type(y) ||
      !nc_graph_get_activation(p, &act) || act.kind != NC_GRAPH_ACT_NONE)
    return batchnorm_to_depthwise(op, rw);
  bool conv = gp_is(p, "conv");
  if (!conv && !gp_is(p, "gemm") && !gp_is(p, "matmul"))
    return batchnorm_to_depthwise(op, rw);
  nc_type *elt = nc_type_get_element_type(nc_value_get_type(x));
  nc_dtype dt;
  if (!nc_type_is_float(elt) || !nc_interp_dtype_from_type(elt, &dt))
    return false;
  bn params;
  if (!bn_read(op, dt, &params))
    return false;
  bool ok = conv ? fold_into_conv(p, &params, rw, elt) : fold_into_gemm(p, &params, rw, elt);
  bn_free(&params);
  if (!ok)
    return false;
  /* the producer (or the gemm replacing it) now computes the batch_norm */
  nc_rewriter_replace_op(rw, op, (nc_value *[]){nc_op_get_operand(op, 0)});
  return true;
}

static const nc_pattern pattern = {"FoldBatchNormIntoProducer", 1, fold_batchnorm};

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  nc_pattern_set *set = nc_pattern_set_create(ctx);
  nc_pattern_set_add(set, "graph.batch_norm", &pattern);
  nc_pass_set_state(pass, set, gp_free_pattern_set);
  return true;
}

const nc_pass_def nc_graph_fold_batchnorm_pass = {
  .argument = "graph-fold-batchnorm",
  .name = "GraphFoldBatchNorm",
  .group = "Graph",
  .summary = "Fold graph.batch_norm into the preceding conv, gemm or matmul (else into a depthwise 1x1 conv)",
  .description =
    "Folds an inference graph.batch_norm whose input is the only use of a graph.conv, graph.gemm or 2-D graph.matmul "
    "result into that op: the weights are scaled per output channel by scale / sqrt(var + epsilon) and the bias "
    "(created if absent) absorbs the shift, with onnxruntime's float arithmetic step for step. A matmul becomes a "
    "graph.gemm. Only when the weights, the existing bias and the batch_norm's operands are constants and the "
    "producer has no fused activation. Any other batch_norm of a static [N, C, H, W] input becomes a 1x1 depthwise "
    "graph.conv (group C, weight scale / sqrt(var + epsilon), bias b - mean * that) computing the same map.",
  .anchor = "func.func",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .initialize = initialize,
  .run = gp_run_patterns,
};
