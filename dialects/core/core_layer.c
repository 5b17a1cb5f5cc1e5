/* core_layer.c: what the core dialect's own semantics say about a tile:
 * how far a node can be split by output channels (from its layer kind,
 * layer.h), the bytes of N elements, and the lifetimes of a tile's buffers
 * in its program (the verifier checks that overlapping buffers have disjoint
 * lifetimes, so the rule lives with the dialect). The machine-independent
 * algorithms (iteration numbering, first fit) are in passes/mapping_util.c;
 * the buffers a node needs are in passes/core_util.c.
 */
#include <stdlib.h>
#include <string.h>

#include <isl/options.h>

#include "core_internal.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"

core_isl_scope core_isl_scope_enter(isl_ctx *ctx)
{
  core_isl_scope s = {ctx, isl_options_get_on_error(ctx)};
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  isl_ctx_reset_error(ctx);
  return s;
}

void core_isl_scope_exit(core_isl_scope s) { isl_options_set_on_error(s.ctx, s.saved); }

/* --- output channels -------------------------------------------------------------------------------------- */

/* The coordinates of the node's output (-1: none), and whether they are a
 * matmul's [M, N] (rows first). */
static int out_coords(const nc_op *node, int64_t *dims, bool *rows_first)
{
  nc_dataflow_layer l;
  *rows_first = false;
  if (!nc_dataflow_node_get_layer(node, &l) || l.kind == NC_DATAFLOW_LAYER_COPY || nc_op_get_num_results(node) != 1)
    return -1;
  nc_type *t = nc_value_get_type(nc_op_get_result(node, 0));
  int n = nc_dataflow_tensor_coords(t, dims);
  if (n == 4 && nc_type_get_rank(t) == 4)
    return -1; /* a batch of images (a resize of one image into several): its first coordinate is no channel */
  *rows_first = l.kind == NC_DATAFLOW_LAYER_MATMUL && n == 2;
  return n;
}

int64_t nc_core_node_get_out_channels(const nc_op *node)
{
  int64_t dims[NC_MAX_RANK];
  bool rows_first;
  int n = out_coords(node, dims, &rows_first);
  return rows_first ? dims[1] : n >= 1 ? dims[0] : 0;
}

int64_t nc_core_node_get_out_rows(const nc_op *node)
{
  int64_t dims[NC_MAX_RANK];
  bool rows_first;
  int n = out_coords(node, dims, &rows_first);
  return rows_first ? dims[0] : n == 3 ? dims[1] : 0;
}

bool nc_core_node_rows_first(const nc_op *node)
{
  int64_t dims[NC_MAX_RANK];
  bool rows_first;
  out_coords(node, dims, &rows_first);
  return rows_first;
}

/* --- folded concats ---------------------------------------------------------------------------------------- */

bool nc_core_node_is_foldable_concat(const nc_op *node)
{
  nc_dataflow_layer l;
  if (!nc_dataflow_node_get_layer(node, &l) || l.kind != NC_DATAFLOW_LAYER_CONCAT || l.axis != 0 || l.n_requant ||
      l.lut || nc_op_get_num_results(node) != 1 || nc_op_get_num_operands(node) < 1 ||
      nc_op_get_num_operands(node) > NC_DATAFLOW_LAYER_MAX_INPUTS)
    return false;
  nc_type *rt = nc_value_get_type(nc_op_get_result(node, 0));
  int64_t dims[NC_MAX_RANK];
  if (nc_dataflow_tensor_coords(rt, dims) != 3)
    return false;
  for (size_t k = 0; k < nc_op_get_num_operands(node); k++) {
    nc_type *t = nc_value_get_type(nc_op_get_operand(node, k));
    int64_t m = l.input_multiplier[k], s = l.input_shift[k];
    if (nc_type_get_element_type(t) != nc_type_get_element_type(rt) || l.input_zero_points[k] != l.output_zero_point ||
        (m != 0 && (s < 0 || s > 62 || m != (int64_t)1 << s)) || !nc_dataflow_node_get_producer(node, k))
      return false;
  }
  return true;
}

int64_t nc_core_concat_channel_offset(const nc_op *node, size_t k)
{
  nc_dataflow_layer l;
  if (!nc_dataflow_node_get_layer(node, &l) || l.kind != NC_DATAFLOW_LAYER_CONCAT || l.axis != 0 ||
      k >= nc_op_get_num_operands(node))
    return -1;
  int64_t c = 0, dims[NC_MAX_RANK];
  for (size_t i = 0; i < k; i++) {
    if (nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_operand(node, i)), dims) < 1)
      return -1;
    c += dims[0];
  }
  return c;
}

/* A conv with group 1 sums over its input's channels (coordinate 0 of
 * [C, H, W]), a matmul over K (the last coordinate of [M, K] or [K]):
 * those sums split into partial sums over channel slices. */
int64_t nc_core_node_get_in_channels(const nc_op *node, int *coord)
{
  nc_dataflow_layer l;
  if (coord)
    *coord = 0;
  if (!nc_dataflow_node_get_layer(node, &l) || nc_op_get_num_operands(node) < 1 || nc_op_get_num_results(node) != 1 ||
      !((l.kind == NC_DATAFLOW_LAYER_CONV && l.group == 1) || l.kind == NC_DATAFLOW_LAYER_MATMUL))
    return 0;
  int64_t dims[NC_MAX_RANK];
  int n = nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_operand(node, 0)), dims);
  if (n < 1)
    return 0;
  int c = l.kind == NC_DATAFLOW_LAYER_CONV ? 0 : n - 1;
  if (coord)
    *coord = c;
  return dims[c];
}

/* --- sizes ------------------------------------------------------------------------------------------------- */

static unsigned type_bits(const nc_type *t)
{
  unsigned w = t ? nc_type_get_width(t) : 0;
  return w ? w : 8;
}

int64_t nc_core_bytes(int64_t elements, const nc_type *elt)
{
  int64_t bits = type_bits(elt);
  if (bits < 8)
    bits = 8; /* 4- and 2-bit values live in int8 containers (buffers, messages, the binary) */
  if (elements > (INT64_MAX - 7) / bits)
    return INT64_MAX;
  return (elements * bits + 7) / 8;
}

int64_t nc_core_message_bytes(int64_t elements, const nc_type *elt)
{
  int64_t bits = type_bits(elt);
  if (elements > (INT64_MAX - 7) / bits)
    return INT64_MAX;
  return (elements * bits + 7) / 8;
}

/* --- buffer lifetimes ------------------------------------------------------------------------------------ */

/* The lifetimes from the program's op kinds: decoded (a malformed op reads
 * as absent, as every reader's) unless `verified` (the verifier's checks
 * passed, so each op decodes as its name says: ~1/4 of a verification of
 * VGG-19's core IR was decoding every op here only for its kind). */
static void buffer_lifetimes(const nc_op *tile, nc_core_lifetime *out, bool verified)
{
  nc_op *program = nc_core_tile_get_program(tile);
  int64_t size = 0, first_compute = -1, last_compute = -1, last_send = -1;
  nc_block *body = program ? nc_core_program_get_body(program) : NULL;
  for (nc_op *op = body ? nc_block_get_first_op(body) : NULL; op; op = nc_op_get_next(op), size++) {
    nc_core_instr in;
    if (verified ? !core_instr_kind_of(op, &in.kind) : !nc_core_instr_get(op, &in))
      continue;
    if (in.kind == NC_CORE_COMPUTE) {
      if (first_compute < 0)
        first_compute = size;
      last_compute = size;
    } else if (in.kind == NC_CORE_SEND) {
      last_send = size;
    }
  }
  size_t i = 0;
  for (nc_op *b = nc_core_tile_first_buffer(tile); b; b = nc_core_buffer_next(b), i++) {
    nc_core_lifetime l = {0, size};
    nc_core_buffer_kind k = nc_core_buffer_get_kind(b);
    if (first_compute >= 0 && k == NC_CORE_BUFFER_OUTPUT)
      l = (nc_core_lifetime){first_compute, last_send > last_compute ? last_send : last_compute};
    else if (first_compute >= 0 && k == NC_CORE_BUFFER_SCRATCH)
      l = (nc_core_lifetime){first_compute, last_compute};
    out[i] = l;
  }
}

void nc_core_tile_buffer_lifetimes(const nc_op *tile, nc_core_lifetime *out) { buffer_lifetimes(tile, out, false); }

void core_tile_buffer_lifetimes_verified(const nc_op *tile, nc_core_lifetime *out)
{
  buffer_lifetimes(tile, out, true);
}
