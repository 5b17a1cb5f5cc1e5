/* pass_control.c: xbar-control, which compiles each node input's isl
 * `earliest` relation (set by dataflow-deps) into the control program its
 * core runs (xbar.control).
 *
 * Algorithm (control.c): the relation's lexmax as an isl pw_multi_aff; per
 * piece, its domain's basic sets (explicit floor divisions from
 * isl_set_compute_divs, then equality and inequality rows) and one
 * quasi-affine expression per producer coordinate, as integer words.
 * Limits: no parameters; coefficients within 2^31; at most 16 divisions,
 * 256 constraints per basic set, 4096 pieces (errors at the node beyond).
 */
#include <isl/ctx.h>
#include <isl/map.h>
#include <stdlib.h>

#include "control.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "xbar_ir.h"

static const nc_pass_stat_def stats[] = {
  {"num-programs", "Control programs compiled"},
  {"num-words", "Words of all control programs"},
};

static bool control_function(nc_pass *pass, nc_op *fn, isl_ctx *ictx)
{
  nc_block *body = nc_region_get_first_block(nc_op_get_region(fn, 0));
  nc_op *term = body ? nc_block_get_terminator(body) : NULL;
  for (nc_op *node = nc_dataflow_first_node(fn); node; node = nc_dataflow_next_node(node)) {
    if (!nc_dataflow_node_has_deps(node))
      return nc_op_emit_error(node, "xbar-control: node '%s' has no dependences; run dataflow-deps first",
                              nc_dataflow_node_get_name(node));
    if (!term)
      return nc_op_emit_error(fn, "xbar-control: the function has no terminator");
    for (size_t i = 0; i < nc_dataflow_node_get_num_inputs(node); i++) {
      if (xbar_find_control(term, nc_dataflow_node_get_name(node), (int64_t)i))
        return nc_op_emit_error(node, "xbar-control: input %zu already has a control program", i);
      isl_map *e = nc_dataflow_node_get_earliest(node, i, ictx);
      int64_t *w = NULL;
      size_t n = 0;
      char err[512];
      bool ok = e && xbar_control_compile(e, &w, &n, err, sizeof err);
      isl_map_free(e);
      if (!ok)
        return nc_op_emit_error(node, "xbar-control: input %zu: %s", i, e ? err : "unreadable earliest relation");
      nc_op *op = xbar_create_before(term, "xbar.control");
      if (op) {
        xbar_set_str(op, "node", nc_dataflow_node_get_name(node));
        xbar_set_int(op, "operand", (int64_t)i);
        xbar_set_array(op, "program", n, w);
      }
      free(w);
      if (!op)
        return false;
      nc_pass_stat_add(pass, 0, 1);
      nc_pass_stat_add(pass, 1, n);
    }
  }
  return true;
}

static bool run(nc_pass *pass, nc_op *module)
{
  isl_ctx *ictx = isl_ctx_alloc();
  bool ok = true;
  nc_block *b = nc_region_get_first_block(nc_op_get_region(module, 0));
  for (nc_op *fn = b ? nc_block_get_first_op(b) : NULL; ok && fn; fn = nc_op_get_next(fn))
    if (nc_op_is(fn, "func.func") && nc_op_get_num_regions(fn) == 1 &&
        nc_region_get_first_block(nc_op_get_region(fn, 0)))
      ok = control_function(pass, fn, ictx);
  isl_ctx_free(ictx);
  return ok;
}

const nc_pass_def xbar_control_pass = {
  .argument = "xbar-control",
  .name = "XbarControl",
  .group = "Xbar",
  .summary = "Compile each node input's isl earliest relation into a control program (data)",
  .description =
    "For every input of every dataflow.node: the `earliest` relation of dataflow-deps (consumer iteration -> "
    "the producer iteration it waits for) as a piecewise quasi-affine function, its pieces' constraints and "
    "floor divisions written as integer rows (docs/targets/xbar.md). Adds an xbar.control per input.",
  .anchor = "builtin.module",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
