/* pass_map.c: xbar-map, which lays every dataflow.node of each function
 * onto the chip of the module's nc.chip: conv and matmul nodes onto
 * crossbars (xbar.mvm: tiles, replicas, cores), pools, copies and the
 * layers that move elements (resize, pad, shuffle) onto a core's digital
 * unit (xbar.digital).
 *
 * Algorithm (mapping.c): tile each weight matrix (rows = Cin*kh*kw or K
 * inputs, cols = outputs) over ceil(rows/R) x ceil(cols/C) crossbars, one
 * per core; give spare cores, one replica at a time, to the stage with the
 * most MVMs per crossbar while its replica fits; hand cores out in pipeline
 * order along a serpentine over the mesh.
 * Each core must hold its stage's input line buffers (dataflow-deps'
 * buffer_elements, one byte each) in its SRAM; a stage that cannot is an
 * error (no spilling).
 * Limits: one crossbar per core; a cell holds a whole int8 weight (no
 * bit-slicing over columns); digital stages are not weighed when balancing;
 * no search over placements; conv, matmul, max_pool, copy, resize, pad and
 * shuffle only (other layer kinds are errors at their node).
 *
 * It reads only the target-neutral layer of each node (layer.h): the kind,
 * the weights' shape. A kind the target cannot run is an error at its node.
 */
#include <isl/ctx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mapping.h"
#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/ir/types.h"
#include "xbar_ir.h"

static const nc_pass_stat_def stats[] = {
  {"num-crossbars", "Crossbars holding weights (one per core)"},
  {"num-cores", "Cores used (crossbars and digital units)"},
  {"cells-used", "Crossbar cells holding weights"},
  {"cells-total", "Cells of the crossbars used"},
};

/* The weight matrix of an MVM layer: rows = inputs of one MVM, cols = outputs. */
static bool matrix_of(nc_op *node, const nc_dataflow_layer *l, int64_t *rows, int64_t *cols)
{
  const nc_type *t = l->weights ? nc_attr_get_type(l->weights) : NULL;
  size_t rank = t ? nc_type_get_rank(t) : 0;
  const int64_t *s = t ? nc_type_get_shape(t) : NULL;
  if (l->kind == NC_DATAFLOW_LAYER_CONV && rank == 4) {
    *rows = s[1] * l->group * s[2] * s[3];
    *cols = s[0];
    return true;
  }
  if (l->kind == NC_DATAFLOW_LAYER_MATMUL && rank == 2) {
    *rows = s[0];
    *cols = s[1];
    return true;
  }
  return nc_op_emit_error(node, "the %s layer's weights must be a constant of rank %d",
                          nc_dataflow_layer_kind_name(l->kind), l->kind == NC_DATAFLOW_LAYER_CONV ? 4 : 2);
}

static bool map_function(nc_pass *pass, nc_op *fn, const xbar_desc *d, isl_ctx *ictx)
{
  size_t n = nc_dataflow_num_nodes(fn);
  if (!n)
    return true;
  nc_block *body = nc_region_get_first_block(nc_op_get_region(fn, 0));
  nc_op *term = body ? nc_block_get_terminator(body) : NULL;
  if (!term)
    return nc_op_emit_error(fn, "xbar-map: the function has no terminator");
  for (nc_op *x = nc_block_get_first_op(body); x; x = nc_op_get_next(x))
    if (nc_op_is(x, "xbar.mvm") || nc_op_is(x, "xbar.digital"))
      return nc_op_emit_error(x, "xbar-map: the function is already mapped");
  xbar_map_stage *st = calloc(n, sizeof *st);
  nc_op **nodes = calloc(n, sizeof *nodes);
  bool ok = st && nodes;
  size_t i = 0;
  for (nc_op *node = nc_dataflow_first_node(fn); ok && node; node = nc_dataflow_next_node(node), i++) {
    nodes[i] = node;
    nc_dataflow_layer l;
    if (!nc_dataflow_node_get_layer(node, &l)) {
      ok = nc_op_emit_error(node, "xbar-map: node '%s' records no layer (graph-to-dataflow sets its kind and params)",
                            nc_dataflow_node_get_name(node));
      break;
    }
    int64_t ext[8];
    unsigned rank;
    char err[256];
    if (!xbar_node_domain_box(node, ictx, ext, &rank, err, sizeof err)) {
      ok = nc_op_emit_error(node, "xbar-map: %s", err);
      break;
    }
    st[i].iterations = 1;
    for (unsigned k = 0; k < rank; k++)
      st[i].iterations *= ext[k];
    /* each core of the stage holds its inputs' line buffers (dataflow-deps' minimum, int8) in its SRAM */
    int64_t need = 0;
    for (size_t k = 0; k < nc_dataflow_node_get_num_inputs(node); k++)
      need += nc_dataflow_node_get_buffer_elements(node, k) > 0 ? nc_dataflow_node_get_buffer_elements(node, k) : 0;
    if (need > d->sram_bytes) {
      ok = nc_op_emit_error(node, "xbar-map: node '%s' needs %lld bytes of input buffers, but a core's SRAM holds %lld: "
                                  "%lld too many", nc_dataflow_node_get_name(node), (long long)need,
                            (long long)d->sram_bytes, (long long)(need - d->sram_bytes));
      break;
    }
    switch (l.kind) {
    case NC_DATAFLOW_LAYER_CONV:
    case NC_DATAFLOW_LAYER_MATMUL:
      st[i].mvm = true;
      ok = matrix_of(node, &l, &st[i].rows, &st[i].cols);
      break;
    case NC_DATAFLOW_LAYER_COPY: /* a transposing one (perm) is refused by target-check-layers (target.c) */
    case NC_DATAFLOW_LAYER_MAX_POOL:
    case NC_DATAFLOW_LAYER_RESIZE: /* no weights: they move elements on a digital unit */
    case NC_DATAFLOW_LAYER_PAD:
    case NC_DATAFLOW_LAYER_SHUFFLE:
      break;
    default:
      ok = nc_op_emit_error(node,
                            "xbar-map: the xbar target cannot run layer '%s' of kind '%s' (it runs conv and matmul "
                            "on crossbars; max_pool, copy, resize, pad and shuffle on digital units)",
                            nc_dataflow_node_get_name(node), nc_dataflow_layer_kind_name(l.kind));
    }
  }
  char err[512];
  if (ok && !xbar_map_plan(st, n, d->xbar_rows, d->xbar_cols, d->mesh_rows, d->mesh_cols, err, sizeof err))
    ok = nc_op_emit_error(fn, "xbar-map: %s", err);
  for (i = 0; ok && i < n; i++) {
    const char *name = nc_dataflow_node_get_name(nodes[i]);
    nc_op *op = xbar_create_before(term, st[i].mvm ? "xbar.mvm" : "xbar.digital");
    if (!op) {
      ok = false;
      break;
    }
    xbar_set_str(op, "node", name);
    if (st[i].mvm) {
      xbar_set_int(op, "rows", st[i].rows);
      xbar_set_int(op, "cols", st[i].cols);
      xbar_set_int(op, "row_tiles", st[i].row_tiles);
      xbar_set_int(op, "col_tiles", st[i].col_tiles);
      xbar_set_int(op, "replicas", st[i].replicas);
      xbar_set_array(op, "cores", (size_t)st[i].n_cores, st[i].cores);
      nc_pass_stat_add(pass, 0, (uint64_t)st[i].n_cores);
      nc_pass_stat_add(pass, 2, (uint64_t)(st[i].replicas * st[i].rows * st[i].cols));
      nc_pass_stat_add(pass, 3, (uint64_t)(st[i].n_cores * d->xbar_rows * d->xbar_cols));
    } else {
      xbar_set_int(op, "core", st[i].cores[0]);
    }
    nc_pass_stat_add(pass, 1, (uint64_t)st[i].n_cores);
  }
  if (st)
    xbar_map_clear(st, n);
  free(st);
  free(nodes);
  return ok;
}

static bool run(nc_pass *pass, nc_op *module)
{
  xbar_desc d;
  if (!xbar_module_desc(module, &d))
    return nc_op_emit_error(module, "xbar-map: the module carries no xbar chip description (nc.chip); run "
                                    "target-attach or the xbar pipeline");
  isl_ctx *ictx = isl_ctx_alloc();
  bool ok = true;
  nc_block *b = nc_region_get_first_block(nc_op_get_region(module, 0));
  for (nc_op *fn = b ? nc_block_get_first_op(b) : NULL; ok && fn; fn = nc_op_get_next(fn))
    if (nc_op_is(fn, "func.func") && nc_op_get_num_regions(fn) == 1 &&
        nc_region_get_first_block(nc_op_get_region(fn, 0)))
      ok = map_function(pass, fn, &d, ictx);
  isl_ctx_free(ictx);
  return ok;
}

const nc_pass_def xbar_map_pass = {
  .argument = "xbar-map",
  .name = "XbarMap",
  .group = "Xbar",
  .summary = "Map dataflow nodes onto crossbar cores: tile, replicate, place",
  .description =
    "For each function: every conv and matmul node's weight matrix (rows = Cin x kh x kw or K inputs, cols = "
    "outputs) is tiled over crossbars of the module's chip description (one per core), the stage with the most "
    "MVMs per crossbar is replicated greedily while spare cores remain, and cores are handed out along a "
    "serpentine; pools, copies, resizes, pads and shuffles take one core's digital unit. Adds an xbar.mvm or xbar.digital per node. "
    "Fails when the pipeline does not fit the mesh.",
  .anchor = "builtin.module",
  .stats = stats, .n_stats = NC_COUNTOF(stats),
  .run = run,
};
