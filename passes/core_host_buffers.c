/* core_host_buffers.c: core-host-buffers, which sizes the input buffers
 * the host writes into so that it can stream ahead of the chip.
 *
 * The host may write a tile's input buffer only where it has room (credit
 * flow control, docs/targets/northpole.md "Host input"). A line buffer sized
 * for the schedule (dataflow-deps' buffer_elements: the rows one output row
 * reads) leaves no room for the next rows while the credits of the last
 * ones travel back and the host's next rows travel in, so every row would
 * wait a round trip: resnet50 at 4 bits ran ten times slower that way. A
 * host-fed buffer here holds `frames` frames of what the tile receives from
 * the host (its steps times a step's bytes): with 2, one frame is read while
 * the next is written, and the host runs at most about a frame ahead of
 * each tile; plus what the host sends it in a round trip of a credit (a
 * tiny input, as the digits CNN's 64 bytes, from a far core needs more
 * frames than two). A core whose SRAM cannot hold that gets what is free on it
 * (its tiles' buffers summed, as core-plan-memory places them), and a
 * buffer never shrinks. A tile whose buffer grows loses its buffers'
 * offsets: core-plan-memory, which runs next, places them anew.
 */
#include <stdlib.h>
#include <string.h>

#include <isl/map.h>

#include "core_util.h"
#include "nc/dialects/core/chip_desc.h"
#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/support/base.h"

static const nc_pass_option_def options[] = {
  {"frames", NC_PASS_OPT_INT, "2",
   "Frames of a tile's input from the host its input buffer holds (0: leave the buffers as they are)"},
};

static const nc_pass_stat_def stats[] = {
  {"grown-buffers", "Input buffers the host writes that were grown"},
  {"added-bytes", "Bytes added to them, all cores together"},
};

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  int64_t f = nc_pass_get_option_int(pass, "frames");
  if (f < 0 || f > 64) {
    nc_emit_error(ctx, nc_location_unknown(), "core-host-buffers: frames must be between 0 and 64, not %lld",
                  (long long)f);
    return false;
  }
  return true;
}

/* The host's steps of operand k of `node` (a network input, [1, C, H, W]):
 * rows or pixels, as the `earliest` relation of the node says (the northpole
 * printer's input stream); 0 if it cannot tell. */
static int64_t host_steps(nc_op *node, int k, isl_ctx *ictx)
{
  isl_map *e = nc_dataflow_node_get_earliest(node, (size_t)k, ictx);
  if (!e)
    return 0;
  int dim = (int)isl_map_dim(e, isl_dim_out);
  isl_map_free(e);
  int64_t d[NC_MAX_RANK];
  int n = nc_dataflow_tensor_coords(nc_value_get_type(nc_op_get_operand(node, (size_t)k)), d);
  return n != 3 || (dim != 1 && dim != 2) ? 0 : dim == 1 ? d[1] : d[1] * d[2];
}

/* The bytes of operand k that tile t receives from the host per frame: its
 * distinct input steps times a step's bytes (the input's elements over the
 * steps, a byte each: the host sends int8). */
static int64_t host_share(nc_op *t, nc_op *node, int k, isl_ctx *ictx, int64_t *input_bytes, int64_t *step_bytes)
{
  nc_op *program = nc_core_tile_get_program(t);
  if (!program || !node || (size_t)k >= nc_op_get_num_operands(node))
    return 0;
  bool any = false;
  for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(program)); op && !any; op = nc_op_get_next(op)) {
    nc_core_instr in;
    any = nc_core_instr_get(op, &in) && in.kind == NC_CORE_RECV && in.x == NC_CORE_HOST && in.operand == k;
  }
  int64_t steps = any ? host_steps(node, k, ictx) : 0, n = 0;
  if (steps <= 0)
    return 0;
  int64_t elements = nc_type_get_num_elements(nc_value_get_type(nc_op_get_operand(node, (size_t)k)));
  *input_bytes = elements;
  *step_bytes = (elements + steps - 1) / steps;
  uint8_t *seen = nc_xcalloc((size_t)steps, 1);
  for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(program)); op; op = nc_op_get_next(op)) {
    nc_core_instr in;
    if (nc_core_instr_get(op, &in) && in.kind == NC_CORE_RECV && in.x == NC_CORE_HOST && in.operand == k &&
        in.iter >= 0 && in.iter < steps && !seen[in.iter])
      seen[in.iter] = 1, n++;
  }
  free(seen);
  return n * ((elements + steps - 1) / steps);
}

static void size_chip(nc_pass *pass, nc_op *chip, int64_t frames, isl_ctx *ictx)
{
  int64_t sram = nc_core_chip_get_sram_bytes(chip), rows = nc_core_chip_get_rows(chip),
          cols = nc_core_chip_get_cols(chip);
  nc_op *fn = nc_core_chip_lookup_function(chip);
  nc_chip_desc d;
  bool have_desc = nc_chip_desc_of_module(nc_op_get_parent_op(chip), false, &d);
  if (!fn || rows <= 0 || cols <= 0 || rows > ((int64_t)1 << 22) / cols)
    return;
  int64_t *used = nc_xcalloc((size_t)(rows * cols), sizeof *used); /* per core: its tiles' buffers */
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    int64_t x = nc_core_tile_get_x(t), y = nc_core_tile_get_y(t);
    for (nc_op *b = nc_core_tile_first_buffer(t); b && x >= 0 && y >= 0 && x < cols && y < rows;
         b = nc_core_buffer_next(b))
      used[y * cols + x] += nc_core_buffer_get_bytes(b);
  }
  for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
    int64_t x = nc_core_tile_get_x(t), y = nc_core_tile_get_y(t);
    if (x < 0 || y < 0 || x >= cols || y >= rows)
      continue;
    nc_op *node = nc_core_find_node(fn, nc_core_tile_get_node(t));
    for (nc_op *b = nc_core_tile_first_buffer(t); b; b = nc_core_buffer_next(b)) {
      int k = nc_core_buffer_get_operand(b);
      if (nc_core_buffer_get_kind(b) != NC_CORE_BUFFER_INPUT || k < 0)
        continue;
      int64_t input = 0, step = 0, have = nc_core_buffer_get_bytes(b), share = host_share(t, node, k, ictx, &input, &step);
      int64_t want = share > INT64_MAX / frames ? INT64_MAX : share * frames, room = sram - used[y * cols + x];
      if (have_desc && share > 0 && input > 0 && want < INT64_MAX / 2) {
        /* and what the host sends the tile while a credit goes back and the
         * next row comes in (a round trip to the host, one hop beyond (0, 0)):
         * a tiny frame from a far core needs more than two frames */
        double rtt = 2.0 * (double)(x + y + 1) * (double)d.hop_latency_cycles + 2;
        int64_t link = d.link_bytes_per_cycle > 0 ? d.link_bytes_per_cycle : 1; /* a step takes a cycle at least */
        double rate = (double)(step < link ? step : link) * (double)share / (double)input;
        want += (int64_t)(rtt * rate) + 1;
      }
      int64_t grow = want - have < room ? want - have : room;
      if (grow <= 0)
        continue;
      nc_core_buffer_set_bytes(b, have + grow);
      for (nc_op *o = nc_core_tile_first_buffer(t); o; o = nc_core_buffer_next(o)) /* core-plan-memory places them anew */
        nc_core_buffer_set_offset(o, -1);
      used[y * cols + x] += grow;
      nc_pass_stat_add(pass, 0, 1);
      nc_pass_stat_add(pass, 1, (uint64_t)grow);
    }
  }
  free(used);
}

static bool run(nc_pass *pass, nc_op *module)
{
  int64_t frames = nc_pass_get_option_int(pass, "frames");
  if (!frames)
    return true;
  isl_ctx *ictx = nc_dataflow_isl_ctx_create();
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op; op = nc_op_get_next(op))
    if (nc_core_is_chip(op))
      size_chip(pass, op, frames, ictx);
  nc_dataflow_isl_ctx_destroy(ictx);
  return true;
}

const nc_pass_def nc_core_host_buffers_pass = {
  .argument = "core-host-buffers",
  .name = "CoreHostBuffers",
  .group = "Core",
  .summary = "Grow the input buffers the host writes to hold `frames` frames of what it sends them",
  .description =
    "The host writes a tile's input buffer only where it has room (credit flow control in the northpole "
    "simulator), so a line buffer sized for the schedule makes every input row wait for the credits of the "
    "last. Each input buffer a tile receives host input steps into grows to `frames` times its steps per "
    "frame times a step's bytes, or to what is free on its core (all its tiles' buffers summed); it never "
    "shrinks. The tile's buffers then have no offsets: run core-plan-memory next.",
  .anchor = "builtin.module",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .initialize = initialize,
  .run = run,
};
