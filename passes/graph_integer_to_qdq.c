/* graph_integer_to_qdq.c: graph-integer-to-qdq, which writes an int8 graph
 * (graph-quantize's output) in the QDQ form, float ops between
 * DequantizeLinear and QuantizeLinear, so that nc-translate --export-onnx
 * gives a model ONNX tools and runtimes read as a quantized model (and nc
 * compiles again with its scales).
 *
 * The integer graph keeps only ratios of scales (each fixed-point
 * multiplier is s_in / s_out, or s_x * s_w / s_y); QDQ wants one scale per
 * tensor. The scales are solved from those ratios: a weighted union-find
 * over the int8 values (s_u = k * s_v) takes the function's input and
 * output scales (its quantize_linear / dequantize_linear), the identity of
 * data-moving ops, and the rescales of add / sub / concat; a conv or
 * matmul result no ratio ties is given its input's scale (then s_w = the
 * multiplier), a product s_a * s_b / r. Then
 *   conv_integer + requantize  -> Q(conv(DQ(x), DQ(w, s_w[c]), DQ(b, s_x s_w[c])), s_y)
 *   matmul_integer + requantize -> Q(gemm or matmul(...), s_y)
 *   add / sub / mul / concat_integer -> Q(add / sub / mul / concat(DQ(..)), s_y)
 *   ops on int8 keeping the scale (pools, reshape, resize, pad, relu, ...)
 *                               -> Q(op(DQ(x)), s)   (a pad's value back in float)
 * as ONNX Runtime's QDQ models write them, and as nc's QDQ reader wants.
 * The fixed-point multipliers become f32 scales, so a runtime computing in
 * float may round a tie differently than nc's integers: the QDQ model is the
 * same quantization, not a bit-exact copy (the integer export,
 * nc-translate --export-onnx of the int8 graph itself, is). Tables
 * (lut_integer, softmax_integer), zero points other than 0 and ratios that
 * contradict each other are errors at the op.
 *
 * 4- and 2-bit tensors are written as Brevitas writes them, so that the
 * opsets nc exports (13-19; INT4 is opset 21) carry them and nc reads them back at their
 * width: QuantizeLinear to int8, then Clip to the narrow type's range
 * ([-8, 7], [-2, 1]), then DequantizeLinear; narrow weights become int8
 * constants holding the same codes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph_util.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/ir/rewrite.h"

static const nc_pass_stat_def stats[] = {
  {"num-rewritten", "Number of integer ops written as float ops between DequantizeLinear and QuantizeLinear"},
};

/* --- scales: a weighted union-find over values ------------------------------------------------------------ */

typedef struct node {
  nc_value *v;
  int parent;    /* -1: a root */
  double factor; /* s_v = factor * s_parent (1 at a root) */
  double scale;  /* a root's scale, when known */
  bool known;
} node;

typedef struct solver {
  node *n;
  size_t len, cap;
  nc_op *bad; /* the first op whose ratios contradict the others */
} solver;

static int find_value(solver *s, nc_value *v, bool add)
{
  for (size_t i = 0; i < s->len; i++)
    if (s->n[i].v == v)
      return (int)i;
  if (!add)
    return -1;
  if (s->len == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->n = nc_xrealloc(s->n, s->cap * sizeof *s->n);
  }
  s->n[s->len] = (node){v, -1, 1, 0, false};
  return (int)s->len++;
}

/* The root of i and the factor f with s_i = f * s_root. */
static int root_of(solver *s, int i, double *f)
{
  *f = 1;
  while (s->n[i].parent >= 0) {
    *f *= s->n[i].factor;
    i = s->n[i].parent;
  }
  return i;
}

static bool near_equal(double a, double b) { return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b)); }

/* s_u = k * s_v. */
static void relate(solver *s, nc_op *at, nc_value *u, double k, nc_value *v)
{
  double fu, fv;
  int ru = root_of(s, find_value(s, u, true), &fu), rv = root_of(s, find_value(s, v, true), &fv);
  if (ru == rv) {
    if (!near_equal(fu, k * fv) && !s->bad)
      s->bad = at;
    return;
  }
  double f = k * fv / fu; /* s_ru = f * s_rv */
  node *a = &s->n[ru], *b = &s->n[rv];
  if (a->known && b->known && !near_equal(a->scale, f * b->scale) && !s->bad)
    s->bad = at;
  if (a->known && !b->known) {
    b->scale = a->scale / f;
    b->known = true;
  }
  a->parent = rv;
  a->factor = f;
}

/* s_u = scale. */
static void anchor(solver *s, nc_op *at, nc_value *u, double scale)
{
  double f;
  int r = root_of(s, find_value(s, u, true), &f);
  if (s->n[r].known && !near_equal(s->n[r].scale * f, scale) && !s->bad)
    s->bad = at;
  s->n[r].scale = scale / f;
  s->n[r].known = true;
}

/* s_u, giving its root `fallback` for u if unknown. */
static double scale_of(solver *s, nc_value *u, double fallback)
{
  double f;
  int r = root_of(s, find_value(s, u, true), &f);
  if (!s->n[r].known) {
    s->n[r].scale = fallback / f;
    s->n[r].known = true;
  }
  return s->n[r].scale * f;
}

/* --- reading the integer ops ------------------------------------------------------------------------------- */

static bool is_int8(nc_value *v)
{
  nc_type *t = nc_value_get_type(v);
  nc_type *e = nc_type_get_kind(t) == NC_TYPE_TENSOR ? nc_type_get_element_type(t) : NULL;
  return e && nc_type_get_kind(e) == NC_TYPE_INTEGER && nc_type_get_width(e) <= 8;
}

static double scalar_f64(nc_value *v, bool *ok)
{
  nc_tensor *t = gp_constant_tensor(v);
  *ok = t && nc_tensor_num_elements(t) == 1;
  double d = *ok ? nc_tensor_get_f64(t, 0) : 0;
  nc_tensor_destroy(t);
  return d;
}

/* Rescale i of an integer op: multiplier[i] / 2^shift[i]. */
static double ratio(nc_op *op, size_t i)
{
  nc_attr *m = nc_op_get_attr_str(op, "multiplier"), *sh = nc_op_get_attr_str(op, "shift");
  if (!m || !sh || i >= nc_attr_get_num_elements(m) || i >= nc_attr_get_num_elements(sh))
    return 0;
  return ldexp((double)nc_attr_dense_array_get_int(m, i), -(int)nc_attr_dense_array_get_int(sh, i));
}

static nc_op *layer_of(nc_op *rq)
{
  nc_op *d = nc_value_get_defining_op(nc_op_get_operand(rq, 0));
  return d && (gp_is(d, "conv_integer") || gp_is(d, "matmul_integer")) ? d : NULL;
}

/* Ops that only move int8 values (same scale in and out). */
static bool moves(nc_op *op)
{
  return nc_op_get_num_operands(op) >= 1 && nc_op_get_num_results(op) == 1 && is_int8(nc_op_get_operand(op, 0)) &&
         is_int8(nc_op_get_result(op, 0)) && gp_is_graph_op(op) && !gp_is(op, "quantize_linear") &&
         !gp_is(op, "requantize") && strstr(nc_ident_str(nc_op_get_name(op)), "_integer") == NULL;
}

/* The ratios of op as constraints; false (with an error) for ops that have no QDQ form. */
static bool constrain(solver *s, nc_op *op)
{
  nc_value *y = nc_op_get_num_results(op) == 1 ? nc_op_get_result(op, 0) : NULL;
  bool ok = true;
  if (gp_is(op, "quantize_linear") && is_int8(y))
    anchor(s, op, y, scalar_f64(nc_op_get_operand(op, 1), &ok));
  else if (gp_is(op, "dequantize_linear") && is_int8(nc_op_get_operand(op, 0)))
    anchor(s, op, nc_op_get_operand(op, 0), scalar_f64(nc_op_get_operand(op, 1), &ok));
  else if (gp_is(op, "add_integer") || gp_is(op, "sub_integer") || gp_is(op, "concat_integer")) {
    for (size_t i = 0, n = nc_op_get_num_operands(op); i < n && ok; i++) {
      double r = ratio(op, i); /* s_i / s_y */
      ok = r > 0;
      if (ok)
        relate(s, op, nc_op_get_operand(op, i), r, y);
    }
  } else if (gp_is(op, "lut_integer") || gp_is(op, "softmax_integer"))
    return nc_op_emit_error(op, "graph-integer-to-qdq: a table has no QDQ form (its float function is not kept)");
  else if (moves(op))
    relate(s, op, y, 1, nc_op_get_operand(op, 0));
  if (!ok)
    return nc_op_emit_error(op, "graph-integer-to-qdq: needs a constant scalar scale and positive rescales");
  if (nc_graph_attr_int(op, "output_zero_point", 0))
    return nc_op_emit_error(op, "graph-integer-to-qdq: only zero point 0 is written");
  return true;
}

/* --- writing the QDQ form ------------------------------------------------------------------------------------ */

typedef struct writer {
  nc_context *ctx;
  nc_rewriter *rw;
  solver *s;
} writer;

static nc_value *f32_const(writer *w, nc_op *at, size_t n, const double *v, nc_value *like, const char *what)
{
  int64_t len = (int64_t)n;
  nc_tensor *t = nc_tensor_create(NC_DT_F32, n == 1 ? 0 : 1, &len, 0);
  for (size_t i = 0; i < n; i++)
    nc_tensor_set_f64(t, (int64_t)i, (float)v[i]);
  nc_rewriter_set_insertion_point_before(w->rw, at);
  nc_value *c = gp_create_tensor_constant(w->rw, t, nc_type_tensor(w->ctx, n == 1 ? 0 : 1, &len, nc_type_f32(w->ctx),
                                                                   NULL),
                                          like, what, what, nc_op_get_loc(at));
  nc_tensor_destroy(t);
  return c;
}

static nc_type *as_f32(writer *w, nc_value *v)
{
  nc_type *t = nc_value_get_type(v);
  return nc_type_tensor(w->ctx, nc_type_get_rank(t), nc_type_get_shape(t), nc_type_f32(w->ctx), NULL);
}

/* The width of v's integer elements when below 8 (a 4- or 2-bit tensor), else 0. */
static unsigned narrow_width(nc_value *v)
{
  nc_type *t = nc_value_get_type(v);
  nc_type *e = nc_type_get_kind(t) == NC_TYPE_TENSOR ? nc_type_get_element_type(t) : NULL;
  unsigned b = e && nc_type_get_kind(e) == NC_TYPE_INTEGER ? nc_type_get_width(e) : 0;
  return b < 8 ? b : 0;
}

static nc_type *as_i8(writer *w, nc_value *v)
{
  nc_type *t = nc_value_get_type(v);
  return nc_type_tensor(w->ctx, nc_type_get_rank(t), nc_type_get_shape(t),
                        nc_type_integer(w->ctx, 8, NC_SIGNLESS), NULL);
}

/* A narrow constant (4- or 2-bit weights) as an int8 constant of the same codes. */
static nc_value *widened_constant(writer *w, nc_op *at, nc_value *q)
{
  nc_tensor *t = gp_constant_tensor(q);
  if (!t) {
    nc_op_emit_error(at, "graph-integer-to-qdq: a %u-bit operand that is neither a constant nor written here",
                     narrow_width(q));
    return NULL;
  }
  nc_type *qt = nc_value_get_type(q);
  int64_t n = nc_tensor_num_elements(t);
  nc_tensor *wide = nc_tensor_create(NC_DT_I8, (int)nc_type_get_rank(qt), nc_type_get_shape(qt), 0);
  for (int64_t i = 0; i < n; i++)
    nc_tensor_set_i64(wide, i, nc_tensor_get_i64(t, i));
  nc_rewriter_set_insertion_point_before(w->rw, at);
  nc_value *c = gp_create_tensor_constant(w->rw, wide, as_i8(w, q), q, "_i8", "weights_i8", nc_op_get_loc(at));
  nc_tensor_destroy(wide);
  nc_tensor_destroy(t);
  return c;
}

static nc_value *create(writer *w, nc_op *at, const char *name, size_t n, nc_value *const *ops, size_t na,
                        const nc_named_attr *attrs, nc_type *rt)
{
  nc_op *op = nc_graph_create_op(w->ctx, name, nc_op_get_loc(at), n, ops, na, attrs, 1, &rt);
  if (!op)
    return NULL;
  nc_value_set_type(nc_op_get_result(op, 0), rt);
  nc_op_insert_before(op, at);
  return nc_op_get_result(op, 0);
}

/* DequantizeLinear(q, scales) with `axis` for per-channel scales. */
static nc_value *dq(writer *w, nc_op *at, nc_value *q, size_t n, const double *scales, int64_t axis)
{
  if (narrow_width(q) && !(q = widened_constant(w, at, q)))
    return NULL;
  nc_value *sc = f32_const(w, at, n, scales, q, "_scale");
  nc_named_attr ax = {nc_ident_get_cstr(w->ctx, "axis"), nc_attr_integer(w->ctx, nc_type_integer(w->ctx, 64,
                                                                                                   NC_SIGNLESS), axis)};
  return sc ? create(w, at, "graph.dequantize_linear", 2, (nc_value *[]){q, sc}, n > 1, &ax, as_f32(w, q)) : NULL;
}

static nc_value *dq_act(writer *w, nc_op *at, nc_value *q)
{
  double s = scale_of(w->s, q, 1);
  return dq(w, at, q, 1, &s, 1);
}

/* Replaces old's result by QuantizeLinear(f, s_y) of its type; a 4- or
 * 2-bit result by QuantizeLinear to int8, then Clip to its type's range. */
static bool finish(writer *w, nc_op *old, nc_value *f)
{
  nc_value *y = nc_op_get_result(old, 0);
  unsigned b = narrow_width(y);
  double s = scale_of(w->s, y, 1);
  nc_value *sc = f ? f32_const(w, old, 1, &s, y, "_scale") : NULL;
  nc_value *q = sc ? create(w, old, "graph.quantize_linear", 2, (nc_value *[]){f, sc}, 0, NULL,
                            b ? as_i8(w, y) : nc_value_get_type(y)) : NULL;
  if (q && b) {
    nc_type *i64 = nc_type_integer(w->ctx, 64, NC_SIGNLESS);
    int64_t hi = (INT64_C(1) << (b - 1)) - 1;
    nc_named_attr range[2] = {{nc_ident_get_cstr(w->ctx, "max"), nc_attr_integer(w->ctx, i64, hi)},
                              {nc_ident_get_cstr(w->ctx, "min"), nc_attr_integer(w->ctx, i64, -hi - 1)}};
    q = create(w, old, "graph.clip", 1, &q, 2, range, as_i8(w, y));
  }
  if (!q)
    return false;
  relate(w->s, old, q, 1, y); /* later ops read q */
  nc_value_replace_all_uses_with(y, q);
  return true;
}

/* The op's attributes except those named in `drop`, and `activation` = relu when asked. */
static size_t copy_attrs(writer *w, nc_op *op, const char *const *drop, bool relu, nc_named_attr *out, size_t max)
{
  nc_attr *dicts[2] = {nc_op_get_props(op), nc_op_get_attr_dict(op)}; /* inherent and discardable */
  size_t n = 0;
  for (int d = 0; d < 2; d++)
    for (size_t i = 0; dicts[d] && nc_attr_get_kind(dicts[d]) == NC_ATTR_DICTIONARY &&
                       i < nc_attr_get_num_elements(dicts[d]) && n + 1 < max; i++) {
      nc_named_attr e = nc_attr_get_entry(dicts[d], i);
      bool skip = !strncmp(nc_ident_str(e.name), "nc.", 3);
      for (size_t k = 0; drop && drop[k]; k++)
        skip |= !strcmp(nc_ident_str(e.name), drop[k]);
      if (!skip)
        out[n++] = e;
    }
  if (relu)
    out[n++] = (nc_named_attr){nc_ident_get_cstr(w->ctx, "activation"), nc_attr_string_cstr(w->ctx, "relu")};
  return n;
}

static bool zero_or_absent(nc_op *op, size_t i)
{
  if (i >= nc_op_get_num_operands(op))
    return true;
  nc_tensor *t = gp_constant_tensor(nc_op_get_operand(op, i));
  bool zero = t != NULL;
  for (int64_t k = 0; zero && k < nc_tensor_num_elements(t); k++)
    zero = nc_tensor_get_f64(t, k) == 0;
  nc_tensor_destroy(t);
  return zero;
}

/* conv_integer / matmul_integer + requantize. */
static bool write_layer(writer *w, nc_op *rq, nc_op *layer)
{
  bool conv = gp_is(layer, "conv_integer");
  if (!zero_or_absent(layer, 2) || !zero_or_absent(layer, 3))
    return nc_op_emit_error(layer, "graph-integer-to-qdq: only zero points 0 are written");
  nc_value *x = nc_op_get_operand(layer, 0), *wq = nc_op_get_operand(layer, 1), *y = nc_op_get_result(rq, 0);
  nc_type *wt = nc_value_get_type(wq);
  int64_t axis = conv ? 0 : (int64_t)nc_type_get_rank(wt) - 1, c = nc_type_get_shape(wt)[axis];
  size_t k = nc_attr_get_num_elements(nc_op_get_attr_str(rq, "multiplier"));
  double sx = scale_of(w->s, x, 1), sy = scale_of(w->s, y, sx);
  double *sw = nc_xcalloc((size_t)c + 1, sizeof *sw), *sb = nc_xcalloc((size_t)c + 1, sizeof *sb);
  for (int64_t i = 0; i < c; i++) {
    sw[i] = ratio(rq, k == 1 ? 0 : (size_t)i) * sy / sx;
    sb[i] = sx * (double)(float)sw[i];
  }
  nc_value *xd = dq_act(w, rq, x), *wd = dq(w, rq, wq, (size_t)c, sw, axis), *bd = NULL;
  if (nc_op_get_num_operands(rq) > 1)
    bd = dq(w, rq, nc_op_get_operand(rq, 1), (size_t)c, sb, 0);
  free(sw);
  free(sb);
  if (!xd || !wd || (nc_op_get_num_operands(rq) > 1 && !bd))
    return false;
  bool relu = nc_op_get_attr_str(rq, "activation") != NULL;
  nc_attr *cmin = nc_op_get_attr_str(rq, "clamp_min"), *cmax = nc_op_get_attr_str(rq, "clamp_max");
  nc_named_attr attrs[16];
  size_t na = copy_attrs(w, conv ? layer : rq, conv ? NULL : (const char *const[]){"axis", "multiplier", "shift",
                                                                                     "output_zero_point", "activation",
                                                                                     "clamp_min", "clamp_max", NULL},
                         relu && !cmin && !cmax, attrs, NC_COUNTOF(attrs) - 3);
  if (cmin || cmax) { /* a fused Clip: its integer bounds in s_y steps, relu as a lower bound of 0 */
    nc_type *f32 = nc_type_f32(w->ctx);
    double lo = cmin ? (double)nc_attr_get_int(cmin) * sy : 0;
    attrs[na++] = (nc_named_attr){nc_ident_get_cstr(w->ctx, "activation"), nc_attr_string_cstr(w->ctx, "clip")};
    if (cmin || relu)
      attrs[na++] = (nc_named_attr){nc_ident_get_cstr(w->ctx, "activation_min"),
                                    nc_attr_float(w->ctx, f32, relu && lo < 0 ? 0 : lo)};
    if (cmax)
      attrs[na++] = (nc_named_attr){nc_ident_get_cstr(w->ctx, "activation_max"),
                                    nc_attr_float(w->ctx, f32, (double)nc_attr_get_int(cmax) * sy)};
  }
  bool gemm = !conv && bd && nc_type_get_rank(nc_value_get_type(x)) == 2;
  if (!conv && bd && !gemm)
    return nc_op_emit_error(rq, "graph-integer-to-qdq: a matrix product with a bias needs 2-D operands");
  nc_value *f = create(w, rq, conv ? "graph.conv" : gemm ? "graph.gemm" : "graph.matmul", bd ? 3 : 2,
                       (nc_value *[]){xd, wd, bd}, na, attrs, as_f32(w, y));
  return finish(w, rq, f);
}

/* add / sub / mul / concat_integer and the float-only ops on int8. */
static bool write_op(writer *w, nc_op *op, const char *float_name)
{
  size_t n = nc_op_get_num_operands(op);
  nc_value **in = nc_xcalloc(n + 1, sizeof *in);
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++)
    ok = (in[i] = dq_act(w, op, nc_op_get_operand(op, i))) != NULL;
  nc_named_attr attrs[16];
  size_t na = copy_attrs(w, op, (const char *const[]){"multiplier", "shift", "output_zero_point", NULL}, false, attrs,
                         NC_COUNTOF(attrs));
  for (size_t i = 0; i < na && gp_is(op, "pad"); i++) /* the fill value: back from the stored integer */
    if (!strcmp(nc_ident_str(attrs[i].name), "value") && nc_attr_get_kind(attrs[i].value) == NC_ATTR_FLOAT)
      attrs[i].value = nc_attr_float(w->ctx, nc_type_f32(w->ctx),
                                     (double)(float)(nc_attr_get_float(attrs[i].value) *
                                                     scale_of(w->s, nc_op_get_operand(op, 0), 1)));
  nc_value *f = ok ? create(w, op, float_name, n, in, na, attrs, as_f32(w, nc_op_get_result(op, 0))) : NULL;
  free(in);
  return finish(w, op, f);
}

static bool run(nc_pass *pass, nc_op *func)
{
  nc_block *body = nc_op_get_num_regions(func) ? nc_region_get_first_block(nc_op_get_region(func, 0)) : NULL;
  if (!body)
    return true;
  size_t n = 0;
  for (nc_op *op = nc_block_get_first_op(body); op; op = nc_op_get_next(op))
    n++;
  nc_op **ops = nc_xmalloc((n + 1) * sizeof *ops);
  n = 0;
  for (nc_op *op = nc_block_get_first_op(body); op; op = nc_op_get_next(op))
    ops[n++] = op;
  solver s = {0};
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++)
    ok = constrain(&s, ops[i]);
  /* unknown scales in program order: a layer's result its input's, a product s_a * s_b / r */
  for (size_t i = 0; i < n && ok && !s.bad; i++) {
    nc_op *op = ops[i];
    if (gp_is(op, "requantize") && layer_of(op))
      scale_of(&s, nc_op_get_result(op, 0), scale_of(&s, nc_op_get_operand(layer_of(op), 0), 1));
    else if (gp_is(op, "mul_integer")) {
      double p = scale_of(&s, nc_op_get_operand(op, 0), 1) * scale_of(&s, nc_op_get_operand(op, 1), 1) / ratio(op, 0);
      if (!near_equal(scale_of(&s, nc_op_get_result(op, 0), p), p))
        s.bad = op;
    }
  }
  if (ok && s.bad)
    ok = nc_op_emit_error(s.bad, "graph-integer-to-qdq: its rescales contradict the scales the rest of the graph "
                          "gives its operands and result");
  writer w = {nc_op_get_context(func), nc_rewriter_create_standalone(nc_op_get_context(func)), &s};
  nc_op **narrow = nc_xmalloc((n + 1) * sizeof *narrow); /* constants of 4- or 2-bit codes (weights) */
  size_t n_narrow = 0;
  for (size_t i = 0; i < n; i++)
    if (gp_is(ops[i], "constant") && nc_op_get_num_results(ops[i]) == 1 && narrow_width(nc_op_get_result(ops[i], 0)))
      narrow[n_narrow++] = ops[i];
  for (size_t i = 0; i < n && ok; i++) {
    nc_op *op = ops[i];
    const char *fl = gp_is(op, "add_integer") ? "graph.add" : gp_is(op, "sub_integer") ? "graph.sub"
                     : gp_is(op, "mul_integer")  ? "graph.mul" : gp_is(op, "concat_integer") ? "graph.concat"
                     : NULL;
    if (gp_is(op, "requantize") && layer_of(op)) {
      nc_op *layer = layer_of(op);
      ok = write_layer(&w, op, layer);
      if (ok) {
        nc_op_erase(op);
        if (nc_value_use_empty(nc_op_get_result(layer, 0)))
          nc_op_erase(layer);
      }
    } else if (fl || moves(op)) {
      ok = write_op(&w, op, fl ? fl : nc_ident_str(nc_op_get_name(op)));
      if (ok)
        nc_op_erase(op);
    } else {
      continue;
    }
    if (ok)
      nc_pass_stat_add(pass, 0, 1);
  }
  /* the narrow weights' constants, replaced by int8 ones, go (ONNX before opset 21 cannot hold them) */
  for (size_t i = 0; i < n_narrow && ok; i++)
    if (nc_value_use_empty(nc_op_get_result(narrow[i], 0)))
      nc_op_erase(narrow[i]);
  free(narrow);
  nc_rewriter_destroy(w.rw);
  free(s.n);
  free(ops);
  return ok;
}

const nc_pass_def nc_graph_integer_to_qdq_pass = {
  .argument = "graph-integer-to-qdq",
  .name = "GraphIntegerToQDQ",
  .group = "Graph",
  .summary = "Write an int8 graph (graph-quantize's output) in the QDQ form, for ONNX export",
  .description =
    "Rewrites conv_integer / matmul_integer + requantize into quantize_linear(conv / gemm / matmul of "
    "dequantize_linear(x), dequantize_linear(w, s_w per channel), dequantize_linear(bias, s_x * s_w)), s_y), "
    "add / sub / mul / concat_integer into their float ops between dequantize_linear and quantize_linear, and "
    "the ops that keep their input's scale (pools, reshape, resize, pad, relu, ...) likewise. Each int8 tensor's scale is solved "
    "from the function's input and output scales and the rescales (multiplier / 2^shift) of the integer ops; a "
    "conv or matmul result nothing else ties takes its input's scale. The f32 scales approximate the fixed-point "
    "multipliers: the QDQ model is the same quantization, not a bit-exact copy. 4- and 2-bit tensors are written "
    "as Brevitas writes them (quantize_linear to int8, clip to the narrow range, dequantize_linear; narrow weights as "
    "int8 constants). Tables, non-zero zero points and contradicting rescales are errors.",
  .anchor = "func.func",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
