/* module_pass.c: test-module-pass, a builtin.module pass that changes
 * nothing (as in MLIR's test passes): for testing pipelines and
 * instrumentation without depending on what a real pass does. */
#include "nc/ir/pass.h"

static bool run(nc_pass *pass, nc_op *op)
{
  (void)pass;
  (void)op;
  return true;
}

const nc_pass_def nc_test_module_pass = {
  .argument = "test-module-pass",
  .name = "TestModulePass",
  .group = "Test",
  .summary = "Test a module pass in the pass manager",
  .description = "Does nothing, on builtin.module ops.",
  .anchor = "builtin.module",
  .run = run,
};
