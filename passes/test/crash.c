/* crash.c: test-pass-crash, a pass that always aborts: for testing crash
 * reproducers (--mlir-pass-pipeline-crash-reproducer). */
#include <stdlib.h>

#include "nc/ir/pass.h"

static bool run(nc_pass *pass, nc_op *op)
{
  (void)pass;
  (void)op;
  abort();
}

const nc_pass_def nc_test_pass_crash = {
  .argument = "test-pass-crash",
  .name = "TestCrashRecoveryPass",
  .group = "Test",
  .summary = "Test a pass in the pass manager that always crashes",
  .description = "Calls abort() on the first op it runs on.",
  .run = run,
};
