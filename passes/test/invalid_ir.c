/* invalid_ir.c: test-pass-create-invalid-ir, a func.func pass that breaks
 * the IR (it puts a `func.return` without operands at the start of the
 * body) and optionally fails too: for testing verification after each pass
 * (--verify-each), what is printed when a pass leaves invalid IR, and that a
 * pass that says it changed nothing is not verified after, but the run is. */
#include "nc/ir/pass.h"

static bool run(nc_pass *pass, nc_op *op)
{
  if (nc_pass_get_option_bool(pass, "emit-invalid-ir")) {
    nc_block *entry = nc_region_get_first_block(nc_op_get_region(op, 0));
    nc_op *ret = nc_op_create(&(nc_op_state){.ctx = nc_op_get_context(op), .name = "func.return",
                                             .loc = nc_location_unknown()});
    if (entry && ret)
      nc_block_prepend_op(entry, ret);
    else if (ret)
      nc_op_destroy(ret);
  }
  if (nc_pass_get_option_bool(pass, "claim-unchanged"))
    nc_pass_mark_unchanged(pass); /* a lie: tests that a run still verifies the IR at its end */
  return !nc_pass_get_option_bool(pass, "signal-pass-failure");
}

static const nc_pass_option_def options[] = {
  {"emit-invalid-ir", NC_PASS_OPT_BOOL, "true", "Emit invalid IR"},
  {"signal-pass-failure", NC_PASS_OPT_BOOL, "false", "Trigger a pass failure"},
  {"claim-unchanged", NC_PASS_OPT_BOOL, "false", "Tell the pass manager the IR is unchanged (skips verifying it)"},
};

const nc_pass_def nc_test_pass_create_invalid_ir = {
  .argument = "test-pass-create-invalid-ir",
  .name = "TestInvalidIRPass",
  .group = "Test",
  .summary = "Test pass that adds an invalid operation in a function body",
  .description = "Prepends a `func.return` without operands to the body of each function (invalid unless it is the "
                 "only op); with `signal-pass-failure=true` it also fails; with `claim-unchanged=true` it says "
                 "(wrongly) that it changed nothing, so the verification after it is skipped.",
  .anchor = "func.func",
  .options = options, .n_options = NC_COUNTOF(options),
  .run = run,
};
