/* export.c: a graph-dialect func.func -> ONNX ModelProto (opset 13, 17 or 19;
 * by default 17, or 19 for a function that needs it: a wrap pad).
 *
 * The inverse of the importer, so that tools people use (onnx.checker,
 * Netron, onnxruntime) can read what nc produced: arguments become graph
 * inputs (named from their locations), graph.constant ops initializers
 * (named from their locations, else their blob names), every other graph op
 * one node named from its location, with the attributes its definition
 * declares translated back (snake_case to ONNX's names). Static parameters
 * that are inputs in opset 13 (Slice starts, Reshape shape, Pad pads, Clip
 * bounds, Squeeze/Unsqueeze axes, Split sizes, ReduceSum axes) become int64
 * initializers, and a fused `activation` becomes a node of its own. All
 * protobuf-c structs are malloc'ed so one free_unpacked releases the model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/graph/graph.h"
#include "nc/dialects/graph/interp.h"
#include "nc/dialects/graph/onnx.h"
#include "nc/ir/asm.h"
#include "nc/ir/diag.h"
#include "nc/ir/types.h"
#include "nc/support/file.h"
#include "nc/support/hash.h"
#include "onnx_proto.h"

/* Protobuf messages cannot exceed 2 GiB. */
#define MAX_PROTO_BYTES ((size_t)INT32_MAX)

static char *xstrdup(const char *s)
{
  size_t n = strlen(s) + 1;
  return memcpy(nc_xmalloc(n), s, n);
}

/* Appends p to a malloc'ed pointer array of *n entries. */
#define PUSH(arr, n, p)                                                         \
  do {                                                                         \
    (arr) = nc_xrealloc((arr), ((n) + 1) * sizeof *(arr));                     \
    (arr)[(n)++] = (p);                                                        \
  } while (0)

/* ---- name sets and value names -------------------------------------------------------------------------- */

typedef struct slot {
  const void *key; /* a value pointer, or NULL */
  char *name;      /* owned */
} slot;

typedef struct exporter {
  nc_context *ctx;
  Onnx__GraphProto *g;
  int64_t opset;
  char **names; /* every tensor name used (owned), open addressing */
  size_t names_cap, names_n;
  char **nodes; /* every node name used (owned) */
  size_t nodes_cap, nodes_n;
  slot *vals;   /* value -> tensor name */
  size_t vals_cap, vals_n;
  unsigned counter;
} exporter;

static bool set_has(char **set, size_t cap, const char *s)
{
  if (!cap)
    return false;
  for (size_t i = nc_hash_bytes(s, strlen(s), 7) & (cap - 1); set[i]; i = (i + 1) & (cap - 1))
    if (!strcmp(set[i], s))
      return true;
  return false;
}

static void set_add(char ***set, size_t *cap, size_t *n, char *s)
{
  if ((*n + 1) * 2 > *cap) {
    size_t nc = *cap ? *cap * 2 : 64;
    char **ns = nc_xcalloc(nc, sizeof *ns);
    for (size_t i = 0; i < *cap; i++)
      if ((*set)[i]) {
        size_t j = nc_hash_bytes((*set)[i], strlen((*set)[i]), 7) & (nc - 1);
        while (ns[j])
          j = (j + 1) & (nc - 1);
        ns[j] = (*set)[i];
      }
    free(*set);
    *set = ns;
    *cap = nc;
  }
  size_t j = nc_hash_bytes(s, strlen(s), 7) & (*cap - 1);
  while ((*set)[j])
    j = (j + 1) & (*cap - 1);
  (*set)[j] = s;
  (*n)++;
}

/* A name based on `base` not used yet in the set (base, base_1, base_2...);
 * records it and returns a malloc'ed copy for the proto. */
static char *unique_in(char ***set, size_t *cap, size_t *n, const char *base)
{
  size_t len = strlen(base);
  char *s = nc_xmalloc(len + 24);
  memcpy(s, base, len + 1);
  for (unsigned k = 1; set_has(*set, *cap, s); k++)
    snprintf(s + len, 24, "_%u", k);
  set_add(set, cap, n, s);
  return xstrdup(s);
}

static char *unique_tensor(exporter *ex, const char *base)
{
  return unique_in(&ex->names, &ex->names_cap, &ex->names_n, base);
}

static char *unique_node(exporter *ex, const char *base)
{
  return unique_in(&ex->nodes, &ex->nodes_cap, &ex->nodes_n, base);
}

static size_t val_find(const exporter *ex, const void *key)
{
  size_t mask = ex->vals_cap - 1, i = nc_hash_ptr(key) & mask;
  while (ex->vals[i].key && ex->vals[i].key != key)
    i = (i + 1) & mask;
  return i;
}

static const char *val_name(const exporter *ex, const nc_value *v)
{
  if (!ex->vals_cap)
    return NULL;
  size_t i = val_find(ex, v);
  return ex->vals[i].key ? ex->vals[i].name : NULL;
}

static void val_set(exporter *ex, const nc_value *v, const char *name)
{
  if ((ex->vals_n + 1) * 2 > ex->vals_cap) {
    exporter n = {.vals_cap = ex->vals_cap ? ex->vals_cap * 2 : 64};
    n.vals = nc_xcalloc(n.vals_cap, sizeof *n.vals);
    for (size_t i = 0; i < ex->vals_cap; i++)
      if (ex->vals[i].key)
        n.vals[val_find(&n, ex->vals[i].key)] = ex->vals[i];
    free(ex->vals);
    ex->vals = n.vals;
    ex->vals_cap = n.vals_cap;
  }
  size_t i = val_find(ex, v);
  if (!ex->vals[i].key)
    ex->vals_n++;
  else
    free(ex->vals[i].name);
  ex->vals[i] = (slot){v, xstrdup(name)};
}

/* y's ONNX name: the one it has, else a fresh one from `base`, kept. */
static const char *result_name(exporter *ex, const nc_value *y, const char *base)
{
  if (!val_name(ex, y)) {
    char *fresh = unique_tensor(ex, base);
    val_set(ex, y, fresh);
    free(fresh);
  }
  return val_name(ex, y);
}

/* The name a location gives: `loc("name")` (possibly around a child), or
 * the first name inside a fused location; NULL otherwise. */
static const char *loc_name(nc_context *ctx, nc_location loc)
{
  nc_attr *a = nc_location_get_attr(ctx, loc);
  for (int depth = 0; a && depth < 16; depth++) {
    switch (nc_attr_get_kind(a)) {
    case NC_ATTR_LOC_NAME: return nc_ident_str(nc_loc_get_name(a));
    case NC_ATTR_LOC_FUSED: a = nc_loc_get_num_fused(a) ? nc_loc_get_fused(a, 0) : NULL; break;
    case NC_ATTR_LOC_CALLSITE: a = nc_loc_get_callee(a); break;
    default: return NULL;
    }
  }
  return NULL;
}

/* ---- types ---------------------------------------------------------------------------------------------- */

/* The 8-bit container of a 4- or 2-bit type (ONNX has INT4 only from opset
 * 21, and its integer ops, ConvInteger, MatMulInteger, QLinearConv, take
 * int8 and uint8 only): the same codes, one a byte, as nc stores them. */
static nc_dtype container_dtype(nc_dtype dt)
{
  return dt == NC_DT_I4 || dt == NC_DT_I2 ? NC_DT_I8 : dt == NC_DT_U4 || dt == NC_DT_U2 ? NC_DT_U8 : dt;
}

static bool is_narrow(nc_dtype dt) { return container_dtype(dt) != dt; }

/* The ONNX elem_type of a tensor type, or 0 + error at `op`. Inside the
 * graph a 4- or 2-bit tensor is written in its 8-bit container (the ops
 * that make such values keep them in range: requantize saturates to the
 * width, a QuantizeLinear to it gets a Clip); the function's inputs and
 * outputs (`signature`) must have their own ONNX type. */
static int32_t elem_type_of(exporter *ex, nc_op *op, const nc_type *t, bool signature)
{
  nc_dtype dt;
  char *s = nc_type_to_string(t);
  int32_t r = 0;
  if (!nc_type_is_tensor(t) || !nc_interp_dtype_from_type(nc_type_get_element_type(t), &dt))
    nc_op_emit_error(op, "type %s has no ONNX equivalent", s);
  else if (signature && is_narrow(dt))
    nc_op_emit_error(op, "type %s needs a newer ONNX opset than %lld (INT4 is opset 21)", s, (long long)ex->opset);
  else
    r = nc_onnx_data_type_from_dtype(container_dtype(dt));
  free(s);
  return r;
}

static int32_t elem_type(exporter *ex, nc_op *op, const nc_type *t) { return elem_type_of(ex, op, t, false); }

static Onnx__ValueInfoProto *value_info(const char *name, int32_t elt, const nc_type *t)
{
  Onnx__ValueInfoProto *vi = nc_xmalloc(sizeof *vi);
  onnx__value_info_proto__init(vi);
  vi->name = xstrdup(name);
  vi->type = nc_xmalloc(sizeof *vi->type);
  onnx__type_proto__init(vi->type);
  vi->type->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  vi->type->tensor_type = nc_xmalloc(sizeof *vi->type->tensor_type);
  onnx__type_proto__tensor__init(vi->type->tensor_type);
  vi->type->tensor_type->has_elem_type = 1;
  vi->type->tensor_type->elem_type = elt;
  if (nc_type_has_rank(t)) {
    Onnx__TensorShapeProto *s = nc_xmalloc(sizeof *s);
    onnx__tensor_shape_proto__init(s);
    size_t rank = nc_type_get_rank(t);
    const int64_t *dims = nc_type_get_shape(t);
    for (size_t i = 0; i < rank; i++) {
      Onnx__TensorShapeProto__Dimension *d = nc_xmalloc(sizeof *d);
      onnx__tensor_shape_proto__dimension__init(d);
      if (dims[i] != NC_DYNAMIC) {
        d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
        d->dim_value = dims[i];
      }
      PUSH(s->dim, s->n_dim, d);
    }
    vi->type->tensor_type->shape = s;
  }
  return vi;
}

/* ---- nodes ---------------------------------------------------------------------------------------------- */

/* Adds a node; an empty name stays empty (ONNX names are optional), others
 * are made unique as ONNX requires. */
static Onnx__NodeProto *add_node(exporter *ex, const char *op_type, const char *name)
{
  Onnx__NodeProto *n = nc_xmalloc(sizeof *n);
  onnx__node_proto__init(n);
  n->op_type = xstrdup(op_type);
  n->name = *name ? unique_node(ex, name) : xstrdup("");
  PUSH(ex->g->node, ex->g->n_node, n);
  return n;
}

static void add_input(Onnx__NodeProto *n, const char *name) { PUSH(n->input, n->n_input, xstrdup(name)); }
static void add_output(Onnx__NodeProto *n, const char *name) { PUSH(n->output, n->n_output, xstrdup(name)); }

static Onnx__AttributeProto *new_attr(Onnx__NodeProto *n, const char *name, Onnx__AttributeProto__AttributeType type)
{
  Onnx__AttributeProto *a = nc_xmalloc(sizeof *a);
  onnx__attribute_proto__init(a);
  a->name = xstrdup(name);
  a->has_type = 1;
  a->type = type;
  PUSH(n->attribute, n->n_attribute, a);
  return a;
}

static void attr_int(Onnx__NodeProto *n, const char *name, int64_t v)
{
  Onnx__AttributeProto *a = new_attr(n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
  a->has_i = 1;
  a->i = v;
}

static void attr_float(Onnx__NodeProto *n, const char *name, double v)
{
  Onnx__AttributeProto *a = new_attr(n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
  a->has_f = 1;
  a->f = (float)v;
}

static void attr_ints(Onnx__NodeProto *n, const char *name, size_t k, const int64_t *v)
{
  Onnx__AttributeProto *a = new_attr(n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
  a->n_ints = k;
  a->ints = nc_xmalloc((k ? k : 1) * sizeof *a->ints);
  if (k)
    memcpy(a->ints, v, k * sizeof *v);
}

static void attr_string(Onnx__NodeProto *n, const char *name, const char *v, size_t len)
{
  Onnx__AttributeProto *a = new_attr(n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
  a->has_s = 1;
  a->s.len = len;
  a->s.data = nc_xmalloc(len ? len : 1);
  memcpy(a->s.data, v, len);
}

/* Adds an initializer holding t (taken) under a unique name based on
 * `base`; returns the name. */
static const char *add_initializer(exporter *ex, const char *base, nc_tensor *t)
{
  char *name = unique_tensor(ex, base);
  t->dtype = container_dtype(t->dtype);
  Onnx__TensorProto *p = nc_onnx_tensor_from_host(t, name);
  free(name);
  nc_tensor_destroy(t);
  PUSH(ex->g->initializer, ex->g->n_initializer, p);
  return p->name;
}

/* Adds a 1-D int64 initializer as the next input of node n. */
static void input_ints(exporter *ex, Onnx__NodeProto *n, const char *what, size_t k, const int64_t *v)
{
  int64_t shape[1] = {(int64_t)k};
  nc_tensor *t = nc_tensor_create(NC_DT_I64, 1, shape, 0);
  if (k)
    memcpy(t->data, v, k * sizeof *v);
  char base[512];
  snprintf(base, sizeof base, "%s_%s", *n->name ? n->name : n->op_type, what);
  add_input(n, add_initializer(ex, base, t));
}

/* Adds a scalar initializer of dtype dt holding v as the next input of n. */
static void input_scalar(exporter *ex, Onnx__NodeProto *n, const char *what, nc_dtype dt, double fv, int64_t iv,
                         bool is_int)
{
  nc_tensor *t = nc_tensor_create(dt, 0, NULL, 0);
  if (is_int)
    nc_tensor_set_i64(t, 0, iv);
  else
    nc_tensor_set_f64(t, 0, fv);
  char base[512];
  snprintf(base, sizeof base, "%s_%s", *n->name ? n->name : n->op_type, what);
  add_input(n, add_initializer(ex, base, t));
}

/* ---- ops ------------------------------------------------------------------------------------------------ */

/* graph op -> ONNX op type, the first opset that has it, and the attributes
 * that become inputs (in ONNX's input order, after the operands, separated
 * by spaces; those marked with '?' are optional inputs): graph_ops.def's
 * ONNX column. */
static const struct export_def {
  const char *graph, *onnx;
  int since;
  const char *inputs;
} defs[] = {
#define ONNX(TYPE, SINCE, HANDLER, INPUTS) TYPE, SINCE, INPUTS
#define NO_ONNX NULL, 0, ""
#define EXPORT_ROW(MNEMONIC, TYPE, SINCE, INPUTS) {MNEMONIC, TYPE, SINCE, INPUTS},
#define EXPORT_ROW_(...) EXPORT_ROW(__VA_ARGS__)
#define GRAPH_OP(KIND, MNEMONIC, SUMMARY, ONNX_, KERNEL, INTERP, QUANT, DEF, DESCRIPTION) EXPORT_ROW_(MNEMONIC, ONNX_)
#include "../graph_ops.def"
#undef EXPORT_ROW_
#undef EXPORT_ROW
#undef NO_ONNX
#undef ONNX
};

/* The next name of a list of attribute inputs ("starts ends axes?"): copies
 * it into name and whether it is optional; false at the end. */
static bool next_input(const char **list, char *name, size_t len, bool *optional)
{
  const char *p = *list + strspn(*list, " ");
  size_t n = strcspn(p, " ?");
  if (!n)
    return false;
  snprintf(name, len, "%.*s", (int)n, p);
  *optional = p[n] == '?';
  *list = p + n + (p[n] == '?');
  return true;
}

/* The attributes that are inputs of d's ONNX op at the exporter's opset:
 * ReduceMean, ReduceMax and ReduceMin take their axes as an input from
 * opset 18 on (ReduceSum from 13). */
static const char *input_attrs(const exporter *ex, const struct export_def *d)
{
  if (ex->opset >= 18 && (!strcmp(d->graph, "graph.reduce_mean") || !strcmp(d->graph, "graph.reduce_max") ||
                          !strcmp(d->graph, "graph.reduce_min")))
    return "axes?";
  return d->inputs;
}

static bool is_input_attr(const exporter *ex, const struct export_def *d, const char *name)
{
  char input[32];
  bool optional;
  for (const char *list = input_attrs(ex, d); next_input(&list, input, sizeof input, &optional);)
    if (!strcmp(input, name))
      return true;
  return false;
}

static bool is_fusion_attr(const char *name) { return !strncmp(name, "activation", 10); }

/* Copies the op's declared attributes to the node, renamed for ONNX. */
static bool copy_attrs(exporter *ex, nc_op *op, const struct export_def *d, Onnx__NodeProto *n)
{
  const nc_op_def *def = nc_op_get_def(op);
  nc_attr *dicts[2] = {nc_op_get_props(op), nc_op_get_attr_dict(op)};
  for (int k = 0; k < 2; k++) {
    nc_attr *dict = dicts[k];
    if (!dict || nc_attr_get_kind(dict) != NC_ATTR_DICTIONARY)
      continue;
    for (size_t i = 0; i < nc_attr_get_num_elements(dict); i++) {
      nc_named_attr e = nc_attr_get_entry(dict, i);
      const char *name = nc_ident_str(e.name);
      if (!def || nc_op_def_find_attr(def, name) < 0 || is_input_attr(ex, d, name) || is_fusion_attr(name))
        continue; /* discardable attributes have no ONNX meaning */
      if (!strcmp(d->graph, "graph.cast") || (!strcmp(d->graph, "graph.quantize_linear") && !strcmp(name, "saturate")))
        continue; /* saturate is opset 19+ and only matters for float8 */
      if (!strcmp(name, "noop_with_empty_axes") && strcmp(d->graph, "graph.reduce_sum") && ex->opset < 18) {
        if (nc_attr_get_kind(e.value) == NC_ATTR_INTEGER && nc_attr_get_int(e.value))
          return nc_op_emit_error(op, "noop_with_empty_axes = 1 needs ONNX opset 18 or later");
        continue;
      }
      const char *onnx = !strcmp(name, "trans_a") ? "transA" : !strcmp(name, "trans_b") ? "transB" : name;
      nc_attr *a = e.value;
      switch (nc_attr_get_kind(a)) {
      case NC_ATTR_INTEGER: attr_int(n, onnx, nc_attr_get_int(a)); break;
      case NC_ATTR_FLOAT: attr_float(n, onnx, nc_attr_get_float(a)); break;
      case NC_ATTR_STRING: {
        size_t len;
        const char *s = nc_attr_get_string(a, &len);
        attr_string(n, onnx, s, len);
        break;
      }
      case NC_ATTR_DENSE_ARRAY: {
        size_t m = nc_attr_get_num_elements(a);
        int64_t *v = nc_xmalloc((m ? m : 1) * sizeof *v);
        for (size_t j = 0; j < m; j++)
          v[j] = nc_attr_dense_array_get_int(a, j);
        attr_ints(n, onnx, m, v);
        free(v);
        break;
      }
      default: return nc_op_emit_error(op, "attribute '%s' cannot be written to ONNX", name);
      }
    }
  }
  if (!strcmp(d->graph, "graph.reshape") && nc_graph_attr_int(op, "allowzero", 0) && ex->opset < 14)
    return nc_op_emit_error(op, "allowzero = 1 needs ONNX opset 14 or later");
  if (!strcmp(d->graph, "graph.pad") && !strcmp(nc_graph_attr_string(op, "mode", "constant"), "wrap") &&
      ex->opset < 19)
    return nc_op_emit_error(op, "mode \"wrap\" needs ONNX opset 19 or later; the exporter writes opset %lld",
                            (long long)ex->opset);
  return true;
}

/* Adds the inputs that are attributes in the graph dialect. */
static bool attr_inputs(exporter *ex, nc_op *op, const struct export_def *d, Onnx__NodeProto *n)
{
  nc_type *xt = nc_value_get_type(nc_op_get_operand(op, 0));
  nc_dtype xdt = NC_DT_F32;
  nc_interp_dtype_from_type(nc_type_get_element_type(xt), &xdt);
  size_t pending = 0; /* optional inputs skipped so far, written as "" if a later one exists */
  char name[32];
  bool optional;
  for (const char *list = input_attrs(ex, d); next_input(&list, name, sizeof name, &optional);) {
    nc_attr *a = nc_op_get_attr_str(op, name);
    if (!a) {
      pending++;
      continue;
    }
    for (; pending; pending--)
      add_input(n, "");
    if (nc_attr_get_kind(a) == NC_ATTR_DENSE_ARRAY) {
      size_t m;
      const int64_t *v = nc_graph_attr_ints(op, name, &m);
      input_ints(ex, n, name, m, v);
    } else if (nc_attr_get_kind(a) == NC_ATTR_FLOAT) {
      input_scalar(ex, n, !strcmp(name, "value") ? "constant_value" : name, xdt, nc_attr_get_float(a), 0, false);
    } else if (nc_attr_get_kind(a) == NC_ATTR_INTEGER) {
      input_scalar(ex, n, name, xdt, 0, nc_attr_get_int(a), true);
    } else {
      return nc_op_emit_error(op, "attribute '%s' cannot be written to ONNX", name);
    }
  }
  return true;
}

/* Writes a fused activation as its own node reading `in` and writing `out`. */
static bool add_activation(exporter *ex, nc_op *op, const nc_graph_activation *act, const char *base,
                           const char *in, const char *out)
{
  static const char *types[] = {NULL, "Relu", "LeakyRelu", "Clip", "Sigmoid", "Tanh"};
  char name[512] = "";
  if (*base)
    snprintf(name, sizeof name, "%s/activation", base);
  Onnx__NodeProto *n = add_node(ex, types[act->kind], name);
  add_input(n, in);
  add_output(n, out);
  if (act->kind == NC_GRAPH_ACT_LEAKY_RELU)
    attr_float(n, "alpha", act->alpha);
  if (act->kind == NC_GRAPH_ACT_CLIP) {
    nc_dtype dt = NC_DT_F32;
    nc_interp_dtype_from_type(nc_type_get_element_type(nc_value_get_type(nc_op_get_result(op, 0))), &dt);
    if (act->has_min)
      input_scalar(ex, n, "min", dt, act->min, 0, false);
    else if (act->has_max)
      add_input(n, "");
    if (act->has_max)
      input_scalar(ex, n, "max", dt, act->max, 0, false);
  }
  return true;
}

/* ---- graph.requantize as integer ONNX ops ------------------------------------------------------------ */

/* A node of type `type` reading in[0..n) and writing a fresh tensor, whose
 * name it returns (owned by the node). */
static const char *rq_node(exporter *ex, const char *base, const char *type, size_t n, const char *const *in)
{
  char b[512];
  snprintf(b, sizeof b, "%s/%s", base, type);
  char *nn = unique_node(ex, b);
  Onnx__NodeProto *node = add_node(ex, type, nn);
  free(nn);
  for (size_t i = 0; i < n; i++)
    add_input(node, in[i]);
  char *out = unique_tensor(ex, b);
  add_output(node, out);
  free(out);
  if (!strcmp(type, "Cast"))
    attr_int(node, "to", ONNX__TENSOR_PROTO__DATA_TYPE__INT64);
  return node->output[node->n_output - 1];
}

/* An int64 initializer of per-channel values v[c] (k of them, or one),
 * shaped to broadcast along `axis` of a rank-`rank` tensor. */
static const char *rq_const(exporter *ex, const char *base, const char *what, size_t k, const int64_t *v,
                            int64_t axis, int64_t rank)
{
  int64_t shape[NC_TENSOR_MAX_RANK] = {0};
  int r = 0;
  if (k > 1) {
    shape[r++] = (int64_t)k;
    for (int64_t d = axis + 1; d < rank; d++)
      shape[r++] = 1;
  }
  nc_tensor *t = nc_tensor_create(NC_DT_I64, r, shape, 0);
  for (size_t i = 0; i < k; i++)
    nc_tensor_set_i64(t, (int64_t)i, v[i]);
  char b[512];
  snprintf(b, sizeof b, "%s_%s", base, what);
  return add_initializer(ex, b, t);
}

/* graph.requantize has no ONNX op; it is written as the same integer
 * arithmetic in int64 ONNX ops (opset 13), so that any ONNX runtime
 * reproduces nc's interpreter bit for bit:
 *   v = Cast<int64>(acc [+ bias])          (the int32 add wraps, as nc's)
 *   p = v * m[c]                           (|p| < 2^62: exact)
 *   q, r = floor(p / 2^s[c]), p - q * 2^s in [0, 2^s)   (from Div)
 *   q += r > half || (r == half && q odd)  (round half to even, written
 *                                           with Clip and Abs)
 *   y = Cast<T>(Clip(q + zero_point, relu ? zero_point : Tmin, Tmax)), the
 *       bounds narrowed by clamp_min / clamp_max */
static bool export_requantize(exporter *ex, nc_op *op)
{
  nc_attr *ma = nc_op_get_attr_str(op, "multiplier"), *sa = nc_op_get_attr_str(op, "shift");
  nc_value *y = nc_op_get_result(op, 0);
  nc_type *yt = nc_value_get_type(y);
  int32_t yet = elem_type(ex, op, yt);
  if (!yet)
    return false;
  nc_dtype dt;
  nc_interp_dtype_from_type(nc_type_get_element_type(yt), &dt);
  if (dt != NC_DT_I8 && dt != NC_DT_U8 && dt != NC_DT_I32 && !is_narrow(dt))
    return nc_op_emit_error(op, "cannot be exported to ONNX: results of type %s are not written (8-, 4-, 2-bit and i32 "
                            "are)", nc_dtype_name(dt));
  size_t k = ma ? nc_attr_get_num_elements(ma) : 0;
  if (!k || !sa || nc_attr_get_num_elements(sa) != k)
    return nc_op_emit_error(op, "cannot be exported to ONNX: multiplier and shift differ in length");
  int64_t rank = (int64_t)nc_type_get_rank(yt), axis = nc_graph_attr_int(op, "axis", 1);
  axis = axis < 0 ? axis + rank : axis;
  int64_t *m = nc_xcalloc(k, sizeof *m), *d = nc_xcalloc(k, sizeof *d), *h = nc_xcalloc(k, sizeof *h);
  bool ok = true;
  for (size_t i = 0; i < k && ok; i++) {
    int64_t sh = nc_attr_dense_array_get_int(sa, i);
    m[i] = nc_attr_dense_array_get_int(ma, i);
    ok = sh >= 0 && sh <= 62;
    d[i] = ok ? (int64_t)1 << sh : 1;
    h[i] = sh ? d[i] / 2 : d[i]; /* shift 0: no remainder, never a tie */
  }
  if (!ok) {
    free(m), free(d), free(h);
    return nc_op_emit_error(op, "cannot be exported to ONNX: a shift above 62 does not fit int64 arithmetic");
  }
  const char *lname = loc_name(ex->ctx, nc_op_get_loc(op));
  char base[256];
  snprintf(base, sizeof base, "%s", lname && *lname ? lname : "requantize");
  const char *acc = val_name(ex, nc_op_get_operand(op, 0));
  if (nc_op_get_num_operands(op) > 1) {
    const char *bias = val_name(ex, nc_op_get_operand(op, 1));
    nc_type *bt = nc_value_get_type(nc_op_get_operand(op, 1));
    if (nc_type_get_rank(bt) == 1 && nc_type_get_shape(bt)[0] > 1 && axis + 1 < rank) { /* [C] -> [C, 1, ..] */
      int64_t shape[NC_TENSOR_MAX_RANK] = {nc_type_get_shape(bt)[0]};
      for (int64_t i = 1; i < rank - axis; i++)
        shape[i] = 1;
      char b[300];
      snprintf(b, sizeof b, "%s_bias_shape", base);
      nc_tensor *st = nc_tensor_create(NC_DT_I64, 1, (int64_t[]){rank - axis}, 0);
      memcpy(st->data, shape, (size_t)(rank - axis) * sizeof *shape);
      bias = rq_node(ex, base, "Reshape", 2, (const char *[]){bias, add_initializer(ex, b, st)});
    }
    acc = rq_node(ex, base, "Add", 2, (const char *[]){acc, bias});
  }
  const char *v = rq_node(ex, base, "Cast", 1, &acc);
  const char *p = rq_node(ex, base, "Mul", 2, (const char *[]){v, rq_const(ex, base, "multiplier", k, m, axis, rank)});
  const char *dn = rq_const(ex, base, "divisor", k, d, axis, rank);
  const char *hn = rq_const(ex, base, "half", k, h, axis, rank);
  /* Only arithmetic and Clip (no comparisons: every ONNX runtime, nc's
   * importer too, runs them on int64). floor division from Div (which
   * truncates): neg = Clip(-rt, 0, 1) is rt < 0, q = qt - neg, r = rt + neg * d */
  int64_t zero = 0, one = 1, two = 2;
  const char *zn = rq_const(ex, base, "zero", 1, &zero, 0, 0), *onen = rq_const(ex, base, "one", 1, &one, 0, 0);
  const char *twon = rq_const(ex, base, "two", 1, &two, 0, 0);
  const char *qt = rq_node(ex, base, "Div", 2, (const char *[]){p, dn});
  const char *rt = rq_node(ex, base, "Sub", 2, (const char *[]){p, rq_node(ex, base, "Mul", 2, (const char *[]){qt, dn})});
  const char *neg = rq_node(ex, base, "Clip", 3, (const char *[]){rq_node(ex, base, "Neg", 1, &rt), zn, onen});
  const char *q = rq_node(ex, base, "Sub", 2, (const char *[]){qt, neg});
  const char *r = rq_node(ex, base, "Add", 2, (const char *[]){rt, rq_node(ex, base, "Mul", 2, (const char *[]){neg, dn})});
  /* odd = |q - 2 * trunc(q / 2)|; above = Clip(r - half, 0, 1);
   * tie = 1 - Clip(|r - half|, 0, 1); q += above + tie * odd */
  const char *half_q = rq_node(ex, base, "Div", 2, (const char *[]){q, twon});
  const char *par = rq_node(ex, base, "Sub", 2, (const char *[]){q, rq_node(ex, base, "Mul", 2, (const char *[]){half_q, twon})});
  const char *odd = rq_node(ex, base, "Abs", 1, &par);
  const char *rh = rq_node(ex, base, "Sub", 2, (const char *[]){r, hn});
  const char *above = rq_node(ex, base, "Clip", 3, (const char *[]){rh, zn, onen});
  const char *ne = rq_node(ex, base, "Clip", 3, (const char *[]){rq_node(ex, base, "Abs", 1, &rh), zn, onen});
  const char *tie = rq_node(ex, base, "Sub", 2, (const char *[]){onen, ne});
  const char *up = rq_node(ex, base, "Add", 2, (const char *[]){above, rq_node(ex, base, "Mul", 2, (const char *[]){tie, odd})});
  q = rq_node(ex, base, "Add", 2, (const char *[]){q, up});
  int64_t zp = nc_graph_attr_int(op, "output_zero_point", 0);
  if (zp)
    q = rq_node(ex, base, "Add", 2, (const char *[]){q, rq_const(ex, base, "zero_point", 1, &zp, 0, 0)});
  const char *act = nc_op_get_attr_str(op, "activation") ? "relu" : NULL;
  int bits = dt == NC_DT_I32 ? 32 : dt == NC_DT_I4 || dt == NC_DT_U4 ? 4 : dt == NC_DT_I2 || dt == NC_DT_U2 ? 2 : 8;
  bool sgn = nc_dtype_is_signed(dt);
  int64_t lo = sgn ? -((int64_t)1 << (bits - 1)) : 0, hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
  /* relu, then clamp_min / clamp_max (a fused Clip), then saturation: one Clip, its bounds composed
   * (clamp(clamp(x, a, b), c, d) = clamp(x, clamp(a, c, d), clamp(b, c, d)) for a <= b) */
  int64_t cmin = nc_graph_attr_int(op, "clamp_min", INT64_MIN), cmax = nc_graph_attr_int(op, "clamp_max", INT64_MAX);
  int64_t l0 = act ? (zp < cmin ? cmin : zp > cmax ? cmax : zp) : cmin, tmin = lo, tmax = hi;
  lo = l0 < tmin ? tmin : l0 > tmax ? tmax : l0;
  hi = cmax < tmin ? tmin : cmax > tmax ? tmax : cmax;
  q = rq_node(ex, base, "Clip", 3, (const char *[]){q, rq_const(ex, base, "min", 1, &lo, 0, 0),
                                                     rq_const(ex, base, "max", 1, &hi, 0, 0)});
  free(m), free(d), free(h);
  /* the last Cast writes the result's own name */
  char cb[512];
  snprintf(cb, sizeof cb, "%s/Cast", base);
  char *nn = unique_node(ex, cb);
  Onnx__NodeProto *cast = add_node(ex, "Cast", nn);
  free(nn);
  add_input(cast, q);
  attr_int(cast, "to", yet);
  const char *name = result_name(ex, y, base);
  add_output(cast, name);
  return true;
}

/* graph.channel_shuffle has no ONNX op; it is written as torch exports it:
 * Reshape [N, g, C/g, rest] -> Transpose (0, 2, 1, 3, ...) -> Reshape back
 * (which nc's canonicalize turns into the op again). */
static bool export_channel_shuffle(exporter *ex, nc_op *op)
{
  nc_type *t = nc_value_get_type(nc_op_get_result(op, 0));
  size_t rank = nc_type_get_rank(t);
  int64_t g = nc_graph_attr_int(op, "group", 0);
  if (!nc_type_has_static_shape(t) || rank < 2 || rank + 1 > NC_TENSOR_MAX_RANK || g < 1)
    return nc_op_emit_error(op, "cannot be exported to ONNX: needs a static shape of rank 2 to %d",
                            NC_TENSOR_MAX_RANK - 1);
  const int64_t *d = nc_type_get_shape(t);
  int64_t split[NC_TENSOR_MAX_RANK] = {d[0], g, d[1] / g}, perm[NC_TENSOR_MAX_RANK] = {0, 2, 1};
  for (size_t i = 2; i < rank; i++)
    split[i + 1] = d[i], perm[i + 1] = (int64_t)i + 1;
  const char *lname = loc_name(ex->ctx, nc_op_get_loc(op));
  char base[256], b[300];
  snprintf(base, sizeof base, "%s", lname && *lname ? lname : "channel_shuffle");
  nc_tensor *s1 = nc_tensor_create(NC_DT_I64, 1, (int64_t[]){(int64_t)rank + 1}, 0);
  memcpy(s1->data, split, (rank + 1) * sizeof *split);
  nc_tensor *s2 = nc_tensor_create(NC_DT_I64, 1, (int64_t[]){(int64_t)rank}, 0);
  memcpy(s2->data, d, rank * sizeof *d);
  snprintf(b, sizeof b, "%s_split_shape", base);
  const char *x = val_name(ex, nc_op_get_operand(op, 0));
  if (!x)
    return nc_op_emit_error(op, "operand 0 is not defined before the op");
  const char *r1 = rq_node(ex, base, "Reshape", 2, (const char *[]){x, add_initializer(ex, b, s1)});
  const char *tr = rq_node(ex, base, "Transpose", 1, &r1);
  attr_ints(ex->g->node[ex->g->n_node - 1], "perm", rank + 1, perm);
  snprintf(b, sizeof b, "%s_shape", base);
  const char *shape = add_initializer(ex, b, s2);
  snprintf(b, sizeof b, "%s/Reshape_back", base);
  char *nn = unique_node(ex, b);
  Onnx__NodeProto *back = add_node(ex, "Reshape", nn);
  free(nn);
  add_input(back, tr);
  add_input(back, shape);
  nc_value *y = nc_op_get_result(op, 0);
  const char *name = result_name(ex, y, base);
  add_output(back, name);
  return true;
}

static bool export_op(exporter *ex, nc_op *op)
{
  const char *opname = nc_ident_str(nc_op_get_name(op));
  const struct export_def *d = NULL;
  for (size_t i = 0; i < NC_COUNTOF(defs); i++)
    if (defs[i].onnx && !strcmp(defs[i].graph, opname))
      d = &defs[i];
  if (!d && !strcmp(opname, "graph.requantize"))
    return export_requantize(ex, op);
  if (!d && !strcmp(opname, "graph.channel_shuffle"))
    return export_channel_shuffle(ex, op);
  if (!d)
    return nc_op_emit_error(op, "cannot be exported to ONNX (only graph dialect ops can)");
  if (ex->opset < d->since)
    return nc_op_emit_error(op, "needs ONNX opset %d or later (%s), not %lld", d->since, d->onnx,
                            (long long)ex->opset);
  const char *lname = loc_name(ex->ctx, nc_op_get_loc(op));
  Onnx__NodeProto *n = add_node(ex, d->onnx, lname ? lname : "");
  char tbase[256]; /* base of the node's output names */
  if (*n->name)
    snprintf(tbase, sizeof tbase, "%s", n->name);
  else
    snprintf(tbase, sizeof tbase, "%s_%u", d->onnx, ex->counter++);
  for (size_t i = 0; i < nc_op_get_num_operands(op); i++) {
    const char *in = val_name(ex, nc_op_get_operand(op, i));
    if (!in)
      return nc_op_emit_error(op, "operand %zu is not defined before the op", i);
    add_input(n, in);
  }
  /* ConvInteger/MatMulInteger/QLinearConv take positional optional inputs:
   * the op's operand list already has them in order. */
  if (!copy_attrs(ex, op, d, n) || !attr_inputs(ex, op, d, n))
    return false;
  if (!strcmp(d->graph, "graph.split") && !nc_op_get_attr_str(op, "split")) {
    /* without sizes the dialect's parts are ceil(dim / n), ONNX 13's equal */
    size_t nr = nc_op_get_num_results(op);
    int64_t axis = nc_graph_attr_int(op, "axis", 0);
    int64_t *sizes = nc_xmalloc((nr ? nr : 1) * sizeof *sizes);
    bool known = true, equal = true;
    for (size_t i = 0; i < nr; i++) {
      nc_type *t = nc_value_get_type(nc_op_get_result(op, i));
      int64_t r = (int64_t)nc_type_get_rank(t), a = axis < 0 ? axis + r : axis;
      sizes[i] = a >= 0 && a < r ? nc_type_get_shape(t)[a] : NC_DYNAMIC;
      known &= sizes[i] != NC_DYNAMIC;
      equal &= sizes[i] == sizes[0];
    }
    if (known && !equal)
      input_ints(ex, n, "split", nr, sizes);
    free(sizes);
  }
  if (!strcmp(d->graph, "graph.quantize_linear") && nc_op_get_num_operands(op) == 2) {
    /* without a zero point ONNX quantizes to uint8: other types need one */
    nc_dtype qdt;
    nc_type *qt = nc_type_get_element_type(nc_value_get_type(nc_op_get_result(op, 0)));
    if (nc_interp_dtype_from_type(qt, &qdt) && qdt != NC_DT_U8)
      input_scalar(ex, n, "y_zero_point", qdt, 0, 0, true);
  }
  if (!strcmp(d->graph, "graph.cast")) {
    int32_t to = elem_type(ex, op, nc_value_get_type(nc_op_get_result(op, 0)));
    if (!to)
      return false;
    attr_int(n, "to", to);
  }
  nc_graph_activation act = {0};
  if (!nc_graph_get_activation(op, &act))
    return nc_op_emit_error(op, "has an unknown fused activation");
  for (size_t i = 0; i < nc_op_get_num_results(op); i++) {
    nc_value *r = nc_op_get_result(op, i);
    const char *name = val_name(ex, r); /* pre-named graph outputs */
    char *fresh = NULL;
    if (!name) {
      char b[300];
      snprintf(b, sizeof b, "%s_output_%zu", tbase, i);
      name = fresh = unique_tensor(ex, b);
      val_set(ex, r, name);
    }
    nc_dtype rdt;
    if (!strcmp(d->graph, "graph.quantize_linear") && i == 0 &&
        nc_interp_dtype_from_type(nc_type_get_element_type(nc_value_get_type(r)), &rdt) && is_narrow(rdt)) {
      /* to 4 or 2 bits: QuantizeLinear to the 8-bit container, then Clip to the width (Brevitas's form) */
      char b[300];
      snprintf(b, sizeof b, "%s_container", name);
      char *pre = unique_tensor(ex, b);
      add_output(n, pre);
      int bits = rdt == NC_DT_I4 || rdt == NC_DT_U4 ? 4 : 2;
      bool sgn = nc_dtype_is_signed(rdt);
      nc_tensor *lo = nc_tensor_create(container_dtype(rdt), 0, NULL, 0), *hi = nc_tensor_create(lo->dtype, 0, NULL, 0);
      nc_tensor_set_i64(lo, 0, sgn ? -((int64_t)1 << (bits - 1)) : 0);
      nc_tensor_set_i64(hi, 0, sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1);
      snprintf(b, sizeof b, "%s/Clip", *n->name ? n->name : name);
      char *cn = unique_node(ex, b);
      Onnx__NodeProto *c = add_node(ex, "Clip", cn);
      free(cn);
      add_input(c, pre);
      snprintf(b, sizeof b, "%s_min", name);
      add_input(c, add_initializer(ex, b, lo));
      snprintf(b, sizeof b, "%s_max", name);
      add_input(c, add_initializer(ex, b, hi));
      add_output(c, name);
      free(pre);
      free(fresh);
      continue;
    }
    if (act.kind != NC_GRAPH_ACT_NONE && i == 0) {
      char b[300];
      snprintf(b, sizeof b, "%s_preact", name);
      char *pre = unique_tensor(ex, b);
      add_output(n, pre);
      bool ok = add_activation(ex, op, &act, n->name, pre, name);
      free(pre);
      free(fresh);
      if (!ok)
        return false;
      continue;
    }
    add_output(n, name);
    free(fresh);
  }
  return true;
}

/* graph.constant -> initializer. */
static bool export_constant(exporter *ex, nc_op *op)
{
  nc_attr *v = nc_op_get_attr_str(op, "value");
  nc_type *t = v ? nc_attr_get_type(v) : NULL;
  size_t nbytes;
  bool splat;
  const void *data = v ? nc_attr_elements_get_data(v, &nbytes, &splat) : NULL;
  nc_dtype dt;
  if (!data || !nc_type_has_static_shape(t) || !nc_interp_dtype_from_type(nc_type_get_element_type(t), &dt))
    return nc_op_emit_error(op, "has no value that can be written to ONNX (a dense tensor with data is needed)");
  if (!elem_type(ex, op, t))
    return false;
  size_t rank = nc_type_get_rank(t);
  if (rank > NC_TENSOR_MAX_RANK)
    return nc_op_emit_error(op, "rank %zu is more than nc's host tensors hold (%d)", rank, NC_TENSOR_MAX_RANK);
  const char *base = loc_name(ex->ctx, nc_op_get_loc(op));
  if ((!base || !*base) && nc_attr_get_kind(v) == NC_ATTR_DENSE_RESOURCE)
    base = nc_ident_str(nc_resource_get_name(nc_attr_dense_resource_get(v)));
  if (!base || !*base)
    base = "const";
  int64_t elements = 1;
  for (size_t i = 0; i < rank; i++)
    elements = nc_type_get_shape(t)[i] && elements > INT64_MAX / nc_type_get_shape(t)[i]
                 ? INT64_MAX
                 : elements * nc_type_get_shape(t)[i];
  if (splat && elements > 4096) { /* a large splat stays one element: ConstantOfShape, as the importer reads it */
    nc_tensor *one = nc_tensor_create(dt, 1, (int64_t[]){1}, 0);
    memcpy(one->data, data, nc_dtype_size(dt));
    one->dtype = container_dtype(dt);
    Onnx__NodeProto *n = add_node(ex, "ConstantOfShape", base);
    input_ints(ex, n, "shape", rank, nc_type_get_shape(t));
    Onnx__AttributeProto *a = new_attr(n, "value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    a->t = nc_onnx_tensor_from_host(one, "value");
    nc_tensor_destroy(one);
    char *out = unique_tensor(ex, base);
    add_output(n, out);
    val_set(ex, nc_op_get_result(op, 0), n->output[n->n_output - 1]);
    free(out);
    return true;
  }
  /* a protobuf message holds at most 2 GiB; a splat must not expand past that */
  nc_tensor *h = nc_tensor_create(dt, (int)rank, nc_type_get_shape(t), MAX_PROTO_BYTES);
  if (!h)
    return nc_op_emit_error(op, "is too large for an ONNX file (tensors over 2 GiB need external data, which nc does "
                                "not write)");
  size_t total = nc_tensor_num_bytes(h), es = nc_dtype_size(dt);
  if (splat)
    for (size_t off = 0; off < total; off += es)
      memcpy((char *)h->data + off, data, es);
  else if (total)
    memcpy(h->data, data, total < nbytes ? total : nbytes);
  val_set(ex, nc_op_get_result(op, 0), add_initializer(ex, base, h));
  return true;
}

/* Writes an Identity node so that graph output `out` reads tensor `in`. */
static void identity_output(exporter *ex, const char *in, const char *out)
{
  char b[300];
  snprintf(b, sizeof b, "%s_identity", out);
  Onnx__NodeProto *n = add_node(ex, "Identity", b);
  add_input(n, in);
  add_output(n, out);
}

static nc_op *find_func(nc_op *root, const char *want)
{
  if (nc_op_is(root, "func.func"))
    return root;
  nc_op *found = NULL;
  if (!nc_op_is(root, "builtin.module")) {
    nc_op_emit_error(root, "expected a builtin.module or a func.func to export");
    return NULL;
  }
  size_t count = 0;
  for (nc_op *o = nc_block_get_first_op(nc_module_get_body(root)); o; o = nc_op_get_next(o)) {
    if (!nc_op_is(o, "func.func"))
      continue;
    nc_attr *name = nc_op_get_attr_str(o, "sym_name");
    if (want && !(name && nc_attr_is_string_eq(name, want)))
      continue;
    found = found ? found : o;
    count++;
  }
  if (!count)
    nc_op_emit_error(root, want ? "has no func.func named '%s' to export" : "has no func.func to export%s",
                     want ? want : "");
  else if (count > 1 && !want)
    nc_op_emit_error(root, "has %zu functions; ONNX export takes one, chosen by name (nc-translate --onnx-function)",
                     count);
  return count == 1 || (count && want) ? found : NULL;
}

static bool export_func(exporter *ex, nc_op *func)
{
  nc_region *body = nc_op_get_region(func, 0);
  nc_block *b = nc_region_get_first_block(body);
  if (!b || nc_block_get_next(b))
    return nc_op_emit_error(func, "must have a body of one block to be exported to ONNX");
  nc_attr *sym = nc_op_get_attr_str(func, "sym_name");
  ex->g->name = xstrdup(sym ? nc_attr_get_string(sym, NULL) : "main");
  for (size_t i = 0; i < nc_block_get_num_args(b); i++) {
    nc_value *a = nc_block_get_arg(b, i);
    const char *ln = loc_name(ex->ctx, nc_value_get_loc(a));
    char base[64];
    snprintf(base, sizeof base, "input_%zu", i);
    char *name = unique_tensor(ex, ln && *ln ? ln : base);
    int32_t et = elem_type_of(ex, func, nc_value_get_type(a), true);
    if (!et) {
      free(name);
      return false;
    }
    PUSH(ex->g->input, ex->g->n_input, value_info(name, et, nc_value_get_type(a)));
    val_set(ex, a, name);
    free(name);
  }
  nc_op *ret = nc_block_get_terminator(b);
  if (!ret || !nc_op_is(ret, "func.return"))
    return nc_op_emit_error(func, "must end with func.return to be exported to ONNX");
  /* Graph outputs: the first return of a node's result names that tensor;
   * arguments, constants and repeated values get an Identity node. */
  size_t n_out = nc_op_get_num_operands(ret);
  nc_attr *res_attrs = nc_op_get_attr_str(func, "res_attrs");
  char **out_names = nc_xcalloc(n_out + 1, sizeof *out_names);
  for (size_t i = 0; i < n_out; i++) {
    char base[64];
    snprintf(base, sizeof base, n_out == 1 ? "output" : "output_%zu", i);
    const char *want = base;
    nc_attr *ra = res_attrs && nc_attr_get_kind(res_attrs) == NC_ATTR_ARRAY && i < nc_attr_get_num_elements(res_attrs)
                      ? nc_attr_get_element(res_attrs, i)
                      : NULL;
    nc_attr *on = ra && nc_attr_get_kind(ra) == NC_ATTR_DICTIONARY ? nc_attr_dict_get_str(ra, "onnx.name") : NULL;
    if (on && nc_attr_get_kind(on) == NC_ATTR_STRING)
      want = nc_attr_get_string(on, NULL);
    out_names[i] = unique_tensor(ex, want);
    nc_value *v = nc_op_get_operand(ret, i);
    nc_op *def = nc_value_get_defining_op(v);
    if (def && !nc_op_is(def, "graph.constant") && !val_name(ex, v))
      val_set(ex, v, out_names[i]);
  }
  bool ok = true;
  for (nc_op *op = nc_block_get_first_op(b); ok && op != ret; op = nc_op_get_next(op))
    ok = nc_op_is(op, "graph.constant") ? export_constant(ex, op) : export_op(ex, op);
  for (size_t i = 0; ok && i < n_out; i++) {
    nc_value *v = nc_op_get_operand(ret, i);
    const char *vn = val_name(ex, v);
    if (strcmp(vn, out_names[i]))
      identity_output(ex, vn, out_names[i]);
    int32_t et = elem_type_of(ex, ret, nc_value_get_type(v), true);
    ok = et != 0;
    if (ok)
      PUSH(ex->g->output, ex->g->n_output, value_info(out_names[i], et, nc_value_get_type(v)));
  }
  /* value_info for every node output that is not a graph output */
  for (nc_op *op = nc_block_get_first_op(b); ok && op != ret; op = nc_op_get_next(op)) {
    if (nc_op_is(op, "graph.constant"))
      continue;
    for (size_t i = 0; i < nc_op_get_num_results(op); i++) {
      nc_value *r = nc_op_get_result(op, i);
      const char *vn = val_name(ex, r);
      bool is_out = false;
      for (size_t k = 0; k < n_out; k++)
        is_out |= !strcmp(vn, out_names[k]);
      int32_t et = elem_type(ex, op, nc_value_get_type(r));
      if (!(ok = et != 0))
        break;
      if (!is_out)
        PUSH(ex->g->value_info, ex->g->n_value_info, value_info(vn, et, nc_value_get_type(r)));
    }
  }
  for (size_t i = 0; i < n_out; i++)
    free(out_names[i]);
  free(out_names);
  return ok;
}

/* Whether a function has an op only opset 19 writes: a pad in mode wrap. */
static bool needs_opset_19(nc_op *func)
{
  nc_block *b = nc_region_get_first_block(nc_op_get_region(func, 0));
  for (nc_op *op = b ? nc_block_get_first_op(b) : NULL; op; op = nc_op_get_next(op))
    if (nc_op_is(op, "graph.pad") && !strcmp(nc_graph_attr_string(op, "mode", "constant"), "wrap"))
      return true;
  return false;
}

void *nc_onnx_export_to_memory(nc_op *root, const nc_onnx_export_options *opts, size_t *len)
{
  nc_onnx_export_options o = opts ? *opts : (nc_onnx_export_options){0};
  if (o.opset && o.opset != 13 && o.opset != 17 && o.opset != 19) {
    nc_op_emit_error(root, "ONNX export writes opset 13, 17 or 19, not %lld", (long long)o.opset);
    return NULL;
  }
  nc_op *func = find_func(root, o.func_name);
  if (!func)
    return NULL;
  if (!o.opset) /* 17, which every ONNX tool of today reads, unless the function needs 19 */
    o.opset = needs_opset_19(func) ? 19 : 17;
  Onnx__ModelProto *m = nc_xmalloc(sizeof *m);
  onnx__model_proto__init(m);
  m->has_ir_version = 1;
  /* IR 8 at opsets 17 and 19: IR 9 adds only float8 types, which nc never writes, and checkers of IR 8 (onnx
   * 1.13, Debian's onnx) read opset-19 models stamped so */
  m->ir_version = o.opset >= 17 ? 8 : 7;
  m->producer_name = xstrdup("nc");
  Onnx__OperatorSetIdProto *os = nc_xmalloc(sizeof *os);
  onnx__operator_set_id_proto__init(os);
  os->domain = xstrdup("");
  os->has_version = 1;
  os->version = o.opset;
  PUSH(m->opset_import, m->n_opset_import, os);
  m->graph = nc_xmalloc(sizeof *m->graph);
  onnx__graph_proto__init(m->graph);
  exporter ex = {.ctx = nc_op_get_context(func), .g = m->graph, .opset = o.opset};
  bool ok = export_func(&ex, func);
  void *buf = NULL;
  if (ok && onnx__model_proto__get_packed_size(m) > MAX_PROTO_BYTES)
    ok = nc_op_emit_error(func, "is too large for an ONNX file (over 2 GiB; external data is not written)");
  if (ok) {
    *len = onnx__model_proto__get_packed_size(m);
    buf = nc_xmalloc(*len ? *len : 1);
    onnx__model_proto__pack(m, buf);
  }
  onnx__model_proto__free_unpacked(m, NULL);
  for (size_t i = 0; i < ex.names_cap; i++)
    free(ex.names[i]);
  for (size_t i = 0; i < ex.nodes_cap; i++)
    free(ex.nodes[i]);
  for (size_t i = 0; i < ex.vals_cap; i++)
    free(ex.vals[i].name);
  free(ex.names);
  free(ex.nodes);
  free(ex.vals);
  return buf;
}

bool nc_onnx_export_file(nc_op *root, const char *path, const nc_onnx_export_options *opts)
{
  size_t len;
  void *buf = nc_onnx_export_to_memory(root, opts, &len);
  if (!buf)
    return false;
  char err[512];
  bool ok = nc_file_write_all(path, buf, len, err, sizeof err);
  free(buf);
  if (!ok) {
    nc_context *ctx = nc_op_get_context(root);
    nc_emit_error(ctx, nc_location_from_attr(nc_loc_file(ctx, nc_ident_get_cstr(ctx, path), 0, 0)),
                  "cannot write the ONNX model: %s", err);
  }
  return ok;
}
