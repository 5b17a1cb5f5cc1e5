/* graph_api.c: the public C API of the graph dialect (graph.h): shape
 * inference for code that builds graph ops, attribute readers with ONNX's
 * defaults, and the kernel parameter structs filled from attributes, so that
 * the interpreter and every lowering read attributes the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"

/* --- inference and creation ------------------------------------------------------------------------------- */

static int kind_of_name(nc_context *ctx, const char *name)
{
  const nc_op_def *d = nc_context_lookup_op_def(ctx, name, strlen(name));
  for (int k = 0; d && k < G_COUNT; k++)
    if (d == &nc_graph_dialect.ops[k])
      return k;
  return -1;
}

bool nc_graph_infer_types(nc_context *ctx, const char *op_name, nc_location loc, size_t n_operands,
                          nc_type *const *operand_types, nc_attr *attrs, size_t n_results, nc_type **types)
{
  int kind = kind_of_name(ctx, op_name);
  if (kind < 0) {
    nc_emit_error(ctx, loc, "'%s' is not a registered graph op", op_name);
    return false;
  }
  return graph_infer_hook((graph_kind)kind, ctx, loc, n_operands, operand_types, attrs, n_results, types);
}

bool nc_graph_infer_result_types(nc_op *op, nc_type **types)
{
  int kind = graph_kind_of(op);
  if (kind < 0)
    return false;
  size_t n = nc_op_get_num_results(op), no = nc_op_get_num_operands(op);
  nc_type **in = nc_xcalloc(no + 1, sizeof *in);
  for (size_t i = 0; i < no; i++)
    in[i] = nc_value_get_type(nc_op_get_operand(op, i));
  for (size_t i = 0; i < n; i++)
    types[i] = nc_value_get_type(nc_op_get_result(op, i));
  bool ok = graph_infer_hook((graph_kind)kind, nc_op_get_context(op), nc_op_get_loc(op), no, in, nc_op_get_props(op),
                             n, types);
  free(in);
  return ok;
}

nc_op *nc_graph_create_op(nc_context *ctx, const char *op_name, nc_location loc, size_t n_operands,
                          nc_value *const *operands, size_t n_attrs, const nc_named_attr *attrs, size_t n_results,
                          nc_type *const *result_hints)
{
  nc_attr *dict = nc_attr_dictionary(ctx, n_attrs, attrs);
  if (!dict) {
    nc_emit_error(ctx, loc, "'%s' op has an attribute given twice", op_name);
    return NULL;
  }
  nc_type **in = nc_xcalloc(n_operands + 1, sizeof *in), **out = nc_xcalloc(n_results + 1, sizeof *out);
  for (size_t i = 0; i < n_operands; i++)
    in[i] = nc_value_get_type(operands[i]);
  for (size_t i = 0; result_hints && i < n_results; i++)
    out[i] = result_hints[i];
  nc_op *op = NULL;
  if (nc_graph_infer_types(ctx, op_name, loc, n_operands, in, dict, n_results, out))
    op = nc_op_create(&(nc_op_state){.ctx = ctx, .name = op_name, .loc = loc, .n_operands = n_operands,
                                     .operands = operands, .n_results = n_results, .result_types = out,
                                     .n_attrs = n_attrs, .attrs = attrs});
  free(in);
  free(out);
  return op;
}

nc_op *nc_graph_create_constant(nc_context *ctx, nc_attr *value, nc_location loc)
{
  nc_type *t = nc_attr_get_type(value);
  nc_attr_kind k = nc_attr_get_kind(value);
  if (!t || (k != NC_ATTR_DENSE_ELEMENTS && k != NC_ATTR_DENSE_RESOURCE) || nc_type_get_kind(t) != NC_TYPE_TENSOR) {
    nc_emit_error(ctx, loc, "'graph.constant' op expects a dense or dense_resource tensor value");
    return NULL;
  }
  nc_named_attr a = {nc_ident_get_cstr(ctx, "value"), value};
  return nc_op_create(&(nc_op_state){.ctx = ctx, .name = "graph.constant", .loc = loc, .n_results = 1,
                                     .result_types = &t, .n_attrs = 1, .attrs = &a});
}

/* --- attribute readers ------------------------------------------------------------------------------------- */

int64_t nc_graph_attr_int(const nc_op *op, const char *name, int64_t dflt)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  return a && nc_attr_get_kind(a) == NC_ATTR_INTEGER ? nc_attr_get_int(a) : dflt;
}

double nc_graph_attr_float(const nc_op *op, const char *name, double dflt)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  if (a && nc_attr_get_kind(a) == NC_ATTR_FLOAT)
    return nc_attr_get_float(a);
  return a && nc_attr_get_kind(a) == NC_ATTR_INTEGER ? (double)nc_attr_get_int(a) : dflt;
}

const char *nc_graph_attr_string(const nc_op *op, const char *name, const char *dflt)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  return a && nc_attr_get_kind(a) == NC_ATTR_STRING ? nc_attr_get_string(a, NULL) : dflt;
}

const int64_t *nc_graph_attr_ints(const nc_op *op, const char *name, size_t *n)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  nc_type *t = a ? nc_attr_get_type(a) : NULL;
  if (!a || nc_attr_get_kind(a) != NC_ATTR_DENSE_ARRAY || !nc_type_is_integer_of_width(t, 64)) {
    *n = 0;
    return NULL;
  }
  *n = nc_attr_get_num_elements(a);
  return nc_attr_dense_array_get_data(a);
}

/* --- per-kind data from graph_ops.def ------------------------------------------------------------------------ */

/* The kernel families whose kernels take an operation code. */
typedef enum kernel_family { KERNEL_NONE, KERNEL_UNARY, KERNEL_BINARY, KERNEL_VARIADIC, KERNEL_REDUCE } kernel_family;

static const struct kind_row {
  kernel_family family;
  int kernel_op;
  nc_graph_quant_class quant;
} kind_rows[] = {
#define UNARY(OP) KERNEL_UNARY, OP
#define BINARY(OP) KERNEL_BINARY, OP
#define VARIADIC(OP) KERNEL_VARIADIC, OP
#define REDUCE(OP) KERNEL_REDUCE, OP
#define NO_KERNEL_OP KERNEL_NONE, 0
#define GRAPH_OP(KIND, MNEMONIC, SUMMARY, ONNX, KERNEL, INTERP, QUANT, DEF, DESCRIPTION) \
  {KERNEL, NC_GRAPH_QUANT_##QUANT},
#include "graph_ops.def"
#undef UNARY
#undef BINARY
#undef VARIADIC
#undef REDUCE
#undef NO_KERNEL_OP
};
_Static_assert(NC_COUNTOF(kind_rows) == G_COUNT, "one row per graph op");

/* The kernel op code of a graph op of the given family. */
static bool kernel_op_of(const nc_op *op, kernel_family family, int *code)
{
  int k = graph_kind_of(op);
  if (k < 0 || kind_rows[k].family != family)
    return false;
  *code = kind_rows[k].kernel_op;
  return true;
}

nc_graph_quant_class nc_graph_get_quant_class(const nc_op_def *def)
{
  uintptr_t d = (uintptr_t)def, first = (uintptr_t)nc_graph_dialect.ops;
  if (d < first || d >= first + G_COUNT * sizeof *nc_graph_dialect.ops)
    return NC_GRAPH_QUANT_NONE;
  return kind_rows[(d - first) / sizeof *nc_graph_dialect.ops].quant;
}

/* --- kernel parameters --------------------------------------------------------------------------------------- */

/* Spatial dims of operand 0 (x is [N, C, D1..Dk]), or 0 if unsupported. */
static size_t spatial_dims(const nc_op *op)
{
  if (nc_op_get_num_operands(op) < 1)
    return 0;
  nc_type *t = nc_value_get_type(nc_op_get_operand(op, 0));
  if (nc_type_get_kind(t) != NC_TYPE_TENSOR)
    return 0;
  size_t r = nc_type_get_rank(t);
  return r >= 3 && r <= 2 + NC_KERNEL_MAX_SPATIAL ? r - 2 : 0;
}

/* Copies an i64 array attribute of `want` entries into dst, or fills dflt. */
static bool read_ints(const nc_op *op, const char *name, size_t want, int64_t dflt, int64_t *dst)
{
  size_t n;
  const int64_t *v = nc_graph_attr_ints(op, name, &n);
  if (v && n != want)
    return false;
  for (size_t i = 0; i < want; i++)
    dst[i] = v ? v[i] : dflt;
  return true;
}

static bool read_auto_pad(const nc_op *op, nc_auto_pad *ap)
{
  return nc_auto_pad_from_string(nc_graph_attr_string(op, "auto_pad", "NOTSET"), ap);
}

bool nc_graph_get_conv_params(const nc_op *op, nc_conv_params *p)
{
  int k = graph_kind_of(op);
  size_t nsp = spatial_dims(op);
  memset(p, 0, sizeof *p);
  if ((k != G_CONV && k != G_CONV_INTEGER && k != G_QLINEAR_CONV) || !nsp)
    return false;
  p->group = nc_graph_attr_int(op, "group", 1);
  return read_ints(op, "kernel_shape", nsp, 0, p->kernel_shape) && read_ints(op, "strides", nsp, 1, p->strides) &&
         read_ints(op, "dilations", nsp, 1, p->dilations) && read_ints(op, "pads", 2 * nsp, 0, p->pads) &&
         read_auto_pad(op, &p->auto_pad);
}

bool nc_graph_get_conv_transpose_params(const nc_op *op, nc_conv_transpose_params *p)
{
  size_t nsp = spatial_dims(op), n;
  memset(p, 0, sizeof *p);
  if (graph_kind_of(op) != G_CONV_TRANSPOSE || !nsp)
    return false;
  p->group = nc_graph_attr_int(op, "group", 1);
  p->has_output_shape = nc_graph_attr_ints(op, "output_shape", &n) != NULL;
  return read_ints(op, "kernel_shape", nsp, 0, p->kernel_shape) && read_ints(op, "strides", nsp, 1, p->strides) &&
         read_ints(op, "dilations", nsp, 1, p->dilations) && read_ints(op, "pads", 2 * nsp, 0, p->pads) &&
         read_ints(op, "output_padding", nsp, 0, p->output_padding) &&
         read_ints(op, "output_shape", nsp, 0, p->output_shape) && read_auto_pad(op, &p->auto_pad);
}

bool nc_graph_get_pool_params(const nc_op *op, nc_pool_params *p)
{
  int k = graph_kind_of(op);
  size_t nsp = spatial_dims(op);
  memset(p, 0, sizeof *p);
  if ((k != G_MAX_POOL && k != G_AVG_POOL) || !nsp)
    return false;
  p->ceil_mode = nc_graph_attr_int(op, "ceil_mode", 0) != 0;
  p->count_include_pad = k == G_AVG_POOL && nc_graph_attr_int(op, "count_include_pad", 0) != 0;
  size_t n;
  for (size_t i = 0; i < NC_KERNEL_MAX_SPATIAL; i++)
    p->dilations[i] = 1; /* graph.avg_pool has no dilations */
  return nc_graph_attr_ints(op, "kernel_shape", &n) && read_ints(op, "kernel_shape", nsp, 0, p->kernel_shape) &&
         read_ints(op, "strides", nsp, 1, p->strides) &&
         (k == G_AVG_POOL || read_ints(op, "dilations", nsp, 1, p->dilations)) &&
         read_ints(op, "pads", 2 * nsp, 0, p->pads) && read_auto_pad(op, &p->auto_pad);
}

bool nc_graph_get_gemm_params(const nc_op *op, nc_gemm_params *p)
{
  if (graph_kind_of(op) != G_GEMM)
    return false;
  p->alpha = nc_graph_attr_float(op, "alpha", 1.0);
  p->beta = nc_graph_attr_float(op, "beta", 1.0);
  p->trans_a = nc_graph_attr_int(op, "trans_a", 0) != 0;
  p->trans_b = nc_graph_attr_int(op, "trans_b", 0) != 0;
  return true;
}

bool nc_graph_get_reduce_params(const nc_op *op, nc_reduce_op *kind, nc_reduce_params *p)
{
  int k;
  if (!kernel_op_of(op, KERNEL_REDUCE, &k))
    return false;
  *kind = (nc_reduce_op)k;
  size_t n;
  p->axes = nc_graph_attr_ints(op, "axes", &n);
  p->naxes = (int)n;
  p->keepdims = nc_graph_attr_int(op, "keepdims", 1) != 0;
  p->noop_with_empty_axes = nc_graph_attr_int(op, "noop_with_empty_axes", 0) != 0;
  return true;
}

bool nc_graph_get_slice_params(const nc_op *op, nc_slice_params *p)
{
  if (graph_kind_of(op) != G_SLICE)
    return false;
  size_t ns, ne, na, nst;
  p->starts = nc_graph_attr_ints(op, "starts", &ns);
  p->ends = nc_graph_attr_ints(op, "ends", &ne);
  p->axes = nc_graph_attr_ints(op, "axes", &na);
  p->steps = nc_graph_attr_ints(op, "steps", &nst);
  p->n = (int)ns;
  return p->starts && p->ends && ne == ns && (!p->axes || na == ns) && (!p->steps || nst == ns);
}

bool nc_graph_get_pad_params(const nc_op *op, nc_pad_params *p, double *value)
{
  if (graph_kind_of(op) != G_PAD)
    return false;
  size_t n;
  memset(p, 0, sizeof *p);
  p->pads = nc_graph_attr_ints(op, "pads", &n);
  *value = nc_graph_attr_float(op, "value", 0.0);
  return p->pads && nc_pad_mode_from_string(nc_graph_attr_string(op, "mode", "constant"), &p->mode);
}

bool nc_graph_get_softmax_params(const nc_op *op, nc_softmax_params *p)
{
  int k = graph_kind_of(op);
  if (k != G_SOFTMAX && k != G_LOG_SOFTMAX)
    return false;
  p->axis = nc_graph_attr_int(op, "axis", -1);
  p->coerce_2d = false;
  return true;
}

bool nc_graph_get_lrn_params(const nc_op *op, nc_lrn_params *p)
{
  if (graph_kind_of(op) != G_LRN)
    return false;
  p->size = nc_graph_attr_int(op, "size", 0);
  p->alpha = nc_graph_attr_float(op, "alpha", 1e-4);
  p->beta = nc_graph_attr_float(op, "beta", 0.75);
  p->bias = nc_graph_attr_float(op, "bias", 1.0);
  return p->size >= 1;
}

bool nc_graph_get_quant_params(const nc_op *op, nc_quant_params *p)
{
  int k = graph_kind_of(op);
  if (k != G_QUANTIZE_LINEAR && k != G_DEQUANTIZE_LINEAR)
    return false;
  p->axis = nc_graph_attr_int(op, "axis", 1);
  p->block_size = 0;
  return true;
}

bool nc_graph_get_norm_epsilon(const nc_op *op, double *epsilon)
{
  int k = graph_kind_of(op);
  if (k != G_BATCH_NORM && k != G_INSTANCE_NORM)
    return false;
  *epsilon = nc_graph_attr_float(op, "epsilon", 1e-5);
  return true;
}

bool nc_graph_get_unary_op(const nc_op *op, nc_unary_op *kind, nc_unary_params *p)
{
  int k;
  if (!kernel_op_of(op, KERNEL_UNARY, &k))
    return false;
  *kind = (nc_unary_op)k;
  *p = nc_unary_params_default(*kind);
  p->alpha = nc_graph_attr_float(op, "alpha", p->alpha);
  p->beta = nc_graph_attr_float(op, "beta", p->beta);
  p->gamma = nc_graph_attr_float(op, "gamma", p->gamma);
  return true;
}

bool nc_graph_get_binary_op(const nc_op *op, nc_binary_op *kind)
{
  int k;
  if (!kernel_op_of(op, KERNEL_BINARY, &k))
    return false;
  *kind = (nc_binary_op)k;
  return true;
}

bool nc_graph_get_variadic_op(const nc_op *op, nc_variadic_op *kind)
{
  int k;
  if (!kernel_op_of(op, KERNEL_VARIADIC, &k))
    return false;
  *kind = (nc_variadic_op)k;
  return true;
}

bool nc_graph_get_clip_bounds(const nc_op *op, nc_graph_clip_bounds *b)
{
  memset(b, 0, sizeof *b);
  if (graph_kind_of(op) != G_CLIP)
    return false;
  b->is_float = nc_type_is_float(nc_type_get_element_type(nc_value_get_type(nc_op_get_operand(op, 0))));
  nc_attr *lo = nc_op_get_attr_str(op, "min"), *hi = nc_op_get_attr_str(op, "max");
  b->has_min = lo != NULL;
  b->has_max = hi != NULL;
  b->min_f = nc_graph_attr_float(op, "min", 0.0);
  b->max_f = nc_graph_attr_float(op, "max", 0.0);
  b->min_i = nc_graph_attr_int(op, "min", 0);
  b->max_i = nc_graph_attr_int(op, "max", 0);
  return true;
}

bool nc_graph_get_activation(const nc_op *op, nc_graph_activation *act)
{
  static const char *const names[] = {"relu", "leaky_relu", "clip", "sigmoid", "tanh"};
  memset(act, 0, sizeof *act);
  act->alpha = nc_graph_attr_float(op, "activation_alpha", 0.01);
  act->has_min = nc_op_get_attr_str(op, "activation_min") != NULL;
  act->has_max = nc_op_get_attr_str(op, "activation_max") != NULL;
  act->min = nc_graph_attr_float(op, "activation_min", 0.0);
  act->max = nc_graph_attr_float(op, "activation_max", 0.0);
  const char *s = nc_graph_attr_string(op, "activation", NULL);
  if (!s)
    return true;
  for (size_t i = 0; i < NC_COUNTOF(names); i++)
    if (!strcmp(s, names[i])) {
      act->kind = (nc_graph_activation_kind)(i + 1);
      return true;
    }
  return false;
}
