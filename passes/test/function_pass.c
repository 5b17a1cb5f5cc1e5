/* function_pass.c: test-function-pass, a func.func pass that changes
 * nothing (as in MLIR's test passes). */
#include "nc/ir/pass.h"

static bool run(nc_pass *pass, nc_op *op)
{
  (void)pass;
  (void)op;
  return true;
}

const nc_pass_def nc_test_function_pass = {
  .argument = "test-function-pass",
  .name = "TestFunctionPass",
  .group = "Test",
  .summary = "Test a function pass in the pass manager",
  .description = "Does nothing, on func.func ops.",
  .anchor = "func.func",
  .run = run,
};
