/* printer.c: the NorthPole printer: placed, scheduled, addressed core IR
 * (a core.chip naming its function of dataflow nodes) -> a .ncb binary
 * (include/nc/runtime/ncb.h, runtime/np_format.h, docs/targets/ncb-format.md).
 *
 * The header gets the chip (from the description), the network's inputs
 * and outputs with their scales (the function's I/O records, layer.h). One
 * section per input says how the host streams it (rows or pixels, as
 * dataflow-deps assumed); one section per tile holds its layer (printer_layer.c)
 * restricted to its output channels (and rows: a row band's tile has no
 * element in the iterations outside its band), its buffers and their lifetimes, the
 * output elements of every node iteration (strided blocks: computed from
 * the node's `writes` as fixed-size boxes when they are, read once per
 * distinct node (equal writes, domain and result type) and clipped to each tile's slice, enumerated with isl otherwise)
 * and its
 * program. A weight slice several tiles hold (row bands) is written once, in
 * the weights section (printer_weights.c). Everything is written in IR order
 * with fixed-width fields, so the
 * same input always gives the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/diag.h"
#include "nc/ir/threading.h"
#include "nc/passes/mapping.h"
#include "nc/targets/targets.h"
#include "printer.h"
#include "printer_internal.h"

typedef struct io {
  size_t n_inputs, n_outputs;
  nc_value **in_values;  /* the quantized inputs: what the nodes read (nc_dataflow_io.value) */
  nc_value **out_values; /* the node results the host dequantizes */
} io;

typedef struct printer {
  nc_op *func, *chip;
  const nc_chip_desc *desc;
  isl_ctx *isl;
  io io;
  int64_t activations; /* operand and result elements of the tiles so far (NP_MAX_ACTIVATIONS) */
  np_weight_pool weights; /* slices several tiles share (row bands) */
  const void *range_checked; /* the packed weights np_layer_read last checked */
  const struct node_boxes *boxes; /* the current tile's node's boxes (put_tiles), or NULL */
} printer;

/* A node's writes read once for all its tiles (put_tiles): their boxes
 * (nc_mapping_write_boxes_from, unsliced) when they are boxes, which each
 * tile clips to its slice (clip_boxes); otherwise node_iterations reads the
 * writes per tile, as without the cache, with its diagnostics. */
typedef struct node_boxes {
  nc_op *node;
  bool boxed;
  nc_write_boxes boxes;
} node_boxes;

/* --- inputs and outputs ------------------------------------------------------------------------------------------- */

/* The ncb description of a network input or output from its I/O record. */
static bool tensor_desc(printer *p, const nc_dataflow_io *r, nc_ncb_tensor *t)
{
  memset(t, 0, sizeof *t);
  snprintf(t->name, sizeof t->name, "%s", r->name);
  nc_type *type = nc_value_get_type(r->value);
  if (!nc_type_has_static_shape(type) || nc_type_get_rank(type) > NC_NCB_MAX_RANK || nc_type_get_rank(type) < 1)
    return nc_op_emit_error(p->func, "northpole needs statically shaped inputs and outputs of rank 1 to %d ('%s')",
                            NC_NCB_MAX_RANK, r->name);
  t->dtype = NC_NCB_DTYPE_I8;
  t->rank = (uint32_t)nc_type_get_rank(type);
  memcpy(t->dims, nc_type_get_shape(type), t->rank * sizeof(int64_t));
  t->scale = (float)r->scale;
  t->zero_point = (int32_t)r->zero_point;
  if (r->bits != 8 || r->zero_point < -128 || r->zero_point > 127 || !(t->scale > 0))
    return nc_op_emit_error(p->func, "'%s' needs a positive scale and an int8 zero point (per tensor) on northpole",
                            r->name);
  return true;
}

static bool read_io(printer *p, nc_ncb_writer *w)
{
  nc_block *body = nc_region_get_first_block(nc_op_get_region(p->func, 0));
  io *io = &p->io;
  io->n_inputs = nc_block_get_num_args(body);
  io->in_values = nc_xcalloc(io->n_inputs + 1, sizeof *io->in_values);
  if (nc_dataflow_func_get_num_io(p->func, false) != io->n_inputs)
    return nc_op_emit_error(p->func, "has %zu arguments but %zu quantized network inputs in `dataflow.io` (run "
                            "graph-quantize, then graph-to-dataflow): the northpole host quantizes every input",
                            io->n_inputs, nc_dataflow_func_get_num_io(p->func, false));
  for (size_t i = 0; i < io->n_inputs; i++) {
    nc_dataflow_io r;
    nc_ncb_tensor t;
    if (!nc_dataflow_func_get_io(p->func, false, i, &r))
      return nc_op_emit_error(p->func, "has a malformed `dataflow.io` record for input #%zu", i);
    if (!tensor_desc(p, &r, &t))
      return false;
    nc_ncb_writer_add_input(w, &t);
    io->in_values[i] = r.value;
  }
  nc_op *ret = nc_block_get_terminator(body);
  io->n_outputs = ret ? nc_op_get_num_operands(ret) : 0;
  io->out_values = nc_xcalloc(io->n_outputs + 1, sizeof *io->out_values);
  if (!io->n_outputs)
    return nc_op_emit_error(p->func, "returns nothing; a network needs an output");
  if (nc_dataflow_func_get_num_io(p->func, true) != io->n_outputs)
    return nc_op_emit_error(ret, "returns %zu results but `dataflow.io` has %zu dequantized network outputs: the "
                            "northpole host dequantizes every output", io->n_outputs,
                            nc_dataflow_func_get_num_io(p->func, true));
  for (size_t i = 0; i < io->n_outputs; i++) {
    nc_dataflow_io r;
    nc_ncb_tensor t;
    if (!nc_dataflow_func_get_io(p->func, true, i, &r) || !nc_dataflow_is_node(nc_value_get_defining_op(r.value)))
      return nc_op_emit_error(ret, "result #%zu must be a dataflow.node's result, dequantized by the host (its "
                              "`dataflow.io` record)", i);
    if (!tensor_desc(p, &r, &t))
      return false;
    nc_ncb_writer_add_output(w, &t);
    io->out_values[i] = r.value;
  }
  return true;
}

/* --- element sets ------------------------------------------------------------------------------------------------- */

typedef struct pair {
  int64_t iter, flat;
} pair;

typedef struct pairs {
  pair *v;
  size_t n, cap;
  const nc_iters *iters;
  int n_in, n_out;
  const int64_t *dims; /* the output's coordinates */
  int64_t lo, hi;      /* first coordinate restricted to [lo, hi) when lo < hi */
  int64_t rlo, rhi;    /* second coordinate restricted to [rlo, rhi) when rlo < rhi (a row band) */
  bool failed;
} pairs;

static isl_stat add_pair(isl_point *pt, void *user)
{
  pairs *ps = user;
  int64_t c[2 * NC_MAX_RANK];
  for (int i = 0; i < ps->n_in + ps->n_out; i++) {
    isl_val *v = isl_point_get_coordinate_val(pt, isl_dim_set, i);
    c[i] = v ? isl_val_get_num_si(v) : 0;
    isl_val_free(v);
  }
  isl_point_free(pt);
  const int64_t *o = c + ps->n_in;
  if (ps->lo < ps->hi && ps->n_out > 0 && (o[0] < ps->lo || o[0] >= ps->hi))
    return isl_stat_ok;
  if (ps->rlo < ps->rhi && ps->n_out > 1 && (o[1] < ps->rlo || o[1] >= ps->rhi))
    return isl_stat_ok;
  int64_t flat = 0;
  for (int i = 0; i < ps->n_out; i++) {
    if (o[i] < 0 || o[i] >= ps->dims[i]) {
      ps->failed = true;
      return isl_stat_error;
    }
    flat = flat * ps->dims[i] + o[i];
  }
  int64_t it = nc_iters_rank(ps->iters, c);
  if (it < 0) {
    ps->failed = true;
    return isl_stat_error;
  }
  if (ps->n == ps->cap)
    ps->v = nc_xrealloc(ps->v, (ps->cap = ps->cap ? 2 * ps->cap : 1024) * sizeof *ps->v);
  ps->v[ps->n++] = (pair){it, flat};
  return isl_stat_ok;
}

static int cmp_pair(const void *a, const void *b)
{
  const pair *x = a, *y = b;
  if (x->iter != y->iter)
    return x->iter < y->iter ? -1 : 1;
  return x->flat < y->flat ? -1 : x->flat > y->flat;
}

/* A run of consecutive flat indices. */
typedef struct run {
  int64_t start, len;
} run;

/* Sorted, disjoint runs -> blocks {start, len, stride, count}: maximal runs
 * of consecutive indices (touching runs are joined), then equal runs at a
 * constant stride. */
static size_t put_blocks(nc_bytes *b, const run *runs, size_t n)
{
  size_t n_blocks = 0, i = 0;
  int64_t start = 0, len = 0, stride = 0, count = 0;
  while (i < n) {
    int64_t rs = runs[i].start, rl = runs[i].len;
    size_t j = i + 1;
    while (j < n && runs[j].start == rs + rl)
      rl += runs[j++].len;
    if (count && rl == len && (count == 1 ? rs > start + len - 1 : rs == start + count * stride)) {
      if (count == 1)
        stride = rs - start;
      count++;
    } else {
      if (count) {
        int64_t blk[4] = {start, len, count > 1 ? stride : len, count};
        for (int k = 0; k < 4; k++)
          nc_bytes_put_i64(b, blk[k]);
        n_blocks++;
      }
      start = rs, len = rl, stride = 0, count = 1;
    }
    i = j;
  }
  if (count) {
    int64_t blk[4] = {start, len, count > 1 ? stride : len, count};
    for (int k = 0; k < 4; k++)
      nc_bytes_put_i64(b, blk[k]);
    n_blocks++;
  }
  return n_blocks;
}

/* One iteration's record: its work (if `work`) and its runs as blocks. */
static void put_iteration(nc_bytes *b, const run *runs, size_t n_runs, int64_t elements, const np_layer *l, bool work)
{
  if (work) {
    nc_bytes_put_u64(b, (uint64_t)(elements * l->macs_per_element));
    nc_bytes_put_u64(b, (uint64_t)(elements * l->vops_per_element));
  }
  nc_bytes blocks = {0};
  size_t nb = put_blocks(&blocks, runs, n_runs);
  nc_bytes_put_u32(b, (uint32_t)nb);
  nc_bytes_put_u32(b, 0);
  nc_bytes_put(b, blocks.data, blocks.len);
  nc_bytes_clear(&blocks);
}

/* Writes `n_iters` iterations (macs/vops only if `work`) from sorted pairs. */
static void put_iterations(nc_bytes *b, const pair *v, size_t n, size_t n_iters, const np_layer *l, bool work)
{
  nc_bytes_put_u32(b, (uint32_t)n_iters);
  run *runs = nc_xmalloc((n ? n : 1) * sizeof *runs);
  size_t k = 0;
  for (size_t it = 0; it < n_iters; it++) {
    size_t m = 0;
    while (k < n && v[k].iter == (int64_t)it) {
      if (!m || runs[m - 1].start != v[k].flat)
        runs[m++] = (run){v[k].flat, 1};
      k++;
    }
    put_iteration(b, runs, m, (int64_t)m, l, work);
  }
  free(runs);
}

/* Writes the iterations of boxes (nc_mapping_write_boxes) of an output with
 * coordinates `dims`: row-major runs along the last coordinate, no element
 * visited. False if a box leaves the output. */
static bool put_box_iterations(nc_bytes *b, const nc_write_boxes *bx, const int64_t *dims, const np_layer *l,
                               bool work)
{
  int d = bx->dim;
  int64_t n_runs = 1;
  for (int i = 0; i + 1 < d; i++)
    n_runs *= bx->size[i];
  int64_t len = d ? bx->size[d - 1] : 1;
  if (bx->per_iter == 0)
    n_runs = 0;
  if (n_runs > (int64_t)NC_ITERS_MAX_POINTS)
    return false;
  nc_bytes_put_u32(b, (uint32_t)bx->n);
  run *runs = nc_xmalloc((size_t)(n_runs ? n_runs : 1) * sizeof *runs);
  for (size_t it = 0; it < bx->n; it++) {
    if (!bx->present[it]) {
      put_iteration(b, runs, 0, 0, l, work);
      continue;
    }
    const int64_t *o = bx->offset + it * (size_t)d;
    for (int i = 0; i < d; i++)
      if (o[i] < 0 || o[i] + bx->size[i] > dims[i]) {
        free(runs);
        return false;
      }
    int64_t idx[NC_MAX_RANK] = {0};
    for (int64_t r = 0; r < n_runs; r++) {
      int64_t flat = 0;
      for (int i = 0; i < d; i++)
        flat = flat * dims[i] + o[i] + idx[i];
      runs[r] = (run){flat, len};
      for (int i = d - 2; i >= 0; i--) { /* next index, last coordinate fixed at 0 */
        if (++idx[i] < bx->size[i])
          break;
        idx[i] = 0;
      }
    }
    put_iteration(b, runs, (size_t)n_runs, bx->per_iter, l, work);
  }
  free(runs);
  return true;
}

/* Whether every iteration's work stays within NP_MAX_ITER_WORK (the loader's
 * bound): at most n elements per iteration, so checking n is enough. */
static bool work_fits(const pair *v, size_t n, const np_layer *l)
{
  (void)v;
  int64_t most = l->macs_per_element > l->vops_per_element ? l->macs_per_element : l->vops_per_element;
  return most <= 0 || (uint64_t)n <= NP_MAX_ITER_WORK / (uint64_t)most;
}

/* A tile's iterations from its boxes (taken): the checks and bytes of
 * node_iterations' boxed case, `n_out` the output's coordinates. */
static bool put_boxes(nc_op *tile, nc_op *node, const np_layer *l, nc_write_boxes *taken, const int64_t *dims,
                      int n_out, int64_t clo, int64_t chi, nc_bytes *b)
{
  nc_write_boxes boxes = *taken;
  bool ok = boxes.dim == n_out;
  int64_t most = l->macs_per_element > l->vops_per_element ? l->macs_per_element : l->vops_per_element;
  bool any = false;
  for (size_t i = 0; i < boxes.n; i++)
    any = any || boxes.present[i];
  if (ok && (!any || boxes.per_iter == 0)) {
    ok = false;
    nc_op_emit_error(tile, "node '%s' writes no element of channels [%lld, %lld) (its write relation is empty)",
                     nc_dataflow_node_get_name(node), (long long)clo, (long long)chi);
  } else if (ok && most > 0 && (uint64_t)boxes.per_iter > NP_MAX_ITER_WORK / (uint64_t)most) {
    ok = false;
    nc_op_emit_error(tile, "an iteration of node '%s' does more than 2^38 MACs or vector operations, more than "
                     "the northpole binary holds", nc_dataflow_node_get_name(node));
  } else if (ok && !put_box_iterations(b, &boxes, dims, l, true)) {
    ok = false;
    nc_op_emit_error(tile, "node '%s' writes outside its result or from outside its domain",
                     nc_dataflow_node_get_name(node));
  } else if (!ok) {
    nc_op_emit_error(tile, "node '%s' writes outside its result or from outside its domain",
                     nc_dataflow_node_get_name(node));
  }
  nc_write_boxes_clear(&boxes);
  return ok;
}

/* The node's unsliced boxes `in` clipped to [lo, hi) of the first output
 * coordinate and [rlo, rhi) of the second (empty ranges, or a second range
 * on a 1-D output: no restriction), as nc_mapping_write_boxes_from would
 * give them for the sliced writes: a box clipped to a slice is a box, and
 * iterations whose box misses the slice are not present. False (*out
 * empty) when the clipped boxes differ in size or none is left: the caller
 * then asks isl for the sliced writes, as without the cache. */
static bool clip_boxes(const nc_write_boxes *in, int64_t lo, int64_t hi, int64_t rlo, int64_t rhi,
                       nc_write_boxes *out)
{
  int d = in->dim;
  const int64_t from[2] = {lo, rlo}, to[2] = {hi, rhi};
  const bool clip[2] = {lo < hi && d >= 1, rlo < rhi && d >= 2};
  memset(out, 0, sizeof *out);
  if (d < 1 || d > NC_MAX_RANK || in->per_iter <= 0)
    return false;
  out->n = in->n, out->dim = d;
  out->present = nc_xcalloc(in->n + 1, sizeof *out->present);
  out->offset = nc_xcalloc((in->n + 1) * (size_t)d, sizeof *out->offset);
  bool any = false;
  for (size_t i = 0; i < in->n; i++) {
    if (!in->present[i])
      continue;
    int64_t first[NC_MAX_RANK], size[NC_MAX_RANK];
    bool empty = false;
    for (int k = 0; k < d; k++) {
      int64_t a = in->offset[i * (size_t)d + (size_t)k], z = a + in->size[k];
      if (k < 2 && clip[k]) {
        a = a > from[k] ? a : from[k];
        z = z < to[k] ? z : to[k];
      }
      empty = empty || z <= a;
      first[k] = a, size[k] = z - a;
    }
    if (empty)
      continue;
    if (any && memcmp(size, out->size, (size_t)d * sizeof *size)) {
      nc_write_boxes_clear(out);
      return false;
    }
    if (!any)
      memcpy(out->size, size, (size_t)d * sizeof *size);
    any = true;
    out->present[i] = true;
    memcpy(out->offset + i * (size_t)d, first, (size_t)d * sizeof *first);
  }
  if (!any) {
    nc_write_boxes_clear(out);
    return false;
  }
  out->per_iter = 1;
  for (int k = 0; k < d; k++)
    out->per_iter *= out->size[k];
  return true;
}

/* The output elements of each node iteration in channels [lo, hi). */
static bool node_iterations(printer *p, nc_op *tile, nc_op *node, const np_layer *l, int64_t lo, int64_t hi,
                            nc_bytes *b)
{
  nc_write_boxes boxes;
  int64_t dims[NC_MAX_RANK];
  int n_out = nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_result(node, 0)), dims);
  int64_t rlo = 0, rhi = 0, clo = lo, chi = hi;
  nc_core_tile_get_out_rows(tile, &rlo, &rhi);
  if (nc_core_node_rows_first(node)) { /* a matmul's Out[m, n]: rows on the first coordinate */
    int64_t a = lo, z = hi;
    lo = rlo, hi = rhi, rlo = a, rhi = z;
  }
  if (p->boxes && p->boxes->node == node && p->boxes->boxed && p->boxes->boxes.dim == n_out &&
      clip_boxes(&p->boxes->boxes, lo, hi, rlo, rhi, &boxes))
    return put_boxes(tile, node, l, &boxes, dims, n_out, clo, chi, b);
  nc_iters iters = {0};
  isl_map *writes = nc_dataflow_node_get_writes(node, p->isl);
  if (!writes || n_out < 1 || !nc_iters_of_node(node, p->isl, &iters) ||
      (int)isl_map_dim(writes, isl_dim_out) != n_out) {
    isl_map_free(writes);
    nc_iters_clear(&iters);
    return nc_op_emit_error(tile, "cannot enumerate the iterations of node '%s' (its domain or writes are malformed)",
                            nc_dataflow_node_get_name(node));
  }
  int boxed = nc_mapping_write_boxes_from(&iters, writes, lo, hi, rlo, rhi, &boxes);
  if (boxed == 1) {
    isl_map_free(writes);
    nc_iters_clear(&iters);
    return put_boxes(tile, node, l, &boxes, dims, n_out, clo, chi, b);
  }
  pairs ps = {.iters = &iters, .n_in = (int)isl_map_dim(writes, isl_dim_in), .n_out = n_out, .dims = dims,
              .lo = lo, .hi = hi, .rlo = rlo, .rhi = rhi};
  isl_set *wrapped = isl_map_wrap(writes);
  if (!nc_set_fits_enumeration(wrapped, NC_ITERS_MAX_POINTS)) {
    isl_set_free(wrapped);
    nc_iters_clear(&iters);
    return nc_op_emit_error(tile, "the writes of node '%s' are unbounded or hold more than 2^26 points (the most nc "
                            "enumerates)", nc_dataflow_node_get_name(node));
  }
  isl_stat st = isl_set_foreach_point(wrapped, add_pair, &ps);
  isl_set_free(wrapped);
  bool ok = st == isl_stat_ok && !ps.failed;
  if (ok && !ps.n) {
    ok = false;
    nc_op_emit_error(tile, "node '%s' writes no element of channels [%lld, %lld) (its write relation is empty)",
                     nc_dataflow_node_get_name(node), (long long)lo, (long long)hi);
  } else if (ok && !work_fits(ps.v, ps.n, l)) {
    ok = false;
    nc_op_emit_error(tile, "an iteration of node '%s' does more than 2^38 MACs or vector operations, more than the "
                     "northpole binary holds", nc_dataflow_node_get_name(node));
  } else if (ok) {
    qsort(ps.v, ps.n, sizeof *ps.v, cmp_pair);
    put_iterations(b, ps.v, ps.n, iters.n, l, true);
  } else {
    nc_op_emit_error(tile, "node '%s' writes outside its result or from outside its domain",
                     nc_dataflow_node_get_name(node));
  }
  free(ps.v);
  nc_iters_clear(&iters);
  return ok;
}

/* --- sections ------------------------------------------------------------------------------------------------------- */

/* A tensor's full shape; with `squeeze`, a leading batch of one is left out
 * (a matmul's [1, M, K] is the binary's [M, K]: the same elements in the
 * same row-major order). */
static void put_shape(nc_bytes *b, nc_type *t, bool squeeze)
{
  size_t r = nc_type_get_rank(t), skip = squeeze && r == 3 && nc_type_get_shape(t)[0] == 1 ? 1 : 0;
  nc_bytes_put_u32(b, (uint32_t)(r - skip));
  for (size_t i = 0; i < NC_NCB_MAX_RANK; i++)
    nc_bytes_put_i64(b, i + skip < r ? nc_type_get_shape(t)[i + skip] : 0);
}

static int64_t index_of(nc_value *const *v, size_t n, nc_value *x)
{
  for (size_t i = 0; i < n; i++)
    if (v[i] == x)
      return (int64_t)i;
  return -1;
}

static bool static_i8(nc_op *tile, nc_value *v, const char *what)
{
  nc_type *t = nc_value_get_type(v);
  if (nc_type_get_kind(t) == NC_TYPE_TENSOR && nc_type_has_static_shape(t) &&
      nc_type_get_rank(t) <= NC_NCB_MAX_RANK && nc_type_is_integer(nc_type_get_element_type(t)) &&
      np_width_ok(nc_type_get_width(nc_type_get_element_type(t)))) {
    if (nc_type_get_num_elements(t) <= NP_MAX_TENSOR_ELEMENTS)
      return true;
    return nc_op_emit_error(tile, "the node's %s: a tensor of %lld elements, more than the %lld a northpole tensor holds",
                            what, (long long)nc_type_get_num_elements(t), (long long)NP_MAX_TENSOR_ELEMENTS);
  }
  return nc_op_emit_error(tile, "the node's %s must be a statically shaped int8, int4 or int2 tensor on northpole", what);
}

/* The recvs of a folded concat's inputs (`channel_offset`, core-fold-concat):
 * their count and, into b if not NULL, {u32 instruction, u32 0, i64 element
 * offset} each (a channel is the operand's elements / its channels). */
static size_t recv_offsets(nc_op *tile, nc_op *node, nc_bytes *b)
{
  nc_op *prog = nc_core_tile_get_program(tile);
  size_t n = 0, i = 0;
  for (nc_op *op = prog ? nc_block_get_first_op(nc_core_program_get_body(prog)) : NULL; op;
       op = nc_op_get_next(op), i++) {
    nc_core_instr in;
    if (!nc_core_instr_get(op, &in) || in.kind != NC_CORE_RECV || !in.channel_offset ||
        in.operand >= (int64_t)nc_op_get_num_operands(node))
      continue;
    n++;
    if (!b)
      continue;
    nc_type *t = nc_value_get_type(nc_op_get_operand(node, (size_t)in.operand));
    int64_t dims[NC_MAX_RANK];
    int64_t c = nc_dataflow_tensor_coords(t, dims) >= 1 && dims[0] > 0 ? dims[0] : 1;
    nc_bytes_put_u32(b, (uint32_t)i);
    nc_bytes_put_u32(b, 0);
    nc_bytes_put_i64(b, in.channel_offset * (nc_type_get_num_elements(t) / c));
  }
  return n;
}

static bool put_tile(printer *p, nc_op *tile, nc_bytes *b)
{
  const char *name = nc_core_tile_get_node(tile);
  nc_op *node = name ? nc_core_find_node(p->func, name) : NULL;
  if (!node)
    return nc_op_emit_error(tile, "names node '%s', which the function does not have", name ? name : "");
  int64_t x = nc_core_tile_get_x(tile), y = nc_core_tile_get_y(tile);
  if (x < 0 || y < 0 || x >= p->desc->cols || y >= p->desc->rows)
    return nc_op_emit_error(tile, "is at (%lld, %lld), not on the %lldx%lld grid (was core-place run?)", (long long)x,
                            (long long)y, (long long)p->desc->cols, (long long)p->desc->rows);
  size_t n_ops = nc_op_get_num_operands(node);
  if (n_ops < 1 || n_ops > NP_MAX_OPERANDS)
    return nc_op_emit_error(tile, "node '%s' has %zu operands", name, n_ops);
  for (size_t k = 0; k < n_ops; k++)
    if (!static_i8(tile, nc_op_get_operand(node, k), "operands"))
      return false;
  if (!static_i8(tile, nc_op_get_result(node, 0), "result"))
    return false;
  for (size_t k = 0; k <= n_ops; k++) { /* the loader's bound on what the simulator holds */
    nc_value *v = k < n_ops ? nc_op_get_operand(node, k) : nc_op_get_result(node, 0);
    p->activations += nc_type_get_num_elements(nc_value_get_type(v));
    if (p->activations > NP_MAX_ACTIVATIONS)
      return nc_op_emit_error(tile, "the tiles hold more than %lld activations in all (operands and results), more "
                              "than the simulator takes; use fewer cores (--balance=false) or a smaller input",
                              (long long)NP_MAX_ACTIVATIONS);
  }
  np_layer l;
  np_in_slice in_slice;
  if (!np_tile_in_slice(tile, node, &in_slice))
    return false;
  if (!np_layer_read(node, &l, &p->range_checked)) {
    np_layer_clear(&l);
    return false;
  }
  if (in_slice.flags) { /* the slice's MACs; a reducer adds the partial sums too */
    l.macs_per_element = l.macs_per_element / in_slice.cin * (in_slice.hi - in_slice.lo);
    l.vops_per_element += in_slice.n_partials;
  }
  nc_type *out = nc_value_get_type(nc_op_get_result(node, 0));
  bool squeeze = l.kind == NP_KIND_MATMUL; /* [1, M, N] as [M, N]: channels on the last axis */
  size_t axis = squeeze && nc_type_get_rank(out) == 3 && nc_type_get_shape(out)[0] == 1 ? 2 : 1;
  int64_t lo = 0, hi = nc_type_get_rank(out) >= 2 ? nc_type_get_shape(out)[axis] : 1, slo, shi;
  if (nc_core_tile_get_out_channels(tile, &slo, &shi))
    lo = slo, hi = shi;
  if (lo < 0 || hi <= lo || hi > nc_type_get_shape(out)[axis]) {
    np_layer_clear(&l);
    return nc_op_emit_error(tile, "out_channels [%lld, %lld) are not channels of the node's result", (long long)lo,
                            (long long)hi);
  }
  nc_bytes_put_i32(b, (int32_t)x);
  nc_bytes_put_i32(b, (int32_t)y);
  nc_bytes_put_u32(b, l.kind);
  int64_t rep, reps;
  bool replica = nc_core_tile_get_replica(tile, &rep, &reps);
  int64_t slot = nc_core_tile_get_slot(tile);
  bool shared = slot != 0; /* slot 0 needs no trailer: binaries without shared cores are as before */
  if (slot < 0 || slot >= (int64_t)NP_MAX_SLOTS)
    return nc_op_emit_error(tile, "is in slot %lld of its core; the northpole binary holds slots 0 to %u",
                            (long long)slot, NP_MAX_SLOTS - 1);
  size_t n_offsets = recv_offsets(tile, node, NULL);
  /* a partial-sum tile does not requantize: the reducer clamps */
  if (in_slice.flags & NP_FLAG_PARTIAL)
    l.flags &= ~(uint32_t)NP_FLAG_CLAMP;
  uint32_t clamp = l.flags & NP_FLAG_CLAMP;
  int32_t clamp_min = l.clamp_min, clamp_max = l.clamp_max;
  size_t n_affine = l.flags & NP_FLAG_IN_AFFINE ? l.n_affine : 0; /* borrowed from the node: outlives np_layer_clear */
  const int64_t *affine = l.affine;
  nc_bytes_put_u32(b, l.flags | in_slice.flags | (replica ? NP_FLAG_REPLICA : 0) | (shared ? NP_FLAG_SHARED : 0) |
                        (n_offsets ? NP_FLAG_RECV_OFFSETS : 0) | (uint32_t)l.bits << NP_WIDTH_SHIFT);
  nc_bytes_put_str(b, name, 32);
  nc_bytes_put_i32(b, in_slice.flags & NP_FLAG_PARTIAL
                        ? -1 : (int32_t)index_of(p->io.out_values, p->io.n_outputs, nc_op_get_result(node, 0)));
  nc_bytes_put_u32(b, (uint32_t)n_ops);
  for (size_t k = 0; k < n_ops; k++) {
    nc_value *v = nc_op_get_operand(node, k);
    int64_t host = index_of(p->io.in_values, p->io.n_inputs, v);
    if (host < 0 && !nc_dataflow_node_get_producer(node, k)) {
      np_layer_clear(&l);
      return nc_op_emit_error(tile, "node '%s' reads operand #%zu from outside the nodes, but not from a quantized "
                              "function argument", name, k);
    }
    nc_bytes_put_i32(b, (int32_t)host);
    put_shape(b, nc_value_get_type(v), squeeze && k == 0);
  }
  put_shape(b, out, squeeze);
  nc_bytes_put_i64(b, lo);
  nc_bytes_put_i64(b, hi);
  if (in_slice.flags)
    np_layer_write_sliced(b, &l, lo, hi, &in_slice, &p->weights, np_weight_pool_slot(&p->weights, tile));
  else
    np_layer_write(b, &l, lo, hi, &p->weights, np_weight_pool_slot(&p->weights, tile));
  /* buffers with their lifetimes */
  size_t nb = nc_core_tile_get_num_buffers(tile);
  nc_core_lifetime *life = nc_xcalloc(nb + 1, sizeof *life);
  nc_core_tile_buffer_lifetimes(tile, life);
  nc_bytes_put_u32(b, (uint32_t)nb);
  size_t i = 0;
  for (nc_op *buf = nc_core_tile_first_buffer(tile); buf; buf = nc_core_buffer_next(buf), i++) {
    static const uint32_t kinds[] = {NP_BUF_WEIGHTS, NP_BUF_BIAS, NP_BUF_INPUT, NP_BUF_OUTPUT, NP_BUF_SCRATCH};
    int operand = nc_core_buffer_get_operand(buf);
    if (nc_core_buffer_get_offset(buf) < 0) {
      free(life);
      np_layer_clear(&l);
      return nc_op_emit_error(buf, "has no address: run core-plan-memory before printing");
    }
    if (nc_core_buffer_get_bytes(buf) < 1) { /* the loader's rule (np_limits.h) */
      free(life);
      np_layer_clear(&l);
      return nc_op_emit_error(buf, "has %lld bytes; a northpole buffer holds at least 1",
                              (long long)nc_core_buffer_get_bytes(buf));
    }
    nc_bytes_put_str(b, nc_core_buffer_get_name(buf), 16);
    nc_bytes_put_u32(b, kinds[nc_core_buffer_get_kind(buf)]);
    nc_bytes_put_u32(b, operand < 0 ? 0 : (uint32_t)operand);
    nc_bytes_put_i64(b, nc_core_buffer_get_offset(buf));
    nc_bytes_put_i64(b, nc_core_buffer_get_bytes(buf));
    nc_bytes_put_i64(b, life[i].first);
    nc_bytes_put_i64(b, life[i].last);
  }
  free(life);
  /* a batch result [N, C, H, W] (a copy or a resize into a batch): its first coordinate is the image, and the
   * tile computes every channel of every image */
  int64_t dims[NC_MAX_RANK], first_lo = lo, first_hi = hi;
  if (nc_dataflow_tensor_coords(out, dims) == 4 && nc_type_get_rank(out) == 4) {
    if (lo != 0 || hi != nc_type_get_shape(out)[1]) {
      np_layer_clear(&l);
      return nc_op_emit_error(tile, "splits a batch result [%lld, ...] by channels; northpole computes it whole",
                              (long long)dims[0]);
    }
    first_lo = 0, first_hi = dims[0];
  }
  if (l.flags & NP_FLAG_IN_AFFINE) { /* one vector op per input element mapped, spread over the slice's outputs */
    int64_t cin = in_slice.flags ? in_slice.hi - in_slice.lo : (int64_t)l.n_affine;
    l.vops_per_element += (cin + (hi - lo) - 1) / (hi - lo);
  }
  bool ok = node_iterations(p, tile, node, &l, first_lo, first_hi, b);
  np_layer_clear(&l);
  if (!ok)
    return false;
  /* the program */
  nc_op *prog = nc_core_tile_get_program(tile);
  if (!prog)
    return nc_op_emit_error(tile, "has no core.program");
  nc_bytes_put_u32(b, (uint32_t)nc_core_program_get_size(prog));
  for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(prog)); op; op = nc_op_get_next(op)) {
    nc_core_instr in;
    if (!nc_core_instr_get(op, &in))
      return nc_op_emit_error(op, "is not a program instruction northpole knows");
    static const uint32_t codes[] = {NP_OP_RECV, NP_OP_COMPUTE, NP_OP_SEND, NP_OP_WAIT};
    int64_t f[4] = {0};
    switch (in.kind) {
    case NC_CORE_RECV: f[0] = in.x, f[1] = in.y, f[2] = in.operand, f[3] = in.iter; break;
    case NC_CORE_COMPUTE: f[0] = in.begin, f[1] = in.end; break;
    case NC_CORE_SEND: f[0] = in.x, f[1] = in.y, f[2] = in.iter, f[3] = in.bytes; break;
    case NC_CORE_WAIT: f[0] = in.cycles; break;
    }
    if (in.kind == NC_CORE_WAIT && (in.cycles < 0 || in.cycles > NP_MAX_WAIT_CYCLES))
      return nc_op_emit_error(op, "waits %lld cycles; the northpole binary holds 0 to 2^40",
                              (long long)in.cycles);
    nc_bytes_put_u32(b, codes[in.kind]);
    /* the network (1: partial sums) and, on a send, NP_SEND_MULTICAST */
    if (in.slot < 0 || in.slot >= (int64_t)NP_MAX_SLOTS)
      return nc_op_emit_error(op, "names slot %lld; the northpole binary holds slots 0 to %u", (long long)in.slot,
                              NP_MAX_SLOTS - 1);
    nc_bytes_put_u32(b, (uint32_t)in.network | (in.kind == NC_CORE_SEND && in.multicast ? NP_SEND_MULTICAST : 0) |
                          (uint32_t)in.slot << NP_SLOT_SHIFT |
                          (uint32_t)(in.frames & 0xff) << NP_FRAMES_SHIFT |
                          (uint32_t)(in.frame & 0xff) << (NP_FRAMES_SHIFT + 8));
    for (int k = 0; k < 4; k++)
      nc_bytes_put_i64(b, f[k]);
  }
  if (in_slice.flags)
    np_put_in_slice(b, &in_slice);
  if (replica) {
    nc_bytes_put_u32(b, (uint32_t)rep);
    nc_bytes_put_u32(b, (uint32_t)reps);
  }
  if (shared) {
    nc_bytes_put_u32(b, (uint32_t)slot);
    nc_bytes_put_u32(b, 0);
  }
  if (n_offsets) {
    nc_bytes_put_u32(b, (uint32_t)n_offsets);
    nc_bytes_put_u32(b, 0);
    recv_offsets(tile, node, b);
  }
  if (clamp) {
    nc_bytes_put_i32(b, clamp_min);
    nc_bytes_put_i32(b, clamp_max);
  }
  if (n_affine) {
    nc_bytes_put_u32(b, (uint32_t)n_affine);
    nc_bytes_put_u32(b, 0);
    for (size_t i = 0; i < 4 * n_affine + 2; i++)
      nc_bytes_put_i32(b, (int32_t)affine[i]);
  }
  return true;
}

/* --- the tiles, in parallel ------------------------------------------------------------------------------------------ */

/* A tile's section printed apart (put_tiles). */
typedef struct tile_out {
  nc_op *tile;
  const node_boxes *boxes; /* its node's, or NULL */
  int64_t activations; /* the tiles' activations before this one (printer.activations) */
  nc_bytes bytes;
  np_weight_pool log;  /* its shared slices and deferred fills */
  nc_diag_capture *diags;
  bool ok;
} tile_out;

typedef struct tile_job {
  const printer *p;
  tile_out *t;
  size_t n, per_chunk;
} tile_job;

/* Chunk c of the tiles, with an isl context of its own (isl's are not
 * thread-safe) and the tiles' diagnostics held apart. */
static bool put_chunk(size_t c, void *user)
{
  tile_job *j = user;
  printer lp = *j->p;
  lp.isl = nc_dataflow_isl_ctx_create();
  lp.range_checked = NULL;
  for (size_t k = c * j->per_chunk; k < j->n && k < (c + 1) * j->per_chunk; k++) {
    tile_out *t = &j->t[k];
    lp.weights = np_weight_pool_log(&j->p->weights);
    lp.activations = t->activations;
    lp.boxes = t->boxes;
    t->diags = nc_diag_capture_begin();
    t->ok = put_tile(&lp, t->tile, &t->bytes);
    nc_diag_capture_end(t->diags);
    t->log = lp.weights;
  }
  nc_dataflow_isl_ctx_destroy(lp.isl);
  return true;
}

typedef struct boxes_job {
  node_boxes *nb;
  const size_t *rep; /* per node: the first node with the same writes, domain and result type */
  size_t n, per_chunk;
} boxes_job;

/* Chunk c of the nodes' boxes (node_boxes), with an isl context of its own;
 * diagnostics are dropped: a node whose writes fail here is read again by
 * node_iterations, which reports them. */
static bool boxes_chunk(size_t c, void *user)
{
  boxes_job *j = user;
  isl_ctx *ctx = nc_dataflow_isl_ctx_create();
  for (size_t k = c * j->per_chunk; k < j->n && k < (c + 1) * j->per_chunk; k++) {
    if (j->rep[k] != k)
      continue; /* copied from its representative's after the loop */
    node_boxes *nb = &j->nb[k];
    nc_diag_capture *diags = nc_diag_capture_begin();
    nc_iters iters = {0};
    int64_t dims[NC_MAX_RANK];
    isl_map *writes = nc_op_get_num_results(nb->node) ? nc_dataflow_node_get_writes(nb->node, ctx) : NULL;
    int n_out = writes ? nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_result(nb->node, 0)), dims) : -1;
    nb->boxed = n_out >= 1 && nc_iters_of_node(nb->node, ctx, &iters) &&
                (int)isl_map_dim(writes, isl_dim_out) == n_out &&
                nc_mapping_write_boxes_from(&iters, writes, 0, 0, 0, 0, &nb->boxes) == 1;
    isl_map_free(writes);
    nc_iters_clear(&iters);
    nc_diag_capture_end(diags);
    nc_diag_capture_discard(diags);
  }
  nc_dataflow_isl_ctx_destroy(ctx);
  return true;
}

/* The boxes of the tiles' nodes, each node's read once (on the context's
 * threads) for all its tiles; to[k].boxes points to tile k's. Returns the
 * array (n_nodes of them) to free with nc_write_boxes_clear on each. */
static node_boxes *read_node_boxes(printer *p, nc_context *ctx, tile_out *to, size_t n, size_t *n_nodes)
{
  node_boxes *nb = nc_xcalloc(n + 1, sizeof *nb);
  size_t *of = nc_xcalloc(n + 1, sizeof *of), m = 0;
  for (size_t k = 0; k < n; k++) {
    const char *name = nc_core_tile_get_node(to[k].tile);
    nc_op *node = name ? nc_core_find_node(p->func, name) : NULL;
    of[k] = SIZE_MAX;
    if (!node)
      continue;
    size_t i = k && of[k - 1] != SIZE_MAX && nb[of[k - 1]].node == node ? of[k - 1] : 0;
    while (i < m && nb[i].node != node)
      i++;
    if (i == m)
      nb[m++].node = node;
    of[k] = i;
  }
  /* Nodes with the same writes, domain and result type (uniqued, so equal
   * ones are the same pointers) have the same boxes: read once. */
  size_t *rep = nc_xcalloc(m + 1, sizeof *rep);
  for (size_t i = 0; i < m; i++) {
    nc_op *a = nb[i].node;
    nc_attr *w = nc_op_get_attr_str(a, "writes"), *d = nc_op_get_attr_str(a, "domain");
    nc_type *t = nc_op_get_num_results(a) ? nc_value_get_type(nc_op_get_result(a, 0)) : NULL;
    rep[i] = i;
    for (size_t r = 0; r < i && rep[i] == i && w && d && t; r++) {
      nc_op *b = nb[r].node;
      if (rep[r] == r && nc_op_get_attr_str(b, "writes") == w && nc_op_get_attr_str(b, "domain") == d &&
          nc_op_get_num_results(b) && nc_value_get_type(nc_op_get_result(b, 0)) == t)
        rep[i] = r;
    }
  }
  size_t threads = nc_context_get_num_threads(ctx), chunks = threads > 1 ? 4 * threads : 1;
  chunks = chunks > m ? m : chunks;
  boxes_job job = {nb, rep, m, chunks ? (m + chunks - 1) / chunks : 0};
  nc_parallel_for(ctx, chunks, boxes_chunk, &job);
  for (size_t i = 0; i < m; i++) {
    const node_boxes *r = &nb[rep[i]];
    if (rep[i] == i || !(nb[i].boxed = r->boxed))
      continue;
    nc_write_boxes *b = &nb[i].boxes;
    *b = r->boxes;
    size_t n_off = (b->n + 1) * (size_t)(b->dim ? b->dim : 1);
    b->present = nc_xmalloc((b->n + 1) * sizeof *b->present);
    memcpy(b->present, r->boxes.present, (b->n + 1) * sizeof *b->present);
    b->offset = nc_xmalloc(n_off * sizeof *b->offset);
    memcpy(b->offset, r->boxes.offset, n_off * sizeof *b->offset);
  }
  free(rep);
  for (size_t k = 0; k < n; k++)
    to[k].boxes = of[k] == SIZE_MAX ? NULL : &nb[of[k]];
  free(of);
  *n_nodes = m;
  return nb;
}

/* The operand and result elements put_tile counts for a tile (0 where it fails first). */
static int64_t tile_activations(printer *p, nc_op *tile)
{
  const char *name = nc_core_tile_get_node(tile);
  nc_op *node = name ? nc_core_find_node(p->func, name) : NULL;
  int64_t n = 0;
  for (size_t k = 0; node && k <= nc_op_get_num_operands(node); k++) {
    nc_value *v = k < nc_op_get_num_operands(node) ? nc_op_get_operand(node, k)
                  : nc_op_get_num_results(node) ? nc_op_get_result(node, 0) : NULL;
    nc_type *t = v ? nc_value_get_type(v) : NULL;
    if (t && nc_type_get_kind(t) == NC_TYPE_TENSOR && nc_type_has_static_shape(t))
      n += nc_type_get_num_elements(t);
  }
  return n;
}

/* One section per tile, in IR order. The tiles are printed in chunks on the
 * context's threads (nc_parallel_for), each into bytes of its own with a log
 * of its shared weight slices; then, in IR order, their diagnostics are
 * delivered up to the first failing tile (as a loop that stops there) and
 * their logs committed to the weight pool: the same bytes with any number
 * of threads. */
static bool put_tiles(printer *p, nc_context *ctx, nc_ncb_writer *w)
{
  size_t n = 0;
  for (nc_op *t = nc_core_chip_first_tile(p->chip); t; t = nc_core_tile_next(t))
    n++;
  tile_out *to = nc_xcalloc(n + 1, sizeof *to);
  int64_t acts = 0;
  n = 0;
  for (nc_op *t = nc_core_chip_first_tile(p->chip); t; t = nc_core_tile_next(t), n++) {
    to[n].tile = t;
    to[n].activations = acts;
    acts += tile_activations(p, t);
  }
  size_t n_nodes = 0;
  node_boxes *nb = read_node_boxes(p, ctx, to, n, &n_nodes);
  size_t threads = nc_context_get_num_threads(ctx), chunks = threads > 1 ? 8 * threads : 1;
  chunks = chunks > n ? n : chunks;
  tile_job job = {p, to, n, chunks ? (n + chunks - 1) / chunks : 0};
  nc_parallel_for(ctx, chunks, put_chunk, &job);
  bool ok = true;
  uint32_t id = 0;
  for (size_t k = 0; k < n; k++) {
    if (ok) {
      nc_diag_capture_flush(to[k].diags, ctx);
      ok = to[k].ok;
    } else {
      nc_diag_capture_discard(to[k].diags);
    }
    if (ok) {
      nc_bytes *section = nc_ncb_writer_add_section(w, NP_SECTION_TILE, id++);
      *section = to[k].bytes; /* the writer owns the bytes now */
      to[k].bytes = (nc_bytes){0};
      np_weight_pool_commit(&p->weights, &to[k].log, section); /* its strided weights are filled at the end */
    }
    nc_bytes_clear(&to[k].bytes);
    np_weight_pool_log_clear(&to[k].log);
  }
  for (size_t i = 0; i < n_nodes; i++)
    nc_write_boxes_clear(&nb[i].boxes);
  free(nb);
  free(to);
  return ok;
}

/* How the host streams input i: rows P[y] or pixels P[y, x] of the input's
 * [C, H, W] coordinates, as the `earliest` relation of a node reading it says. */
static bool put_stream(printer *p, size_t i, nc_bytes *b)
{
  nc_value *v = p->io.in_values[i];
  int dim = -1;
  for (nc_use *u = nc_value_get_first_use(v); u && dim < 0; u = nc_use_get_next(u)) {
    nc_op *node = nc_use_get_owner(u);
    if (!nc_dataflow_is_node(node))
      continue;
    isl_map *e = nc_dataflow_node_get_earliest(node, nc_use_get_operand_index(u), p->isl);
    if (!e)
      return nc_op_emit_error(node, "has no `earliest` relation for operand #%u (run dataflow-deps)",
                              nc_use_get_operand_index(u));
    dim = (int)isl_map_dim(e, isl_dim_out);
    isl_map_free(e);
  }
  int64_t d[NC_MAX_RANK];
  int n = nc_dataflow_tensor_coords(nc_value_get_type(v), d);
  nc_op *q = nc_value_get_defining_op(v) ? nc_value_get_defining_op(v) : p->func;
  if (dim < 0)
    return nc_op_emit_error(q, "feeds no dataflow.node: northpole cannot stream this input");
  if (n != 3 || (dim != 1 && dim != 2))
    return nc_op_emit_error(q, "northpole streams [1, C, H, W] inputs by rows or pixels; this one has %d coordinates "
                            "and %d-D steps", n, dim);
  int64_t c = d[0], h = d[1], w = d[2];
  nc_bytes_put_u32(b, (uint32_t)(dim == 1 ? h : h * w));
  for (int64_t s = 0; s < (dim == 1 ? h : h * w); s++) {
    int64_t blk[4] = {dim == 1 ? s * w : s, dim == 1 ? w : 1, h * w, c};
    nc_bytes_put_u32(b, 1);
    nc_bytes_put_u32(b, 0);
    for (int k = 0; k < 4; k++)
      nc_bytes_put_i64(b, blk[k]);
  }
  if (nc_op_get_attr_str(p->chip, "host_multicast")) /* core-multicast: one message per step */
    nc_bytes_put_u32(b, NP_STREAM_MULTICAST);
  return true;
}

/* --- the binary ----------------------------------------------------------------------------------------------------- */

static bool check_chip(printer *p)
{
  const nc_chip_desc *d = p->desc;
  if (nc_core_chip_get_rows(p->chip) != d->rows || nc_core_chip_get_cols(p->chip) != d->cols ||
      nc_core_chip_get_sram_bytes(p->chip) != d->sram_bytes)
    return nc_op_emit_error(p->chip, "was built for a %lldx%lld grid with %lld bytes per core, but the module's chip "
                            "description (nc.chip) says %lldx%lld with %lld",
                            (long long)nc_core_chip_get_rows(p->chip), (long long)nc_core_chip_get_cols(p->chip),
                            (long long)nc_core_chip_get_sram_bytes(p->chip), (long long)d->rows, (long long)d->cols,
                            (long long)d->sram_bytes);
  if (!(p->func = nc_core_chip_lookup_function(p->chip)))
    return nc_op_emit_error(p->chip, "names no function of the module");
  if (!nc_core_chip_first_tile(p->chip))
    return nc_op_emit_error(p->chip, "has no tiles");
  return true;
}

/* The one core.chip of the module. */
static nc_op *find_chip(nc_op *module)
{
  nc_op *chip = NULL;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op; op = nc_op_get_next(op))
    if (nc_core_is_chip(op)) {
      if (chip) {
        nc_op_emit_error(op, "a second core.chip: a binary holds one chip");
        return NULL;
      }
      chip = op;
    }
  if (!chip)
    nc_op_emit_error(module, "has no core.chip: run northpole-pipeline to the core level first");
  return chip;
}

/* The NP_SECTION_CHIP section (np_format.h). */
static void put_chip(const nc_chip_desc *d, uint64_t macs, nc_bytes *b)
{
  nc_bytes_put_u32(b, (uint32_t)d->rows);
  nc_bytes_put_u32(b, (uint32_t)d->cols);
  nc_bytes_put_u64(b, (uint64_t)d->clock_hz);
  nc_bytes_put_u32(b, (uint32_t)d->sram_bytes);
  nc_bytes_put_u32(b, (uint32_t)nc_chip_desc_macs_per_cycle(d, 8));
  nc_bytes_put_u32(b, (uint32_t)d->hop_latency_cycles);
  nc_bytes_put_u32(b, (uint32_t)d->link_bytes_per_cycle);
  nc_bytes_put_u64(b, macs);
  nc_bytes_put_u32(b, (uint32_t)nc_chip_desc_macs_per_cycle(d, 4));
  nc_bytes_put_u32(b, (uint32_t)nc_chip_desc_macs_per_cycle(d, 2));
}

bool np_print_binary(nc_op *module, nc_ncb_writer *w, void *userData)
{
  nc_chip_desc desc;
  printer p = {.desc = &desc};
  if (!nc_chip_desc_of_module(module, true, &desc) || !(p.chip = find_chip(module)) || !check_chip(&p))
    return false;
  uint64_t macs = 0;
  for (nc_op *n = nc_dataflow_first_node(p.func); n; n = nc_dataflow_next_node(n))
    macs = np_sat_add(macs, (uint64_t)nc_dataflow_node_get_macs(n));
  char why[160];
  if (desc.rows < 0 || desc.cols < 0 || desc.clock_hz < 0 || desc.sram_bytes < 0 || desc.hop_latency_cycles < 0 ||
      desc.link_bytes_per_cycle < 0 || nc_chip_desc_macs_per_cycle(&desc, 8) < 0 ||
      !np_chip_fields_ok((uint64_t)desc.rows, (uint64_t)desc.cols, (uint64_t)desc.clock_hz, (uint64_t)desc.sram_bytes,
                         (uint64_t)nc_chip_desc_macs_per_cycle(&desc, 8), (uint64_t)desc.hop_latency_cycles,
                         (uint64_t)desc.link_bytes_per_cycle, macs, why, sizeof why))
    return nc_op_emit_error(module, "the chip description is beyond what the northpole binary holds: %s", why);
  for (unsigned bits = 4; bits >= 2; bits /= 2) /* the 4- and 2-bit rates (falling back to a wider width's) */
    if (nc_chip_desc_macs_per_cycle(&desc, bits) < 1 || nc_chip_desc_macs_per_cycle(&desc, bits) > NP_MAX_MACS_PER_CYCLE)
      return nc_op_emit_error(module, "the chip description is beyond what the northpole binary holds: "
                              "macs_per_cycle at %u bits %lld is outside [1, 2^24]", bits,
                              (long long)nc_chip_desc_macs_per_cycle(&desc, bits));
  put_chip(&desc, macs, nc_ncb_writer_add_section(w, NP_SECTION_CHIP, 0));
  p.isl = nc_dataflow_isl_ctx_create();
  bool ok = read_io(&p, w);
  for (size_t i = 0; ok && i < p.io.n_inputs; i++)
    ok = put_stream(&p, i, nc_ncb_writer_add_section(w, NP_SECTION_INPUT_STREAM, (uint32_t)i));
  np_weight_pool_init(&p.weights, p.chip);
  ok = ok && put_tiles(&p, nc_op_get_context(module), w);
  if (ok)
    np_weight_pool_finish(&p.weights, nc_op_get_context(module), w);
  np_weight_pool_clear(&p.weights);
  nc_dataflow_isl_ctx_destroy(p.isl);
  free(p.io.in_values);
  free(p.io.out_values);
  return ok;
}
