/* core_util.c: the buffers a dataflow node needs on a core (core_util.h),
 * from its layer (layer.h), its dataflow-deps buffers and the elements each
 * of its iterations writes (nc/passes/mapping.h). It is not in the core
 * dialect because it needs the mapping algorithms of passes/. Also the
 * output-channel split of a tile that core-place and its row balancing share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_util.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/diag.h"

/* The part of `elements` for a slice of `s` of `c` channels: per-channel
 * data (a multiple of c elements) is sliced, anything else is kept whole. */
static int64_t sliced(int64_t elements, int64_t s, int64_t c)
{
  return c > 0 && s > 0 && elements >= c && elements % c == 0 ? elements / c * s : elements;
}

static int64_t max_of(const int64_t *v, size_t n)
{
  int64_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (v[i] > m)
      m = v[i];
  return m;
}

/* Bytes of the part for [lo, hi) of a per-channel elements attribute (0 if absent). */
static int64_t constant_bytes(const nc_attr *a, int64_t s, int64_t c)
{
  nc_type *t = a ? nc_attr_get_type(a) : NULL;
  int64_t elts = t ? nc_type_get_num_elements(t) : -1;
  return elts > 0 ? nc_core_bytes(sliced(elts, s, c), nc_type_get_element_type(t)) : 0;
}

int core_packed_weight_bits(const nc_dataflow_layer *layer)
{
  if ((layer->kind != NC_DATAFLOW_LAYER_CONV && layer->kind != NC_DATAFLOW_LAYER_MATMUL) || !layer->weights)
    return 0;
  nc_type *elt = nc_type_get_element_type(nc_attr_get_type(layer->weights));
  unsigned bits = nc_type_is_integer(elt) ? nc_type_get_width(elt) : 0;
  return (bits == 4 || bits == 2) && (int64_t)bits == layer->output_bits ? (int)bits : 0;
}

bool core_node_buffers(const nc_op *node, int64_t lo, int64_t hi, isl_ctx *ctx, nc_core_buffer_spec **specs,
                       size_t *n, char *err, size_t errlen)
{
  const char *name = nc_dataflow_node_get_name(node);
  size_t n_in = nc_op_get_num_operands(node);
  int64_t c = nc_core_node_get_out_channels(node), s = lo < hi ? hi - lo : 0;
  *specs = NULL;
  *n = 0;
  nc_dataflow_layer layer;
  if (!nc_dataflow_node_get_layer(node, &layer)) {
    snprintf(err, errlen, "node '%s' has no valid layer kind and parameters (run graph-to-dataflow)", name);
    return false;
  }
  if (lo < hi && (c <= 0 || lo < 0 || hi > c)) {
    snprintf(err, errlen, "node '%s' has no output channels [%lld, %lld)", name, (long long)lo, (long long)hi);
    return false;
  }
  nc_attr *buf = nc_op_get_attr_str(node, "buffer_elements");
  if (!buf || nc_attr_get_kind(buf) != NC_ATTR_DENSE_ARRAY || nc_attr_get_num_elements(buf) != n_in) {
    snprintf(err, errlen, "node '%s' has no buffer_elements: run dataflow-deps first", name);
    return false;
  }
  int64_t *counts;
  size_t n_iters;
  if (!nc_mapping_output_elements(node, lo, hi, ctx, &counts, &n_iters)) {
    snprintf(err, errlen, "node '%s': cannot enumerate its iterations and writes: its domain or writes are "
             "unbounded or hold more than 2^26 points (the most nc enumerates)", name);
    return false;
  }
  int64_t per_iter = max_of(counts, n_iters);
  free(counts);

  int64_t weights = constant_bytes(layer.weights, s, c);
  if (core_packed_weight_bits(&layer)) /* 4- or 2-bit weights at the layer's width: packed in SRAM and the binary */
    weights = nc_core_message_bytes(sliced(nc_type_get_num_elements(nc_attr_get_type(layer.weights)), s, c),
                                    nc_type_get_element_type(nc_attr_get_type(layer.weights)));
  int64_t bias = constant_bytes(layer.bias, s, c) + constant_bytes(layer.lut, 0, 0);
  if (layer.n_requant)
    bias += 8 * sliced((int64_t)layer.n_requant, s, c); /* an i32 multiplier and an i32 shift each */

  nc_core_buffer_spec *v = nc_xcalloc(n_in + 4, sizeof *v);
  size_t k = 0;
  if (weights > 0)
    v[k++] = (nc_core_buffer_spec){"weights", NC_CORE_BUFFER_WEIGHTS, weights};
  if (bias > 0)
    v[k++] = (nc_core_buffer_spec){"bias", NC_CORE_BUFFER_BIAS, bias};
  for (size_t i = 0; i < n_in; i++) {
    nc_type *t = nc_value_get_type(nc_op_get_operand(node, i));
    int64_t bytes = nc_core_bytes(nc_attr_dense_array_get_int(buf, i), nc_type_get_element_type(t));
    if (bytes > 0) {
      v[k] = (nc_core_buffer_spec){"", NC_CORE_BUFFER_INPUT, bytes};
      snprintf(v[k].name, sizeof v[k].name, "in%zu", i);
      k++;
    }
  }
  nc_type *out_elt = nc_type_get_element_type(nc_value_get_type(nc_op_get_result(node, 0)));
  if (per_iter > 0)
    v[k++] = (nc_core_buffer_spec){"out", NC_CORE_BUFFER_OUTPUT, nc_core_bytes(per_iter, out_elt)};
  bool accumulates = layer.kind == NC_DATAFLOW_LAYER_CONV || layer.kind == NC_DATAFLOW_LAYER_MATMUL;
  if (accumulates && layer.n_requant && per_iter > 0 && layer.output_bits < 32) {
    nc_type *i32 = nc_type_integer(nc_op_get_context(node), 32, NC_SIGNLESS);
    v[k++] = (nc_core_buffer_spec){"acc", NC_CORE_BUFFER_SCRATCH, nc_core_bytes(per_iter, i32)};
  }
  *specs = v;
  *n = k;
  return true;
}

/* A part [lo, hi) of `total` of `bytes`, rounded up. */
static int64_t part_of(int64_t bytes, int64_t lo, int64_t hi, int64_t total)
{
  if (total <= 0 || bytes <= 0)
    return bytes;
  return (int64_t)(((__int128)bytes * (hi - lo) + total - 1) / total);
}

bool core_node_buffers_sliced(const nc_op *node, int64_t lo, int64_t hi, int64_t in_lo, int64_t in_hi, isl_ctx *ctx,
                              nc_core_buffer_spec **specs, size_t *n, char *err, size_t errlen)
{
  if (!core_node_buffers(node, lo, hi, ctx, specs, n, err, errlen))
    return false;
  if (in_lo >= in_hi)
    return true;
  int64_t cin = nc_core_node_get_in_channels(node, NULL);
  if (cin <= 0 || in_lo < 0 || in_hi > cin) {
    snprintf(err, errlen, "node '%s' has no input channels [%lld, %lld) to sum over", nc_dataflow_node_get_name(node),
             (long long)in_lo, (long long)in_hi);
    free(*specs);
    *specs = NULL;
    return false;
  }
  bool reducer = in_lo == 0;
  nc_core_buffer_spec *v = *specs;
  int64_t out_elems = 0;
  size_t k = 0;
  for (size_t i = 0; i < *n; i++) {
    nc_core_buffer_spec b = v[i];
    if (b.kind == NC_CORE_BUFFER_WEIGHTS || !strcmp(b.name, "in0"))
      b.bytes = part_of(b.bytes, in_lo, in_hi, cin);
    if (b.kind == NC_CORE_BUFFER_BIAS && !reducer)
      continue;
    if (!strcmp(b.name, "acc"))
      out_elems = b.bytes / 4;
    v[k++] = b;
  }
  for (size_t i = 0; i < k && !reducer; i++) /* partial sums leave as int32 */
    if (v[i].kind == NC_CORE_BUFFER_OUTPUT && out_elems > 0)
      v[i].bytes = 4 * out_elems;
  nc_core_buffer_spec *w = nc_xrealloc(v, (k + 1) * sizeof *w);
  if (reducer && out_elems > 0)
    w[k++] = (nc_core_buffer_spec){"psum", NC_CORE_BUFFER_SCRATCH, 4 * out_elems};
  *specs = w;
  *n = k;
  return true;
}

int64_t core_tile_bytes(nc_op *tile)
{
  int64_t bytes = 0;
  for (nc_op *b = nc_core_tile_first_buffer(tile); b; b = nc_core_buffer_next(b))
    bytes += nc_core_buffer_get_bytes(b);
  return bytes;
}

nc_op *core_chip_whole_tile(nc_op *chip, const char *name)
{
  nc_op *found = NULL;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    int64_t lo, hi;
    if (strcmp(nc_core_tile_get_node(t), name))
      continue;
    if (found || nc_core_tile_get_out_channels(t, &lo, &hi) || nc_core_tile_get_out_rows(t, &lo, &hi) ||
        nc_core_tile_get_in_channels(t, &lo, &hi) || nc_core_tile_get_slot(t))
      return NULL;
    found = t;
  }
  return found;
}

bool core_same_chw_shape(const nc_type *a, const nc_type *b)
{
  int64_t x[NC_MAX_RANK], y[NC_MAX_RANK];
  int n = nc_dataflow_tensor_coords(a, x), m = nc_dataflow_tensor_coords(b, y);
  if (n < 3 || n != m)
    return false;
  for (int i = 0; i < n; i++)
    if (x[i] != y[i])
      return false;
  return true;
}

bool core_tile_split_channels(nc_op *tile, nc_op *node, int64_t k, isl_ctx *ictx)
{
  int64_t c = nc_core_node_get_out_channels(node);
  nc_op *prev = tile;
  for (int64_t j = 0; j < k; j++) {
    int64_t lo = c * j / k, hi = c * (j + 1) / k;
    nc_core_buffer_spec *specs;
    size_t n;
    char err[512];
    if (!core_node_buffers(node, lo, hi, ictx, &specs, &n, err, sizeof err))
      return nc_op_emit_error(node, "core-place: %s", err);
    nc_op *t = tile;
    if (j == 0) {
      nc_core_tile_set_out_channels(tile, lo, hi);
      nc_core_tile_clear_buffers(tile);
    } else {
      t = nc_core_tile_create(nc_op_get_parent_op(tile), nc_op_get_loc(tile), nc_core_tile_get_node(tile), -1, -1,
                              lo, hi);
      nc_op_move_after(t, prev);
      prev = t;
    }
    for (size_t i = 0; i < n; i++)
      nc_core_tile_add_buffer(t, specs[i].name, specs[i].kind, specs[i].bytes, -1);
    free(specs);
  }
  return true;
}

/* --- tiles by core and slot ----------------------------------------------------------------------------------- */

void core_tile_map_init(core_tile_map *m, nc_op *chip)
{
  m->rows = nc_core_chip_get_rows(chip), m->cols = nc_core_chip_get_cols(chip);
  m->n = nc_core_chip_get_num_tiles(chip);
  size_t cells = m->rows > 0 && m->cols > 0 ? (size_t)(m->rows * m->cols) : 0;
  m->tiles = nc_xcalloc(m->n + 1, sizeof *m->tiles);
  m->next = nc_xcalloc(m->n + 1, sizeof *m->next);
  m->slot = nc_xcalloc(m->n + 1, sizeof *m->slot);
  m->head = nc_xcalloc(cells + 1, sizeof *m->head);
  for (size_t i = 0; i < cells; i++)
    m->head[i] = -1;
  size_t i = 0;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t), i++)
    m->tiles[i] = t, m->next[i] = -1, m->slot[i] = nc_core_tile_get_slot(t);
  for (size_t k = m->n; k-- > 0;) { /* backwards, so each chain is in chip order */
    int64_t x = nc_core_tile_get_x(m->tiles[k]), y = nc_core_tile_get_y(m->tiles[k]);
    if (x < 0 || y < 0 || x >= m->cols || y >= m->rows)
      continue;
    m->next[k] = m->head[y * m->cols + x];
    m->head[y * m->cols + x] = (int32_t)k;
  }
}

void core_tile_map_destroy(core_tile_map *m)
{
  free(m->tiles), free(m->next), free(m->head), free(m->slot);
  memset(m, 0, sizeof *m);
}

int32_t core_tile_map_find(const core_tile_map *m, int64_t x, int64_t y, int64_t slot)
{
  if (x < 0 || y < 0 || x >= m->cols || y >= m->rows)
    return -1;
  for (int32_t i = m->head[y * m->cols + x]; i >= 0; i = m->next[i])
    if (m->slot[i] == slot)
      return i;
  return -1;
}

size_t core_tile_map_count(const core_tile_map *m, int64_t x, int64_t y)
{
  size_t n = 0;
  if (x < 0 || y < 0 || x >= m->cols || y >= m->rows)
    return 0;
  for (int32_t i = m->head[y * m->cols + x]; i >= 0; i = m->next[i])
    n++;
  return n;
}

/* --- cycles per frame (core-replicate, core-colocate) ------------------------------------------------------ */

double core_ceil_cycles(int64_t bytes, double bw)
{
  double c = (double)bytes / bw, w = (double)(int64_t)c;
  return c > w ? w + 1 : w;
}

/* Cycles a message of `bytes` from a tile at (x, y) costs its sender: a copy
 * within its core's SRAM at a byte per 8-bit MAC lane per cycle when the
 * destination is on the same core (core-colocate), else its port's
 * ceil(bytes / link width); the simulator's np_noc_sender_cycles. */
double core_send_cycles(const nc_chip_desc *d, int64_t x, int64_t y, int64_t to_x, int64_t to_y, int64_t bytes)
{
  double bw = d->link_bytes_per_cycle > 0 ? (double)d->link_bytes_per_cycle : 1;
  double sram = (double)nc_chip_desc_macs_per_cycle(d, 8);
  if (to_x == x && to_y == y && x >= 0)
    return core_ceil_cycles(bytes, sram > 0 ? sram : bw);
  return core_ceil_cycles(bytes, bw);
}

/* Cycles per frame of one tile: its share of the node's work at the MAC rate
 * of its width, plus its sends (core_send_cycles), a group of sends of one
 * iteration once with multicast: the longer of its port's cycles (any
 * member on another core) and its local copy's (any on this core), as the
 * simulator's port and copy run side by side. */
double core_tile_cycles(nc_op *tile, nc_op *node, const nc_chip_desc *d, bool multicast)
{
  double share = 1;
  int64_t lo, hi, all;
  if (nc_core_tile_get_out_channels(tile, &lo, &hi) && (all = nc_core_node_get_out_channels(node)) > 0)
    share *= (double)(hi - lo) / (double)all;
  if (nc_core_tile_get_out_rows(tile, &lo, &hi) && (all = nc_core_node_get_out_rows(node)) > 0)
    share *= (double)(hi - lo) / (double)all;
  if (nc_core_tile_get_in_channels(tile, &lo, &hi) && (all = nc_core_node_get_in_channels(node, NULL)) > 0)
    share *= (double)(hi - lo) / (double)all;
  unsigned w = nc_type_get_width(nc_type_get_element_type(nc_value_get_type(nc_op_get_result(node, 0))));
  double rate = (double)nc_chip_desc_macs_per_cycle(d, w && w < 8 ? w : 8);
  rate = rate > 0 ? rate : 1;
  double c = (double)core_node_work(node) * share / rate, port = 0, copy = 0;
  int64_t x = nc_core_tile_get_x(tile), y = nc_core_tile_get_y(tile);
  nc_core_instr prev = {0}, in;
  bool have_prev = false;
  for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(nc_core_tile_get_program(tile))); op;
       op = nc_op_get_next(op)) {
    if (!nc_core_instr_get(op, &in))
      continue;
    if (in.kind == NC_CORE_SEND) {
      bool joins = multicast && have_prev && in.x != NC_CORE_HOST && prev.x != NC_CORE_HOST && prev.iter == in.iter &&
                   prev.network == in.network;
      if (!joins) /* a new message: the last one's cycles count */
        c += port > copy ? port : copy, port = copy = 0;
      double cyc = core_send_cycles(d, x, y, in.x, in.y, in.bytes);
      bool local = in.x == x && in.y == y && x >= 0;
      if (local)
        copy = cyc > copy ? cyc : copy;
      else
        port = cyc > port ? cyc : port;
    }
    have_prev = in.kind == NC_CORE_SEND;
    prev = in;
  }
  return c + (port > copy ? port : copy);
}

/* Links a core's incoming messages share, on average (core-place's model). */
#define RECV_LINKS 2.0

/* Adds to recv[i] (tile i) the link cycles of the messages every send from
 * another core delivers to it per frame, over RECV_LINKS links: a tile that many producer tiles
 * send to is a stage a copy of its producer does not speed up. */
void core_receive_cycles(nc_op *chip, const nc_chip_desc *d, const core_tile_map *map, double *recv)
{
  double bw = d->link_bytes_per_cycle > 0 ? (double)d->link_bytes_per_cycle : 1;
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t))
    for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(nc_core_tile_get_program(t))); op;
         op = nc_op_get_next(op)) {
      nc_core_instr in;
      int32_t k;
      if (nc_core_instr_get(op, &in) && in.kind == NC_CORE_SEND &&
          (in.x != nc_core_tile_get_x(t) || in.y != nc_core_tile_get_y(t)) && /* a local copy takes no link */
          (k = core_tile_map_find(map, in.x, in.y, in.slot)) >= 0)
        recv[k] += core_ceil_cycles(in.bytes, bw) / RECV_LINKS;
    }
}

