/* dataflow_layer_kind.c: layer kinds on dataflow nodes (layer.h): the kind
 * table, decoding and encoding a node's `kind` + `params` attributes, their
 * verification, and the function-level I/O records (`dataflow.io`).
 *
 * Storage, chosen so that everything below the graph level can read a
 * layer without looking into the node's region, and nothing is copied:
 *   kind   = "conv"                          one of NC_DATAFLOW_LAYER_KINDS
 *   params = {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>,
 *             weights = dense_resource<conv1.weight> : tensor<16x1x3x3xi8>,
 *             multiplier = array<i64: ...>, shift = array<i64: ...>, ...}
 * `params` holds only the fields that differ from nc_dataflow_layer_make's
 * defaults (it is absent when none do); weights, bias and lut are the
 * elements attributes of the graph constants themselves. Element widths are
 * not stored: they are read from the types (operand 0, the result, the
 * weights), so they can never disagree with them. One decoder serves both
 * nc_dataflow_node_get_layer (silent) and the node verifier (diagnostics at
 * the node), so what verifies is exactly what decodes.
 *
 * The I/O records are a discardable attribute of the function, set by
 * graph-to-dataflow from the quantize_linear / dequantize_linear graph ops it
 * leaves outside the nodes:
 *   dataflow.io = {inputs = [{argument = 0 : i64, bits = 8 : i64, name = "input",
 *                             scale = 1.562500e-02 : f64, zero_point = 0 : i64}],
 *                  outputs = [{bits = 8 : i64, name = "output0", result = 0 : i64,
 *                              scale = 5.000000e-02 : f64, zero_point = 0 : i64}]}
 * The quantized value of an input is the result of the single non-node op
 * using the argument (the host's conversion), or the argument itself when
 * nodes read it directly; that of an output is the operand of the op
 * defining the returned value (the host's conversion), or the returned
 * value itself when a node yields it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dataflow_internal.h"
#include "nc/dialects/dataflow/layer.h"

/* --- the kind table ------------------------------------------------------------------------------------------- */

static const char *const kind_names[] = {
#define NC_X(e, name, summary) name,
  NC_DATAFLOW_LAYER_KINDS(NC_X)
#undef NC_X
};

static const char *const kind_summaries[] = {
#define NC_X(e, name, summary) summary,
  NC_DATAFLOW_LAYER_KINDS(NC_X)
#undef NC_X
};

static const char *const param_names[] = {
#define NC_X(e, name, summary) name,
  NC_DATAFLOW_LAYER_PARAMS(NC_X)
#undef NC_X
};

static const char *const param_summaries[] = {
#define NC_X(e, name, summary) summary,
  NC_DATAFLOW_LAYER_PARAMS(NC_X)
#undef NC_X
};

_Static_assert(NC_DATAFLOW_NUM_PARAMS <= 64, "a set of layer parameters is a uint64_t");

static const char *const eltwise_names[] = {"", "add", "sub", "mul", "max", "min"};
static const char *const pad_mode_names[] = {"constant", "reflect", "edge", "wrap"};

const char *nc_dataflow_layer_kind_name(nc_dataflow_layer_kind kind)
{
  return (unsigned)kind < NC_DATAFLOW_LAYER_NUM_KINDS ? kind_names[kind] : "";
}

bool nc_dataflow_layer_kind_from_name(const char *name, nc_dataflow_layer_kind *kind)
{
  for (int k = 0; name && k < NC_DATAFLOW_LAYER_NUM_KINDS; k++)
    if (!strcmp(kind_names[k], name)) {
      *kind = (nc_dataflow_layer_kind)k;
      return true;
    }
  return false;
}

const char *nc_dataflow_layer_kind_summary(nc_dataflow_layer_kind kind)
{
  return (unsigned)kind < NC_DATAFLOW_LAYER_NUM_KINDS ? kind_summaries[kind] : "";
}

const char *nc_dataflow_layer_param_name(nc_dataflow_layer_param param)
{
  return (unsigned)param < NC_DATAFLOW_NUM_PARAMS ? param_names[param] : "";
}

bool nc_dataflow_layer_param_from_name(const char *name, nc_dataflow_layer_param *param)
{
  for (int p = 0; name && p < NC_DATAFLOW_NUM_PARAMS; p++)
    if (!strcmp(param_names[p], name)) {
      *param = (nc_dataflow_layer_param)p;
      return true;
    }
  return false;
}

const char *nc_dataflow_layer_param_summary(nc_dataflow_layer_param param)
{
  return (unsigned)param < NC_DATAFLOW_NUM_PARAMS ? param_summaries[param] : "";
}

nc_dataflow_layer nc_dataflow_layer_make(nc_dataflow_layer_kind kind)
{
  return (nc_dataflow_layer){.kind = kind, .stride = {1, 1}, .dilation = {1, 1}, .scale = {1, 1}, .group = 1,
                             .clamp_min = INT64_MIN, .clamp_max = INT64_MAX};
}

/* --- decoding (shared by the getter and the verifier) --------------------------------------------------------- */

typedef struct decoder {
  const nc_op *node;
  bool report; /* emit diagnostics at the node (verifier) or stay silent (getter) */
} decoder;

static bool bad(decoder *d, const char *fmt, ...) NC_PRINTF(2, 3);
static bool bad(decoder *d, const char *fmt, ...)
{
  if (!d->report)
    return false;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return nc_op_emit_error((nc_op *)d->node, "%s", msg);
}

static bool int_param(decoder *d, const char *key, nc_attr *a, int64_t lo, int64_t hi, int64_t *out)
{
  if (nc_attr_get_kind(a) != NC_ATTR_INTEGER)
    return bad(d, "params: '%s' must be an integer", key);
  int64_t v = nc_attr_get_int(a);
  if (v < lo || v > hi)
    return bad(d, "params: '%s' is %lld, outside [%lld, %lld]", key, (long long)v, (long long)lo, (long long)hi);
  *out = v;
  return true;
}

/* An array<i64: ...> of `n` entries (n == 0: any length up to `max`), each in [lo, hi]. */
static bool ints_param(decoder *d, const char *key, nc_attr *a, size_t n, size_t max, int64_t lo, int64_t hi,
                       int64_t *out, size_t *count)
{
  nc_type *elt = nc_attr_get_kind(a) == NC_ATTR_DENSE_ARRAY ? nc_attr_get_type(a) : NULL;
  if (!elt || !nc_type_is_integer(elt) || nc_type_get_width(elt) != 64)
    return bad(d, "params: '%s' must be an array<i64: ...>", key);
  size_t m = nc_attr_get_num_elements(a);
  if ((n && m != n) || (!n && (m < 1 || m > max)))
    return n ? bad(d, "params: '%s' needs %zu entries, not %zu", key, n, m)
             : bad(d, "params: '%s' needs 1 to %zu entries, not %zu", key, max, m);
  /* the i64 entries read in place, the range checked without a branch per
   * entry: per-channel multipliers are decoded on every layer query */
  const char *data = nc_attr_dense_array_get_data(a);
  int64_t vmin = INT64_MAX, vmax = INT64_MIN;
  for (size_t i = 0; i < m; i++) {
    int64_t v;
    memcpy(&v, data + i * sizeof v, sizeof v);
    vmin = v < vmin ? v : vmin;
    vmax = v > vmax ? v : vmax;
  }
  for (size_t i = 0; m && (vmin < lo || vmax > hi) && i < m; i++) { /* the first entry out of range */
    int64_t v = nc_attr_dense_array_get_int(a, i);
    if (v < lo || v > hi)
      return bad(d, "params: '%s'[%zu] is %lld, outside [%lld, %lld]", key, i, (long long)v, (long long)lo,
                 (long long)hi);
  }
  if (out && m)
    memcpy(out, data, m * sizeof *out);
  if (count)
    *count = m;
  return true;
}

static bool elements_param(decoder *d, const char *key, nc_attr *a, size_t rank, nc_attr **out)
{
  nc_attr_kind k = nc_attr_get_kind(a);
  nc_type *t = k == NC_ATTR_DENSE_ELEMENTS || k == NC_ATTR_DENSE_RESOURCE ? nc_attr_get_type(a) : NULL;
  if (!t)
    return bad(d, "params: '%s' must be a dense or dense_resource elements attribute", key);
  if (rank && nc_type_get_rank(t) != rank)
    return bad(d, "params: '%s' must have rank %zu, not %zu", key, rank, nc_type_get_rank(t));
  *out = a;
  return true;
}

static unsigned elt_bits(const nc_type *t)
{
  nc_type *e = t ? nc_type_get_element_type(t) : NULL;
  return e && nc_type_is_integer(e) ? nc_type_get_width(e) : 0;
}

/* The extent of the result's first tensor coordinate (output channels; a
 * matmul's [M, N] result with M > 1: its last, N), or 0. */
static int64_t out_channels(const nc_op *node, nc_dataflow_layer_kind kind)
{
  int64_t dims[NC_MAX_RANK];
  if (nc_op_get_num_results(node) != 1)
    return 0;
  int n = nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_result(node, 0)), dims);
  return kind == NC_DATAFLOW_LAYER_MATMUL && n == 2 ? dims[1] : n >= 1 ? dims[0] : 0;
}

static bool decode_entry(decoder *d, nc_dataflow_layer *l, const char *key, nc_attr *a)
{
  size_t n_in = l->n_inputs, count;
  nc_dataflow_layer_param param;
  if (!nc_dataflow_layer_param_from_name(key, &param))
    return bad(d, "params: unknown parameter '%s'", key);
  switch (param) {
  case NC_DATAFLOW_PARAM_KERNEL:
    return ints_param(d, key, a, 2, 0, 1, INT32_MAX, l->kernel, NULL);
  case NC_DATAFLOW_PARAM_STRIDE:
    return ints_param(d, key, a, 2, 0, 1, INT32_MAX, l->stride, NULL);
  case NC_DATAFLOW_PARAM_DILATION:
    return ints_param(d, key, a, 2, 0, 1, INT32_MAX, l->dilation, NULL);
  case NC_DATAFLOW_PARAM_SCALE:
    return ints_param(d, key, a, 2, 0, 1, INT32_MAX, l->scale, NULL);
  case NC_DATAFLOW_PARAM_LINEAR:
    return ints_param(d, key, a, 6, 0, INT32_MIN, INT32_MAX, l->linear, NULL);
  case NC_DATAFLOW_PARAM_LINEAR_CHANNELS:
    return ints_param(d, key, a, 3, 0, INT32_MIN, INT32_MAX, l->linear_channels, NULL);
  case NC_DATAFLOW_PARAM_NEAREST_CHANNELS:
    return ints_param(d, key, a, 3, 0, INT32_MIN, INT32_MAX, l->nearest_channels, NULL);
  case NC_DATAFLOW_PARAM_PAD_VALUE:
    return int_param(d, key, a, INT32_MIN, INT32_MAX, &l->pad_value);
  case NC_DATAFLOW_PARAM_PADS:
    return ints_param(d, key, a, 4, 0, 0, INT32_MAX, l->pads, NULL);
  case NC_DATAFLOW_PARAM_GROUP:
    return int_param(d, key, a, 1, INT32_MAX, &l->group);
  case NC_DATAFLOW_PARAM_PERM:
    return ints_param(d, key, a, 0, 4, 0, 3, l->perm, &l->n_perm);
  case NC_DATAFLOW_PARAM_AXIS:
    return int_param(d, key, a, 0, NC_MAX_RANK - 1, &l->axis);
  case NC_DATAFLOW_PARAM_WEIGHT_ZERO_POINT:
    return int_param(d, key, a, INT32_MIN, INT32_MAX, &l->weight_zero_point);
  case NC_DATAFLOW_PARAM_OUTPUT_ZERO_POINT:
    return int_param(d, key, a, INT32_MIN, INT32_MAX, &l->output_zero_point);
  case NC_DATAFLOW_PARAM_CLAMP_MIN:
    return int_param(d, key, a, INT64_MIN, INT64_MAX, &l->clamp_min);
  case NC_DATAFLOW_PARAM_CLAMP_MAX:
    return int_param(d, key, a, INT64_MIN, INT64_MAX, &l->clamp_max);
  case NC_DATAFLOW_PARAM_COUNT_INCLUDE_PAD: {
    int64_t v;
    if (!int_param(d, key, a, 0, 1, &v))
      return false;
    l->count_include_pad = v;
    return true;
  }
  case NC_DATAFLOW_PARAM_OP:
    for (size_t i = 1; i < NC_COUNTOF(eltwise_names); i++)
      if (nc_attr_is_string_eq(a, eltwise_names[i])) {
        l->op = (nc_dataflow_eltwise_op)i;
        return true;
      }
    return bad(d, "params: 'op' must be \"add\", \"sub\", \"mul\", \"max\" or \"min\"");
  case NC_DATAFLOW_PARAM_PAD_MODE:
    for (size_t i = 0; i < NC_COUNTOF(pad_mode_names); i++)
      if (nc_attr_is_string_eq(a, pad_mode_names[i])) {
        l->pad_mode = (nc_dataflow_pad_mode)i;
        return true;
      }
    return bad(d, "params: 'pad_mode' must be \"constant\", \"reflect\", \"edge\" or \"wrap\"");
  case NC_DATAFLOW_PARAM_INPUT_ZERO_POINTS:
    return ints_param(d, key, a, n_in, 0, INT32_MIN, INT32_MAX, l->input_zero_points, NULL);
  case NC_DATAFLOW_PARAM_INPUT_MULTIPLIER:
    return ints_param(d, key, a, n_in, 0, 0, INT32_MAX, l->input_multiplier, NULL);
  case NC_DATAFLOW_PARAM_INPUT_SHIFT:
    return ints_param(d, key, a, n_in, 0, 0, 63, l->input_shift, NULL);
  case NC_DATAFLOW_PARAM_MULTIPLIER:
  case NC_DATAFLOW_PARAM_SHIFT: {
    bool m = param == NC_DATAFLOW_PARAM_MULTIPLIER;
    if (!ints_param(d, key, a, 0, SIZE_MAX, 0, m ? INT32_MAX : 63, NULL, &count))
      return false;
    if (l->n_requant && count != l->n_requant)
      return bad(d, "params: 'multiplier' and 'shift' need as many entries (%zu and %zu)", m ? count : l->n_requant,
                 m ? l->n_requant : count);
    int64_t c = out_channels(d->node, l->kind);
    if (count != 1 && count != (size_t)c)
      return bad(d, "params: '%s' needs 1 entry or one per output channel (%lld), not %zu", key, (long long)c,
                 count);
    l->n_requant = count;
    *(m ? &l->multiplier : &l->shift) = nc_attr_dense_array_get_data(a);
    return true;
  }
  case NC_DATAFLOW_PARAM_WEIGHTS:
    return elements_param(d, key, a, 0, &l->weights);
  case NC_DATAFLOW_PARAM_BIAS:
    return elements_param(d, key, a, 1, &l->bias);
  case NC_DATAFLOW_PARAM_LUT:
    return elements_param(d, key, a, 1, &l->lut);
  case NC_DATAFLOW_PARAM_INPUT_AFFINE:
    if (!ints_param(d, key, a, 0, SIZE_MAX, INT32_MIN, INT32_MAX, NULL, &l->n_input_affine))
      return false;
    l->input_affine = nc_attr_dense_array_get_data(a);
    return true;
  case NC_DATAFLOW_NUM_PARAMS:
    break;
  }
  return bad(d, "params: unknown parameter '%s'", key);
}

/* input_affine: a conv's, 4 entries per channel of operand 0 and the bounds. */
static bool check_input_affine(decoder *d, const nc_dataflow_layer *l)
{
  int64_t dims[NC_MAX_RANK];
  int64_t c = nc_op_get_num_operands(d->node) >= 1 &&
                  nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_operand(d->node, 0)), dims) >= 1
                ? dims[0] : 0;
  if (l->kind != NC_DATAFLOW_LAYER_CONV)
    return bad(d, "params: 'input_affine' belongs to conv layers, not %s", nc_dataflow_layer_kind_name(l->kind));
  if (l->n_input_affine != (size_t)(4 * c + 2))
    return bad(d, "params: 'input_affine' needs 4 entries per input channel (%lld) and 2 bounds, not %zu",
               (long long)c, l->n_input_affine);
  for (int64_t i = 0; i < c; i++) {
    int64_t m, s;
    memcpy(&m, l->input_affine + 4 * i + 2, sizeof m);
    memcpy(&s, l->input_affine + 4 * i + 3, sizeof s);
    if (m < 0 || s < 0 || s > 63)
      return bad(d, "params: 'input_affine' channel %lld has multiplier %lld and shift %lld, outside [0, 2^31) and "
                 "[0, 63]", (long long)i, (long long)m, (long long)s);
  }
  int64_t lo, hi;
  memcpy(&lo, l->input_affine + 4 * c, sizeof lo);
  memcpy(&hi, l->input_affine + 4 * c + 1, sizeof hi);
  if (lo > hi)
    return bad(d, "params: 'input_affine' bounds [%lld, %lld] are out of order", (long long)lo, (long long)hi);
  return true;
}

/* Checks that need the whole layer. */
static bool check_layer(decoder *d, nc_dataflow_layer *l)
{
  const char *k = nc_dataflow_layer_kind_name(l->kind);
  bool windowed = l->kind == NC_DATAFLOW_LAYER_CONV || l->kind == NC_DATAFLOW_LAYER_MAX_POOL ||
                  l->kind == NC_DATAFLOW_LAYER_AVG_POOL;
  if (windowed && (!l->kernel[0] || !l->kernel[1]))
    return bad(d, "params: a %s layer needs 'kernel'", k);
  if ((l->multiplier == NULL) != (l->shift == NULL))
    return bad(d, "params: 'multiplier' and 'shift' go together");
  if (l->clamp_min > l->clamp_max)
    return bad(d, "params: 'clamp_min' %lld is above 'clamp_max' %lld", (long long)l->clamp_min,
               (long long)l->clamp_max);
  if (l->weights && l->kind != NC_DATAFLOW_LAYER_CONV && l->kind != NC_DATAFLOW_LAYER_MATMUL)
    return bad(d, "params: a %s layer has no 'weights'", k);
  size_t wr = l->weights ? nc_type_get_rank(nc_attr_get_type(l->weights)) : 0;
  if (l->weights && wr != (l->kind == NC_DATAFLOW_LAYER_CONV ? 4u : 2u))
    return bad(d, "params: the weights of a %s layer need rank %d, not %zu", k,
               l->kind == NC_DATAFLOW_LAYER_CONV ? 4 : 2, wr);
  int64_t c = out_channels(d->node, l->kind);
  if (l->bias && nc_type_get_shape(nc_attr_get_type(l->bias))[0] != c)
    return bad(d, "params: 'bias' needs one entry per output channel (%lld), not %lld", (long long)c,
               (long long)nc_type_get_shape(nc_attr_get_type(l->bias))[0]);
  if (l->n_input_affine && !check_input_affine(d, l))
    return false;
  if (l->op && l->kind != NC_DATAFLOW_LAYER_ELTWISE)
    return bad(d, "params: 'op' belongs to eltwise layers, not %s", k);
  bool linear = l->linear[0] || l->linear[1] || l->linear[2] || l->linear[3] || l->linear[4] || l->linear[5];
  if (linear && (l->kind != NC_DATAFLOW_LAYER_RESIZE || l->scale[0] != 1 || l->scale[1] != 1))
    return bad(d, "params: 'linear' belongs to resize layers without 'scale', not %s", k);
  if (linear && (l->linear[0] < 0 || l->linear[2] < 1 || l->linear[3] < 0 || l->linear[5] < 1))
    return bad(d, "params: 'linear' needs a >= 0 and d >= 1 per axis");
  bool linear_c = l->linear_channels[0] || l->linear_channels[1] || l->linear_channels[2];
  if (linear_c && !linear)
    return bad(d, "params: 'linear_channels' needs 'linear' (a linear resize layer)");
  if (linear_c && (l->linear_channels[0] < 0 || l->linear_channels[2] < 1))
    return bad(d, "params: 'linear_channels' needs a >= 0 and d >= 1");
  bool nearest_c = l->nearest_channels[0] || l->nearest_channels[1] || l->nearest_channels[2];
  if (nearest_c && (l->kind != NC_DATAFLOW_LAYER_RESIZE || linear))
    return bad(d, "params: 'nearest_channels' belongs to nearest resize layers (without 'linear'), not %s", k);
  if (nearest_c && (l->nearest_channels[0] < 0 || l->nearest_channels[2] < 1))
    return bad(d, "params: 'nearest_channels' needs a >= 0 and d >= 1");
  if (l->pad_mode != NC_DATAFLOW_PAD_CONSTANT && l->kind != NC_DATAFLOW_LAYER_PAD)
    return bad(d, "params: 'pad_mode' belongs to pad layers, not %s", k);
  if (l->pad_mode != NC_DATAFLOW_PAD_CONSTANT && l->pad_value)
    return bad(d, "params: a %s pad has no 'pad_value'", pad_mode_names[l->pad_mode]);
  if (l->n_perm && l->kind != NC_DATAFLOW_LAYER_COPY)
    return bad(d, "params: 'perm' belongs to copy layers, not %s", k);
  for (size_t i = 0; i < l->n_perm; i++) {
    bool repeated = l->perm[i] >= (int64_t)l->n_perm;
    for (size_t j = 0; j < i; j++)
      repeated |= l->perm[i] == l->perm[j];
    if (repeated)
      return bad(d, "params: 'perm' must be a permutation of 0 .. %zu", l->n_perm - 1);
  }
  if (l->kind == NC_DATAFLOW_LAYER_CONV && l->weights) {
    const int64_t *ws = nc_type_get_shape(nc_attr_get_type(l->weights));
    if (ws[0] != c || ws[2] != l->kernel[0] || ws[3] != l->kernel[1] || c % l->group)
      return bad(d, "params: conv weights [%lld, %lld, %lld, %lld] do not match %lld output channels, kernel "
                 "%lldx%lld and group %lld", (long long)ws[0], (long long)ws[1], (long long)ws[2], (long long)ws[3],
                 (long long)c, (long long)l->kernel[0], (long long)l->kernel[1], (long long)l->group);
  }
  if (l->kind == NC_DATAFLOW_LAYER_MATMUL && l->weights && nc_type_get_shape(nc_attr_get_type(l->weights))[1] != c)
    return bad(d, "params: matmul weights [K, %lld] do not match %lld output features",
               (long long)nc_type_get_shape(nc_attr_get_type(l->weights))[1], (long long)c);
  return true;
}

static bool decode(decoder *d, nc_dataflow_layer *out)
{
  const nc_op *node = d->node;
  nc_attr *ka = nc_op_get_attr_str(node, "kind");
  const char *name = ka && nc_attr_get_kind(ka) == NC_ATTR_STRING ? nc_attr_get_string(ka, NULL) : NULL;
  nc_dataflow_layer_kind kind;
  if (!nc_dataflow_layer_kind_from_name(name, &kind)) {
    if (!d->report)
      return false;
    char list[512] = "";
    for (int k = 0; k < NC_DATAFLOW_LAYER_NUM_KINDS; k++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", k ? ", " : "", kind_names[k]);
    return bad(d, "kind \"%s\" is not a layer kind (%s)", name ? name : "", list);
  }
  nc_dataflow_layer l = nc_dataflow_layer_make(kind);
  size_t n_ops = nc_op_get_num_operands(node);
  if (n_ops > NC_DATAFLOW_LAYER_MAX_INPUTS)
    return bad(d, "has %zu inputs; a layer has at most %d", n_ops, NC_DATAFLOW_LAYER_MAX_INPUTS);
  l.n_inputs = n_ops;
  nc_attr *params = nc_op_get_attr_str(node, "params");
  if (params && nc_attr_get_kind(params) != NC_ATTR_DICTIONARY)
    return bad(d, "params must be a dictionary");
  for (size_t i = 0, n = params ? nc_attr_get_num_elements(params) : 0; i < n; i++) {
    nc_named_attr e = nc_attr_get_entry(params, i);
    if (!decode_entry(d, &l, nc_ident_str(e.name), e.value))
      return false;
  }
  if (!check_layer(d, &l))
    return false;
  l.input_bits = n_ops ? elt_bits(nc_value_get_type(nc_op_get_operand(node, 0))) : 0;
  l.output_bits = nc_op_get_num_results(node) ? elt_bits(nc_value_get_type(nc_op_get_result(node, 0))) : 0;
  l.weight_bits = l.weights ? elt_bits(nc_attr_get_type(l.weights)) : 0;
  *out = l;
  return true;
}

bool nc_dataflow_node_get_layer(const nc_op *node, nc_dataflow_layer *out)
{
  decoder d = {node, false};
  return node && nc_dataflow_is_node(node) && decode(&d, out);
}

bool df_verify_layer(nc_op *node)
{
  decoder d = {node, true};
  nc_dataflow_layer l;
  return decode(&d, &l);
}

/* --- encoding ----------------------------------------------------------------------------------------------------- */

typedef struct entries {
  nc_context *ctx;
  nc_named_attr v[NC_DATAFLOW_NUM_PARAMS];
  size_t n;
} entries;

static void put(entries *e, const char *key, nc_attr *a)
{
  if (a && e->n < NC_COUNTOF(e->v))
    e->v[e->n++] = (nc_named_attr){nc_ident_get_cstr(e->ctx, key), a};
}

static bool ints_differ(const int64_t *v, size_t n, int64_t dflt)
{
  for (size_t i = 0; i < n; i++)
    if (v[i] != dflt)
      return true;
  return false;
}

/* Whether `p` of `l` differs from its default (z, nc_dataflow_layer_make's)
 * in a form set_layer can store. */
static bool param_differs(const nc_dataflow_layer *l, const nc_dataflow_layer *z, nc_dataflow_layer_param p)
{
  size_t n_in = l->n_inputs < NC_DATAFLOW_LAYER_MAX_INPUTS ? l->n_inputs : NC_DATAFLOW_LAYER_MAX_INPUTS;
  switch (p) {
  case NC_DATAFLOW_PARAM_KERNEL: return ints_differ(l->kernel, 2, 0);
  case NC_DATAFLOW_PARAM_STRIDE: return ints_differ(l->stride, 2, 1);
  case NC_DATAFLOW_PARAM_DILATION: return ints_differ(l->dilation, 2, 1);
  case NC_DATAFLOW_PARAM_SCALE: return ints_differ(l->scale, 2, 1);
  case NC_DATAFLOW_PARAM_LINEAR: return ints_differ(l->linear, 6, 0);
  case NC_DATAFLOW_PARAM_LINEAR_CHANNELS: return ints_differ(l->linear_channels, 3, 0);
  case NC_DATAFLOW_PARAM_NEAREST_CHANNELS: return ints_differ(l->nearest_channels, 3, 0);
  case NC_DATAFLOW_PARAM_PADS: return ints_differ(l->pads, 4, 0);
  case NC_DATAFLOW_PARAM_PERM: return l->n_perm && l->n_perm <= 4;
  case NC_DATAFLOW_PARAM_GROUP: return l->group != z->group;
  case NC_DATAFLOW_PARAM_COUNT_INCLUDE_PAD: return l->count_include_pad;
  case NC_DATAFLOW_PARAM_AXIS: return l->axis != 0;
  case NC_DATAFLOW_PARAM_PAD_VALUE: return l->pad_value != 0;
  case NC_DATAFLOW_PARAM_PAD_MODE:
    return l->pad_mode > NC_DATAFLOW_PAD_CONSTANT && (size_t)l->pad_mode < NC_COUNTOF(pad_mode_names);
  case NC_DATAFLOW_PARAM_OP: return l->op > NC_DATAFLOW_ELTWISE_NONE && (size_t)l->op < NC_COUNTOF(eltwise_names);
  case NC_DATAFLOW_PARAM_INPUT_ZERO_POINTS: return ints_differ(l->input_zero_points, n_in, 0);
  case NC_DATAFLOW_PARAM_INPUT_MULTIPLIER: return ints_differ(l->input_multiplier, n_in, 0);
  case NC_DATAFLOW_PARAM_INPUT_SHIFT: return ints_differ(l->input_shift, n_in, 0);
  case NC_DATAFLOW_PARAM_WEIGHT_ZERO_POINT: return l->weight_zero_point != 0;
  case NC_DATAFLOW_PARAM_WEIGHTS: return l->weights != NULL;
  case NC_DATAFLOW_PARAM_BIAS: return l->bias != NULL;
  case NC_DATAFLOW_PARAM_MULTIPLIER:
  case NC_DATAFLOW_PARAM_SHIFT: return l->n_requant && l->multiplier && l->shift;
  case NC_DATAFLOW_PARAM_OUTPUT_ZERO_POINT: return l->output_zero_point != 0;
  case NC_DATAFLOW_PARAM_CLAMP_MIN: return l->clamp_min != z->clamp_min;
  case NC_DATAFLOW_PARAM_CLAMP_MAX: return l->clamp_max != z->clamp_max;
  case NC_DATAFLOW_PARAM_LUT: return l->lut != NULL;
  case NC_DATAFLOW_PARAM_INPUT_AFFINE: return l->n_input_affine && l->input_affine;
  case NC_DATAFLOW_NUM_PARAMS: break;
  }
  return false;
}

uint64_t nc_dataflow_layer_get_params(const nc_dataflow_layer *l)
{
  nc_dataflow_layer z = nc_dataflow_layer_make(l->kind);
  uint64_t set = 0;
  for (int p = 0; p < NC_DATAFLOW_NUM_PARAMS; p++)
    if (param_differs(l, &z, (nc_dataflow_layer_param)p))
      set |= (uint64_t)1 << p;
  return set;
}

/* Parameter p of `l` as its attribute (it differs from its default). */
static nc_attr *param_attr(nc_context *ctx, const nc_dataflow_layer *l, nc_dataflow_layer_param p)
{
  size_t n_in = l->n_inputs < NC_DATAFLOW_LAYER_MAX_INPUTS ? l->n_inputs : NC_DATAFLOW_LAYER_MAX_INPUTS;
  nc_type *i64 = nc_type_integer(ctx, 64, NC_SIGNLESS);
  switch (p) {
  case NC_DATAFLOW_PARAM_KERNEL: return nc_attr_dense_i64_array(ctx, 2, l->kernel);
  case NC_DATAFLOW_PARAM_STRIDE: return nc_attr_dense_i64_array(ctx, 2, l->stride);
  case NC_DATAFLOW_PARAM_DILATION: return nc_attr_dense_i64_array(ctx, 2, l->dilation);
  case NC_DATAFLOW_PARAM_SCALE: return nc_attr_dense_i64_array(ctx, 2, l->scale);
  case NC_DATAFLOW_PARAM_LINEAR: return nc_attr_dense_i64_array(ctx, 6, l->linear);
  case NC_DATAFLOW_PARAM_LINEAR_CHANNELS: return nc_attr_dense_i64_array(ctx, 3, l->linear_channels);
  case NC_DATAFLOW_PARAM_NEAREST_CHANNELS: return nc_attr_dense_i64_array(ctx, 3, l->nearest_channels);
  case NC_DATAFLOW_PARAM_PADS: return nc_attr_dense_i64_array(ctx, 4, l->pads);
  case NC_DATAFLOW_PARAM_PERM: return nc_attr_dense_i64_array(ctx, l->n_perm, l->perm);
  case NC_DATAFLOW_PARAM_GROUP: return nc_attr_integer(ctx, i64, l->group);
  case NC_DATAFLOW_PARAM_COUNT_INCLUDE_PAD: return nc_attr_integer(ctx, i64, l->count_include_pad);
  case NC_DATAFLOW_PARAM_AXIS: return nc_attr_integer(ctx, i64, l->axis);
  case NC_DATAFLOW_PARAM_PAD_VALUE: return nc_attr_integer(ctx, i64, l->pad_value);
  case NC_DATAFLOW_PARAM_PAD_MODE: return nc_attr_string_cstr(ctx, pad_mode_names[l->pad_mode]);
  case NC_DATAFLOW_PARAM_OP: return nc_attr_string_cstr(ctx, eltwise_names[l->op]);
  case NC_DATAFLOW_PARAM_INPUT_ZERO_POINTS: return nc_attr_dense_i64_array(ctx, n_in, l->input_zero_points);
  case NC_DATAFLOW_PARAM_INPUT_MULTIPLIER: return nc_attr_dense_i64_array(ctx, n_in, l->input_multiplier);
  case NC_DATAFLOW_PARAM_INPUT_SHIFT: return nc_attr_dense_i64_array(ctx, n_in, l->input_shift);
  case NC_DATAFLOW_PARAM_WEIGHT_ZERO_POINT: return nc_attr_integer(ctx, i64, l->weight_zero_point);
  case NC_DATAFLOW_PARAM_WEIGHTS: return l->weights;
  case NC_DATAFLOW_PARAM_BIAS: return l->bias;
  case NC_DATAFLOW_PARAM_MULTIPLIER: return nc_attr_dense_i64_array(ctx, l->n_requant, l->multiplier);
  case NC_DATAFLOW_PARAM_SHIFT: return nc_attr_dense_i64_array(ctx, l->n_requant, l->shift);
  case NC_DATAFLOW_PARAM_OUTPUT_ZERO_POINT: return nc_attr_integer(ctx, i64, l->output_zero_point);
  case NC_DATAFLOW_PARAM_CLAMP_MIN: return nc_attr_integer(ctx, i64, l->clamp_min);
  case NC_DATAFLOW_PARAM_CLAMP_MAX: return nc_attr_integer(ctx, i64, l->clamp_max);
  case NC_DATAFLOW_PARAM_LUT: return l->lut;
  case NC_DATAFLOW_PARAM_INPUT_AFFINE: return nc_attr_dense_i64_array(ctx, l->n_input_affine, l->input_affine);
  case NC_DATAFLOW_NUM_PARAMS: break;
  }
  return NULL;
}

void nc_dataflow_node_set_layer(nc_op *node, const nc_dataflow_layer *l)
{
  nc_context *ctx = nc_op_get_context(node);
  entries e = {.ctx = ctx};
  uint64_t set = nc_dataflow_layer_get_params(l);
  for (int p = 0; p < NC_DATAFLOW_NUM_PARAMS; p++)
    if (set >> p & 1)
      put(&e, param_names[p], param_attr(ctx, l, (nc_dataflow_layer_param)p));
  nc_op_set_attr_str(node, "kind", nc_attr_string_cstr(ctx, nc_dataflow_layer_kind_name(l->kind)));
  if (e.n)
    nc_op_set_attr_str(node, "params", nc_attr_dictionary(ctx, e.n, e.v));
  else
    nc_op_remove_attr(node, nc_ident_get_cstr(ctx, "params"));
}

/* --- the function's I/O records --------------------------------------------------------------------------------- */

static nc_attr *io_list(nc_op *func, bool outputs)
{
  nc_attr *io = func ? nc_op_get_attr_str(func, "dataflow.io") : NULL;
  nc_attr *list = io && nc_attr_get_kind(io) == NC_ATTR_DICTIONARY
                    ? nc_attr_dict_get_str(io, outputs ? "outputs" : "inputs") : NULL;
  return list && nc_attr_get_kind(list) == NC_ATTR_ARRAY ? list : NULL;
}

size_t nc_dataflow_func_get_num_io(nc_op *func, bool outputs)
{
  nc_attr *list = io_list(func, outputs);
  return list ? nc_attr_get_num_elements(list) : 0;
}

static bool dict_int(nc_attr *d, const char *key, int64_t *v)
{
  nc_attr *a = nc_attr_dict_get_str(d, key);
  if (!a || nc_attr_get_kind(a) != NC_ATTR_INTEGER)
    return false;
  *v = nc_attr_get_int(a);
  return true;
}

/* The quantized value behind function argument `arg` (see the file comment). */
static nc_value *input_value(nc_value *arg)
{
  nc_op *host = NULL;
  for (nc_use *u = nc_value_get_first_use(arg); u; u = nc_use_get_next(u)) {
    nc_op *user = nc_use_get_owner(u);
    if (nc_dataflow_is_node(user))
      continue;
    if (host && host != user)
      return NULL;
    host = user;
  }
  if (!host)
    return arg;
  return nc_op_get_num_results(host) == 1 && nc_value_has_one_use(arg) ? nc_op_get_result(host, 0) : NULL;
}

static nc_value *output_value(nc_value *ret)
{
  nc_op *def = nc_value_get_defining_op(ret);
  if (!def || nc_dataflow_is_node(def))
    return ret;
  return nc_op_get_num_operands(def) >= 1 ? nc_op_get_operand(def, 0) : NULL;
}

bool nc_dataflow_func_get_io(nc_op *func, bool outputs, size_t i, nc_dataflow_io *out)
{
  nc_attr *list = io_list(func, outputs);
  if (!list || i >= nc_attr_get_num_elements(list) || nc_op_get_num_regions(func) != 1)
    return false;
  nc_attr *d = nc_attr_get_element(list, i), *name = NULL, *scale = NULL;
  int64_t index, zp, bits;
  if (nc_attr_get_kind(d) != NC_ATTR_DICTIONARY || !(name = nc_attr_dict_get_str(d, "name")) ||
      nc_attr_get_kind(name) != NC_ATTR_STRING || !(scale = nc_attr_dict_get_str(d, "scale")) ||
      nc_attr_get_kind(scale) != NC_ATTR_FLOAT || !dict_int(d, outputs ? "result" : "argument", &index) ||
      !dict_int(d, "zero_point", &zp) || !dict_int(d, "bits", &bits) || bits < 1 || bits > 32 || index < 0)
    return false;
  nc_block *body = nc_region_get_first_block(nc_op_get_region(func, 0));
  nc_op *ret = body ? nc_block_get_terminator(body) : NULL;
  nc_value *v = NULL;
  if (!outputs && body && (size_t)index < nc_block_get_num_args(body))
    v = input_value(nc_block_get_arg(body, (size_t)index));
  else if (outputs && ret && (size_t)index < nc_op_get_num_operands(ret))
    v = output_value(nc_op_get_operand(ret, (size_t)index));
  if (!v)
    return false;
  *out = (nc_dataflow_io){nc_attr_get_string(name, NULL), nc_attr_get_float(scale), zp, (unsigned)bits, v};
  return true;
}
