/* failure.c: test-pass-failure, a pass that always fails, with or without
 * emitting a diagnostic first: for testing failure handling (exit status,
 * --mlir-print-ir-after-failure, reproducers, the pass manager's own message
 * for silent failures). */
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"

static bool run(nc_pass *pass, nc_op *op)
{
  if (nc_pass_get_option_bool(pass, "gen-diagnostics"))
    nc_emit_error(nc_op_get_context(op), nc_op_get_loc(op), "illegal operation");
  return false;
}

static const nc_pass_option_def options[] = {
  {"gen-diagnostics", NC_PASS_OPT_BOOL, "false", "Generate a diagnostic message"},
};

const nc_pass_def nc_test_pass_failure = {
  .argument = "test-pass-failure",
  .name = "TestFailurePass",
  .group = "Test",
  .summary = "Test a pass in the pass manager that always fails",
  .description = "Fails on every op it runs on; with `gen-diagnostics=true` it first emits `illegal operation`.",
  .options = options, .n_options = 1,
  .run = run,
};
