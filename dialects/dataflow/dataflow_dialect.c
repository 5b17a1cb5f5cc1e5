/* dataflow_dialect.c: the op table of the `dataflow` dialect (layers as
 * pipeline nodes with isl iteration domains and access relations; see
 * docs/design/spine.md section 2) and its verification.
 *
 * dataflow.node holds one layer's graph ops in an isolated single-block
 * region, so a node means exactly what its ops mean (for the interpreter and
 * dataflow-inline); its `kind` and `params` say what it computes to the
 * levels below (layer.h, dataflow_layer_kind.c), and its other attributes
 * describe the layer to isl: the domain (#dataflow.set) and the read and write access
 * relations (#dataflow.map) in isl's own syntax. The verifier parses them
 * with isl and checks that they fit the node: the statement's space, one read
 * per operand into In<i>, writes into Out, every access inside its tensor's
 * bounds. `nc-opt --dump-dialect-docs=dataflow` turns this table into
 * docs/dialects/dataflow.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/constraint.h>
#include <isl/local_space.h>
#include <isl/space.h>
#include <isl/val.h>

#include "dataflow_internal.h"
#include "nc/dialects/dataflow/layer.h"

/* --- attribute constraints ---------------------------------------------------------------------------- */

static bool a_set(const nc_attr *a) { return nc_dataflow_attr_is_set(a); }
static bool a_map(const nc_attr *a) { return nc_dataflow_attr_is_map(a); }
static bool a_map_array(const nc_attr *a)
{
  if (nc_attr_get_kind(a) != NC_ATTR_ARRAY)
    return false;
  for (size_t i = 0, n = nc_attr_get_num_elements(a); i < n; i++)
    if (!nc_dataflow_attr_is_map(nc_attr_get_element(a, i)))
      return false;
  return true;
}

static const nc_attr_constraint ac_set = {"isl set attribute (#dataflow.set)", a_set, NC_ATTR_SYNTAX_FULL};
static const nc_attr_constraint ac_map = {"isl map attribute (#dataflow.map)", a_map, NC_ATTR_SYNTAX_FULL};
static const nc_attr_constraint ac_map_array = {"array of isl map attributes (#dataflow.map)", a_map_array,
                                                NC_ATTR_SYNTAX_FULL};

/* --- verification helpers ------------------------------------------------------------------------------- */

int nc_dataflow_tensor_coords(const nc_type *t, int64_t *dims)
{
  if (!t || nc_type_get_kind(t) != NC_TYPE_TENSOR || !nc_type_has_static_shape(t))
    return -1;
  size_t r = nc_type_get_rank(t);
  const int64_t *shape = nc_type_get_shape(t);
  size_t skip = r >= 2 && shape[0] == 1 ? 1 : 0;
  for (size_t i = skip; i < r; i++)
    dims[i - skip] = shape[i];
  return (int)(r - skip);
}

isl_set *nc_dataflow_tensor_box(isl_ctx *ctx, const char *name, int n, const int64_t *dims)
{
  char *buf;
  size_t len;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    abort();
  fprintf(f, "{ %s[", name);
  for (int i = 0; i < n; i++)
    fprintf(f, "%si%d", i ? ", " : "", i);
  fputs("]", f);
  for (int i = 0; i < n; i++)
    fprintf(f, "%s0 <= i%d < %lld", i ? " and " : " : ", i, (long long)dims[i]);
  fputs(" }", f);
  fclose(f);
  isl_set *s = isl_set_read_from_str(ctx, buf);
  free(buf);
  return s;
}

/* The box 0 <= x_i < dims[i] in `sp` (a set space of n dims, taken), as
 * nc_dataflow_tensor_box but built with constraints instead of parsed: the
 * verifier checks one box per access of every node it has not seen. */
static isl_set *box_in(isl_space *sp, int n, const int64_t *dims)
{
  isl_local_space *ls = isl_local_space_from_space(isl_space_copy(sp));
  isl_basic_set *b = isl_basic_set_universe(sp);
  for (int i = 0; i < n; i++) {
    isl_constraint *lo = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
    lo = isl_constraint_set_coefficient_si(lo, isl_dim_set, i, 1);
    isl_constraint *hi = isl_constraint_alloc_inequality(isl_local_space_copy(ls));
    hi = isl_constraint_set_coefficient_si(hi, isl_dim_set, i, -1);
    isl_val *top = isl_val_int_from_si(isl_local_space_get_ctx(ls), dims[i] - 1);
    hi = isl_constraint_set_constant_val(hi, top);
    b = isl_basic_set_add_constraint(isl_basic_set_add_constraint(b, lo), hi);
  }
  isl_local_space_free(ls);
  return isl_set_from_basic_set(b);
}

typedef struct vctx {
  nc_op *op;
  isl_ctx *ctx;
  isl_space *dom; /* the domain's space */
} vctx;

static bool space_err(vctx *v, const char *what, const char *msg)
{
  return nc_op_emit_error(v->op, "%s %s", what, msg);
}

static bool no_params(vctx *v, isl_space *sp, const char *what)
{
  if (isl_space_dim(sp, isl_dim_param) != 0)
    return space_err(v, what, "has parameters; nodes need constant bounds");
  return true;
}

/* Checks an access relation: from the domain's space into `tensor` with the
 * coordinates of `type`, within its bounds on the domain. */
static bool check_access(vctx *v, isl_map *m, isl_set *domain, const char *what, const char *tensor,
                         const nc_type *type)
{
  isl_space *sp = isl_map_get_space(m), *d = isl_space_domain(isl_space_copy(sp));
  bool ok = no_params(v, sp, what);
  if (ok && isl_space_is_equal(d, v->dom) != isl_bool_true)
    ok = space_err(v, what, "must start from the domain's space");
  const char *name = isl_space_get_tuple_name(sp, isl_dim_out);
  if (ok && (!name || strcmp(name, tensor)))
    ok = nc_op_emit_error(v->op, "%s must access tensor '%s', not '%s'", what, tensor, name ? name : "(unnamed)");
  int64_t dims[NC_MAX_RANK];
  int n = nc_dataflow_tensor_coords(type, dims);
  if (ok && n < 0)
    ok = nc_op_emit_error(v->op, "%s: the tensor's type must be a statically shaped tensor", what);
  if (ok && isl_space_dim(sp, isl_dim_out) != n)
    ok = nc_op_emit_error(v->op, "%s has %d coordinates, but its tensor has %d", what,
                          (int)isl_space_dim(sp, isl_dim_out), n);
  if (ok) { /* as in deps.h, accesses count only within the domain */
    isl_set *range = isl_map_range(isl_map_intersect_domain(isl_map_copy(m), isl_set_copy(domain)));
    isl_set *b = box_in(isl_set_get_space(range), n, dims);
    isl_bool inside = isl_set_is_subset(range, b);
    isl_set_free(range);
    isl_set_free(b);
    if (inside != isl_bool_true)
      ok = nc_op_emit_error(v->op, "%s accesses elements outside its tensor", what);
  }
  isl_space_free(d);
  isl_space_free(sp);
  return ok;
}

static isl_map *parse_map(vctx *v, nc_attr *a, const char *what)
{
  char *text = nc_dataflow_attr_get_text(a), err[1024];
  isl_map *m = text ? nc_dataflow_parse_isl_map(v->ctx, text, err, sizeof err) : NULL;
  if (!m)
    nc_op_emit_error(v->op, "%s: %s", what, text ? err : "expected a #dataflow.map");
  free(text);
  return m;
}

/* earliest[i] maps S to P, control[i] maps P to S. */
static bool check_dep_map(vctx *v, nc_attr *a, const char *what, bool from_s)
{
  isl_map *m = parse_map(v, a, what);
  if (!m)
    return false;
  isl_space *sp = isl_map_get_space(m);
  isl_space *s_side = from_s ? isl_space_domain(isl_space_copy(sp)) : isl_space_range(isl_space_copy(sp));
  const char *p = isl_space_get_tuple_name(sp, from_s ? isl_dim_out : isl_dim_in);
  bool ok = no_params(v, sp, what);
  if (ok && isl_space_is_equal(s_side, v->dom) != isl_bool_true)
    ok = space_err(v, what, from_s ? "must map the domain's space to the producer's"
                                   : "must map the producer's space to the domain's");
  if (ok && (!p || strcmp(p, "P")))
    ok = space_err(v, what, "must name the producer's statement P");
  isl_space_free(s_side);
  isl_space_free(sp);
  isl_map_free(m);
  return ok;
}

static bool check_array_len(nc_op *op, const char *name, size_t n)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  if (a && nc_attr_get_num_elements(a) != n)
    return nc_op_emit_error(op, "has %zu operand%s but %zu '%s' entr%s", n, n == 1 ? "" : "s",
                            nc_attr_get_num_elements(a), name, nc_attr_get_num_elements(a) == 1 ? "y" : "ies");
  return true;
}

/* The isl checks of a node, in their diagnostic order: the domain, then
 * (if `accesses`) the reads and writes, then (if `deps`) the earliest and
 * control maps. The domain is always parsed: the other relations start from
 * its space. */
static bool verify_isl(nc_op *op, isl_ctx *ctx, bool accesses, bool deps)
{
  vctx v = {op, ctx, NULL};
  char *text = nc_dataflow_attr_get_text(nc_op_get_attr_str(op, "domain")), err[1024];
  isl_set *dom = text ? nc_dataflow_parse_isl_set(ctx, text, err, sizeof err) : NULL;
  free(text);
  if (!dom)
    return nc_op_emit_error(op, "domain: %s", err);
  v.dom = isl_set_get_space(dom);
  const char *s = isl_space_get_tuple_name(v.dom, isl_dim_set);
  bool ok = no_params(&v, v.dom, "domain");
  if (ok && (!s || strcmp(s, "S")))
    ok = nc_op_emit_error(op, "domain must be a set of statement S, not '%s'", s ? s : "(unnamed)");
  if (ok && isl_set_is_empty(dom) != isl_bool_false)
    ok = nc_op_emit_error(op, "domain is empty");
  if (ok && isl_set_is_bounded(dom) != isl_bool_true)
    ok = nc_op_emit_error(op, "domain is unbounded");

  nc_attr *reads = nc_op_get_attr_str(op, "reads");
  for (size_t i = 0, n = accesses ? nc_op_get_num_operands(op) : 0; ok && i < n; i++) {
    char what[32], tensor[32];
    snprintf(what, sizeof what, "reads[%zu]", i);
    snprintf(tensor, sizeof tensor, "In%zu", i);
    isl_map *m = parse_map(&v, nc_attr_get_element(reads, i), what);
    ok = m && check_access(&v, m, dom, what, tensor, nc_value_get_type(nc_op_get_operand(op, i)));
    isl_map_free(m);
  }
  if (ok && accesses) {
    isl_map *m = parse_map(&v, nc_op_get_attr_str(op, "writes"), "writes");
    ok = m && check_access(&v, m, dom, "writes", "Out", nc_value_get_type(nc_op_get_result(op, 0)));
    isl_map_free(m);
  }
  static const char *const dep_names[] = {"earliest", "control"};
  for (int d = 0; d < 2 && ok && deps; d++) {
    nc_attr *a = nc_op_get_attr_str(op, dep_names[d]);
    for (size_t i = 0, n = a ? nc_attr_get_num_elements(a) : 0; ok && i < n; i++) {
      char what[32];
      snprintf(what, sizeof what, "%s[%zu]", dep_names[d], i);
      ok = check_dep_map(&v, nc_attr_get_element(a, i), what, d == 0);
    }
  }
  isl_space_free(v.dom);
  isl_set_free(dom);
  return ok;
}

bool df_verify_node(nc_op *op)
{
  size_t n = nc_op_get_num_operands(op);
  if (nc_op_get_num_results(op) != 1)
    return nc_op_emit_error(op, "must have exactly one result (the layer's output), not %zu",
                            nc_op_get_num_results(op));
  nc_region *r = nc_op_get_region(op, 0);
  nc_block *b = nc_region_get_first_block(r);
  if (!b)
    return nc_op_emit_error(op, "requires a region with one block");
  if (nc_block_get_num_args(b) != n)
    return nc_op_emit_error(op, "has %zu operand%s but its block has %zu argument%s", n, n == 1 ? "" : "s",
                            nc_block_get_num_args(b), nc_block_get_num_args(b) == 1 ? "" : "s");
  for (size_t i = 0; i < n; i++)
    if (nc_value_get_type(nc_block_get_arg(b, i)) != nc_value_get_type(nc_op_get_operand(op, i)))
      return nc_op_emit_error(op, "block argument %zu and operand %zu have different types", i, i);
  nc_op *last = nc_block_get_last_op(b);
  if (!last || !nc_op_is(last, "dataflow.yield"))
    return nc_op_emit_error(op, "region must end with dataflow.yield");
  if (!check_array_len(op, "reads", n) || !check_array_len(op, "earliest", n) || !check_array_len(op, "control", n) ||
      !check_array_len(op, "buffer_elements", n))
    return false;
  if (!df_verify_layer(op))
    return false;
  if (nc_attr_get_int(nc_op_get_attr_str(op, "macs")) < 0)
    return nc_op_emit_error(op, "macs must be non-negative");
  nc_attr *buf = nc_op_get_attr_str(op, "buffer_elements");
  for (size_t i = 0; buf && i < n; i++)
    if (nc_attr_dense_array_get_int(buf, i) < 1) /* every operand is read through its buffer */
      return nc_op_emit_error(op, "buffer_elements[%zu] must be at least 1, not %lld", i,
                              (long long)nc_attr_dense_array_get_int(buf, i));
  /* The isl checks read only these attributes and types, all uniqued: a
   * node lowered through many passes is parsed once, not after each pass.
   * The accesses (domain, reads, writes, types) and the dependences
   * (domain, earliest, control) are remembered apart: dataflow-deps adds
   * the latter to nodes whose accesses were checked after the pass before. */
  nc_context *nctx = nc_op_get_context(op);
  static const char *const keyed[] = {"domain", "reads", "writes"};
  nc_attr *stack[16], **key_elts = n + 4 <= 16 ? stack : nc_xmalloc((n + 4) * sizeof *key_elts);
  for (size_t i = 0; i < 3; i++) {
    nc_attr *a = nc_op_get_attr_str(op, keyed[i]);
    key_elts[i] = a ? a : nc_attr_unit(nctx);
  }
  for (size_t i = 0; i < n; i++)
    key_elts[3 + i] = nc_attr_type(nctx, nc_value_get_type(nc_op_get_operand(op, i)));
  key_elts[3 + n] = nc_attr_type(nctx, nc_value_get_type(nc_op_get_result(op, 0)));
  nc_attr *access_key = nc_attr_array(nctx, n + 4, key_elts);
  if (key_elts != stack)
    free(key_elts);
  nc_attr *earliest = nc_op_get_attr_str(op, "earliest"), *control = nc_op_get_attr_str(op, "control");
  nc_attr *deps_key = NULL; /* a 4-element array tagged "dataflow.deps": no access key has that first element */
  if (earliest || control) {
    nc_attr *dom = nc_op_get_attr_str(op, "domain");
    nc_attr *d[4] = {nc_attr_string_cstr(nctx, "dataflow.deps"), dom ? dom : nc_attr_unit(nctx),
                     earliest ? earliest : nc_attr_unit(nctx), control ? control : nc_attr_unit(nctx)};
    deps_key = nc_attr_array(nctx, 4, d);
  }
  bool accesses = !nc_context_check_passed(nctx, access_key);
  bool deps = deps_key && !nc_context_check_passed(nctx, deps_key);
  if (!accesses && !deps)
    return true;
  isl_ctx *ctx = nc_dataflow_isl_ctx_create();
  df_isl_scope scope = df_isl_scope_enter(ctx);
  bool ok = verify_isl(op, ctx, accesses, deps);
  df_isl_scope_exit(scope);
  nc_dataflow_isl_ctx_destroy(ctx);
  if (ok && accesses)
    nc_context_note_check_passed(nctx, access_key);
  if (ok && deps)
    nc_context_note_check_passed(nctx, deps_key);
  return ok;
}

static bool verify_yield(nc_op *op)
{
  nc_op *node = nc_op_get_parent_op(op);
  size_t n = nc_op_get_num_operands(op), nr = nc_op_get_num_results(node);
  if (n != nr)
    return nc_op_emit_error(op, "has %zu operand%s, but the enclosing dataflow.node has %zu result%s", n,
                            n == 1 ? "" : "s", nr, nr == 1 ? "" : "s");
  for (size_t i = 0; i < n; i++)
    if (nc_value_get_type(nc_op_get_operand(op, i)) != nc_value_get_type(nc_op_get_result(node, i)))
      return nc_op_emit_error(op, "operand %zu does not match the type of the enclosing dataflow.node's result %zu",
                              i, i);
  return true;
}

/* --- tables ---------------------------------------------------------------------------------------------- */

#define N(a) (a), NC_COUNTOF(a)

static const nc_value_def node_operands[] = {
  {"inputs", NULL, NC_ARITY_VARIADIC, "the layer's inputs: outputs of other nodes or function values (In0, In1, ...)"}};
static const nc_value_def node_results[] = {{"output", NULL, NC_ARITY_ONE, "the layer's output (Out)"}};
static const nc_attr_def node_attrs[] = {
  {"name", &nc_ac_string, false, NULL, "the layer's name, unique in the function (e.g. \"conv1\")"},
  {"kind", &nc_ac_string, false, NULL, "the layer kind, one of the table below (layer.h)"},
  {"params", &nc_ac_dictionary, true, NULL,
   "the layer's parameters that differ from their defaults (layer.h): `kernel`, `stride`, `dilation`, `pads`, `perm`, "
   "`group`, `count_include_pad`, `axis`, `op`, `input_zero_points`, `input_multiplier`, `input_shift`, "
   "`weight_zero_point`, `weights`, `bias`, `multiplier`, `shift`, `output_zero_point`, `clamp_min`, `clamp_max`, "
   "`lut`, `input_affine`"},
  {"domain", &ac_set, false, NULL, "the iteration domain `{ S[...] : ... }`, run in lexicographic order"},
  {"reads", &ac_map_array, false, NULL, "one read relation `{ S[...] -> In<i>[...] }` per operand, in order"},
  {"writes", &ac_map, false, NULL, "the write relation `{ S[...] -> Out[...] }`"},
  {"macs", &nc_ac_i64, false, NULL, "multiply-accumulates per inference (conv, matmul; 0 for the others)"},
  {"earliest", &ac_map_array, true, NULL,
   "set by dataflow-deps, per operand: `{ S[...] -> P[...] }`, the producer iteration each iteration waits for"},
  {"control", &ac_map_array, true, NULL,
   "set by dataflow-deps, per operand: `{ P[...] -> S[...] }`, the last iteration allowed once P's is done"},
  {"buffer_elements", &nc_ac_i64_array, true, NULL, "set by dataflow-deps: each operand channel's minimum buffer"},
};
static const nc_region_def node_regions[] = {
  {"body", false, true, "the layer's graph ops (and their constants), terminated by dataflow.yield"}};
static const nc_value_def yield_operands[] = {{"results", NULL, NC_ARITY_VARIADIC, "the node's results"}};
static const char *const yield_parents[] = {"dataflow.node", NULL};

static const nc_op_def dataflow_ops[] = {
  {
    .name = "dataflow.node",
    .summary = "One layer of a spatial pipeline",
    .description =
      "A layer as a pipeline stage: the region holds the layer's graph-dialect ops (e.g. a `conv_integer` and the "
      "`requantize` after it, with their constants), so the node computes exactly what they compute (for the "
      "interpreter and `dataflow-inline`); the block's arguments are the operands. Everything below the graph level "
      "reads the layer from `kind` and `params` instead of the region (`nc/dialects/dataflow/layer.h`). The layer "
      "kinds:\n\n"
#define NC_X(e, name, summary) "- `" name "`: " summary "\n"
      NC_DATAFLOW_LAYER_KINDS(NC_X)
#undef NC_X
      "\n`params` holds only the fields that differ from their defaults (strides and dilations 1, group 1, no "
      "requantization, no clamp, zeros): geometry as `array<i64: ...>` (`kernel` [kh, kw], `stride`, `dilation`, "
      "`pads` [top, left, bottom, right]), `group`, `count_include_pad`, `axis`, the eltwise `op` (\"add\", \"sub\", "
      "\"mul\", \"max\", \"min\"), per-input `input_zero_points`/`input_multiplier`/`input_shift`, "
      "`weight_zero_point`, the constants `weights`, `bias` and `lut` as the graph constants' own elements "
      "attributes (dense or dense_resource: nothing is copied), the requantization `multiplier` and `shift` (one, "
      "or one per output channel), `output_zero_point`, `clamp_min` and `clamp_max`. The integer semantics: "
      "acc = sum((x - input zero point) * (w - weight zero point)) + bias[c]; y = round_half_even(acc * "
      "multiplier[c] / 2^shift[c]) + output_zero_point; y = clamp(y, clamp_min, clamp_max); a float layer (element "
      "width 0) uses the geometry, weights, bias and clamp only. A conv's `input_affine` (dataflow-fold-input-affine: "
      "a depthwise batch-norm and relu folded in) first maps each input element x of channel c to clamp("
      "round_half_even((x * w_c + b_c) * m_c / 2^s_c), lo, hi): (w_c, b_c, m_c, s_c) per input channel, then lo, "
      "hi.\n\n"
      "The attributes describe the layer's work to isl, in isl's own syntax:\n\n"
      "- `domain`: the iterations `{ S[oy] : 0 <= oy < 8 }` (one per output row, or `S[oy, ox]` per pixel, `S[]` "
      "for a layer that runs once), executed in lexicographic order;\n"
      "- `reads[i]`: the elements of operand i each iteration reads, `{ S[oy] -> In0[c, iy, ix] : ... }`;\n"
      "- `writes`: the elements of the result each iteration writes, `{ S[oy] -> Out[k, oy, ox] : ... }`.\n\n"
      "Tensors are addressed by their dims without a leading batch dim of 1 (`tensor<1x16x8x8xi8>` is "
      "`T[c, y, x]`, `tensor<1x512xi8>` is `F[i]`), in unpadded coordinates: padding is nobody's element. "
      "The dataflow-deps pass adds, per operand, `earliest` (consumer iteration -> the producer iteration `P[..]` "
      "it waits for), `control` (producer iteration -> the last consumer iteration allowed) and "
      "`buffer_elements` (the channel's minimum buffer).\n\n"
      "The verifier reads every relation with isl and checks that the domain is a bounded, non-empty set of `S` "
      "without parameters, that each access starts from the domain's space, names its tensor (`In<i>`, `Out`) "
      "with that tensor's coordinates and stays inside its bounds, that `kind` names a layer kind and `params` "
      "are well formed for it (known names, array lengths, ranges, weights and bias matching the output "
      "channels), and that the region's arguments and `dataflow.yield` match the operands and results.\n\n"
      "```mlir\n"
      "%1 = dataflow.node \"conv1\"(%0) {\n"
      "       domain = #dataflow.set<\"{ S[oy] : 0 <= oy <= 7 }\">,\n"
      "       kind = \"conv\", macs = 9216 : i64,\n"
      "       params = {bias = dense_resource<conv1.bias> : tensor<16xi32>, clamp_max = 127 : i64, clamp_min = 0 : i64,\n"
      "                 kernel = array<i64: 3, 3>, multiplier = array<i64: 1518500250>, pads = array<i64: 1, 1, 1, 1>,\n"
      "                 shift = array<i64: 38>, weights = dense_resource<conv1.weight> : tensor<16x1x3x3xi8>},\n"
      "       reads = [#dataflow.map<\"{ S[oy] -> In0[c = 0, iy, ix] : 0 <= oy <= 7 and iy >= -1 + oy and 0 <= iy <= 7 "
      "and iy <= 1 + oy and 0 <= ix <= 7 }\">],\n"
      "       writes = #dataflow.map<\"{ S[oy] -> Out[k, oy, ox] : 0 <= oy <= 7 and 0 <= k <= 15 and 0 <= ox <= 7 }\">}({\n"
      "  ^bb0(%arg0: tensor<1x1x8x8xi8>):\n"
      "    ...  // the conv_integer, its requantize and their constants\n"
      "    dataflow.yield %y : tensor<1x16x8x8xi8>\n"
      "  }) : (tensor<1x1x8x8xi8>) -> tensor<1x16x8x8xi8>\n"
      "```\n\n"
      "graph-to-dataflow also records the network's inputs and outputs on the function, as the discardable "
      "attribute `dataflow.io = {inputs = [{argument = 0 : i64, bits = 8 : i64, name = \"input\", scale = ... : f64, "
      "zero_point = 0 : i64}], outputs = [{bits = 8 : i64, name = \"output0\", result = 0 : i64, scale = ... : f64, "
      "zero_point = 0 : i64}]}`: how the host quantizes each argument and dequantizes each result "
      "(`nc_dataflow_func_get_io`).",
    .operands = N(node_operands), .results = N(node_results), .attrs = N(node_attrs), .regions = N(node_regions),
    .traits = NC_TRAIT_ISOLATED_FROM_ABOVE | NC_TRAIT_SINGLE_BLOCK | NC_TRAIT_RECURSIVE_MEMORY_EFFECTS,
    .verify_regions = df_verify_node,
    .assembly_format = "$name `(` $inputs `)` attr-dict `(` $body `)` `:` functional-type($inputs, results)",
  },
  {
    .name = "dataflow.yield",
    .summary = "Returns a node's results",
    .description = "Terminates a `dataflow.node`'s region; its operands are the node's results (same types).",
    .operands = N(yield_operands),
    .traits = NC_TRAIT_PURE | NC_TRAIT_TERMINATOR | NC_TRAIT_RETURN_LIKE | NC_TRAIT_HAS_PARENT,
    .parents = yield_parents,
    .verify = verify_yield,
    .assembly_format = "attr-dict ($results^ `:` type($results))?",
  },
};

const nc_dialect_def nc_dataflow_dialect = {
  .name = "dataflow",
  .summary = "Layers as pipeline nodes with isl iteration domains and access relations",
  .description =
    "The level between the tensor graph and the cores: each layer of a (quantized) `graph` function is a "
    "`dataflow.node`, the SSA values between nodes are the pipeline's channels. A node keeps the layer's graph "
    "ops in its region (their semantics are the node's) and describes its work polyhedrally: an iteration domain "
    "and read/write access relations as isl sets and maps, written in isl's syntax inside the dialect's two "
    "attributes:\n\n"
    "- `#dataflow.set<\"{ S[c, y, x] : 0 <= c < 16 and 0 <= y < 8 and 0 <= x < 8 }\">`: an isl set;\n"
    "- `#dataflow.map<\"{ S[oy] -> In0[c, iy, ix] : ... }\">`: an isl map.\n\n"
    "Both are checked by isl when parsed: text that is not exactly one set (map) is an error at the attribute. "
    "`graph-to-dataflow` builds the nodes (granularity row or pixel), `dataflow-deps` computes with isl, for "
    "every channel, the element dependences, when each consumer iteration may start (the monotone lexmax of the "
    "producer iterations it needs, as in IBM's cmnnc) and the channel's minimum buffer "
    "(docs/dataflow-dependences.md), and `dataflow-inline` turns nodes back into plain graph ops. The C API is "
    "`nc/dialects/dataflow/dataflow.h`.",
  .ops = dataflow_ops,
  .n_ops = NC_COUNTOF(dataflow_ops),
  .verify_attr = df_verify_attr,
  .attrs = df_attr_defs, .n_attrs = DF_NUM_ATTRS,
};
