/* core_multicast.c: core-multicast, which turns the sends of one iteration
 * to several tiles into one multicast.
 *
 * core-schedule sends an iteration's output to every consumer tile in turn:
 * a producer whose consumer is split over k tiles sends the same bytes k
 * times, through its one port and often over the same first links. A
 * multicast leaves the port once and crosses each link of the union of the
 * destinations' routes once (docs/targets/northpole.md, Network on chip).
 * The pass marks every send but the last of each run of consecutive sends
 * of one iteration to tiles with `multicast` (core-replicate's sends to
 * copies run on some frames only: each frame's multicast goes to the members
 * that run on it, so a row reaches a copy and the other consumers at once)
 * (the group ends at the first unmarked send), and marks the chip `host_multicast`: the host, too, sends
 * each input step once to all the tiles that read it. Programs, buffers and
 * what arrives where are unchanged; only the time and the link bytes fall.
 */
#include "nc/dialects/core/core.h"
#include "nc/ir/pass.h"

static const nc_pass_stat_def stats[] = {
  {"num-multicasts", "Multicast groups formed (sends of one iteration to two or more tiles)"},
  {"sends-merged", "Sends that joined a multicast group after its first"},
};

/* A send that may join a group: to a tile, not the host. */
static bool tile_send(nc_op *op, nc_core_instr *in)
{
  return nc_core_instr_get(op, in) && in->kind == NC_CORE_SEND && in->x != NC_CORE_HOST;
}

static void mark_program(nc_pass *pass, nc_op *program)
{
  nc_context *ctx = nc_op_get_context(program);
  for (nc_op *op = nc_block_get_first_op(nc_core_program_get_body(program)); op;) {
    nc_core_instr first, in;
    if (!tile_send(op, &first)) {
      op = nc_op_get_next(op);
      continue;
    }
    nc_op *last = op;
    size_t n = 1;
    for (nc_op *x = nc_op_get_next(op); x && tile_send(x, &in) && in.iter == first.iter && in.bytes == first.bytes &&
                                                   in.network == first.network;
         x = nc_op_get_next(x))
      last = x, n++;
    for (nc_op *x = op; x != last; x = nc_op_get_next(x))
      nc_op_set_attr_str(x, "multicast", nc_attr_unit(ctx));
    if (n > 1) {
      nc_pass_stat_add(pass, 0, 1);
      nc_pass_stat_add(pass, 1, (uint64_t)(n - 1));
    }
    op = nc_op_get_next(last);
  }
}

static bool run(nc_pass *pass, nc_op *module)
{
  for (nc_op *chip = nc_block_get_first_op(nc_module_get_body(module)); chip; chip = nc_op_get_next(chip)) {
    if (!nc_core_is_chip(chip))
      continue;
    for (nc_op *t = nc_core_chip_first_tile(chip); t; t = nc_core_tile_next(t)) {
      nc_op *program = nc_core_tile_get_program(t);
      if (program)
        mark_program(pass, program);
    }
    nc_op_set_attr_str(chip, "host_multicast", nc_attr_unit(nc_op_get_context(chip)));
  }
  return true;
}

const nc_pass_def nc_core_multicast_pass = {
  .argument = "core-multicast",
  .name = "CoreMulticast",
  .group = "Core",
  .summary = "Send an iteration's output to several tiles as one multicast",
  .description =
    "Marks each run of consecutive `core.send`s of one iteration (and size) to tiles with `multicast` on all but "
    "the last, so the group leaves the sender's port once and crosses each link of the union of its XY routes "
    "once, and sets `host_multicast` on the chip, so the host sends each input step once to all the tiles that "
    "read it. Run after core-schedule; programs and buffers are unchanged.",
  .anchor = "builtin.module",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
