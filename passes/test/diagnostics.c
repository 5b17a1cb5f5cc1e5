/* diagnostics.c: test-emit-diagnostics, emits the diagnostics that the IR
 * asks for: an op with a string attribute `emit_remark`, `emit_warning` or
 * `emit_error` gets that diagnostic (an error fails the pass). For testing
 * how diagnostics from passes are ordered, captured and verified, including
 * when functions are processed in parallel. */
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"

static const char *message(nc_op *op, const char *name)
{
  nc_attr *a = nc_op_get_attr_str(op, name);
  return a && nc_attr_get_kind(a) == NC_ATTR_STRING ? nc_attr_get_string(a, NULL) : NULL;
}

static nc_walk_result emit(nc_op *op, void *user)
{
  bool *failed = user;
  const char *m;
  if ((m = message(op, "emit_remark")))
    nc_op_emit_remark(op, "%s", m);
  if ((m = message(op, "emit_warning")))
    nc_op_emit_warning(op, "%s", m);
  if ((m = message(op, "emit_error"))) {
    nc_op_emit_error(op, "%s", m);
    *failed = true;
  }
  return NC_WALK_ADVANCE;
}

static bool run(nc_pass *pass, nc_op *op)
{
  (void)pass;
  bool failed = false;
  nc_op_walk(op, NC_WALK_PRE_ORDER, emit, &failed);
  return !failed;
}

const nc_pass_def nc_test_emit_diagnostics_pass = {
  .argument = "test-emit-diagnostics",
  .name = "TestEmitDiagnostics",
  .group = "Test",
  .summary = "Emit the remarks, warnings and errors named by emit_* attributes",
  .description = "For every op nested in the op (and the op) with a string attribute `emit_remark`, `emit_warning` "
                 "or `emit_error`, emits that diagnostic with the string as message, in walk order. Fails if it "
                 "emitted an error.",
  .run = run,
};
