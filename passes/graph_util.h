/* graph_util.h: what the graph passes (passes/graph_*.c) share.
 *
 * Constants move between the IR (graph.constant holding dense or
 * dense_resource elements) and host tensors (nc_tensor, what the kernels
 * read and write), so that passes computing new weights do it with the same
 * element storage as the reference interpreter. New tensors become `dense`
 * literals only when small (or splats); anything larger becomes a
 * dense_resource blob, never a decimal list.
 */
#ifndef NC_PASSES_GRAPH_UTIL_H
#define NC_PASSES_GRAPH_UTIL_H

#include "nc/dialects/graph/graph.h"
#include "nc/ir/pass.h"
#include "nc/ir/rewrite.h"

/** Tensors with at most this many elements are written as `dense<...>` by
 * the rewriting passes (graph-constant-fold has an option for it). */
#define GP_DENSE_LIMIT 16

/** True if `op` is the graph op `graph.<short_name>` ("conv"). */
bool gp_is(NC_KEEP const nc_op *op, const char *short_name);

/** True if `op` belongs to the graph dialect. */
bool gp_is_graph_op(NC_KEEP const nc_op *op);

/** A new tensor with the shape of the statically shaped tensor type `t`
 * (dtype from its element type), zero-filled; NULL if it has no host form or
 * is larger than `limit_bytes` (0: no limit). */
NC_GIVE nc_tensor *gp_tensor_for_type(NC_KEEP const nc_type *t, size_t limit_bytes);

/** A constant's data without a copy: fills *view (dtype, rank, shape, data
 * pointing into the attribute, which must outlive it; never destroy it) and
 * returns true if `v` is a graph.constant whose attribute stores every
 * element (not a splat). */
bool gp_constant_view(NC_KEEP nc_value *v, nc_tensor *view);

/** The elements attribute (dense or dense_resource) as a new host tensor,
 * splats expanded; NULL if it has no data or no host form. */
NC_GIVE nc_tensor *gp_tensor_from_attr(NC_KEEP nc_attr *value);

/** The value as a new host tensor if a graph.constant defines it, else NULL. */
NC_GIVE nc_tensor *gp_constant_tensor(NC_KEEP nc_value *v);

/** The tensor as an elements attribute of `type` (same element count and
 * dtype): `dense` if it has at most `dense_limit` elements or all of them
 * are equal (written as a splat), else a dense_resource blob named after
 * `name_hint` (made unique). */
NC_KEEP nc_attr *gp_attr_from_tensor(nc_context *ctx, NC_KEEP const nc_tensor *t, nc_type *type,
                                     const char *name_hint, int64_t dense_limit);

/** Creates a graph.constant holding `value` at the rewriter's insertion
 * point and returns its result. */
NC_KEEP nc_value *gp_create_constant(nc_rewriter *rw, NC_KEEP nc_attr *value, nc_location loc);

/** A resource name hint for a tensor derived from `v`: the blob name of a
 * dense_resource constant, else the op's location name, else `fallback`;
 * `suffix` is appended. Writes into buf. */
const char *gp_name_hint(NC_KEEP nc_value *v, const char *suffix, const char *fallback, char *buf, size_t len);

/** Creates a graph.constant holding `t` as `type` at the rewriter's insertion
 * point (gp_attr_from_tensor with GP_DENSE_LIMIT; a blob is named by
 * gp_name_hint(like, suffix, fallback)) and returns its result. */
NC_KEEP nc_value *gp_create_tensor_constant(nc_rewriter *rw, NC_KEEP const nc_tensor *t, nc_type *type,
                                            NC_KEEP nc_value *like, const char *suffix, const char *fallback,
                                            nc_location loc);

/** Makes `bias` operand 2 of `op` (the bias of a conv or conv_transpose, the
 * c of a gemm), replacing the operand there or appending it. */
void gp_set_bias_operand(NC_KEEP nc_op *op, NC_KEEP nc_value *bias);

/** Rounds v to the precision of a float dtype (f32, f16, bf16; f64 unchanged),
 * so that a computation done in double then rounded per step is exactly the
 * dtype's own arithmetic (double has more than twice the bits of f32). */
double gp_round(nc_dtype dt, double v);

/** True if `v` has exactly one use, and `user` is its owner. */
bool gp_only_user(NC_KEEP nc_value *v, NC_KEEP const nc_op *user);

/** The state destructor of a pattern pass (its state is an nc_pattern_set). */
void gp_free_pattern_set(NC_TAKE void *set);

/** The run hook of a pattern pass: applies the pass's pattern set (its
 * state) greedily to `func` without folding and adds the rewrites to the
 * pass's statistic 0. */
bool gp_run_patterns(NC_KEEP nc_pass *pass, NC_KEEP nc_op *func);

#endif
