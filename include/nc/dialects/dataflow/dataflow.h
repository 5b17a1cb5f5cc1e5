/* dataflow.h: the public API of the `dataflow` dialect (layers as pipeline
 * nodes with isl iteration domains and access relations).
 *
 * Each layer of a graph-dialect function becomes one `dataflow.node` whose
 * single-block region holds the layer's graph ops (so its semantics are
 * exactly theirs) and whose attributes describe it for the polyhedral stages:
 *   name, kind            e.g. "conv1", "conv" (kind: one of layer.h's layer kinds)
 *   params                the layer's parameters (layer.h): what it computes, for every level
 *                         below the graph, which never reads the region's graph ops
 *   domain                #dataflow.set<"{ S[oy] : 0 <= oy <= 7 }">
 *   reads                 [#dataflow.map<"{ S[..] -> In0[..] : .. }">, ...], one per operand
 *   writes                #dataflow.map<"{ S[..] -> Out[..] : .. }">
 *   macs                  multiply-accumulates per inference
 * and, after the dataflow-deps pass, per operand:
 *   earliest              [#dataflow.map<"{ S[..] -> P[..] }">, ...]  consumer iteration -> the
 *                         producer iteration it waits for (monotone prefix lexmax)
 *   control               [#dataflow.map<"{ P[..] -> S[..] }">, ...]  producer iteration -> the
 *                         last consumer iteration allowed to run
 *   buffer_elements       array<i64: ...>  the channel's minimum buffer, in elements
 * See docs/design/spine.md (section 2), docs/dialects/dataflow.md and
 * docs/dataflow-dependences.md.
 *
 * Tensor coordinates (one convention everywhere): a tensor of type
 * tensor<1 x d1 x ... x dn> is addressed as T[i1, ..., in] (a leading batch
 * dim of 1 is dropped: [1, C, H, W] is T[c, y, x], [1, K] is F[i]); any
 * other tensor by all its dims. A node's statement is named S, its operands
 * In0, In1, ..., its result Out; in earliest/control the producer's
 * statement is named P (a function argument or other value produced outside
 * the nodes is an input source P[y, x] or P[y] writing in row-major order).
 *
 * isl objects are returned in a caller-provided isl_ctx (ownership as isl
 * writes it: __isl_give); on bad text or an isl error they are NULL, never
 * an abort (the ctx is switched to ISL_ON_ERROR_CONTINUE for the call).
 */
#ifndef NC_DIALECTS_DATAFLOW_DATAFLOW_H
#define NC_DIALECTS_DATAFLOW_DATAFLOW_H

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include "nc/dialects/dataflow/deps.h"
#include "nc/dialects/dataflow/layer.h"
#include "nc/ir/ods.h"

/** The dataflow dialect definition (registered by nc_register_all_dialects). */
extern const nc_dialect_def nc_dataflow_dialect;

/* ------------------------------------------------------------------------ */
/* Attributes: #dataflow.set<"isl set"> and #dataflow.map<"isl map">         */
/* ------------------------------------------------------------------------ */

/** `#dataflow.set<"text">`; the text is not checked here (node verification
 * and the parser check it with isl). */
NC_KEEP nc_attr *nc_dataflow_set_attr_get(nc_context *ctx, const char *isl_text);
/** `#dataflow.map<"text">`. */
NC_KEEP nc_attr *nc_dataflow_map_attr_get(nc_context *ctx, const char *isl_text);
/** The same from isl objects (printed by isl); NULL if the object is NULL. */
NC_KEEP nc_attr *nc_dataflow_set_attr_from_isl(nc_context *ctx, __isl_keep isl_set *set);
NC_KEEP nc_attr *nc_dataflow_map_attr_from_isl(nc_context *ctx, __isl_keep isl_map *map);
/** True for a #dataflow.set / #dataflow.map attribute. */
bool nc_dataflow_attr_is_set(NC_KEEP const nc_attr *a);
bool nc_dataflow_attr_is_map(NC_KEEP const nc_attr *a);
/** The isl text of a #dataflow.set or #dataflow.map (escapes undone), or
 * NULL for other attributes; free with free(). */
NC_GIVE char *nc_dataflow_attr_get_text(NC_KEEP const nc_attr *a);
/** The attribute as an isl object in `ctx`; NULL if it is not of that kind,
 * the text is not exactly one isl set (map), or isl fails. */
__isl_give isl_set *nc_dataflow_attr_get_isl_set(NC_KEEP const nc_attr *a, isl_ctx *ctx);
__isl_give isl_map *nc_dataflow_attr_get_isl_map(NC_KEEP const nc_attr *a, isl_ctx *ctx);

/** Parses isl text as exactly one set (map): trailing text, a map where a
 * set is expected (or the reverse) and syntax errors give NULL and, if
 * `err` is not NULL, a message. Never aborts or prints. */
__isl_give isl_set *nc_dataflow_parse_isl_set(isl_ctx *ctx, const char *text, char *err, size_t errlen);
__isl_give isl_map *nc_dataflow_parse_isl_map(isl_ctx *ctx, const char *text, char *err, size_t errlen);

/** A new isl context whose reads through the functions above parse each
 * distinct text once and hand later reads a copy (isl objects are reference
 * counted, so a copy costs nothing): a pass reads the same domains and access
 * relations from its nodes many times, and isl's parser simplifies as it
 * reads. Release it with nc_dataflow_isl_ctx_destroy, never isl_ctx_free. */
NC_GIVE isl_ctx *nc_dataflow_isl_ctx_create(void);
/** Frees the remembered objects, then `ctx` (from nc_dataflow_isl_ctx_create;
 * NULL is a no-op). */
void nc_dataflow_isl_ctx_destroy(NC_TAKE isl_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* Nodes                                                                     */
/* ------------------------------------------------------------------------ */

/** True if `op` is a dataflow.node. */
bool nc_dataflow_is_node(NC_KEEP const nc_op *op);
/** The first dataflow.node directly in `func`'s body (a func.func or any op
 * with one region), in pipeline order, or NULL. */
NC_KEEP nc_op *nc_dataflow_first_node(NC_KEEP nc_op *func);
/** The next dataflow.node after `node` in its block, or NULL. Nodes are in
 * pipeline order: SSA order is a topological order of the channels. */
NC_KEEP nc_op *nc_dataflow_next_node(NC_KEEP nc_op *node);
/** Number of dataflow.nodes directly in `func`'s body. */
size_t nc_dataflow_num_nodes(NC_KEEP nc_op *func);

/** The node's name and kind ("" if absent). */
NC_KEEP const char *nc_dataflow_node_get_name(NC_KEEP const nc_op *node);
NC_KEEP const char *nc_dataflow_node_get_kind(NC_KEEP const nc_op *node);
/** Multiply-accumulates per inference (0 if absent). */
int64_t nc_dataflow_node_get_macs(NC_KEEP const nc_op *node);
/** Number of inputs (operands = reads = block arguments). */
size_t nc_dataflow_node_get_num_inputs(NC_KEEP const nc_op *node);
/** The node producing input i, or NULL when the input comes from outside the
 * nodes (a function argument or a host op: an input source). */
NC_KEEP nc_op *nc_dataflow_node_get_producer(NC_KEEP const nc_op *node, size_t i);

/** The iteration domain { S[...] }. */
__isl_give isl_set *nc_dataflow_node_get_domain(NC_KEEP const nc_op *node, isl_ctx *ctx);
/** The read relation of input i, { S[...] -> In<i>[...] }. */
__isl_give isl_map *nc_dataflow_node_get_read(NC_KEEP const nc_op *node, size_t i, isl_ctx *ctx);
/** All reads as one union map. */
__isl_give isl_union_map *nc_dataflow_node_get_reads(NC_KEEP const nc_op *node, isl_ctx *ctx);
/** The write relation { S[...] -> Out[...] }. */
__isl_give isl_map *nc_dataflow_node_get_writes(NC_KEEP const nc_op *node, isl_ctx *ctx);

/** True once dataflow-deps has set earliest, control and buffer_elements. */
bool nc_dataflow_node_has_deps(NC_KEEP const nc_op *node);
/** Input i's Earliest relation { S[...] -> P[...] }, NULL before dataflow-deps. */
__isl_give isl_map *nc_dataflow_node_get_earliest(NC_KEEP const nc_op *node, size_t i, isl_ctx *ctx);
/** Input i's Control relation { P[...] -> S[...] }, NULL before dataflow-deps. */
__isl_give isl_map *nc_dataflow_node_get_control(NC_KEEP const nc_op *node, size_t i, isl_ctx *ctx);
/** Input i's minimum buffer in elements, -1 before dataflow-deps. */
int64_t nc_dataflow_node_get_buffer_elements(NC_KEEP const nc_op *node, size_t i);

/** The body block (its arguments are the inputs, its last op the yield). */
NC_KEEP nc_block *nc_dataflow_node_get_body(NC_KEEP const nc_op *node);
/** The dataflow.yield terminating the body, or NULL if malformed. */
NC_KEEP nc_op *nc_dataflow_node_get_yield(NC_KEEP const nc_op *node);
/** The first op of the body named `name`, or NULL. For graph-level code
 * (graph-to-dataflow, tests): the levels below read the layer (layer.h). */
NC_KEEP nc_op *nc_dataflow_node_find_op(NC_KEEP const nc_op *node, const char *name);
/** The layer's main op: the first body op that is not a constant (the op
 * graph-to-dataflow grouped the others around), or NULL. For graph-level
 * code only, as nc_dataflow_node_find_op. */
NC_KEEP nc_op *nc_dataflow_node_get_layer_op(NC_KEEP const nc_op *node);

/** The set of all elements of a tensor `name` with n coordinates of sizes
 * dims: { name[i0, ..., in-1] : 0 <= ik < dims[k] }; NULL if isl fails. */
__isl_give isl_set *nc_dataflow_tensor_box(isl_ctx *ctx, const char *name, int n, const int64_t *dims);

/** The tensor coordinates of a ranked, static tensor type (see the header
 * comment): writes the extents to dims (at most NC_MAX_RANK) and returns
 * their count, or -1 for other types. */
int nc_dataflow_tensor_coords(NC_KEEP const nc_type *t, int64_t *dims);

/* ------------------------------------------------------------------------ */
/* Building and removing nodes                                               */
/* ------------------------------------------------------------------------ */

/** What describes one layer (all attributes of a node but its region). */
typedef struct nc_dataflow_layer_desc {
  const char *kind;  /**< a layer kind name (layer.h) written to `kind`, or NULL to leave it to
                          nc_dataflow_node_set_layer */
  const char *name_hint; /**< what the node's name is made of ("conv", "pool", "flatten", ...) */
  char *domain;      /**< isl text (malloc'ed) */
  char **reads;      /**< isl text, one per input (malloc'ed array of malloc'ed strings) */
  size_t n_reads;
  char *writes;      /**< isl text (malloc'ed) */
  int64_t macs;
} nc_dataflow_layer_desc;

/** Frees the strings of a description (not the struct). */
void nc_dataflow_layer_desc_clear(nc_dataflow_layer_desc *d);

/** The node inputs of a group of ops: the values used by `ops` that are
 * neither defined in the group nor by a constant op, in order of first use.
 * Returns the count; *inputs is malloc'ed (free it). */
size_t nc_dataflow_group_inputs(NC_KEEP nc_op *const *ops, size_t n_ops, NC_GIVE nc_value ***inputs);

/** Wraps `ops` (ops of one block in block order, the last one producing the
 * layer's single output; every op's results used outside the group only
 * through the last op's result) into a new dataflow.node placed where the
 * last op was: the group's inputs (nc_dataflow_group_inputs) become its
 * operands and block arguments, the constants the group uses are moved into
 * the region (cloned when used elsewhere too) in block order, and `desc`
 * gives the attributes. Returns the node. */
NC_KEEP nc_op *nc_dataflow_node_wrap(nc_op *const *ops, size_t n_ops, const char *name,
                                     NC_KEEP const nc_dataflow_layer_desc *desc);

/** Replaces a node by the ops of its region (the inverse of wrapping): the
 * ops move before the node, block arguments become the node's operands and
 * the node's results the yielded values. */
void nc_dataflow_node_inline(nc_op *node);

#endif
