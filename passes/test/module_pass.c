/* module_pass.c: test-module-pass, a builtin.module pass that changes
 * nothing (as in MLIR's test passes): for testing pipelines and
 * instrumentation without depending on what a real pass does; with
 * mark-unchanged=true it says so (nc_pass_mark_unchanged). */
#include "nc/ir/pass.h"

static bool run(nc_pass *pass, nc_op *op)
{
  (void)op;
  if (nc_pass_get_option_bool(pass, "mark-unchanged"))
    nc_pass_mark_unchanged(pass);
  return true;
}

static const nc_pass_option_def options[] = {
  {"mark-unchanged", NC_PASS_OPT_BOOL, "false", "Tell the pass manager the IR is unchanged (skips verifying it)"},
};

const nc_pass_def nc_test_module_pass = {
  .argument = "test-module-pass",
  .name = "TestModulePass",
  .group = "Test",
  .summary = "Test a module pass in the pass manager",
  .description = "Does nothing, on builtin.module ops; with `mark-unchanged=true` it tells the pass manager so.",
  .anchor = "builtin.module",
  .options = options, .n_options = NC_COUNTOF(options),
  .run = run,
};
