/* core_split_channels.c: input-channel tiling for core-place (core_util.h).
 *
 * Splitting a layer by output channels shrinks its weights but not its
 * input line buffers, and a slice needs at least one output channel's
 * weights: a layer whose inputs, or one output channel's weights, overflow
 * a core cannot fit that way. Splitting a conv (group 1) or matmul by input
 * channels shrinks both its weights and operand 0's line buffer: each tile
 * sums over its slice of the input channels into int32 partial sums, and
 * the group's reducer (the slice at channel 0) adds them, then the bias and
 * the requantization, once. Sizes are estimated from the whole node's
 * buffers scaled by the slices' shares (one isl enumeration per node), and
 * the chosen split is checked with the exact sizes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_util.h"
#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"

/* The largest tile's bytes when the node's whole buffers `v` are split into
 * ks output slices of c channels and kin input slices of cin channels. */
static int64_t estimate(const nc_core_buffer_spec *v, size_t n, int64_t c, int64_t ks, int64_t cin, int64_t kin)
{
  double out_share = c > 0 ? (double)((c + ks - 1) / ks) / (double)c : 1.0;
  double in_share = cin > 0 ? (double)((cin + kin - 1) / kin) / (double)cin : 1.0;
  double total = 0;
  for (size_t i = 0; i < n; i++) {
    double b = (double)v[i].bytes;
    if (v[i].kind == NC_CORE_BUFFER_WEIGHTS)
      b *= out_share * in_share;
    else if (!strcmp(v[i].name, "in0"))
      b *= in_share;
    else if (v[i].kind != NC_CORE_BUFFER_INPUT)
      b *= out_share;
    if (!strcmp(v[i].name, "acc") && kin > 1)
      b *= 2; /* the reducer's psum */
    total += b;
  }
  return total > 9e18 ? INT64_MAX : (int64_t)total + (int64_t)n; /* + rounding up per buffer */
}

bool core_choose_input_split(nc_op *node, int64_t sram, int64_t forced, int64_t max_tiles, isl_ctx *ctx, int64_t *ks,
                             int64_t *kin)
{
  int64_t c = nc_core_node_get_out_channels(node), cin = nc_core_node_get_in_channels(node, NULL);
  *kin = 1;
  if (cin <= 1 || c <= 0)
    return true;
  nc_core_buffer_spec *v;
  size_t n;
  char err[512];
  if (!core_node_buffers(node, 0, 0, ctx, &v, &n, err, sizeof err))
    return nc_op_emit_error(node, "core-place: %s", err);
  int64_t best_ks = *ks, best_kin = 1, best = INT64_MAX;
  int64_t kin_lo = forced > 0 ? (forced < cin ? forced : cin) : 2, kin_hi = forced > 0 ? kin_lo : cin;
  for (int64_t ki = kin_lo; ki <= kin_hi; ki++) {
    if (ki >= best)
      break;
    for (int64_t ko = 1; ko <= c && ko * ki < best; ko++)
      if (estimate(v, n, c, ko, cin, ki) <= sram && (max_tiles <= 0 || ko * ki <= max_tiles)) {
        best = ko * ki, best_ks = ko, best_kin = ki;
        break;
      }
  }
  if (forced > 0 && best == INT64_MAX) /* forced, but nothing fits: the forced slices with the output split given */
    best_kin = kin_lo;
  free(v);
  if (best_kin > 1) {
    *ks = best_ks;
    *kin = best_kin;
  }
  return true;
}

bool core_split_input_channels(nc_op *tile, nc_op *node, int64_t ks, int64_t kin, isl_ctx *ctx)
{
  int64_t c = nc_core_node_get_out_channels(node), cin = nc_core_node_get_in_channels(node, NULL);
  nc_op *prev = tile, *chip = nc_op_get_parent_op(tile);
  for (int64_t jo = 0; jo < ks; jo++)
    for (int64_t ji = 0; ji < kin; ji++) {
      int64_t lo = ks > 1 ? c * jo / ks : 0, hi = ks > 1 ? c * (jo + 1) / ks : 0;
      int64_t ilo = cin * ji / kin, ihi = cin * (ji + 1) / kin;
      nc_core_buffer_spec *specs;
      size_t n;
      char err[512];
      if (!core_node_buffers_sliced(node, lo, hi, ilo, ihi, ctx, &specs, &n, err, sizeof err))
        return nc_op_emit_error(node, "core-place: %s", err);
      nc_op *t = tile;
      if (jo == 0 && ji == 0) {
        if (lo < hi)
          nc_core_tile_set_out_channels(tile, lo, hi);
        nc_core_tile_clear_buffers(tile);
      } else {
        t = nc_core_tile_create(chip, nc_op_get_loc(tile), nc_core_tile_get_node(tile), -1, -1, lo, hi);
        nc_op_move_after(t, prev);
        prev = t;
      }
      nc_core_tile_set_in_channels(t, ilo, ihi);
      for (size_t i = 0; i < n; i++)
        nc_core_tile_add_buffer(t, specs[i].name, specs[i].kind, specs[i].bytes, -1);
      free(specs);
    }
  return true;
}
