/* graph_quantize_acts.c: graph-quantize's concat, elementwise product and
 * activations (docs/quantization.md), the ops of inception, dense,
 * squeeze-and-excitation and mobile blocks:
 *   - concat of activations with different scales becomes
 *     graph.concat_integer, each input rescaled to the output scale
 *     (calibrated on the concat's result, so the largest input keeps its
 *     values) by the fixed-point rule; a concat of more inputs than a
 *     dataflow layer takes (NC_DATAFLOW_LAYER_MAX_INPUTS) becomes a tree
 *     whose inner concats rescale to the output scale and whose root copies
 *     (2^30 / 2^30), bit for bit the one concat;
 *   - mul of two activations, the second broadcasting to the first (an SE
 *     gate [1, C, 1, 1]), becomes graph.mul_integer with one rescale
 *     s_a * s_b / s_y;
 *   - sigmoid, hard_sigmoid, hard_swish, tanh, erf, leaky_relu, elu, softplus
 *     and a standalone clip (relu6) become graph.lut_integer, a table of
 *     2^bits entries computed here from the float function at the input's
 *     and the calibrated output's scale (nc_lut_build); more generally any
 *     "cone" of these and of add / sub / mul / div by scalar constants that
 *     is a function of one activation x becomes one table: x * sigmoid(x)
 *     (SiLU / swish), x * hard_sigmoid(x) (hard swish as torch exports it at
 *     opset 13), GELU's x * (erf(x / sqrt(2)) + 1) * 0.5, 3 * x; its inner
 *     ops are fused (only the cone's root is calibrated);
 *   - softmax along the last axis becomes graph.softmax_integer: a table of
 *     exp(d * s_x) in 16 fractional bits for the 2^bits differences d from
 *     the row's maximum, one exact division per element, output scale
 *     1 / qmax.
 * The float function is the reference kernel itself (nc_kernel_unary on
 * f32, the float graph's precision), so a table entry is what the float
 * graph computes at that input, rounded once.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph_quantize_internal.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/dialects/graph/kernels.h"

/* --- classification ------------------------------------------------------------------------------------------ */

static bool is_activation(nc_value *v)
{
  nc_op *d = nc_value_get_defining_op(v);
  nc_type *t = nc_value_get_type(v);
  return !(d && gp_is(d, "constant")) && nc_type_is_tensor(t) &&
         nc_type_get_kind(nc_type_get_element_type(t)) == NC_TYPE_F32 && nc_type_has_static_shape(t);
}

/* Unary ops whose float function becomes a table. */
static bool lut_unary(nc_op *op)
{
  static const char *const names[] = {"sigmoid", "hard_sigmoid", "hard_swish", "tanh", "erf",
                                      "leaky_relu", "elu", "softplus", "softsign", "selu", "celu"};
  for (size_t i = 0; i < NC_COUNTOF(names); i++)
    if (gp_is(op, names[i]))
      return true;
  return false;
}

/* A scalar constant (one element) and its value. */
static bool scalar_constant(nc_value *v, double *out)
{
  nc_op *d = nc_value_get_defining_op(v);
  if (!d || !gp_is(d, "constant") || nc_type_get_num_elements(nc_value_get_type(v)) != 1)
    return false;
  nc_tensor *t = gp_constant_tensor(v);
  if (t)
    *out = nc_tensor_get_f64(t, 0);
  nc_tensor_destroy(t);
  return t != NULL;
}

/* Elementwise ops a table absorbs: the unary activations, clip, and add /
 * sub / mul / div of two operands (scalar constants or values of the cone),
 * with an f32 result of the other operands' type and no fused activation. */
static bool cone_op(nc_op *op)
{
  bool unary = lut_unary(op) || gp_is(op, "clip");
  bool binary = (gp_is(op, "add") || gp_is(op, "sub") || gp_is(op, "mul") || gp_is(op, "div")) &&
                nc_op_get_num_operands(op) == 2;
  nc_graph_activation act;
  if (!(unary || binary) || nc_op_get_num_results(op) != 1 || !is_activation(nc_op_get_result(op, 0)) ||
      !nc_graph_get_activation(op, &act) || act.kind != NC_GRAPH_ACT_NONE)
    return false;
  nc_type *yt = nc_value_get_type(nc_op_get_result(op, 0));
  for (size_t i = 0; i < (unary ? 1 : 2); i++) { /* no broadcasting but of scalar constants */
    double c;
    nc_value *v = nc_op_get_operand(op, i);
    if (!scalar_constant(v, &c) && nc_value_get_type(v) != yt)
      return false;
  }
  return true;
}

/* The one activation x that op's result is a function of, through cone ops
 * used only inside the cone (x * sigmoid(x), GELU's x * (erf(x / c) + 1) *
 * 0.5, hard swish as x * hard_sigmoid(x), 3 * x); NULL if it depends on
 * two activations or on a constant that is not a scalar. */
static nc_value *cone_input(nc_op *op)
{
  nc_value *leaf = NULL;
  size_t n = gp_is(op, "clip") ? 1 : nc_op_get_num_operands(op);
  for (size_t i = 0; i < n; i++) {
    nc_value *v = nc_op_get_operand(op, i), *l;
    nc_op *d = nc_value_get_defining_op(v);
    double c;
    if (scalar_constant(v, &c))
      continue;
    if (d && gp_is(d, "constant"))
      return NULL;
    l = d && cone_op(d) && gp_only_user(v, op) ? cone_input(d) : NULL;
    l = l ? l : v; /* an op outside the cone (or one of two activations) is a leaf */
    if ((leaf && l != leaf) || !is_activation(l))
      return NULL;
    leaf = l;
  }
  return leaf;
}

/* op's cone is part of its only user's. */
static bool absorbed(nc_op *op)
{
  nc_use *u = nc_value_get_first_use(nc_op_get_result(op, 0));
  nc_op *user = u && !nc_use_get_next(u) ? nc_use_get_owner(u) : NULL;
  return user && cone_op(user) && cone_input(user) != NULL;
}

/* b broadcasts to a's shape (numpy, from the right). */
static bool broadcasts_to(nc_value *b, nc_value *a)
{
  nc_type *ta = nc_value_get_type(a), *tb = nc_value_get_type(b);
  size_t ra = nc_type_get_rank(ta), rb = nc_type_get_rank(tb);
  if (rb > ra)
    return false;
  for (size_t d = 0; d < rb; d++) {
    int64_t bd = nc_type_get_shape(tb)[d];
    if (bd != 1 && bd != nc_type_get_shape(ta)[d + ra - rb])
      return false;
  }
  return true;
}

static bool has_fused_activation(nc_op *op)
{
  nc_graph_activation act;
  return !nc_graph_get_activation(op, &act) || act.kind != NC_GRAPH_ACT_NONE;
}

gq_acts_class gq_acts_classify(nc_op *op)
{
  const char *name = nc_ident_str(nc_op_get_name(op));
  if (cone_op(op) && cone_input(op)) /* a function of one activation: a table, or part of its user's */
    return absorbed(op) ? GQ_ACTS_FUSED : GQ_ACTS_OP;
  bool mine = gp_is(op, "concat") || gp_is(op, "softmax") || gp_is(op, "clip") || lut_unary(op) ||
              (gp_is(op, "mul") && nc_op_get_num_operands(op) == 2 && is_activation(nc_op_get_operand(op, 0)) &&
               is_activation(nc_op_get_operand(op, 1)));
  if (!mine)
    return GQ_ACTS_NONE;
  if (nc_op_get_num_results(op) != 1 || !is_activation(nc_op_get_result(op, 0))) {
    nc_op_emit_error(op, "graph-quantize cannot quantize '%s': its result is not a statically shaped f32 tensor", name);
    return GQ_ACTS_ERROR;
  }
  for (size_t i = 0, n = gp_is(op, "clip") ? 1 : nc_op_get_num_operands(op); i < n; i++)
    if (!is_activation(nc_op_get_operand(op, i))) {
      nc_op_emit_error(op, "graph-quantize cannot quantize '%s' of a constant or dynamically shaped operand #%zu "
                       "(graph-optimize folds constant subgraphs; graph-shape-inference makes shapes static)",
                       name, i);
      return GQ_ACTS_ERROR;
    }
  if (has_fused_activation(op)) {
    nc_op_emit_error(op, "graph-quantize cannot quantize '%s' with a fused activation", name);
    return GQ_ACTS_ERROR;
  }
  if (gp_is(op, "softmax")) {
    int64_t rank = (int64_t)nc_type_get_rank(nc_value_get_type(nc_op_get_operand(op, 0)));
    int64_t axis = nc_graph_attr_int(op, "axis", -1);
    if (axis != -1 && axis != rank - 1) {
      nc_op_emit_error(op, "graph-quantize cannot quantize 'graph.softmax' along axis %lld: only the last axis",
                       (long long)axis);
      return GQ_ACTS_ERROR;
    }
  }
  if (gp_is(op, "mul")) {
    nc_value *a = nc_op_get_operand(op, 0), *b = nc_op_get_operand(op, 1);
    if (!broadcasts_to(b, a) && !broadcasts_to(a, b)) {
      nc_op_emit_error(op, "graph-quantize cannot quantize 'graph.mul' of two activations unless one broadcasts to "
                       "the other's shape");
      return GQ_ACTS_ERROR;
    }
  }
  return GQ_ACTS_OP;
}

/* --- unfusing --------------------------------------------------------------------------------------------------- */

bool gq_acts_unfuse(nc_op *op)
{
  nc_graph_activation act;
  if (!nc_op_get_attr_str(op, "activation") || !nc_graph_get_activation(op, &act) || nc_op_get_num_results(op) != 1)
    return true;
  /* a conv's, gemm's or matmul's clip with ordered bounds stays: graph.requantize clamps exactly */
  bool fused = act.kind == NC_GRAPH_ACT_CLIP && nc_graph_get_quant_class(nc_op_get_def(op)) == NC_GRAPH_QUANT_LAYER &&
               (!act.has_min || !act.has_max || act.min <= act.max) && (!act.has_min || isfinite(act.min)) &&
               (!act.has_max || isfinite(act.max));
  const char *name = act.kind == NC_GRAPH_ACT_SIGMOID      ? "graph.sigmoid"
                     : act.kind == NC_GRAPH_ACT_TANH       ? "graph.tanh"
                     : act.kind == NC_GRAPH_ACT_LEAKY_RELU ? "graph.leaky_relu"
                     : act.kind == NC_GRAPH_ACT_CLIP && !fused ? "graph.clip"
                                                              : NULL;
  if (!name)
    return true;
  nc_context *ctx = nc_op_get_context(op);
  nc_type *f32 = nc_type_f32(ctx);
  nc_named_attr attrs[2];
  size_t na = 0;
  if (act.kind == NC_GRAPH_ACT_LEAKY_RELU)
    attrs[na++] = (nc_named_attr){nc_ident_get_cstr(ctx, "alpha"), nc_attr_float(ctx, f32, act.alpha)};
  if (act.kind == NC_GRAPH_ACT_CLIP && act.has_min)
    attrs[na++] = (nc_named_attr){nc_ident_get_cstr(ctx, "min"), nc_attr_float(ctx, f32, act.min)};
  if (act.kind == NC_GRAPH_ACT_CLIP && act.has_max)
    attrs[na++] = (nc_named_attr){nc_ident_get_cstr(ctx, "max"), nc_attr_float(ctx, f32, act.max)};
  nc_value *y = nc_op_get_result(op, 0);
  nc_type *t = nc_value_get_type(y);
  nc_op *a = nc_graph_create_op(ctx, name, nc_op_get_loc(op), 1, &y, na, attrs, 1, &t);
  if (!a)
    return false;
  nc_op_insert_after(a, op);
  nc_value_replace_all_uses_except(y, nc_op_get_result(a, 0), a);
  static const char *const keys[] = {"activation", "activation_alpha", "activation_min", "activation_max"};
  for (size_t i = 0; i < NC_COUNTOF(keys); i++)
    nc_op_remove_attr(op, nc_ident_get_cstr(ctx, keys[i]));
  return true;
}

/* --- the rewrites ---------------------------------------------------------------------------------------------- */

static bool rescale(nc_op *op, double scale, int64_t *m, int64_t *s)
{
  int32_t mm, ss;
  char err[256];
  if (!nc_fixed_point_from_scale(scale, &mm, &ss, err, sizeof err))
    return nc_op_emit_error(op, "graph-quantize cannot quantize '%s': %s", nc_ident_str(nc_op_get_name(op)), err);
  *m = mm, *s = ss;
  return true;
}

/* One graph.concat_integer of n inputs with the given rescales, typed as
 * `like` with its axis extent; NULL after an error. */
static nc_value *concat_op(rewrite *rw, nc_op *op, size_t n, nc_value *const *in, const int64_t *m,
                           const int64_t *s, int64_t axis, nc_type *elt)
{
  nc_type *t = nc_value_get_type(nc_op_get_result(op, 0));
  size_t rank = nc_type_get_rank(t), ax = (size_t)(axis < 0 ? axis + (int64_t)rank : axis);
  int64_t shape[NC_MAX_RANK];
  memcpy(shape, nc_type_get_shape(t), rank * sizeof *shape);
  shape[ax] = 0;
  for (size_t i = 0; i < n; i++)
    shape[ax] += nc_type_get_shape(nc_value_get_type(in[i]))[ax];
  nc_named_attr attrs[] = {
    gq_named(rw, "axis", nc_attr_integer(rw->ctx, rw->i64, axis)),
    gq_named(rw, "multiplier", nc_attr_dense_array(rw->ctx, rw->i64, n, m)),
    gq_named(rw, "shift", nc_attr_dense_array(rw->ctx, rw->i64, n, s)),
    gq_named(rw, "output_zero_point", nc_attr_integer(rw->ctx, rw->i64, 0)),
  };
  nc_type *ty = nc_type_tensor(rw->ctx, rank, shape, elt, NULL);
  nc_op *q = gq_add_op(rw, op, "graph.concat_integer", nc_op_get_loc(op), n, in, NC_COUNTOF(attrs), attrs, ty);
  return q ? nc_op_get_result(q, 0) : NULL;
}

/* How many float concats read v. */
static size_t concat_readers(nc_value *v)
{
  size_t k = 0;
  for (nc_use *u = nc_value_get_first_use(v); u; u = nc_use_get_next(u))
    k += gp_is(nc_use_get_owner(u), "concat");
  return k;
}

/* x rescaled by (m, s) as a one-input graph.concat_integer, the one made
 * for an earlier concat of this block if there is one (same input, same
 * rescale, same width), else a new one before `op`; NULL after an error. */
static nc_value *shared_rescale(rewrite *rw, nc_op *op, nc_value *x, int64_t m, int64_t s, int64_t axis,
                                nc_type *elt)
{
  nc_ident *k_m = nc_ident_get_cstr(rw->ctx, "multiplier"), *k_s = nc_ident_get_cstr(rw->ctx, "shift");
  for (nc_use *u = nc_value_get_first_use(x); u; u = nc_use_get_next(u)) {
    nc_op *r = nc_use_get_owner(u);
    if (!gp_is(r, "concat_integer") || nc_op_get_num_operands(r) != 1 || nc_op_get_block(r) != nc_op_get_block(op) ||
        !nc_op_is_before_in_block(r, op) || nc_graph_attr_int(r, "axis", 0) != axis ||
        nc_type_get_element_type(nc_value_get_type(nc_op_get_result(r, 0))) != elt)
      continue;
    nc_attr *am = nc_op_get_attr(r, k_m), *as = nc_op_get_attr(r, k_s);
    if (am && as && nc_attr_dense_array_get_int(am, 0) == m && nc_attr_dense_array_get_int(as, 0) == s)
      return nc_op_get_result(r, 0);
  }
  return concat_op(rw, op, 1, &x, &m, &s, axis, elt);
}

static bool quantize_concat(rewrite *rw, nc_op *op, float sy, nc_type *elt)
{
  size_t n = nc_op_get_num_operands(op), max = NC_DATAFLOW_LAYER_MAX_INPUTS;
  if (n > max * max)
    return nc_op_emit_error(op, "graph-quantize cannot quantize a concat of %zu inputs (at most %zu)", n, max * max);
  int64_t axis = nc_graph_attr_int(op, "axis", 0);
  nc_value **in = nc_xcalloc(n + 1, sizeof *in);
  int64_t *m = nc_xcalloc(n + 1, sizeof *m), *s = nc_xcalloc(n + 1, sizeof *s);
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    const qval *x = gq_lookup(rw, nc_op_get_operand(op, i));
    ok = x ? rescale(op, (double)x->scale / (double)sy, &m[i], &s[i])
           : nc_op_emit_error(op, "graph-quantize: operand #%zu has no quantized form", i);
    if (ok)
      in[i] = x->v;
  }
  /* An input that several concats rescale the same way (a dense block's
   * first features, at another width than the block's layers) is rescaled
   * once, by a layer of its own, when that leaves this concat copying every
   * input as it is: then the concat only moves data (core-fold-concat) and
   * the rescaled copy is made and sent once, not once per concat. The values
   * are the same bit for bit: the copy is exact (2^30 / 2^30). */
  const int64_t one = (int64_t)1 << 30;
  size_t n_rescaled = 0, n_shared = 0;
  for (size_t i = 0; i < n && ok; i++)
    if (m[i] != one || s[i] != 30) {
      n_rescaled++;
      n_shared += concat_readers(nc_op_get_operand(op, i)) >= 2;
    }
  if (ok && n >= 2 && n <= max && n_rescaled > 0 && n_shared == n_rescaled && rw->share_rescales)
    for (size_t i = 0; i < n && ok; i++)
      if (m[i] != one || s[i] != 30) {
        in[i] = shared_rescale(rw, op, in[i], m[i], s[i], axis, elt);
        ok = in[i] != NULL;
        m[i] = one, s[i] = 30;
      }
  nc_value *y = NULL;
  if (ok && n <= max) {
    y = concat_op(rw, op, n, in, m, s, axis, elt);
  } else if (ok) { /* chunks of `max` rescaled to sy, then copied together */
    size_t chunks = (n + max - 1) / max;
    nc_value *part[NC_DATAFLOW_LAYER_MAX_INPUTS];
    int64_t pm[NC_DATAFLOW_LAYER_MAX_INPUTS], ps[NC_DATAFLOW_LAYER_MAX_INPUTS];
    for (size_t c = 0; c < chunks && ok; c++) {
      size_t lo = c * max, k = n - lo < max ? n - lo : max;
      if (k == 1) { /* a lone input keeps its own rescale at the root */
        part[c] = in[lo], pm[c] = m[lo], ps[c] = s[lo];
      } else {
        part[c] = concat_op(rw, op, k, in + lo, m + lo, s + lo, axis, elt);
        pm[c] = (int64_t)1 << 30, ps[c] = 30;
      }
      ok = part[c] != NULL;
    }
    y = ok ? concat_op(rw, op, chunks, part, pm, ps, axis, elt) : NULL;
  }
  if (y)
    gq_bind(rw, nc_op_get_result(op, 0), y, sy);
  free(in);
  free(m);
  free(s);
  return y != NULL;
}

bool gq_acts_rescale(rewrite *rw, nc_op *op, const qval *x, float sy)
{
  int64_t m, s;
  size_t rank = nc_type_get_rank(nc_value_get_type(x->v));
  if (!rescale(op, (double)x->scale / (double)sy, &m, &s))
    return false;
  nc_value *y = concat_op(rw, op, 1, &x->v, &m, &s, rank >= 2 ? 1 : 0,
                          nc_type_get_element_type(nc_value_get_type(x->v)));
  if (y)
    gq_bind(rw, nc_op_get_result(op, 0), y, sy);
  return y != NULL;
}

static bool quantize_mul(rewrite *rw, nc_op *op, float sy, nc_type *elt)
{
  nc_value *a = nc_op_get_operand(op, 0), *b = nc_op_get_operand(op, 1);
  if (!broadcasts_to(b, a)) { /* the full-shape operand first */
    nc_value *t = a;
    a = b, b = t;
  }
  const qval *qa = gq_lookup(rw, a), *qb = gq_lookup(rw, b);
  int64_t m, s;
  if (!qa || !qb)
    return nc_op_emit_error(op, "graph-quantize: an operand has no quantized form");
  if (!rescale(op, (double)qa->scale * (double)qb->scale / (double)sy, &m, &s))
    return false;
  nc_named_attr attrs[] = {
    gq_named(rw, "multiplier", nc_attr_integer(rw->ctx, rw->i64, m)),
    gq_named(rw, "shift", nc_attr_integer(rw->ctx, rw->i64, s)),
    gq_named(rw, "output_zero_point", nc_attr_integer(rw->ctx, rw->i64, 0)),
  };
  nc_value *y = nc_op_get_result(op, 0);
  nc_op *q = gq_add_op(rw, op, "graph.mul_integer", nc_op_get_loc(op), 2, (nc_value *[]){qa->v, qb->v},
                       NC_COUNTOF(attrs), attrs, gq_like(rw, y, elt));
  if (q)
    gq_bind(rw, y, nc_op_get_result(q, 0), sy);
  return q != NULL;
}

/* The float function of a table: the cone of `root` evaluated at x = the
 * cone's input, op by op in f32 as the float graph computes it (the unary
 * activations by their reference kernel). */
typedef struct lut_fn {
  nc_op *root;
  nc_value *x;
} lut_fn;

static float eval_value(const lut_fn *f, nc_value *v, float x);

static float eval_op(const lut_fn *f, nc_op *op, float x)
{
  float a = eval_value(f, nc_op_get_operand(op, 0), x);
  if (gp_is(op, "clip")) {
    float lo = nc_op_get_attr_str(op, "min") ? (float)nc_graph_attr_float(op, "min", 0) : -INFINITY;
    float hi = nc_op_get_attr_str(op, "max") ? (float)nc_graph_attr_float(op, "max", 0) : INFINITY;
    return a < lo ? lo : a > hi ? hi : a;
  }
  if (nc_op_get_num_operands(op) == 2) {
    float b = eval_value(f, nc_op_get_operand(op, 1), x);
    return gp_is(op, "add") ? a + b : gp_is(op, "sub") ? a - b : gp_is(op, "mul") ? a * b : a / b;
  }
  nc_unary_op kind;
  nc_unary_params p;
  if (!nc_graph_get_unary_op(op, &kind, &p))
    return NAN;
  nc_tensor *in = nc_tensor_create(NC_DT_F32, 0, NULL, 0), *out = nc_tensor_create(NC_DT_F32, 0, NULL, 0);
  nc_tensor_set_f64(in, 0, a);
  char err[128];
  float g = nc_kernel_unary(kind, &p, in, out, err, sizeof err) ? (float)nc_tensor_get_f64(out, 0) : NAN;
  nc_tensor_destroy(in);
  nc_tensor_destroy(out);
  return g;
}

static float eval_value(const lut_fn *f, nc_value *v, float x)
{
  double c;
  if (v == f->x)
    return x;
  if (scalar_constant(v, &c))
    return (float)c;
  nc_op *d = nc_value_get_defining_op(v);
  return d ? eval_op(f, d, x) : NAN;
}

static double eval_fn(double x, void *userData)
{
  const lut_fn *f = userData;
  return eval_op(f, f->root, (float)x);
}

/* The width of a quantized value's integer elements (8 if it has none). */
static unsigned value_bits(nc_value *v)
{
  nc_type *t = nc_value_get_type(v), *e = nc_type_is_tensor(t) ? nc_type_get_element_type(t) : t;
  return e && nc_type_is_integer(e) ? nc_type_get_width(e) : 8;
}

/* The table has one entry per value of the input's width; its entries are
 * the function at the result's width (out_bits), which may differ. */
static bool quantize_lut(rewrite *rw, nc_op *op, float sy, nc_type *elt)
{
  const char *name = nc_ident_str(nc_op_get_name(op));
  lut_fn f = {op, cone_input(op)};
  const qval *x = f.x ? gq_lookup(rw, f.x) : NULL;
  if (!x)
    return nc_op_emit_error(op, "graph-quantize: the input of '%s' has no quantized form", name);
  unsigned in_bits = value_bits(x->v), out_bits = nc_type_get_width(elt);
  unsigned bits = in_bits > out_bits ? in_bits : out_bits; /* built at the wider width, clamped to it */
  size_t n = (size_t)1 << in_bits, wide = (size_t)1 << bits;
  int64_t *table = nc_xcalloc(wide, sizeof *table);
  char err[256];
  bool ok = nc_lut_build(eval_fn, &f, x->scale, sy, bits, table, err, sizeof err);
  nc_op *q = NULL;
  if (!ok) {
    nc_op_emit_error(op, "graph-quantize cannot tabulate '%s': %s", name, err);
  } else { /* the input's values are the middle n entries of the wide table */
    nc_named_attr attrs[] = {gq_named(rw, "table", nc_attr_dense_array(rw->ctx, rw->i64, n, table + (wide - n) / 2))};
    nc_value *y = nc_op_get_result(op, 0);
    q = gq_add_op(rw, op, "graph.lut_integer", nc_op_get_loc(op), 1, (nc_value *[]){x->v}, 1, attrs,
                  gq_like(rw, y, elt));
    if (q)
      gq_bind(rw, y, nc_op_get_result(q, 0), sy);
  }
  free(table);
  return q != NULL;
}

/* softmax: graph.softmax_integer with the exponential table of the input's
 * scale in 16 fractional bits; the result's scale is 1 / qmax (the
 * probability, whatever the calibration saw). */
static bool quantize_softmax(rewrite *rw, nc_op *op, nc_type *elt)
{
  const qval *x = gq_lookup(rw, nc_op_get_operand(op, 0));
  if (!x)
    return nc_op_emit_error(op, "graph-quantize: operand #0 has no quantized form");
  int qmax = (1 << (nc_type_get_width(elt) - 1)) - 1;
  size_t n = (size_t)1 << value_bits(x->v); /* one entry per difference of two inputs' values */
  int64_t *table = nc_xcalloc(n, sizeof *table);
  for (size_t k = 0; k < n; k++)
    table[k] = (int64_t)nearbyint(65536.0 * exp((double)((int64_t)k - (int64_t)n + 1) * (double)x->scale));
  nc_named_attr attrs[] = {gq_named(rw, "table", nc_attr_dense_array(rw->ctx, rw->i64, n, table))};
  nc_value *y = nc_op_get_result(op, 0);
  nc_op *q = gq_add_op(rw, op, "graph.softmax_integer", nc_op_get_loc(op), 1, (nc_value *[]){x->v}, 1, attrs,
                       gq_like(rw, y, elt));
  if (q)
    gq_bind(rw, y, nc_op_get_result(q, 0), 1.0f / (float)qmax);
  free(table);
  return q != NULL;
}

bool gq_acts_quantize(rewrite *rw, nc_op *op, float sy, int bits)
{
  nc_type *elt = nc_type_integer(rw->ctx, (unsigned)bits, NC_SIGNLESS);
  if (gp_is(op, "softmax"))
    return quantize_softmax(rw, op, elt);
  if (gp_is(op, "concat"))
    return quantize_concat(rw, op, sy, elt);
  if (gp_is(op, "mul") && !cone_input(op))
    return quantize_mul(rw, op, sy, elt);
  return quantize_lut(rw, op, sy, elt);
}
