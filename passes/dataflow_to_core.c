/* dataflow_to_core.c: dataflow-to-core, the first core-level stage
 * (docs/design/spine.md, section 3): for every function of the module that
 * holds dataflow nodes, a core.chip with the grid and SRAM of the chip
 * description the module carries (nc.chip, set by target-attach), placed
 * after the function and naming it, with
 * one unplaced tile (x = y = -1) per node in pipeline order. Each tile gets
 * the buffers its node needs on one core (core_node_buffers: weights,
 * bias, input line buffers from dataflow-deps' buffer_elements, output,
 * accumulator; offsets -1) and an empty program. The nodes stay in the
 * function: a tile's `node` names the node whose region it computes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_util.h"
#include "nc/dialects/core/core.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/ir/symbol.h"

static const nc_pass_option_def options[] = {
  {"rows", NC_PASS_OPT_INT, "0", "Grid rows instead of the chip description's (0: keep)"},
  {"cols", NC_PASS_OPT_INT, "0", "Grid columns instead of the chip description's (0: keep)"},
  {"sram-bytes", NC_PASS_OPT_INT, "0", "SRAM per core instead of the chip description's (0: keep)"},
};

static const nc_pass_stat_def stats[] = {
  {"num-chips", "Number of core.chip ops created"},
  {"num-tiles", "Number of tiles created (one per dataflow node)"},
};

static bool initialize(nc_pass *pass, nc_context *ctx)
{
  static const char *const overrides[] = {"rows", "cols", "sram-bytes"};
  for (int i = 0; i < 3; i++) {
    int64_t v = nc_pass_get_option_int(pass, overrides[i]);
    if (v < 0 || (i < 2 && v > 4096) || v > ((int64_t)1 << 40)) {
      nc_emit_error(ctx, nc_location_unknown(), "dataflow-to-core: option %s=%lld is out of range", overrides[i],
                    (long long)v);
      return false;
    }
  }
  return true;
}

/* The module's chip description (nc.chip) with the options' overrides, named
 * after the module's target (nc.target). */
static bool module_desc(nc_pass *pass, nc_op *module, nc_chip_desc *d)
{
  if (!nc_chip_desc_of_module(module, true, d))
    return false;
  nc_attr *target = nc_op_get_attr_str(module, "nc.target");
  size_t len;
  const char *name = target && nc_attr_get_kind(target) == NC_ATTR_STRING ? nc_attr_get_string(target, &len) : NULL;
  if (name && len < sizeof d->name)
    snprintf(d->name, sizeof d->name, "%.*s", (int)len, name);
  static const char *const overrides[] = {"rows", "cols", "sram-bytes"};
  int64_t *fields[] = {&d->rows, &d->cols, &d->sram_bytes};
  for (int i = 0; i < 3; i++) {
    int64_t v = nc_pass_get_option_int(pass, overrides[i]);
    if (v > 0)
      *fields[i] = v;
  }
  return true;
}

static bool has_nodes(nc_op *fn) { return nc_op_is(fn, "func.func") && nc_dataflow_first_node(fn); }

static bool already_mapped(nc_op *module, const char *fn_name)
{
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op; op = nc_op_get_next(op)) {
    const char *f = nc_core_is_chip(op) ? nc_core_chip_get_function_name(op) : NULL;
    if (f && !strcmp(f, fn_name))
      return true;
  }
  return false;
}

static bool lower_function(nc_pass *pass, nc_op *module, nc_op *fn, const nc_chip_desc *desc, isl_ctx *ictx)
{
  nc_context *ctx = nc_op_get_context(fn);
  const char *fn_name = nc_ident_str(nc_symbol_get_name(fn));
  if (already_mapped(module, fn_name))
    return nc_op_emit_error(fn, "dataflow-to-core: function '@%s' already has a core.chip", fn_name);
  for (nc_op *n = nc_dataflow_first_node(fn); n; n = nc_dataflow_next_node(n))
    if (!nc_dataflow_node_has_deps(n))
      return nc_op_emit_error(n, "dataflow-to-core: node '%s' has no dependences (earliest, control, "
                                 "buffer_elements): run dataflow-deps first", nc_dataflow_node_get_name(n));
  nc_op *chip = nc_core_chip_create(ctx, nc_op_get_loc(fn), desc, fn_name);
  nc_op_insert_after(chip, fn);
  for (nc_op *n = nc_dataflow_first_node(fn); n; n = nc_dataflow_next_node(n)) {
    nc_core_buffer_spec *specs;
    size_t n_specs;
    char err[512];
    if (!core_node_buffers(n, 0, 0, ictx, &specs, &n_specs, err, sizeof err))
      return nc_op_emit_error(n, "dataflow-to-core: %s", err);
    nc_op *tile = nc_core_tile_create(chip, nc_op_get_loc(n), nc_dataflow_node_get_name(n), -1, -1, 0, 0);
    for (size_t i = 0; i < n_specs; i++)
      nc_core_tile_add_buffer(tile, specs[i].name, specs[i].kind, specs[i].bytes, -1);
    free(specs);
    nc_pass_stat_add(pass, 1, 1);
  }
  nc_pass_stat_add(pass, 0, 1);
  return true;
}

static bool run(nc_pass *pass, nc_op *module)
{
  bool any = false;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op && !any; op = nc_op_get_next(op))
    any = has_nodes(op);
  nc_chip_desc desc;
  if (!any)
    return true;
  if (!module_desc(pass, module, &desc))
    return false;
  isl_ctx *ictx = nc_dataflow_isl_ctx_create();
  bool ok = true;
  for (nc_op *op = nc_block_get_first_op(nc_module_get_body(module)); op && ok; op = nc_op_get_next(op))
    if (has_nodes(op))
      ok = lower_function(pass, module, op, &desc, ictx);
  nc_dataflow_isl_ctx_destroy(ictx);
  return ok;
}

const nc_pass_def nc_dataflow_to_core_pass = {
  .argument = "dataflow-to-core",
  .name = "DataflowToCore",
  .group = "Core",
  .summary = "Create a core.chip with one unplaced tile (and its buffers) per dataflow node",
  .description =
    "For every function holding dataflow.nodes (after dataflow-deps), adds after it a `core.chip` for the "
    "module's chip description (its `nc.chip` attribute, set by target-attach; `rows`, `cols` and `sram-bytes` "
    "override it) that names the function, with one tile per node in pipeline "
    "order at (-1, -1), holding the buffers the node needs on a core (weights, bias, one input line buffer per "
    "operand sized by `buffer_elements`, the output of one iteration, an accumulator when the layer computes "
    "wider than it stores) with offset -1, and an empty program. core-place, core-schedule and "
    "core-plan-memory complete it.",
  .anchor = "builtin.module",
  .options = options, .n_options = NC_COUNTOF(options),
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .dependent_dialects = (const char *const[]){"core", NULL},
  .initialize = initialize,
  .run = run,
};
