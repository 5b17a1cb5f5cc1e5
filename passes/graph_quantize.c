/* graph_quantize.c: graph-quantize{bits=8 calibration=PATH max-samples=N},
 * which turns a float graph into an integer one (docs/quantization.md;
 * the contract is docs/design/spine.md, section 1).
 *
 * Integer-only accelerators run int8 multiply-accumulates into int32 and
 * rescale with an integer multiplier and a shift, so that is the form the
 * graph takes here, with every number the hardware needs as an attribute or
 * a constant:
 *   - each conv / gemm / matmul with constant weights (after graph-optimize:
 *     bias and relu fused) becomes graph.conv_integer or graph.matmul_integer
 *     (int8 x int8 -> int32) and graph.requantize (int32 bias, per-channel
 *     fixed-point multiplier and shift, fused relu, a fused clip's bounds
 *     as clamp_min / clamp_max, saturation to int8);
 *   - weights are symmetric per output channel in [-127, 127],
 *     s_w[c] = max|w_c| / 127 (1 for an all-zero channel); gemm weights are
 *     stored [K, N] (alpha folded in) so the matmul needs no transpose;
 *   - activations are symmetric per tensor (zero point 0), s = max|x| / 127
 *     rounded to f32, with max|x| measured by running the float graph in the
 *     reference interpreter on the calibration inputs
 *     (graph_quantize_calibrate.c);
 *   - bias_q[c] = round_half_even(b[c] / (s_x * s_w[c])) in int32, and the
 *     requantize scale s_x * s_w[c] / s_y becomes (multiplier, shift) by
 *     nc_fixed_point_from_scale;
 *   - the ops whose row in dialects/graph/graph_ops.def says PASS_THROUGH
 *     (max_pool, avg_pool, flatten, reshape, resize, pad, relu, ...) run on
 *     int8 with their input's scale (average pools as the integer mean, a
 *     pad's fill value as round_half_even(value / scale));
 *   - the input gets graph.quantize_linear and each result
 *     graph.dequantize_linear, so the function keeps its f32 signature.
 * Any other op, fused activation or non-constant weight is an error at that
 * op, checked before anything changes. Weights and biases are stored as
 * dense_resource blobs.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_quantize_internal.h"
#include "nc/dialects/graph/interp.h"
#include "nc/ir/asm.h"
#include "nc/ir/pass.h"
#include "nc/support/npy.h"

static const nc_pass_option_def options[] = {
  {"bits", NC_PASS_OPT_INT, "8",
   "Bits of the quantized weights and activations: 8, 4 or 2 (the first and last layers stay at 8)"},
  {"overrides", NC_PASS_OPT_STRING, "", "Per-layer widths LAYER:BITS,... (LAYER: the layer's location name)"},
  {"calibration", NC_PASS_OPT_STRING, "",
   ".npy file of f32 calibration inputs, N x the function's input shape (required unless the model is "
   "pre-quantized: QuantizeLinear -> DequantizeLinear giving every layer's scale)"},
  {"max-samples", NC_PASS_OPT_INT, "0", "Calibrate on at most this many samples (0: all of them)"},
  {"method", NC_PASS_OPT_STRING, "maxabs",
   "How activation ranges are chosen: maxabs, percentile (see `percentile`) or mse (least squared error)"},
  {"percentile", NC_PASS_OPT_STRING, "99.99", "The percentile of |x| that method=percentile clips at, in (0, 100]"},
  {"report", NC_PASS_OPT_STRING, "",
   "Write each layer's bits, scale and SQNR (dB, against float on the calibration inputs) to this JSON file and "
   "a table to stderr"},
  {"mixed", NC_PASS_OPT_BOOL, "false",
   "Choose each layer's width (8, 4 or 2) by measured sensitivity under a budget (min-sqnr, max-accuracy-drop), "
   "narrowing first the layers that shorten the pipeline's cycles per frame the most (estimated with core-place's "
   "balancing on the module's chip, nc.chip; without one, MAC cycles) (graph_quantize_mixed.c)"},
  {"balance", NC_PASS_OPT_BOOL, "true",
   "mixed: the throughput estimate gives the chip's spare cores to the slowest stages, as core-place{balance} (the "
   "target's --balance)"},
  {"multicast", NC_PASS_OPT_BOOL, "true",
   "mixed: the throughput estimate costs sends as multicasts, as core-place{multicast} (the target's --multicast)"},
  {"share-concat-scales", NC_PASS_OPT_BOOL, "true",
   "A concat and the layers computing its inputs get one output scale (the largest range), so the concat only "
   "moves data and core-fold-concat can fold it away (graph_quantize_share.c); an input that several concats "
   "rescale alike is rescaled once, by a one-input concat of its own, when that leaves them only moving data"},
  {"labels", NC_PASS_OPT_STRING, "",
   "mixed: .npy file of the calibration samples' integer class labels; the budget is then accuracy"},
  {"max-accuracy-drop", NC_PASS_OPT_STRING, "",
   "mixed (with labels): the most accuracy, in percentage points below the float model's on the labelled "
   "calibration samples, the chosen widths may lose (default 0.5)"},
  {"min-sqnr", NC_PASS_OPT_STRING, "",
   "mixed: the least SQNR (dB) of the network's output against float on the calibration samples"},
};

static const nc_pass_stat_def stats[] = {
  {"num-layers", "Number of conv / gemm / matmul layers, adds / subs, concats, products, tables and softmaxes quantized"},
  {"num-samples", "Number of calibration samples run"},
};

/* --mlir-timing rows under GraphQuantize: running the graph on the
 * calibration inputs (ranges, mixed-precision trials, the quant report)
 * apart from building the integer graph, which issue 9 times separately. */
enum { T_CALIBRATION, T_WEIGHTS };
static const char *const timers[] = {"Calibration", "WeightQuantization"};

/* --- options and the calibration file -------------------------------------------------------------------- */

/* What initialize reads once for every function: the calibration inputs,
 * the labels and the budget of mixed precision. */
typedef struct state {
  nc_tensor *calib, *labels;
  gq_mixed_budget budget;
} state;

static void free_state(void *p)
{
  state *st = p;
  nc_tensor_destroy(st->calib);
  nc_tensor_destroy(st->labels);
  free(st);
}

/* A budget value: "" (not given) or a finite number in [lo, hi]. */
static bool parse_budget(nc_context *ctx, const char *opt, const char *s, double lo, double hi, bool *has, double *v)
{
  char *end = NULL;
  *has = *s != 0;
  if (!*has)
    return true;
  *v = strtod(s, &end);
  if (end != s && !*end && *v >= lo && *v <= hi)
    return true;
  nc_emit_error(ctx, nc_location_unknown(), "graph-quantize: %s '%s' is not a number in [%g, %g]", opt, s, lo, hi);
  return false;
}

/* mixed precision's options: a budget (the accuracy one needs labels), none of them without mixed. */
static bool initialize_mixed(nc_pass *pass, nc_context *ctx, state *st)
{
  bool mixed = nc_pass_get_option_bool(pass, "mixed");
  const char *labels = nc_pass_get_option_string(pass, "labels");
  gq_mixed_budget *b = &st->budget;
  if (!parse_budget(ctx, "max-accuracy-drop", nc_pass_get_option_string(pass, "max-accuracy-drop"), 0, 100,
                    &b->has_accuracy, &b->max_accuracy_drop) ||
      !parse_budget(ctx, "min-sqnr", nc_pass_get_option_string(pass, "min-sqnr"), -1000, 1000, &b->has_sqnr,
                    &b->min_sqnr))
    return false;
  if (!mixed && (*labels || b->has_accuracy || b->has_sqnr)) {
    nc_emit_error(ctx, nc_location_unknown(), "graph-quantize: %s only applies to mixed precision (mixed=true, "
                  "nc-compile --precision=mixed)", *labels ? "labels" : b->has_accuracy ? "max-accuracy-drop"
                                                                                       : "min-sqnr");
    return false;
  }
  if (!mixed)
    return true;
  if (nc_pass_get_option_int(pass, "bits") != 8) {
    nc_emit_error(ctx, nc_location_unknown(), "graph-quantize: mixed chooses every width itself; bits=%lld cannot "
                  "go with it (use overrides to fix a layer's width)", (long long)nc_pass_get_option_int(pass, "bits"));
    return false;
  }
  if (b->has_accuracy && !*labels) {
    nc_emit_error(ctx, nc_location_unknown(), "graph-quantize: max-accuracy-drop needs labels=FILE (nc-compile "
                  "--labels=y.npy): the class of each calibration sample");
    return false;
  }
  if (*labels && !b->has_accuracy) { /* the default budget */
    b->has_accuracy = true;
    b->max_accuracy_drop = 0.5;
  }
  if (!b->has_accuracy && !b->has_sqnr) {
    nc_emit_error(ctx, nc_location_unknown(), "graph-quantize: mixed precision needs a budget: min-sqnr=DB "
                  "(nc-compile --min-sqnr), or labels=FILE with max-accuracy-drop=POINTS (--labels, "
                  "--max-accuracy-drop)");
    return false;
  }
  if (*labels) {
    char err[512];
    st->labels = nc_npy_read(labels, err, sizeof err);
    if (!st->labels) {
      nc_emit_error(ctx, nc_location_unknown(), "graph-quantize: cannot read the labels: %s", err);
      return false;
    }
    b->labels = st->labels;
    b->labels_path = labels;
  }
  return true;
}

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  int64_t bits = nc_pass_get_option_int(pass, "bits");
  const char *path = nc_pass_get_option_string(pass, "calibration");
  if (!gq_bits_valid(bits)) {
    nc_emit_error(ctx, nc_location_unknown(), "graph-quantize: bits=%lld is not supported (8, 4 or 2)",
                  (long long)bits);
    return false;
  }
  gq_calib_method method;
  const char *pct = nc_pass_get_option_string(pass, "percentile");
  char *end = NULL;
  double p = strtod(pct, &end);
  if (!gq_calib_method_parse(nc_pass_get_option_string(pass, "method"), &method)) {
    nc_emit_error(ctx, nc_location_unknown(), "graph-quantize: unknown method '%s' (maxabs, percentile or mse)",
                  nc_pass_get_option_string(pass, "method"));
    return false;
  }
  if (end == pct || *end || !(p > 0 && p <= 100)) {
    nc_emit_error(ctx, nc_location_unknown(), "graph-quantize: percentile '%s' is not a number in (0, 100]", pct);
    return false;
  }
  if (nc_pass_get_option_int(pass, "max-samples") < 0) {
    nc_emit_error(ctx, nc_location_unknown(), "graph-quantize: max-samples must be >= 0 (0: all samples)");
    return false;
  }
  state *st = nc_xcalloc(1, sizeof *st);
  nc_pass_set_state(pass, st, free_state);
  if (!initialize_mixed(pass, ctx, st))
    return false;
  if (!*path)
    return true; /* fine for a pre-quantized (QDQ) model; else an error at the function */
  char err[512];
  st->calib = nc_npy_read(path, err, sizeof err);
  if (!st->calib) {
    nc_emit_error(ctx, nc_location_unknown(), "graph-quantize: cannot read the calibration data: %s", err);
    return false;
  }
  return true;
}

/* --- checking the function ---------------------------------------------------------------------------------- */

/* K_ELTWISE: add / sub of two activations (a residual connection); K_FUSED:
 * a relu that is the only user of such an add, applied by it; K_QDQ: half
 * of a pre-quantized model's QuantizeLinear -> DequantizeLinear pair
 * (graph_quantize_qdq.c), the identity on int8; K_ACTS: concat, mul, tables,
 * softmax (graph_quantize_acts.c). */
typedef enum op_kind { K_CONSTANT, K_LAYER, K_PASS, K_ELTWISE, K_FUSED, K_QDQ, K_ACTS } op_kind;

static bool is_constant(nc_value *v)
{
  nc_op *d = nc_value_get_defining_op(v);
  return d && gp_is(d, "constant");
}

static bool is_f32_tensor(nc_value *v)
{
  nc_type *t = nc_value_get_type(v);
  return nc_type_is_tensor(t) && nc_type_get_kind(nc_type_get_element_type(t)) == NC_TYPE_F32;
}

static size_t rank_of(nc_value *v) { return nc_type_get_rank(nc_value_get_type(v)); }

static bool expect_f32(nc_op *op, nc_value *v, const char *what)
{
  if (is_f32_tensor(v))
    return true;
  char *s = nc_type_to_string(nc_value_get_type(v));
  nc_op_emit_error(op, "graph-quantize cannot quantize '%s': its %s is '%s', expected an f32 tensor",
                   nc_ident_str(nc_op_get_name(op)), what, s);
  free(s);
  return false;
}

/* An activation operand: computed from the input, not a constant. */
static bool expect_activation(nc_op *op, nc_value *v)
{
  if (!is_constant(v))
    return expect_f32(op, v, "input");
  return nc_op_emit_error(op, "graph-quantize cannot quantize '%s' of a constant (run graph-optimize first to fold "
                          "constant subgraphs)", nc_ident_str(nc_op_get_name(op)));
}

static bool expect_constant(nc_op *op, nc_value *v, const char *what)
{
  if (is_constant(v))
    return expect_f32(op, v, what);
  return nc_op_emit_error(op, "graph-quantize cannot quantize '%s': its %s is not a constant",
                          nc_ident_str(nc_op_get_name(op)), what);
}

/* A fused clip whose bounds are in order (relu6, hardtanh, ...): it
 * becomes graph.requantize's relu and clamp_min / clamp_max, exactly, since
 * rounding is monotone: round(clip(y, lo, hi) / s) = clamp(round(y / s),
 * round(lo / s), round(hi / s)) (gq_clip_bounds). */
static bool is_fusable_clip(const nc_graph_activation *act)
{
  return act->kind == NC_GRAPH_ACT_CLIP && (!act->has_min || !act->has_max || act->min <= act->max) &&
         (!act->has_min || isfinite(act->min)) && (!act->has_max || isfinite(act->max));
}

/* conv / gemm / matmul: constant weights (and bias), relu, relu6 or no activation. */
static bool check_layer(nc_op *op)
{
  const char *name = nc_ident_str(nc_op_get_name(op));
  nc_graph_activation act;
  if (!nc_graph_get_activation(op, &act) ||
      (act.kind != NC_GRAPH_ACT_NONE && act.kind != NC_GRAPH_ACT_RELU && !is_fusable_clip(&act)))
    return nc_op_emit_error(op, "graph-quantize cannot quantize '%s' with the fused activation \"%s\": only relu "
                            "and clip with ordered finite bounds fold into graph.requantize", name,
                            nc_graph_attr_string(op, "activation", "?"));
  size_t n = nc_op_get_num_operands(op);
  if (!expect_activation(op, nc_op_get_operand(op, 0)) || !expect_constant(op, nc_op_get_operand(op, 1), "weight") ||
      (n > 2 && !expect_constant(op, nc_op_get_operand(op, 2), "bias")) ||
      !expect_f32(op, nc_op_get_result(op, 0), "result"))
    return false;
  nc_type *wt = nc_value_get_type(nc_op_get_operand(op, 1));
  if (!nc_type_has_static_shape(wt) || !nc_type_has_static_shape(nc_value_get_type(nc_op_get_result(op, 0))))
    return nc_op_emit_error(op, "graph-quantize cannot quantize '%s' with dynamic shapes (run graph-shape-inference "
                            "first)", name);
  if (gp_is(op, "conv"))
    return true;
  if (nc_type_get_rank(wt) != 2)
    return nc_op_emit_error(op, "graph-quantize cannot quantize '%s' with %zu-D weights (only 2-D)", name,
                            nc_type_get_rank(wt));
  if (gp_is(op, "matmul")) {
    if (rank_of(nc_op_get_operand(op, 0)) < 2)
      return nc_op_emit_error(op, "graph-quantize cannot quantize 'graph.matmul' of a 1-D input");
    return true;
  }
  nc_gemm_params gp;
  if (!nc_graph_get_gemm_params(op, &gp) || gp.trans_a)
    return nc_op_emit_error(op, "graph-quantize cannot quantize 'graph.gemm' with trans_a (transpose the input "
                            "first)");
  if (n > 2) { /* c must be one value per output column */
    nc_type *ct = nc_value_get_type(nc_op_get_operand(op, 2));
    size_t r = nc_type_get_rank(ct);
    int64_t rows = nc_type_get_shape(nc_value_get_type(nc_op_get_result(op, 0)))[0];
    if (r == 2 && nc_type_get_shape(ct)[0] != 1 && rows != 1)
      return nc_op_emit_error(op, "graph-quantize cannot quantize 'graph.gemm' whose c differs between rows (it "
                              "needs one bias per output column)");
  }
  return true;
}

/* Appends ", name" (without the "graph." prefix) to buf for each graph op
 * of quantization class q, in alphabetical order. */
static int cmp_names(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static void list_ops(nc_graph_quant_class q, const char *last_sep, char *buf, size_t len)
{
  const char *names[64];
  size_t n = 0;
  for (size_t k = 0; k < nc_graph_dialect.n_ops && n < NC_COUNTOF(names); k++)
    if (nc_graph_get_quant_class(&nc_graph_dialect.ops[k]) == q)
      names[n++] = nc_graph_dialect.ops[k].name + strlen("graph.");
  qsort(names, n, sizeof *names, cmp_names);
  for (size_t i = 0; i < n; i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", !i ? "" : i + 1 == n ? last_sep : ", ", names[i]);
  }
}

/* graph.add / graph.sub of two activations of the result's static shape,
 * with no fused activation or a fused relu. */
static bool is_residual(nc_op *op)
{
  nc_graph_activation act;
  if ((!gp_is(op, "add") && !gp_is(op, "sub")) || nc_op_get_num_operands(op) != 2 ||
      !nc_graph_get_activation(op, &act) || (act.kind != NC_GRAPH_ACT_NONE && act.kind != NC_GRAPH_ACT_RELU))
    return false;
  nc_type *yt = nc_value_get_type(nc_op_get_result(op, 0));
  for (size_t i = 0; i < 2; i++) {
    nc_value *v = nc_op_get_operand(op, i);
    if (is_constant(v) || !is_f32_tensor(v) || nc_value_get_type(v) != yt)
      return false;
  }
  return is_f32_tensor(nc_op_get_result(op, 0)) && nc_type_has_static_shape(yt);
}

/* The relu that is the only user of `op`'s result, or NULL. */
static nc_op *sole_relu_user(nc_op *op)
{
  nc_use *u = nc_value_get_first_use(nc_op_get_result(op, 0));
  nc_op *user = u && !nc_use_get_next(u) ? nc_use_get_owner(u) : NULL;
  return user && gp_is(user, "relu") ? user : NULL;
}

static int check_op(nc_op *op)
{
  float qdq_scale;
  int qdq = gq_qdq_check(op, &qdq_scale);
  if (qdq)
    return qdq > 0 ? K_QDQ : -1;
  if (is_residual(op))
    return K_ELTWISE;
  switch (gq_acts_classify(op)) { /* concat, mul, activations as tables (graph_quantize_acts.c) */
  case GQ_ACTS_ERROR: return -1;
  case GQ_ACTS_OP: return K_ACTS;
  case GQ_ACTS_FUSED: return K_FUSED;
  default: break;
  }
  switch (nc_graph_get_quant_class(nc_op_get_def(op))) {
  case NC_GRAPH_QUANT_CONSTANT:
    return K_CONSTANT;
  case NC_GRAPH_QUANT_LAYER:
    return check_layer(op) ? K_LAYER : -1;
  case NC_GRAPH_QUANT_PASS_THROUGH:
    if (!expect_activation(op, nc_op_get_operand(op, 0)) || !expect_f32(op, nc_op_get_result(op, 0), "result"))
      return -1;
    return K_PASS;
  default:
    break;
  }
  char supported[1024] = "";
  list_ops(NC_GRAPH_QUANT_LAYER, " and ", supported, sizeof supported);
  size_t used = strlen(supported);
  snprintf(supported + used, sizeof supported - used,
           " with constant weights and an optional fused relu; add and sub of two activations of one shape; concat; mul "
           "of two activations, one broadcasting; sigmoid, hard_sigmoid, hard_swish, tanh, erf, leaky_relu, elu, "
           "softplus and clip as tables; ");
  list_ops(NC_GRAPH_QUANT_PASS_THROUGH, ", ", supported, sizeof supported);
  bool foldable = nc_graph_get_quant_class(nc_op_get_def(op)) == NC_GRAPH_QUANT_FOLD_FIRST;
  nc_op_emit_error(op, "graph-quantize cannot quantize '%s': it has no integer form here (supported: %s)%s",
                   nc_ident_str(nc_op_get_name(op)), supported,
                   foldable ? "; graph-optimize folds bias adds and batch_norm into the conv or gemm before them" : "");
  return -1;
}

/* --- building the integer graph ------------------------------------------------------------------------------ */

static void bind(rewrite *rw, nc_value *old, nc_value *v, float scale)
{
  rw->vals[rw->n_vals] = (qval){v, scale};
  gq_map_put(&rw->map, old, rw->n_vals++);
}

static qval *lookup(rewrite *rw, nc_value *old)
{
  size_t i = gq_map_get(&rw->map, old);
  return i == SIZE_MAX ? NULL : &rw->vals[i];
}

/* The activation scale for a measured max |x|: max / 127 rounded to f32 (it
 * is stored in f32 quantize/dequantize scales); 1 for an all-zero tensor. */
static float act_scale(double max_abs, int qmax) { return max_abs > 0 ? (float)(max_abs / qmax) : 1.0f; }

static nc_type *like(rewrite *rw, nc_value *v, nc_type *elt)
{
  nc_type *t = nc_value_get_type(v);
  return nc_type_tensor(rw->ctx, nc_type_get_rank(t), nc_type_get_shape(t), elt, NULL);
}

static nc_value *add_constant(rewrite *rw, nc_op *before, nc_attr *value, nc_location loc)
{
  nc_op *c = nc_graph_create_constant(rw->ctx, value, loc);
  nc_op_insert_before(c, before);
  return nc_op_get_result(c, 0);
}

/* A blob constant (weights, biases: never decimal lists). A trial of mixed
 * precision keeps a bias inline instead (`small`): the blob would outlive
 * the trial under a name the real rewrite then could not have. */
static nc_value *add_blob(rewrite *rw, nc_op *before, const nc_tensor *t, nc_type *elt, nc_value *like_v,
                          const char *suffix, const char *fallback, bool small, nc_location loc)
{
  char hint[256];
  gp_name_hint(like_v, suffix, fallback, hint, sizeof hint);
  nc_type *type = nc_type_tensor(rw->ctx, (size_t)t->rank, t->shape, elt, NULL);
  return add_constant(rw, before, gp_attr_from_tensor(rw->ctx, t, type, hint, rw->cache && small ? INT64_MAX : 0),
                      loc);
}

/* add_blob for a layer's integer weights, whose bytes become the blob's
 * (no copy: VGG's first fully connected layer alone is 100 MB of int8) */
static nc_value *add_weight_blob(rewrite *rw, nc_op *before, nc_tensor *t, nc_type *elt, nc_value *like_v,
                                 const char *suffix, nc_location loc)
{
  size_t total = nc_tensor_num_bytes(t), esz = nc_dtype_size(t->dtype);
  bool splat = true;
  for (size_t off = esz; splat && off < total; off += esz)
    splat = !memcmp((const char *)t->data + off, t->data, esz);
  if (splat || !total) /* what gp_attr_from_tensor makes of it */
    return add_blob(rw, before, t, elt, like_v, suffix, "weight", false, loc);
  char hint[256];
  gp_name_hint(like_v, suffix, "weight", hint, sizeof hint);
  nc_type *type = nc_type_tensor(rw->ctx, (size_t)t->rank, t->shape, elt, NULL);
  nc_resource *r = nc_resource_create_owned(rw->ctx, hint, t->data, total, (uint32_t)esz);
  t->data = NULL;
  return add_constant(rw, before, nc_attr_dense_resource(rw->ctx, type, r), loc);
}

static nc_value *add_scalar(rewrite *rw, nc_op *before, nc_type *elt, const void *data, size_t size, nc_location loc)
{
  nc_type *type = nc_type_tensor(rw->ctx, 0, NULL, elt, NULL);
  return add_constant(rw, before, nc_attr_dense_elements(rw->ctx, type, data, size), loc);
}

static nc_op *add_op(rewrite *rw, nc_op *before, const char *name, nc_location loc, size_t n_in, nc_value *const *in,
                     size_t n_attrs, const nc_named_attr *attrs, nc_type *hint)
{
  nc_op *op = nc_graph_create_op(rw->ctx, name, loc, n_in, in, n_attrs, attrs, 1, hint ? &hint : NULL);
  if (op)
    nc_op_insert_before(op, before);
  return op;
}

static nc_named_attr named(rewrite *rw, const char *name, nc_attr *value)
{
  return (nc_named_attr){nc_ident_get_cstr(rw->ctx, name), value};
}

/* The helpers graph_quantize_acts.c shares (graph_quantize_internal.h). */
void gq_bind(rewrite *rw, nc_value *old, nc_value *v, float scale) { bind(rw, old, v, scale); }
const qval *gq_lookup(rewrite *rw, nc_value *old) { return lookup(rw, old); }
nc_type *gq_like(rewrite *rw, nc_value *v, nc_type *elt) { return like(rw, v, elt); }
nc_named_attr gq_named(rewrite *rw, const char *name, nc_attr *value) { return named(rw, name, value); }
nc_op *gq_add_op(rewrite *rw, nc_op *before, const char *name, nc_location loc, size_t n_in, nc_value *const *in,
                 size_t n_attrs, const nc_named_attr *attrs, nc_type *hint)
{
  return add_op(rw, before, name, loc, n_in, in, n_attrs, attrs, hint);
}

/* The layer's weights quantized per output channel to [-qmax, qmax] (a
 * pre-quantized model's keep their codes), as a constant before `op`, and
 * their scales in sw[0..channels); NULL after an error at op. Mixed
 * precision's trials quantize each layer once per width (rw->cache); the
 * real rewrite takes the codes quantized ahead in parallel (rw->prep). */
static nc_value *quantize_weights(rewrite *rw, nc_op *op, layer_data *L, int bits, double *sw)
{
  nc_type *elt = nc_type_integer(rw->ctx, (unsigned)bits, NC_SIGNLESS);
  nc_location loc = nc_op_get_loc(op);
  gq_wentry *hit = rw->cache ? gq_wcache_find(rw->cache, op, bits) : NULL;
  if (hit) {
    memcpy(sw, hit->sw, (size_t)L->channels * sizeof *sw);
    return add_constant(rw, op, hit->w, loc);
  }
  nc_tensor *wq = NULL;
  if (!(rw->prep && gq_wprep_take(rw->prep, op, bits, sw, &wq)))
    gq_weight_codes(op, L, bits, sw, &wq);
  for (int64_t c = 0; wq && c < L->channels && L->bias; c++)
    if (!isfinite(L->bias[c])) {
      nc_tensor_destroy(wq);
      wq = NULL;
    }
  if (!wq) {
    nc_op_emit_error(op, "graph-quantize cannot quantize '%s': its weights or bias are not finite",
                     nc_ident_str(nc_op_get_name(op)));
    return NULL;
  }
  int64_t C = L->channels;
  nc_value *wv = add_weight_blob(rw, op, wq, elt, nc_op_get_operand(op, 1), rw->cache ? "_q_trial" : "_q", loc);
  nc_tensor_destroy(wq);
  if (rw->cache)
    gq_wcache_add(rw->cache, op, bits, nc_op_get_attr_str(nc_value_get_defining_op(wv), "value"), sw, C);
  return wv;
}

/* Replaces one layer: int8 weights, conv_integer / matmul_integer, int32
 * bias, requantize to the output scale `sy`. */
static bool quantize_layer(rewrite *rw, nc_op *op, const qval *x, float sy, int bits)
{
  int qmax = (1 << (bits - 1)) - 1;
  nc_type *elt = nc_type_integer(rw->ctx, (unsigned)bits, NC_SIGNLESS);
  const char *name = nc_ident_str(nc_op_get_name(op));
  nc_location loc = nc_op_get_loc(op);
  layer_data L;
  if (!gq_layer_read(op, &L)) {
    gq_layer_free(&L);
    return nc_op_emit_error(op, "graph-quantize cannot read the constant weights of '%s'", name);
  }
  bool ok = true, conv = L.conv;
  int64_t C = L.channels;
  double *sw = nc_xcalloc((size_t)C + 1, sizeof *sw);
  nc_value *wv = quantize_weights(rw, op, &L, bits, sw);
  if (!wv) {
    free(sw);
    gq_layer_free(&L);
    return false;
  }

  /* requantize parameters and the int32 bias, per channel */
  int64_t *mult = nc_xcalloc((size_t)C + 1, sizeof *mult), *shift = nc_xcalloc((size_t)C + 1, sizeof *shift);
  nc_tensor *bq = L.bias ? nc_tensor_create(NC_DT_I32, 1, &C, 0) : NULL;
  char err[256] = "";
  for (int64_t c = 0; c < C && ok; c++) {
    double acc_scale = (double)x->scale * sw[c];
    int32_t m, s;
    ok = nc_fixed_point_from_scale(acc_scale / (double)sy, &m, &s, err, sizeof err);
    mult[c] = m;
    shift[c] = s;
    if (bq) {
      double v = rint(L.bias[c] / acc_scale);
      ((int32_t *)bq->data)[c] = (int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
    }
  }
  if (!ok)
    nc_op_emit_error(op, "graph-quantize cannot quantize '%s': %s", name, err);
  /* a fused clip: relu for a lower bound of 0, else the bounds in output steps where they are inside the range */
  nc_graph_activation act;
  bool relu = false, has_lo = false, has_hi = false;
  int64_t lo = 0, hi = 0;
  if (ok && nc_graph_get_activation(op, &act)) {
    relu = act.kind == NC_GRAPH_ACT_RELU || (act.kind == NC_GRAPH_ACT_CLIP && act.has_min && act.min == 0);
    if (act.kind == NC_GRAPH_ACT_CLIP && act.has_min && act.min != 0) {
      double q = rint(act.min / (double)sy);
      has_lo = q > -qmax - 1, lo = has_lo ? (q > qmax ? qmax : (int64_t)q) : 0;
    }
    if (act.kind == NC_GRAPH_ACT_CLIP && act.has_max) {
      double q = rint(act.max / (double)sy);
      has_hi = q < qmax, hi = has_hi ? (q < -qmax - 1 ? -qmax - 1 : (int64_t)q) : 0;
    }
  }

  nc_op *acc = NULL, *rq = NULL;
  if (ok) {
    nc_named_attr attrs[8];
    size_t na = 0;
    static const char *const conv_attrs[] = {"kernel_shape", "strides", "pads", "dilations", "group", "auto_pad"};
    for (size_t i = 0; conv && i < NC_COUNTOF(conv_attrs); i++) {
      nc_attr *a = nc_op_get_attr_str(op, conv_attrs[i]);
      if (a)
        attrs[na++] = named(rw, conv_attrs[i], a);
    }
    acc = add_op(rw, op, conv ? "graph.conv_integer" : "graph.matmul_integer", loc, 2, (nc_value *[]){x->v, wv}, na,
                 attrs, NULL);
  }
  if (acc) {
    nc_value *in[2] = {nc_op_get_result(acc, 0), bq ? add_blob(rw, op, bq, rw->i32, nc_op_get_operand(op, 2), "_q",
                                                               "bias", true, loc)
                                                    : NULL};
    nc_value *y = nc_op_get_result(op, 0);
    nc_named_attr attrs[7];
    size_t na = 0;
    attrs[na++] = named(rw, "multiplier", nc_attr_dense_array(rw->ctx, rw->i64, (size_t)C, mult));
    attrs[na++] = named(rw, "shift", nc_attr_dense_array(rw->ctx, rw->i64, (size_t)C, shift));
    attrs[na++] = named(rw, "axis", nc_attr_integer(rw->ctx, rw->i64, conv ? 1 : (int64_t)rank_of(y) - 1));
    attrs[na++] = named(rw, "output_zero_point", nc_attr_integer(rw->ctx, rw->i64, 0));
    if (relu)
      attrs[na++] = named(rw, "activation", nc_attr_string_cstr(rw->ctx, "relu"));
    if (has_lo)
      attrs[na++] = named(rw, "clamp_min", nc_attr_integer(rw->ctx, rw->i64, lo));
    if (has_hi)
      attrs[na++] = named(rw, "clamp_max", nc_attr_integer(rw->ctx, rw->i64, hi));
    rq = add_op(rw, op, "graph.requantize", loc, bq ? 2 : 1, in, na, attrs, like(rw, y, elt));
    if (rq)
      bind(rw, y, nc_op_get_result(rq, 0), sy);
  }
  nc_tensor_destroy(bq);
  free(mult);
  free(shift);
  free(sw);
  gq_layer_free(&L);
  if (rq && rw->drop_floats)
    gq_drop_weights(op);
  return rq != NULL;
}

/* An op that works on int8 unchanged: a copy on the int8 operand. */
static bool quantize_pass_through(rewrite *rw, nc_op *op, const qval *x)
{
  nc_mapping *m = nc_mapping_create();
  nc_mapping_map_value(m, nc_op_get_operand(op, 0), x->v);
  nc_op *q = nc_op_clone(op, m);
  nc_mapping_destroy(m);
  nc_value *y = nc_op_get_result(op, 0);
  nc_type *elt = nc_type_get_element_type(nc_value_get_type(x->v));
  nc_value_set_type(nc_op_get_result(q, 0), like(rw, y, elt));
  nc_attr *fill = gp_is(op, "pad") ? nc_op_get_attr_str(op, "value") : NULL;
  if (fill && nc_attr_get_kind(fill) == NC_ATTR_FLOAT && nc_attr_get_float(fill) != 0) {
    /* a constant pad's fill value in the stored integers of its input's scale */
    double v = nearbyint(nc_attr_get_float(fill) / (double)x->scale);
    int64_t hi = nc_type_is_integer(elt) ? ((int64_t)1 << (nc_type_get_width(elt) - 1)) - 1 : 0;
    if (v < (double)(-hi - 1) || v > (double)hi) {
      nc_op_destroy(q);
      return nc_op_emit_error(op, "graph-quantize cannot quantize 'graph.pad': its value %g is %g steps of the "
                              "input's scale %g, outside the %u-bit range", nc_attr_get_float(fill), v,
                              (double)x->scale, nc_type_get_width(elt));
    }
    nc_op_set_attr_str(q, "value", nc_attr_float(rw->ctx, rw->f32, v));
  }
  nc_op_insert_before(q, op);
  bind(rw, y, nc_op_get_result(q, 0), x->scale);
  return true;
}

/* add / sub of two activations: graph.add_integer / graph.sub_integer, each
 * input rescaled to the output scale `sy` by the fixed-point rule; `relu`
 * is the fused relu after it (its result is the one bound), or NULL. */
static bool quantize_eltwise(rewrite *rw, nc_op *op, const qval *a, const qval *b, float sy, nc_op *relu, int bits)
{
  int64_t mult[2], shift[2];
  const qval *in[2] = {a, b};
  char err[256] = "";
  for (int i = 0; i < 2; i++) {
    int32_t m, s;
    if (!nc_fixed_point_from_scale((double)in[i]->scale / (double)sy, &m, &s, err, sizeof err))
      return nc_op_emit_error(op, "graph-quantize cannot quantize '%s': %s", nc_ident_str(nc_op_get_name(op)), err);
    mult[i] = m, shift[i] = s;
  }
  nc_named_attr attrs[4];
  size_t na = 0;
  attrs[na++] = named(rw, "multiplier", nc_attr_dense_array(rw->ctx, rw->i64, 2, mult));
  attrs[na++] = named(rw, "shift", nc_attr_dense_array(rw->ctx, rw->i64, 2, shift));
  attrs[na++] = named(rw, "output_zero_point", nc_attr_integer(rw->ctx, rw->i64, 0));
  if (relu || nc_op_get_attr_str(op, "activation"))
    attrs[na++] = named(rw, "activation", nc_attr_string_cstr(rw->ctx, "relu"));
  nc_value *y = nc_op_get_result(relu ? relu : op, 0);
  nc_op *q = add_op(rw, op, gp_is(op, "add") ? "graph.add_integer" : "graph.sub_integer", nc_op_get_loc(op), 2,
                    (nc_value *[]){a->v, b->v}, na, attrs,
                    like(rw, y, nc_type_integer(rw->ctx, (unsigned)bits, NC_SIGNLESS)));
  if (q)
    bind(rw, y, nc_op_get_result(q, 0), sy);
  return q != NULL;
}

/* --- the pass ----------------------------------------------------------------------------------------------- */

void gq_rewrite_init(rewrite *rw, const gq_plan *p)
{
  nc_context *ctx = p->ctx;
  *rw = (rewrite){ctx, nc_type_integer(ctx, 8, NC_SIGNLESS), nc_type_integer(ctx, 32, NC_SIGNLESS),
                  nc_type_integer(ctx, 64, NC_SIGNLESS), nc_type_f32(ctx), {0}, NULL, 0, NULL};
  gq_map_init(&rw->map, p->n_ops + 1);
  rw->vals = nc_xcalloc(p->n_ops + 2, sizeof *rw->vals);
}

void gq_rewrite_free(rewrite *rw)
{
  gq_map_free(&rw->map);
  free(rw->vals);
}

/* 3. the integer graph, op by op beside the float one (layer l at width
 * lbits[l], its output scale from max_abs[l] unless the model gives one);
 * 4. the results go back to f32. The float ops stay (dead) for the caller. */
bool gq_rewrite_graph(const gq_plan *p, rewrite *rw, const int *lbits, const double *max_abs)
{
  bool ok = true;
  nc_value *arg = p->arg;
  nc_op *first = nc_block_get_first_op(p->block), *ret = p->ret, *const *ops = p->ops;
  const int *kinds = p->kinds;
  const float *given = p->given;
  if (!rw->cache) { /* the layers' weights, quantized ahead in parallel as the rewrite reaches them */
    nc_op **wops = nc_xcalloc(p->n_ops + 1, sizeof *wops);
    int *wbits = nc_xcalloc(p->n_ops + 1, sizeof *wbits);
    size_t nw = 0;
    for (size_t k = 0, l = 0; k < p->n_ops; k++) {
      if (kinds[k] == K_LAYER)
        wops[nw] = ops[k], wbits[nw++] = lbits[l];
      l += kinds[k] == K_LAYER || kinds[k] == K_ACTS || kinds[k] == K_ELTWISE;
    }
    rw->prep = gq_wprep_create(rw->ctx, nw, wops, wbits);
    free(wops);
    free(wbits);
  }
  { /* the input: quantize_linear with s_in, zero point 0 (the first layer reads 8 bits) */
    float s_in = p->in_given > 0 ? p->in_given : act_scale(p->in_max, 127);
    int8_t zero = 0;
    nc_location loc = nc_value_get_loc(arg);
    nc_value *s = add_scalar(rw, first, rw->f32, &s_in, sizeof s_in, loc);
    nc_value *z = add_scalar(rw, first, rw->i8, &zero, 1, loc);
    nc_op *q = add_op(rw, first, "graph.quantize_linear", loc, 3, (nc_value *[]){arg, s, z}, 0, NULL,
                      like(rw, arg, rw->i8));
    ok = q != NULL;
    if (q)
      bind(rw, arg, nc_op_get_result(q, 0), s_in);
  }
  for (size_t k = 0, l = 0; ok && k < p->n_ops; k++) {
    if (kinds[k] == K_CONSTANT || kinds[k] == K_FUSED)
      continue;
    if (kinds[k] == K_ACTS) { /* a pre-quantized model's scale, else the calibrated one */
      float sy = given[l] > 0 ? given[l] : act_scale(max_abs[l], (1 << (lbits[l] - 1)) - 1);
      ok = gq_acts_quantize(rw, ops[k], sy, lbits[l]);
      l++;
      continue;
    }
    const qval *x = lookup(rw, nc_op_get_operand(ops[k], 0));
    if (!x) { /* cannot happen after the checks: operands are the input or earlier results */
      ok = nc_op_emit_error(ops[k], "graph-quantize: operand #0 has no quantized form");
      break;
    }
    if (kinds[k] == K_QDQ) { /* the identity on int8, at the scale the previous op already has */
      float s;
      gq_qdq_check(ops[k], &s);
      if (s != x->scale) /* a rescale to the model's scale (QOperator ops such as QLinearGlobalAveragePool) */
        ok = gq_acts_rescale(rw, ops[k], x, s);
      else
        bind(rw, nc_op_get_result(ops[k], 0), x->v, x->scale);
      continue;
    }
    if (kinds[k] == K_ELTWISE) {
      const qval *b = lookup(rw, nc_op_get_operand(ops[k], 1));
      float sy = given[l] > 0 ? given[l] : act_scale(max_abs[l], (1 << (lbits[l] - 1)) - 1);
      ok = b ? quantize_eltwise(rw, ops[k], x, b, sy, sole_relu_user(ops[k]), lbits[l])
             : nc_op_emit_error(ops[k], "graph-quantize: operand #1 has no quantized form");
      l++;
      continue;
    }
    if (kinds[k] == K_LAYER) {
      float sy = given[l] > 0 ? given[l] : act_scale(max_abs[l], (1 << (lbits[l] - 1)) - 1);
      ok = quantize_layer(rw, ops[k], x, sy, lbits[l]);
      l++;
    } else
      ok = quantize_pass_through(rw, ops[k], x);
  }
  for (size_t r = 0; ok && r < nc_op_get_num_operands(ret); r++) {
    nc_value *v = nc_op_get_operand(ret, r);
    qval *q = nc_value_is_block_arg(v) ? NULL : lookup(rw, v);
    if (!q)
      continue; /* the input itself, or a constant: already f32 */
    nc_op *def = nc_value_get_defining_op(v);
    nc_location loc = def ? nc_op_get_loc(def) : nc_op_get_loc(ret);
    nc_value *s = add_scalar(rw, ret, rw->f32, &q->scale, sizeof q->scale, loc);
    nc_op *dq = add_op(rw, ret, "graph.dequantize_linear", loc, 2, (nc_value *[]){q->v, s}, 0, NULL, NULL);
    ok = dq != NULL;
    if (dq)
      nc_op_set_operand(ret, r, nc_op_get_result(dq, 0));
  }
  gq_wprep_destroy(rw->prep);
  rw->prep = NULL;
  return ok;
}

static bool quantize_func(nc_pass *pass, nc_op *func, const state *st)
{
  const nc_tensor *calib = st->calib;
  bool mixed = nc_pass_get_option_bool(pass, "mixed");
  nc_region *body = nc_op_get_region(func, 0);
  nc_block *block = nc_region_get_first_block(body);
  if (!block)
    return true; /* a declaration */
  nc_context *ctx = nc_op_get_context(func);
  const char *path = nc_pass_get_option_string(pass, "calibration");
  if (nc_region_get_num_blocks(body) != 1)
    return nc_op_emit_error(func, "graph-quantize expects a function of one block");
  if (nc_block_get_num_args(block) != 1)
    return nc_op_emit_error(func, "graph-quantize expects a function of one input (the calibration data's), got %zu",
                            nc_block_get_num_args(block));
  nc_value *arg = nc_block_get_arg(block, 0);
  nc_type *at = nc_value_get_type(arg);
  if (!is_f32_tensor(arg) || !nc_type_has_static_shape(at)) {
    char *s = nc_type_to_string(at);
    nc_op_emit_error(func, "graph-quantize expects a statically shaped f32 tensor input, got '%s' (fix dynamic dims "
                     "with nc-compile --input-shape=NAME:D0xD1x..., or graph-set-input-shape)", s);
    free(s);
    return false;
  }
  nc_op *ret = nc_block_get_terminator(block);
  if (!ret || !nc_op_is(ret, "func.return"))
    return nc_op_emit_error(func, "graph-quantize expects the function to end in func.return");

  /* 0. activations other than relu / clip leave the ops they were fused into (tables of their own) */
  for (nc_op *op = nc_block_get_first_op(block); op != ret; op = nc_op_get_next(op))
    if (!gq_acts_unfuse(op))
      return false;

  /* 1. every op must have an integer form (nothing changes otherwise) */
  size_t n_ops = 0, n_layers = 0;
  for (nc_op *op = nc_block_get_first_op(block); op != ret; op = nc_op_get_next(op))
    n_ops++;
  nc_op **ops = nc_xcalloc(n_ops + 1, sizeof *ops), **layers = nc_xcalloc(n_ops + 1, sizeof *layers);
  int *kinds = nc_xcalloc(n_ops + 1, sizeof *kinds);
  bool ok = true;
  size_t i = 0;
  for (nc_op *op = nc_block_get_first_op(block); op != ret && ok; op = nc_op_get_next(op), i++) {
    ops[i] = op;
    kinds[i] = check_op(op);
    ok = kinds[i] >= 0;
    if (ok && kinds[i] == K_LAYER)
      layers[n_layers++] = op;
    if (ok && kinds[i] == K_ACTS)
      layers[n_layers++] = op;
    if (ok && kinds[i] == K_ELTWISE) /* measured after its fused relu, if any */
      layers[n_layers++] = sole_relu_user(op) ? sole_relu_user(op) : op;
    if (ok && kinds[i] == K_PASS && gp_is(op, "relu")) {
      nc_op *d = nc_value_get_defining_op(nc_op_get_operand(op, 0));
      kinds[i] = d && is_residual(d) && sole_relu_user(d) == op ? K_FUSED : K_PASS;
    }
  }

  /* widths per layer (errors before anything changes) */
  bool *is_conv = nc_xcalloc(n_layers + 1, sizeof *is_conv);
  int *lbits = nc_xcalloc(n_layers + 1, sizeof *lbits);
  for (size_t k = 0; k < n_layers; k++)
    is_conv[k] = !is_residual(layers[k]) && !gp_is(layers[k], "relu");
  ok = ok && gq_layer_bits(func, nc_pass_get_option_int(pass, "bits"), nc_pass_get_option_string(pass, "overrides"),
                           n_layers, layers, is_conv, lbits);
  for (size_t k = 0; ok && k < n_layers; k++) /* a pre-quantized model's widths are its own */
    lbits[k] = gq_qdq_model_bits(nc_op_get_result(layers[k], 0)) ? gq_qdq_model_bits(nc_op_get_result(layers[k], 0))
                                                                  : lbits[k];

  /* 2. scales: the model's own (QDQ), else calibration: max |x| of the input and of each layer's result */
  gq_plan p = {ctx, func, ret, block, arg, n_ops, n_layers, ops, layers, kinds, NULL, 0, 0};
  double *max_abs = nc_xcalloc(n_layers + 1, sizeof *max_abs);
  p.given = nc_xcalloc(n_layers + 1, sizeof *p.given);
  nc_op *uncovered = NULL; /* the first layer without a model scale */
  bool need_calib = ok && !gq_qdq_model_scale(arg, &p.in_given);
  need_calib = need_calib || (ok && mixed); /* the trials run on the calibration inputs */
  for (size_t k = 0; ok && k < n_layers; k++)
    if (!gq_qdq_model_scale(nc_op_get_result(layers[k], 0), &p.given[k])) {
      p.given[k] = 0;
      uncovered = uncovered ? uncovered : layers[k];
      need_calib = true;
    }
  nc_tensor view;
  int64_t samples = 0;
  if (ok && need_calib && !calib) {
    if (mixed)
      ok = nc_op_emit_error(func, "graph-quantize: mixed precision needs calibration=PATH (nc-compile: "
                            "--calibration=FILE): its trials run the quantized graph on those inputs");
    else if (uncovered)
      ok = nc_op_emit_error(uncovered, "graph-quantize needs calibration=PATH (nc-compile: --calibration=FILE): a "
                            ".npy file of f32 inputs (N x the function's input shape) to measure activation ranges "
                            "on, since the model gives no scale for the result of this '%s' (a pre-quantized "
                            "model has QuantizeLinear -> DequantizeLinear after it)",
                            nc_ident_str(nc_op_get_name(uncovered)));
    else
      ok = nc_op_emit_error(func, "graph-quantize needs calibration=PATH (nc-compile: --calibration=FILE): a .npy "
                            "file of f32 inputs (N x the function's input shape) to measure activation ranges on, "
                            "since the model gives no scale for its input (a pre-quantized model has "
                            "QuantizeLinear -> DequantizeLinear after it)");
  }
  gq_mixed_result mres = {0};
  bool have_mixed = false;
  double t_calib = nc_time_wall();
  if (ok && need_calib) {
    samples = gq_calibration_view(func, arg, calib, path, nc_pass_get_option_int(pass, "max-samples"), &view);
    ok = samples > 0;
  }
  if (ok && mixed) {
    nc_tensor all;
    int64_t total = gq_calibration_view(func, arg, calib, path, 0, &all);
    gq_mixed_options mo = {nc_pass_get_option_string(pass, "overrides"), GQ_CALIB_MAXABS,
                           strtod(nc_pass_get_option_string(pass, "percentile"), NULL), &st->budget,
                           nc_pass_get_option_bool(pass, "multicast"), nc_pass_get_option_bool(pass, "balance")};
    gq_calib_method_parse(nc_pass_get_option_string(pass, "method"), &mo.method);
    have_mixed = ok = gq_mixed_widths(&p, &mo, &view, samples, total, is_conv, lbits, &mres);
    if (ok)
      gq_mixed_print(n_layers, layers, lbits, &mres);
  }
  if (ok && need_calib) { /* the ranges at the widths chosen (the same as a plain run with those widths) */
    int *lqmax = nc_xcalloc(n_layers + 1, sizeof *lqmax);
    for (size_t k = 0; k < n_layers; k++)
      lqmax[k] = (1 << (lbits[k] - 1)) - 1;
    gq_calib_method method = GQ_CALIB_MAXABS;
    gq_calib_method_parse(nc_pass_get_option_string(pass, "method"), &method);
    ok = gq_calibrate_method(func, &view, n_layers, layers, lqmax, method,
                             strtod(nc_pass_get_option_string(pass, "percentile"), NULL), max_abs, &p.in_max);
    free(lqmax);
  }
  free(is_conv);
  if (ok && !isfinite(p.in_max))
    ok = nc_op_emit_error(func, "graph-quantize: the calibration data '%s' holds infinite values", path);
  for (size_t k = 0; ok && k < n_layers; k++)
    if (!isfinite(max_abs[k]))
      ok = nc_op_emit_error(layers[k], "graph-quantize: the result of '%s' is not finite on the calibration data",
                            nc_ident_str(nc_op_get_name(layers[k])));
  double t_weights = nc_time_wall();
  nc_pass_timer_add(pass, T_CALIBRATION, t_weights - t_calib);

  if (ok && need_calib && nc_pass_get_option_bool(pass, "share-concat-scales"))
    gq_share_concat_scales(&p, lbits, max_abs);

  /* 3. and 4. the integer graph, op by op beside the float one; the results back to f32 */
  rewrite rw;
  gq_rewrite_init(&rw, &p);
  rw.drop_floats = !*nc_pass_get_option_string(pass, "report"); /* the report runs the float ops after */
  rw.share_rescales = need_calib && nc_pass_get_option_bool(pass, "share-concat-scales");
  ok = ok && gq_rewrite_graph(&p, &rw, lbits, max_abs);
  t_weights = nc_time_wall() - t_weights;
  const char *report = nc_pass_get_option_string(pass, "report");
  if (ok && *report && samples == 0)
    ok = nc_op_emit_error(func, "graph-quantize: the quant report (report=FILE, --quant-report) measures on the "
                          "calibration inputs; give calibration=PATH (--calibration=FILE)");
  if (ok && *report) { /* float and integer ops side by side, before the float ones go */
    t_calib = nc_time_wall();
    gq_report_layer *rl = nc_xcalloc(n_layers + 1, sizeof *rl);
    for (size_t k = 0; k < n_layers; k++) {
      const qval *q = lookup(&rw, nc_op_get_result(layers[k], 0));
      gp_name_hint(nc_op_get_result(layers[k], 0), "", "", rl[k].name, sizeof rl[k].name);
      rl[k].op = nc_ident_str(nc_op_get_name(layers[k]));
      rl[k].bits = lbits[k];
      rl[k].scale = q ? q->scale : NAN;
      rl[k].float_op = layers[k];
      rl[k].quant_op = q && !nc_value_is_block_arg(q->v) ? nc_value_get_defining_op(q->v) : NULL;
    }
    ok = gq_report_measure(func, &view, n_layers, rl) &&
         gq_report_write(func, report, samples, n_layers, rl, have_mixed ? &mres : NULL);
    free(rl);
    nc_pass_timer_add(pass, T_CALIBRATION, nc_time_wall() - t_calib);
  }
  double t_erase = nc_time_wall();
  if (ok) {
    gq_map blobs; /* the float weights' blobs, freed if nothing else uses them */
    gq_map_init(&blobs, 16);
    for (nc_op *op = nc_op_get_prev(ret), *prev; op; op = prev) {
      prev = nc_op_get_prev(op);
      bool dead = gp_is_graph_op(op);
      for (size_t r = 0; dead && r < nc_op_get_num_results(op); r++)
        dead = nc_value_use_empty(nc_op_get_result(op, r));
      if (dead) {
        gq_collect_blob(&blobs, op);
        nc_op_erase(op);
      }
    }
    gq_release_blobs(&blobs, func);
    gq_map_free(&blobs);
    nc_pass_stat_add(pass, 0, n_layers);
    nc_pass_stat_add(pass, 1, (uint64_t)samples);
  }
  nc_pass_timer_add(pass, T_WEIGHTS, t_weights + nc_time_wall() - t_erase);
  gq_mixed_result_free(&mres);
  gq_rewrite_free(&rw);
  free(max_abs);
  free(p.given);
  free(lbits);
  free(ops);
  free(layers);
  free(kinds);
  return ok;
}

static bool run(nc_pass *pass, nc_op *func)
{
  const state *st = nc_pass_get_state(pass);
  static const state none = {0};
  return quantize_func(pass, func, st ? st : &none);
}

const nc_pass_def nc_graph_quantize_pass = {
  .argument = "graph-quantize",
  .name = "GraphQuantize",
  .group = "Graph",
  .summary = "Quantize a float graph to int8, int4 or int2 (conv_integer / matmul_integer + requantize)",
  .description =
    "Runs the float function in the reference interpreter on the calibration inputs, measuring max |x| of the "
    "input and of every conv, gemm and matmul result, then rewrites it to integers: int8 weights symmetric per "
    "output channel, int8 activations symmetric per tensor (scale max|x| / 127, zero point 0), each layer a "
    "graph.conv_integer or graph.matmul_integer (int32) followed by graph.requantize with the int32 bias, "
    "fixed-point multipliers and shifts (round half to even) and the fused relu. max_pool, flatten, reshape and "
    "the other data-movement ops work on int8 as they are, average pools as the exact integer mean (rounding half "
    "to even) with their input's scale. Residual adds, concats (graph.concat_integer), products of activations "
    "(graph.mul_integer, channel broadcast) rescale each input to the output scale; activations and single-input "
    "cones of them (SiLU, hard swish, GELU) become 2^bits-entry tables (graph.lut_integer), softmax "
    "graph.softmax_integer (graph_quantize_acts.c). The input is quantized with graph.quantize_linear and "
    "the results dequantized with graph.dequantize_linear, so the signature stays f32. Run graph-optimize first "
    "(bias and relu fusion, constant weights). Any op without an integer form is an error at that op.",
  .anchor = "func.func",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .initialize = initialize,
  .run = run,
  .timers = timers, .n_timers = NC_COUNTOF(timers),
};
