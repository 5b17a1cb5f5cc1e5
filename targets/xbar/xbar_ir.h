/* xbar_ir.h: the `xbar` dialect (the xbar target's IR level, below
 * `dataflow`): how each dataflow.node of a function is laid onto crossbar
 * cores and the control program each of its inputs runs. The ops sit in
 * the function after its nodes and name them:
 *   xbar.mvm     {node, rows, cols, row_tiles, col_tiles, replicas, cores}
 *   xbar.digital {node, core}
 *   xbar.control {node, operand, program}
 * Passes: xbar-map (mapping.c's algorithm) and xbar-control (control.c).
 */
#ifndef NC_TARGETS_XBAR_IR_H
#define NC_TARGETS_XBAR_IR_H

#include <isl/ctx.h>
#include <stdio.h>

#include "desc.h"
#include "nc/ir/ods.h"
#include "nc/ir/ops.h"
#include "nc/ir/pass.h"
#include "nc/runtime/ncb.h"

/** The dialect definition (registered by the target). */
extern const nc_dialect_def xbar_dialect;

/** The chip description the module of `op` carries (its nc.chip), or false. */
bool xbar_module_desc(NC_KEEP nc_op *op, xbar_desc *d);

/** The dataflow.node named `name` in the block of `op`, or NULL. */
NC_KEEP nc_op *xbar_find_node(NC_KEEP nc_op *op, const char *name);

/** An integer or string attribute of an xbar op (0 / "" when absent). */
int64_t xbar_int_attr(NC_KEEP const nc_op *op, const char *name);
NC_KEEP const char *xbar_str_attr(NC_KEEP const nc_op *op, const char *name);
/** An array<i64> attribute: its elements (borrowed) and count; NULL if absent. */
NC_KEEP const int64_t *xbar_array_attr(NC_KEEP const nc_op *op, const char *name, size_t *n);

/** Sets an i64 / string / array<i64> attribute. */
void xbar_set_int(nc_op *op, const char *name, int64_t v);
void xbar_set_str(nc_op *op, const char *name, const char *v);
void xbar_set_array(nc_op *op, const char *name, size_t n, const int64_t *v);

/** Creates the op `name` ("xbar.mvm") before `anchor`, with no attributes yet; the op is owned by
 * anchor's block (NULL if the op cannot be created). */
NC_KEEP nc_op *xbar_create_before(nc_op *anchor, const char *name);

/** The xbar.mvm or xbar.digital op of the node named `node` in the block of
 * `anchor`, or NULL; likewise the xbar.control of its operand. */
NC_KEEP nc_op *xbar_find_mapping(NC_KEEP nc_op *anchor, const char *node);
NC_KEEP nc_op *xbar_find_control(NC_KEEP nc_op *anchor, const char *node, int64_t operand);

/** The passes xbar-map (pass_map.c) and xbar-control (pass_control.c). */
extern const nc_pass_def xbar_map_pass, xbar_control_pass;

/** Writes the xbar sections and I/O descriptors of a module at the xbar
 * level (printer.c); false after diagnostics at the offending ops. */
bool xbar_print_binary(NC_KEEP nc_op *module, nc_ncb_writer *w, void *userData);

/** nc-compile --emit=control-c (emit.c): every node input's control program
 * as C; false after diagnostics. */
bool xbar_emit_control_c(NC_KEEP nc_op *module, FILE *out, void *userData);

/** The node's iteration domain as a box: its extents (dims in lexicographic
 * order; rank 0 = one iteration). False with a message in err if it is not
 * a box starting at 0 (the simulator numbers iterations row-major). */
bool xbar_node_domain_box(NC_KEEP nc_op *node, isl_ctx *ctx, int64_t *extents, unsigned *rank, char *err,
                          size_t errlen);

/** Element i (row-major, splats repeat) of an integer elements attribute
 * (dense or dense_resource); false if it has no data. */
bool xbar_elements_int(NC_KEEP const nc_attr *a, int64_t i, int64_t *v);

#endif
