/* seq_target.c: the compile side of `seq`, an example target added to nc
 * without an edit outside this folder: a plugin built against the
 * installed headers (Makefile, `pkg-config nc`) and loaded with
 * --load-target-plugin=libseq.so.
 *
 * seq is a simple sequential accelerator: one MAC array of `macs_per_cycle`
 * at `clock_hz`, running the network's layers one at a time. It needs no
 * IR of its own: its pipeline is nc's existing passes up to the `dataflow`
 * level, where each dataflow.node records a target-neutral layer
 * (nc/dialects/dataflow/layer.h) that the printer writes as one section.
 * Its chip description is its own JSON schema, read with the shared reader
 * (nc/targets/desc_json.h) so errors point at file:line:col; the typed
 * result is a builtin dictionary behind seq_desc_get, which is simpler
 * than a dialect attribute and enough for three fields.
 *
 * docs/tutorials/first-target.md walks through this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/diag.h"
#include "nc/ir/types.h"
#include "nc/plugin.h"
#include "nc/targets/desc_json.h"
#include "nc/targets/target.h"
#include "nc/targets/targets.h"
#include "seq.h"

/* --- the chip description ----------------------------------------------------------------- */

/** The description, decoded. */
typedef struct seq_desc {
  char name[32];
  int64_t macs_per_cycle; /**< MACs the array completes per cycle */
  int64_t clock_hz;
} seq_desc;

/* The built-in description, embedded as a string so the plugin is one file to ship. */
static const char seq_default_json[] = "{\n"
                                       "  \"name\": \"seq-64\",\n"
                                       "  \"macs_per_cycle\": 64,\n"
                                       "  \"clock_hz\": 200000000\n"
                                       "}\n";

static const nc_target_desc_def seq_descs[] = {
  {"seq-64", "a 64-MAC array at 200 MHz", seq_default_json},
};

/* Reads the JSON text into the typed attribute: a dictionary
 * {clock_hz, macs_per_cycle, name}. Every error is a diagnostic at the value. */
static NC_KEEP nc_attr *seq_parse_desc(nc_context *ctx, const char *text, size_t len, const char *file,
                                       void *userData)
{
  (void)userData;
  static const char *const keys[] = {"name", "macs_per_cycle", "clock_hz", NULL};
  seq_desc d = {0};
  nc_desc_reader *r = nc_desc_reader_create(ctx, text, len, file);
  bool ok = r && nc_desc_check_keys(r, NULL, keys) && nc_desc_get_string(r, "name", false, d.name, sizeof d.name) &&
            nc_desc_get_int(r, "macs_per_cycle", 1, SEQ_MAX_MACS_PER_CYCLE, false, &d.macs_per_cycle) &&
            nc_desc_get_int(r, "clock_hz", 1, SEQ_MAX_CLOCK_HZ, false, &d.clock_hz);
  nc_desc_reader_destroy(r);
  if (!ok)
    return NULL;
  nc_type *i64 = nc_type_integer(ctx, 64, NC_SIGNLESS);
  nc_named_attr entries[] = {
    {nc_ident_get_cstr(ctx, "clock_hz"), nc_attr_integer(ctx, i64, d.clock_hz)},
    {nc_ident_get_cstr(ctx, "macs_per_cycle"), nc_attr_integer(ctx, i64, d.macs_per_cycle)},
    {nc_ident_get_cstr(ctx, "name"), nc_attr_string_cstr(ctx, d.name)},
  };
  return nc_attr_dictionary(ctx, sizeof entries / sizeof entries[0], entries);
}

/** Reads the module's description (nc.chip) back; false if it is not a seq one
 * (IR written by hand may carry anything there). */
static bool seq_desc_get(nc_op *module, seq_desc *d)
{
  nc_attr *a = nc_target_get_desc(module);
  if (!a || nc_attr_get_kind(a) != NC_ATTR_DICTIONARY)
    return false;
  nc_attr *name = nc_attr_dict_get_str(a, "name"), *macs = nc_attr_dict_get_str(a, "macs_per_cycle");
  nc_attr *clock = nc_attr_dict_get_str(a, "clock_hz");
  if (!name || !macs || !clock || nc_attr_get_kind(name) != NC_ATTR_STRING ||
      nc_attr_get_kind(macs) != NC_ATTR_INTEGER || nc_attr_get_kind(clock) != NC_ATTR_INTEGER)
    return false;
  size_t len;
  const char *s = nc_attr_get_string(name, &len);
  snprintf(d->name, sizeof d->name, "%.*s", (int)len, s);
  d->macs_per_cycle = nc_attr_get_int(macs);
  d->clock_hz = nc_attr_get_int(clock);
  return d->macs_per_cycle >= 1 && d->macs_per_cycle <= SEQ_MAX_MACS_PER_CYCLE && d->clock_hz >= 1 &&
         d->clock_hz <= SEQ_MAX_CLOCK_HZ;
}

/* --- options, levels, pipeline -------------------------------------------------------------- */

static const nc_pass_option_def seq_options[] = {
  {.name = "calibration", .kind = NC_PASS_OPT_STRING, .default_value = "",
   .summary = "graph-quantize's calibration inputs (.npy, N x the input shape, f32)"},
  {.name = "max-samples", .kind = NC_PASS_OPT_INT, .default_value = "0",
   .summary = "Calibrate on at most this many samples (0: all)"},
};

static const char *const seq_levels[] = {"graph", "quantized", "dataflow"};

/* Appends nc's own passes, by name, up to the level `stop_after`. */
static bool seq_build_pipeline(nc_pass_manager *pm, NC_KEEP const nc_pass *o, const char *stop_after,
                               void *userData)
{
  (void)userData;
  size_t stop = 0; /* the index of `stop_after` in seq_levels */
  while (stop + 1 < sizeof seq_levels / sizeof seq_levels[0] && strcmp(seq_levels[stop], stop_after))
    stop++;
  if (!nc_pass_manager_add_pass(pm, "graph-optimize", NULL))
    return false;
  if (stop >= 1) { /* a pass instance whose options are set by name and value: no text to quote or cut */
    nc_pass *q = nc_pass_create_named(nc_pass_manager_get_context(pm), "graph-quantize");
    if (!q || !nc_pass_set_option(q, "calibration", nc_pass_get_option_string(o, "calibration")) ||
        !nc_pass_set_option_int(q, "max-samples", nc_pass_get_option_int(o, "max-samples"))) {
      nc_pass_destroy(q);
      return false;
    }
    if (!nc_pass_manager_add_owned_pass(nc_pass_manager_nest(pm, "func.func"), q))
      return false;
  }
  /* nc's lowering to dataflow, and its check of the layers against seq_layers */
  return stop < 2 || nc_target_add_dataflow_passes(pm, NULL);
}

/* --- the printer ---------------------------------------------------------------------------- */

/* Element i of an elements attribute (weights, bias) as an integer; false without data. */
static bool element(NC_KEEP const nc_attr *a, int64_t i, int64_t *v)
{
  size_t nbytes;
  bool splat;
  const unsigned char *data = a ? nc_attr_elements_get_data(a, &nbytes, &splat) : NULL;
  if (!data)
    return false;
  nc_type *elt = nc_type_get_element_type(nc_attr_get_type(a));
  size_t size = nc_dense_element_size(elt), at = splat ? 0 : (size_t)i * size;
  if (at + size > nbytes)
    return false;
  switch (size) {
  case 1: *v = nc_type_get_signedness(elt) == NC_UNSIGNED ? (int64_t)data[at] : (int64_t)(int8_t)data[at]; return true;
  case 4: { int32_t x; memcpy(&x, data + at, 4); *v = x; return true; }
  default: return false;
  }
}

/* Number of elements of an elements attribute (0 for NULL). */
static int64_t num_elements(NC_KEEP const nc_attr *a)
{
  if (!a)
    return 0;
  const nc_type *t = nc_attr_get_type(a);
  int64_t n = 1;
  for (size_t d = 0; d < nc_type_get_rank(t); d++)
    n *= nc_type_get_shape(t)[d];
  return n;
}

/* A value's tensor coordinates as `u32 rank, SEQ_MAX_RANK x i64`; false after an error at `node`. */
static bool put_shape(nc_bytes *b, nc_op *node, NC_KEEP nc_value *v)
{
  int64_t dims[16];
  int n = nc_dataflow_tensor_coords(nc_value_get_type(v), dims);
  if (n < 0 || n > SEQ_MAX_RANK)
    return nc_op_emit_error(node, "seq printer: a value of node '%s' is not a static tensor of rank <= %d",
                            nc_dataflow_node_get_name(node), SEQ_MAX_RANK);
  nc_bytes_put_u32(b, (uint32_t)n);
  for (int d = 0; d < SEQ_MAX_RANK; d++)
    nc_bytes_put_i64(b, d < n ? dims[d] : 0);
  return true;
}

/* The network's input or output `i` as a container descriptor (int8 only: the array's datapath). */
static bool io_desc(nc_op *fn, bool output, size_t i, nc_dataflow_io *io, nc_ncb_tensor *t)
{
  if (!nc_dataflow_func_get_io(fn, output, i, io))
    return nc_op_emit_error(fn, "seq printer: the function records no network %s %zu (graph-to-dataflow does)",
                            output ? "output" : "input", i);
  memset(t, 0, sizeof *t);
  snprintf(t->name, sizeof t->name, "%s", io->name ? io->name : "");
  const nc_type *ty = nc_value_get_type(io->value);
  if (io->bits != 8 || !nc_type_has_static_shape(ty) || nc_type_get_rank(ty) > NC_NCB_MAX_RANK)
    return nc_op_emit_error(fn, "seq printer: network %s '%s' must be a static int8 tensor",
                            output ? "output" : "input", t->name);
  t->dtype = NC_NCB_DTYPE_I8;
  t->rank = (uint32_t)nc_type_get_rank(ty);
  memcpy(t->dims, nc_type_get_shape(ty), t->rank * sizeof(int64_t));
  t->scale = (float)io->scale;
  t->zero_point = (int32_t)io->zero_point;
  return true;
}

/* Index of `node` among the function's nodes, or -1. */
static int64_t index_of(nc_op *fn, NC_KEEP const nc_op *node)
{
  int64_t i = 0;
  for (nc_op *n = nc_dataflow_first_node(fn); n; n = nc_dataflow_next_node(n), i++)
    if (n == node)
      return i;
  return -1;
}

/* One layer section: the layer's kind and parameters, its source, shapes, weights and bias. */
static bool print_layer(nc_op *fn, nc_op *node, uint32_t index, NC_KEEP nc_value *input, nc_ncb_writer *w)
{
  const char *name = nc_dataflow_node_get_name(node);
  nc_dataflow_layer l;
  if (!nc_dataflow_node_get_layer(node, &l))
    return nc_op_emit_error(node, "seq printer: node '%s' records no layer", name);
  seq_kind kind = l.kind == NC_DATAFLOW_LAYER_CONV       ? SEQ_CONV
                  : l.kind == NC_DATAFLOW_LAYER_MATMUL   ? SEQ_MATMUL
                  : l.kind == NC_DATAFLOW_LAYER_MAX_POOL ? SEQ_MAX_POOL
                  : l.kind == NC_DATAFLOW_LAYER_COPY     ? SEQ_COPY
                                                         : 0;
  if (!kind) /* nc_target_check_layers refused it first (seq_layers) */
    return nc_op_emit_error(node, "seq printer: the seq array cannot run a '%s' layer (node '%s')",
                            nc_dataflow_layer_kind_name(l.kind), name);
  if (nc_dataflow_node_get_num_inputs(node) != 1)
    return nc_op_emit_error(node, "seq printer: node '%s' has %zu inputs; seq layers read one", name,
                            nc_dataflow_node_get_num_inputs(node));
  bool mac = kind == SEQ_CONV || kind == SEQ_MATMUL;
  if (l.input_bits != 8 || l.output_bits != 8 || (mac && l.weight_bits != 8))
    return nc_op_emit_error(node, "seq printer: node '%s' is not an int8 layer; the seq array computes in int8", name);
  if (mac && (!l.weights || l.n_requant == 0))
    return nc_op_emit_error(node, "seq printer: node '%s' has no weights or no requantization", name);
  nc_op *producer = nc_dataflow_node_get_producer(node, 0);
  uint32_t source = SEQ_SOURCE_INPUT;
  if (producer)
    source = (uint32_t)index_of(fn, producer);
  else if (nc_op_get_operand(node, 0) != input)
    return nc_op_emit_error(node, "seq printer: node '%s' reads something that is neither a node nor the network "
                                  "input", name);

  nc_bytes *b = nc_ncb_writer_add_section(w, SEQ_SECTION_LAYER, index);
  nc_bytes_put_u32(b, kind);
  nc_bytes_put_u32(b, source);
  if (!put_shape(b, node, nc_op_get_operand(node, 0)) || !put_shape(b, node, nc_op_get_result(node, 0)))
    return false;
  const int64_t *geometry[] = {l.kernel, l.stride, l.dilation};
  for (int g = 0; g < 3; g++)
    for (int d = 0; d < 2; d++)
      nc_bytes_put_i64(b, geometry[g][d]);
  for (int d = 0; d < 4; d++)
    nc_bytes_put_i64(b, l.pads[d]);
  nc_bytes_put_i64(b, l.group);
  nc_bytes_put_i64(b, l.n_inputs ? l.input_zero_points[0] : 0);
  nc_bytes_put_i64(b, l.weight_zero_point);
  nc_bytes_put_i64(b, l.output_zero_point);
  nc_bytes_put_i64(b, l.clamp_min < -128 ? -128 : l.clamp_min);
  nc_bytes_put_i64(b, l.clamp_max > 127 ? 127 : l.clamp_max);
  nc_bytes_put_u32(b, (uint32_t)l.n_requant);
  for (size_t c = 0; c < l.n_requant; c++) {
    nc_bytes_put_i64(b, l.multiplier[c]);
    nc_bytes_put_i64(b, l.shift[c]);
  }
  int64_t nw = num_elements(l.weights), nb = num_elements(l.bias), v = 0;
  nc_bytes_put_u64(b, (uint64_t)nw);
  for (int64_t i = 0; i < nw; i++) {
    if (!element(l.weights, i, &v))
      return nc_op_emit_error(node, "seq printer: the weights of node '%s' have no data", name);
    int8_t q = (int8_t)v;
    nc_bytes_put(b, &q, 1);
  }
  nc_bytes_align(b, 8);
  nc_bytes_put_u64(b, (uint64_t)nb);
  for (int64_t i = 0; i < nb; i++) {
    if (!element(l.bias, i, &v))
      return nc_op_emit_error(node, "seq printer: the bias of node '%s' has no data", name);
    nc_bytes_put_i32(b, (int32_t)v);
  }
  return true;
}

/* The module's one function with dataflow nodes, or NULL after an error. */
static nc_op *network_function(nc_op *module)
{
  nc_block *body = nc_region_get_first_block(nc_op_get_region(module, 0));
  for (nc_op *fn = body ? nc_block_get_first_op(body) : NULL; fn; fn = nc_op_get_next(fn))
    if (nc_op_is(fn, "func.func") && nc_op_get_num_regions(fn) == 1 && nc_dataflow_num_nodes(fn))
      return fn;
  nc_op_emit_error(module, "seq printer: the module has no function with dataflow nodes");
  return NULL;
}

/* The binary: one int8 input and output, a chip section, one section per layer in node order. */
static bool seq_print_binary(nc_op *module, nc_ncb_writer *w, void *userData)
{
  (void)userData;
  seq_desc d;
  if (!seq_desc_get(module, &d))
    return nc_op_emit_error(module, "seq printer: the module carries no valid seq chip description (nc.chip)");
  nc_op *fn = network_function(module);
  if (!fn)
    return false;
  if (nc_dataflow_func_get_num_io(fn, false) != 1 || nc_dataflow_func_get_num_io(fn, true) != 1)
    return nc_op_emit_error(fn, "seq printer: seq runs networks of one input and one output");
  nc_dataflow_io in, out;
  nc_ncb_tensor t;
  if (!io_desc(fn, false, 0, &in, &t))
    return false;
  nc_ncb_writer_add_input(w, &t);
  if (!io_desc(fn, true, 0, &out, &t))
    return false;
  nc_ncb_writer_add_output(w, &t);
  int64_t last = index_of(fn, nc_value_get_defining_op(out.value));
  if (last < 0)
    return nc_op_emit_error(fn, "seq printer: the network output is not produced by a node");

  nc_bytes *chip = nc_ncb_writer_add_section(w, SEQ_SECTION_CHIP, 0);
  nc_bytes_put_u64(chip, (uint64_t)d.macs_per_cycle);
  nc_bytes_put_u64(chip, (uint64_t)d.clock_hz);
  nc_bytes_put_u32(chip, (uint32_t)nc_dataflow_num_nodes(fn));
  nc_bytes_put_u32(chip, (uint32_t)last);
  nc_bytes_put_str(chip, d.name, 32);
  uint32_t i = 0;
  for (nc_op *n = nc_dataflow_first_node(fn); n; n = nc_dataflow_next_node(n), i++)
    if (!print_layer(fn, n, i, in.value, w))
      return false;
  return true;
}

/* The layers print_layer writes: their kind, geometry, zero points, clamp,
 * requantization, weights and bias; a parameter not listed here (a copy's
 * `perm`, a table) is refused before printing, by nc's check of every target. */
#define P(e) NC_DATAFLOW_PARAM_BIT(e)
#define QUANT (P(INPUT_ZERO_POINTS) | P(OUTPUT_ZERO_POINT) | P(CLAMP_MIN) | P(CLAMP_MAX))
#define MAC (QUANT | P(WEIGHT_ZERO_POINT) | P(WEIGHTS) | P(BIAS) | P(MULTIPLIER) | P(SHIFT))
#define WINDOW (P(KERNEL) | P(STRIDE) | P(DILATION) | P(PADS))
static const nc_target_layer_def seq_layers[] = {
  {NC_DATAFLOW_LAYER_CONV, MAC | WINDOW | P(GROUP)},
  {NC_DATAFLOW_LAYER_MATMUL, MAC},
  {NC_DATAFLOW_LAYER_MAX_POOL, QUANT | WINDOW},
  {NC_DATAFLOW_LAYER_COPY, QUANT},
};
#undef P

/* --- the target and the plugin's entry point ------------------------------------------------- */

/** The target: data and function pointers, as every nc target is. */
static const nc_target_def seq_target = {
  .name = "seq",
  .family = "sequential",
  .summary = "Example plugin target: one MAC array running one layer at a time (examples/target-plugin)",
  .descs = seq_descs, .n_descs = sizeof seq_descs / sizeof seq_descs[0],
  .parse_desc = seq_parse_desc,
  .options = seq_options, .n_options = sizeof seq_options / sizeof seq_options[0],
  .levels = seq_levels, .n_levels = sizeof seq_levels / sizeof seq_levels[0],
  .build_pipeline = seq_build_pipeline,
  .print_binary = seq_print_binary,
  .layers = seq_layers, .n_layers = sizeof seq_layers / sizeof seq_layers[0],
  .sim = &seq_sim,
};

static void register_targets(void *user_data)
{
  (void)user_data;
  nc_target_register(&seq_target);
}

static const nc_plugin_info seq_plugin = {
  .api_version = NC_PLUGIN_API_VERSION,
  .name = "seq",
  .version = "1.0",
  .register_targets = register_targets,
};

/** What --load-target-plugin looks for. */
NC_PLUGIN_EXPORT NC_KEEP const nc_plugin_info *nc_get_target_plugin_info(void) { return &seq_plugin; }
