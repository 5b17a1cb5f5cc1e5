/* printer.c: the xbar binary of a module at the `xbar` level: the
 * network's inputs and outputs (from the dataflow function's recorded I/O),
 * a chip section and one section per stage (docs/targets/xbar.md has the
 * bytes): the layer's parameters read from its target-neutral layer
 * (moves: nearest factors and channel coefficients, pads and mode, shuffle
 * group; linear resizes: their coordinate coefficients in the bias field;
 * a resize into a batch: a 4-D output) (layer.h), its crossbar mapping
 * (xbar.mvm / xbar.digital), its weight matrix laid out as crossbar rows =
 * inputs, and the control program of each input (xbar.control). Anything the simulator could not run is an
 * error at the op that says so. The same module gives the same bytes.
 */
#include <isl/ctx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/diag.h"
#include "nc/ir/types.h"
#include "nc/runtime/ncb.h"
#include "runtime/xbar_sim.h"
#include "xbar_ir.h"

typedef struct pctx {
  nc_op *fn;
  isl_ctx *ictx;
  size_t n_nodes;
  nc_op **nodes;
  nc_dataflow_io *ins, *outs;
  size_t n_ins, n_outs;
} pctx;

static void put_shape(nc_bytes *b, unsigned rank, const int64_t *dims)
{
  nc_bytes_put_u32(b, rank);
  for (unsigned d = 0; d < XBAR_MAX_RANK; d++)
    nc_bytes_put_i64(b, d < rank ? dims[d] : 0);
}

/* Tensor coordinates of a value's type (batch dim of 1 dropped). */
static int coords(nc_op *at, nc_value *v, int64_t *dims)
{
  int n = nc_dataflow_tensor_coords(nc_value_get_type(v), dims);
  if (n < 0 || n > XBAR_MAX_RANK)
    nc_op_emit_error(at, "xbar printer: a value of this node is not a static tensor of rank <= %d", XBAR_MAX_RANK);
  return n;
}

static int64_t stage_of(pctx *p, nc_op *node)
{
  for (size_t i = 0; i < p->n_nodes; i++)
    if (p->nodes[i] == node)
      return (int64_t)i;
  return -1;
}

static bool tensor_desc(nc_op *at, const nc_dataflow_io *io, nc_ncb_tensor *t)
{
  memset(t, 0, sizeof *t);
  snprintf(t->name, sizeof t->name, "%s", io->name ? io->name : "");
  if (io->bits != 8)
    return nc_op_emit_error(at, "xbar printer: network input/output '%s' has %u-bit values; the crossbar datapath "
                                "streams int8", t->name, io->bits);
  t->dtype = NC_NCB_DTYPE_I8;
  const nc_type *ty = nc_value_get_type(io->value);
  if (!nc_type_has_static_shape(ty) || nc_type_get_rank(ty) > NC_NCB_MAX_RANK)
    return nc_op_emit_error(at, "xbar printer: network value '%s' has no static shape", t->name);
  t->rank = (uint32_t)nc_type_get_rank(ty);
  memcpy(t->dims, nc_type_get_shape(ty), t->rank * sizeof(int64_t));
  t->scale = (float)io->scale;
  t->zero_point = (int32_t)io->zero_point;
  return true;
}

static int32_t clamp8(int64_t v) { return (int32_t)(v < -128 ? -128 : v > 127 ? 127 : v); }

static bool put_weights(nc_op *node, const nc_dataflow_layer *l, nc_bytes *b, int64_t rows, int64_t cols,
                        const int64_t *in_dims)
{
  nc_bytes_put_i64(b, rows * cols);
  int8_t *m = calloc((size_t)(rows * cols), 1);
  if (!m)
    abort();
  bool ok = true;
  if (l->kind == NC_DATAFLOW_LAYER_CONV) {
    int64_t kh = l->kernel[0], kw = l->kernel[1], C = in_dims[0], cg = C / l->group, mg = cols / l->group;
    for (int64_t o = 0; o < cols && ok; o++)
      for (int64_t ci = 0; ci < cg && ok; ci++)
        for (int64_t k = 0; k < kh * kw && ok; k++) {
          int64_t v, c = o / mg * cg + ci;
          ok = xbar_elements_int(l->weights, (o * cg + ci) * kh * kw + k, &v);
          m[(c * kh * kw + k) * cols + o] = (int8_t)v;
        }
  } else {
    for (int64_t i = 0; i < rows * cols && ok; i++) {
      int64_t v;
      ok = xbar_elements_int(l->weights, i, &v);
      m[i] = (int8_t)v;
    }
  }
  if (!ok)
    nc_op_emit_error(node, "xbar printer: the weights of node '%s' have no data", nc_dataflow_node_get_name(node));
  nc_bytes_put(b, m, (size_t)(rows * cols));
  nc_bytes_align(b, 8);
  free(m);
  return ok;
}

static bool print_stage(pctx *p, size_t index, nc_ncb_writer *w, const xbar_desc *d)
{
  nc_op *node = p->nodes[index];
  const char *name = nc_dataflow_node_get_name(node);
  nc_dataflow_layer l;
  if (!nc_dataflow_node_get_layer(node, &l))
    return nc_op_emit_error(node, "xbar printer: node '%s' records no layer", name);
  nc_op *map = xbar_find_mapping(node, name);
  if (!map)
    return nc_op_emit_error(node, "xbar printer: node '%s' is not mapped; run xbar-map", name);
  uint32_t kind = l.kind == NC_DATAFLOW_LAYER_CONV     ? XBAR_KIND_CONV
                  : l.kind == NC_DATAFLOW_LAYER_MATMUL ? XBAR_KIND_MATMUL
                  : l.kind == NC_DATAFLOW_LAYER_MAX_POOL ? XBAR_KIND_MAX_POOL
                  : l.kind == NC_DATAFLOW_LAYER_COPY   ? XBAR_KIND_COPY
                  : l.kind == NC_DATAFLOW_LAYER_RESIZE && l.linear[2] ? XBAR_KIND_RESIZE
                  : l.kind == NC_DATAFLOW_LAYER_RESIZE || l.kind == NC_DATAFLOW_LAYER_PAD ||
                      l.kind == NC_DATAFLOW_LAYER_SHUFFLE
                    ? XBAR_KIND_MOVE
                    : 0;
  if (!kind)
    return nc_op_emit_error(node, "xbar printer: layer kind '%s' has no xbar stage", nc_dataflow_layer_kind_name(l.kind));
  bool mvm = kind == XBAR_KIND_CONV || kind == XBAR_KIND_MATMUL;
  if (mvm != nc_op_is(map, "xbar.mvm"))
    return nc_op_emit_error(map, "xbar printer: a %s layer needs an %s", nc_dataflow_layer_kind_name(l.kind),
                            mvm ? "xbar.mvm" : "xbar.digital");
  size_t n_ops = nc_dataflow_node_get_num_inputs(node);
  if (n_ops < 1 || n_ops > XBAR_MAX_OPERANDS || (kind != XBAR_KIND_COPY && n_ops != 1))
    return nc_op_emit_error(node, "xbar printer: node '%s' has %zu inputs", name, n_ops);
  char err[256];
  int64_t dom[8];
  unsigned dom_rank;
  if (!xbar_node_domain_box(node, p->ictx, dom, &dom_rank, err, sizeof err))
    return nc_op_emit_error(node, "xbar printer: %s", err);

  bool move = kind == XBAR_KIND_MOVE, resize = kind == XBAR_KIND_RESIZE;
  if ((move || resize) && (l.input_bits != 8 || l.output_bits != 8))
    return nc_op_emit_error(node, "xbar printer: the digital unit moves int8 values, not %u bits to %u",
                            l.input_bits, l.output_bits);
  if (move && (l.pad_value < -128 || l.pad_value > 127))
    return nc_op_emit_error(node, "xbar printer: pads with %lld, outside int8", (long long)l.pad_value);
  uint32_t flags = !move || l.kind != NC_DATAFLOW_LAYER_PAD ? 0
                   : l.pad_mode == NC_DATAFLOW_PAD_REFLECT ? XBAR_PAD_REFLECT
                   : l.pad_mode == NC_DATAFLOW_PAD_EDGE    ? XBAR_PAD_EDGE
                   : l.pad_mode == NC_DATAFLOW_PAD_WRAP    ? XBAR_PAD_WRAP
                                                           : XBAR_PAD_CONSTANT;
  nc_bytes *b = nc_ncb_writer_add_section(w, XBAR_SECTION_STAGE, (uint32_t)index);
  nc_bytes_put_u32(b, kind);
  nc_bytes_put_u32(b, flags);
  nc_bytes_put_str(b, name, XBAR_NAME_LEN);
  int32_t output = -1;
  for (size_t o = 0; o < p->n_outs; o++)
    if (p->outs[o].value == nc_op_get_result(node, 0))
      output = (int32_t)o;
  nc_bytes_put_i32(b, output);
  nc_bytes_put_u32(b, (uint32_t)n_ops);
  int64_t in_dims[8] = {0};
  for (size_t i = 0; i < n_ops; i++) {
    nc_value *v = nc_op_get_operand(node, i);
    nc_op *prod = nc_dataflow_node_get_producer(node, i);
    int32_t source = prod ? (int32_t)stage_of(p, prod) : 0;
    if (!prod) {
      source = 0;
      for (size_t k = 0; k < p->n_ins; k++)
        if (p->ins[k].value == v)
          source = -1 - (int32_t)k;
      if (!source)
        return nc_op_emit_error(node, "xbar printer: input %zu of node '%s' is neither a node's result nor a network "
                                      "input", i, name);
    }
    int64_t dims[8];
    int rank = coords(node, v, dims);
    if (rank < 0)
      return false;
    if (i == 0)
      memcpy(in_dims, dims, sizeof dims);
    nc_bytes_put_i32(b, source);
    put_shape(b, (unsigned)rank, dims);
    if (prod) {
      int64_t pd[8];
      unsigned pr;
      if (!xbar_node_domain_box(prod, p->ictx, pd, &pr, err, sizeof err))
        return nc_op_emit_error(prod, "xbar printer: %s", err);
      put_shape(b, pr, pd);
    } else if (rank == 3) {
      put_shape(b, 2, (int64_t[]){dims[1], dims[2]});
    } else {
      put_shape(b, 0, NULL);
    }
  }
  int64_t out_dims[8];
  int out_rank = coords(node, nc_op_get_result(node, 0), out_dims);
  if (out_rank < 0)
    return false;
  /* a resize of one image into a batch [N, C, H, W]: each output pixel written into every image */
  bool batch = (move || resize) && out_rank == 4 && l.kind == NC_DATAFLOW_LAYER_RESIZE && dom_rank == 2;
  if ((move || resize) && out_rank != 3 && !batch)
    return nc_op_emit_error(node, "xbar printer: the digital unit moves one [C, H, W] image into another or into a "
                                  "batch of them pixel by pixel, not into a %d-D result over %u dims", out_rank,
                            dom_rank);
  put_shape(b, (unsigned)out_rank, out_dims);
  put_shape(b, dom_rank, dom);
  bool windowed = kind == XBAR_KIND_CONV || kind == XBAR_KIND_MAX_POOL;
  int64_t geo[11] = {l.kernel[0], l.kernel[1], l.stride[0], l.stride[1], l.pads[0], l.pads[1],
                     l.pads[2], l.pads[3], l.dilation[0], l.dilation[1], l.group};
  bool pad = l.kind == NC_DATAFLOW_LAYER_PAD;
  int64_t moved[11] = {l.scale[0], l.scale[1], 0, 0, pad ? l.pads[0] : 0, pad ? l.pads[1] : 0,
                       pad ? l.pads[2] : 0, pad ? l.pads[3] : 0, 0, 0,
                       l.kind == NC_DATAFLOW_LAYER_SHUFFLE ? l.group : 1};
  for (int i = 0; i < 11; i++)
    nc_bytes_put_i64(b, windowed ? geo[i] : move ? moved[i] : (i == 10 ? 1 : 0));
  if (l.input_zero_points[0] < -128 || l.input_zero_points[0] > 127 || l.weight_zero_point < -128 ||
      l.weight_zero_point > 127 || l.output_zero_point < -128 || l.output_zero_point > 127)
    return nc_op_emit_error(node, "xbar printer: zero points must be int8");
  if (mvm && l.group > 1 && l.weight_zero_point)
    return nc_op_emit_error(node, "xbar printer: a grouped conv needs weight zero point 0");
  if (l.lut)
    return nc_op_emit_error(node, "xbar printer: the digital unit has no lookup tables");
  if ((mvm && (l.input_bits != 8 || l.weight_bits != 8 || l.output_bits != 8)))
    return nc_op_emit_error(node, "xbar printer: crossbar layers take int8 inputs and weights to int8 outputs, not "
                                  "%u/%u bits to %u", l.input_bits, l.weight_bits, l.output_bits);
  nc_bytes_put_i32(b, mvm ? (int32_t)l.input_zero_points[0] : 0);
  nc_bytes_put_i32(b, mvm ? (int32_t)l.weight_zero_point : 0);
  nc_bytes_put_i32(b, mvm ? (int32_t)l.output_zero_point : move ? (int32_t)l.pad_value : 0); /* a move's fill */
  int32_t lo = mvm ? clamp8(l.clamp_min) : -128, hi = mvm ? clamp8(l.clamp_max) : 127;
  nc_bytes_put_i32(b, lo);
  nc_bytes_put_i32(b, hi);
  size_t nq = mvm ? l.n_requant : 0;
  nc_bytes_put_u32(b, (uint32_t)nq);
  for (size_t i = 0; i < nq; i++) {
    if (l.multiplier[i] < 0 || l.multiplier[i] > INT32_MAX || l.shift[i] < 0 || l.shift[i] > 63)
      return nc_op_emit_error(node, "xbar printer: requantization %zu out of range", i);
    nc_bytes_put_i32(b, (int32_t)l.multiplier[i]);
  }
  for (size_t i = 0; i < nq; i++)
    nc_bytes_put_i32(b, (int32_t)l.shift[i]);
  int64_t nbias = mvm && l.bias ? nc_type_get_num_elements(nc_attr_get_type(l.bias)) : 0;
  if (resize) { /* the coordinate coefficients in the bias field: H, W, then C when it changes */
    bool channels = l.linear_channels[2] != 0;
    nc_bytes_put_u32(b, channels ? 9 : 6);
    for (int i = 0; i < (channels ? 9 : 6); i++)
      nc_bytes_put_i32(b, (int32_t)(i < 6 ? l.linear[i] : l.linear_channels[i - 6]));
  } else if (move && l.nearest_channels[2]) { /* a nearest resize of the channels: a, b, d in the bias field */
    nc_bytes_put_u32(b, 3);
    for (int i = 0; i < 3; i++)
      nc_bytes_put_i32(b, (int32_t)l.nearest_channels[i]);
  } else {
    nc_bytes_put_u32(b, (uint32_t)nbias);
  }
  for (int64_t i = 0; i < nbias; i++) {
    int64_t v;
    if (!xbar_elements_int(l.bias, i, &v))
      return nc_op_emit_error(node, "xbar printer: the bias of node '%s' has no data", name);
    nc_bytes_put_i32(b, (int32_t)v);
  }
  if (mvm) {
    int64_t rows = xbar_int_attr(map, "rows"), cols = xbar_int_attr(map, "cols");
    nc_bytes_put_u32(b, (uint32_t)rows);
    nc_bytes_put_u32(b, (uint32_t)cols);
    nc_bytes_put_u32(b, (uint32_t)xbar_int_attr(map, "row_tiles"));
    nc_bytes_put_u32(b, (uint32_t)xbar_int_attr(map, "col_tiles"));
    nc_bytes_put_u32(b, (uint32_t)xbar_int_attr(map, "replicas"));
    size_t n;
    const int64_t *cores = xbar_array_attr(map, "cores", &n);
    nc_bytes_put_u32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++)
      nc_bytes_put_u32(b, (uint32_t)cores[i]);
    if (!put_weights(node, &l, b, rows, cols, in_dims))
      return false;
  } else {
    nc_bytes_put_u32(b, 0);
    nc_bytes_put_u32(b, 0);
    nc_bytes_put_u32(b, 1);
    nc_bytes_put_u32(b, 1);
    nc_bytes_put_u32(b, 1);
    nc_bytes_put_u32(b, 1);
    nc_bytes_put_u32(b, (uint32_t)xbar_int_attr(map, "core"));
    nc_bytes_put_i64(b, 0);
    nc_bytes_align(b, 8);
  }
  (void)d;
  for (size_t i = 0; i < n_ops; i++) {
    nc_op *ctl = xbar_find_control(node, name, (int64_t)i);
    if (!ctl)
      return nc_op_emit_error(node, "xbar printer: input %zu of node '%s' has no control program; run xbar-control",
                              i, name);
    size_t n;
    const int64_t *words = xbar_array_attr(ctl, "program", &n);
    nc_bytes_put_u32(b, (uint32_t)n);
    nc_bytes_put_u32(b, 0);
    for (size_t k = 0; k < n; k++)
      nc_bytes_put_i64(b, words[k]);
  }
  return true;
}

static void put_chip(nc_ncb_writer *w, const xbar_desc *d)
{
  nc_bytes *b = nc_ncb_writer_add_section(w, XBAR_SECTION_CHIP, 0);
  nc_bytes_put_str(b, d->name, XBAR_NAME_LEN);
  int64_t u[] = {d->mesh_rows, d->mesh_cols, d->xbar_rows, d->xbar_cols, d->weight_bits, d->dac_bits,
                 d->input_bits, d->adc_bits, d->mvm_latency_cycles, d->vector_ops_per_cycle,
                 d->hop_latency_cycles, d->link_bytes_per_cycle};
  for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
    nc_bytes_put_u32(b, (uint32_t)u[i]);
  nc_bytes_put_i64(b, d->sram_bytes);
  nc_bytes_put_i64(b, d->clock_hz);
}

/* The function whose dataflow nodes make the network: the only one with nodes. */
static nc_op *network_function(nc_op *module)
{
  nc_op *found = NULL;
  nc_block *b = nc_region_get_first_block(nc_op_get_region(module, 0));
  for (nc_op *fn = b ? nc_block_get_first_op(b) : NULL; fn; fn = nc_op_get_next(fn))
    if (nc_op_is(fn, "func.func") && nc_op_get_num_regions(fn) == 1 && nc_dataflow_num_nodes(fn)) {
      if (found) {
        nc_op_emit_error(fn, "xbar printer: a binary holds one network, but this module has two functions with "
                             "dataflow nodes");
        return NULL;
      }
      found = fn;
    }
  if (!found)
    nc_op_emit_error(module, "xbar printer: the module has no function with dataflow nodes");
  return found;
}

bool xbar_print_binary(nc_op *module, nc_ncb_writer *w, void *userData)
{
  (void)userData;
  xbar_desc d;
  if (!xbar_module_desc(module, &d))
    return nc_op_emit_error(module, "xbar printer: the module carries no xbar chip description (nc.chip)");
  nc_op *fn = network_function(module);
  if (!fn)
    return false;
  pctx p = {.fn = fn, .ictx = isl_ctx_alloc()};
  p.n_nodes = nc_dataflow_num_nodes(fn);
  p.nodes = calloc(p.n_nodes, sizeof *p.nodes);
  p.n_ins = nc_dataflow_func_get_num_io(fn, false);
  p.n_outs = nc_dataflow_func_get_num_io(fn, true);
  p.ins = calloc(p.n_ins + 1, sizeof *p.ins);
  p.outs = calloc(p.n_outs + 1, sizeof *p.outs);
  bool ok = p.nodes && p.ins && p.outs;
  size_t i = 0;
  for (nc_op *n = nc_dataflow_first_node(fn); n; n = nc_dataflow_next_node(n))
    p.nodes[i++] = n;
  if (ok && (p.n_ins < 1 || p.n_outs < 1))
    ok = nc_op_emit_error(fn, "xbar printer: the function records no network inputs or outputs (graph-to-dataflow "
                              "records them)");
  for (i = 0; ok && i < p.n_ins; i++) {
    nc_ncb_tensor t;
    ok = nc_dataflow_func_get_io(fn, false, i, &p.ins[i]) && tensor_desc(fn, &p.ins[i], &t);
    if (ok)
      nc_ncb_writer_add_input(w, &t);
  }
  for (i = 0; ok && i < p.n_outs; i++) {
    nc_ncb_tensor t;
    ok = nc_dataflow_func_get_io(fn, true, i, &p.outs[i]) && tensor_desc(fn, &p.outs[i], &t);
    if (ok)
      nc_ncb_writer_add_output(w, &t);
  }
  if (ok)
    put_chip(w, &d);
  for (i = 0; ok && i < p.n_nodes; i++)
    ok = print_stage(&p, i, w, &d);
  free(p.nodes);
  free(p.ins);
  free(p.outs);
  isl_ctx_free(p.ictx);
  return ok;
}
