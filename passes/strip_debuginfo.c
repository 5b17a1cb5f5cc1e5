/* strip_debuginfo.c: replaces every location (ops and block arguments) with
 * the unknown location, as MLIR's strip-debuginfo does: for IR that must not
 * leak source paths, or to compare IR from different sources. */
#include "nc/ir/pass.h"

static nc_walk_result strip(nc_op *op, void *user)
{
  (void)user;
  nc_op_set_loc(op, nc_location_unknown());
  for (size_t r = 0; r < nc_op_get_num_regions(op); r++)
    for (nc_block *b = nc_region_get_first_block(nc_op_get_region(op, r)); b; b = nc_block_get_next(b))
      for (size_t i = 0; i < nc_block_get_num_args(b); i++)
        nc_block_arg_set_loc(nc_block_get_arg(b, i), nc_location_unknown());
  return NC_WALK_ADVANCE;
}

static bool run(nc_pass *pass, nc_op *op)
{
  (void)pass;
  nc_op_walk(op, NC_WALK_PRE_ORDER, strip, NULL);
  return true;
}

const nc_pass_def nc_strip_debuginfo_pass = {
  .argument = "strip-debuginfo",
  .name = "StripDebugInfo",
  .group = "Generic",
  .summary = "Strip debug info from all operations",
  .description = "Replaces the location of every op and block argument nested in the op (and of the op itself) with "
                 "`loc(unknown)`.",
  .run = run,
};
