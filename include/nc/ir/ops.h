/* ops.h: operations, values, blocks and regions, and the builder API.
 *
 * An op has a name, operands (uses of values), results, properties (its
 * inherent attributes), a dictionary of discardable attributes, regions of
 * blocks, successors and a location. Ops in a block and blocks in a region
 * form intrusive doubly linked lists; every value keeps the list of its uses.
 * Ops, blocks and regions are allocated from their context's pool.
 *
 * Ownership: nc_op_create and nc_block_create return detached objects owned
 * by the caller until inserted into a block or region, which then owns them.
 * nc_op_destroy/nc_block_destroy free a detached object and everything
 * nested in it; nc_op_erase unlinks and destroys an attached op.
 */
#ifndef NC_IR_OPS_H
#define NC_IR_OPS_H

#include "nc/ir/attrs.h"

/* --- values ------------------------------------------------------------------ */

/** The value's type. */
NC_KEEP nc_type *nc_value_get_type(NC_KEEP const nc_value *v);
/** Changes the value's type (the caller keeps the IR valid). */
void nc_value_set_type(nc_value *v, nc_type *type);
/** True if the value is a block argument, false if it is an op result. */
bool nc_value_is_block_arg(NC_KEEP const nc_value *v);
/** The op that defines a result; NULL for block arguments. */
NC_KEEP nc_op *nc_value_get_defining_op(NC_KEEP const nc_value *v);
/** Result number of an op result, or argument number of a block argument. */
unsigned nc_value_get_index(NC_KEEP const nc_value *v);
/** The block that owns a block argument, or that contains the defining op. */
NC_KEEP nc_block *nc_value_get_parent_block(NC_KEEP const nc_value *v);
/** The region containing the value's definition (NULL if detached). */
NC_KEEP nc_region *nc_value_get_parent_region(NC_KEEP const nc_value *v);
/** Location of a block argument (results use their op's location). */
nc_location nc_value_get_loc(NC_KEEP const nc_value *v);
/** Sets the location of a block argument (for results, set their op's location). */
void nc_block_arg_set_loc(nc_value *arg, nc_location loc);
/** The first use of the value, or NULL. */
NC_KEEP nc_use *nc_value_get_first_use(NC_KEEP const nc_value *v);
/** True if the value has no uses. */
bool nc_value_use_empty(NC_KEEP const nc_value *v);
/** True if the value has exactly one use. */
bool nc_value_has_one_use(NC_KEEP const nc_value *v);
/** Number of uses (walks the use list). */
size_t nc_value_get_num_uses(NC_KEEP const nc_value *v);
/** Makes every use of `v` use `with` instead. */
void nc_value_replace_all_uses_with(nc_value *v, nc_value *with);
/** Like nc_value_replace_all_uses_with, but skips uses owned by `except`. */
void nc_value_replace_all_uses_except(nc_value *v, nc_value *with, NC_KEEP const nc_op *except);

/** Next use of the same value, or NULL. */
NC_KEEP nc_use *nc_use_get_next(NC_KEEP const nc_use *u);
/** The op that owns the operand. */
NC_KEEP nc_op *nc_use_get_owner(NC_KEEP const nc_use *u);
/** The operand number of the use in its owner. */
unsigned nc_use_get_operand_index(NC_KEEP const nc_use *u);
/** The used value. */
NC_KEEP nc_value *nc_use_get_value(NC_KEEP const nc_use *u);
/** Makes the use refer to another value. */
void nc_use_set(nc_use *u, nc_value *v);

/* --- creating ops ---------------------------------------------------------------- */

/** Everything needed to create an op. Arrays are borrowed for the call;
 * compound literals make one-line creation easy:
 *   nc_op_create(&(nc_op_state){.ctx = ctx, .name = "arith.addi", .loc = loc,
 *     .n_operands = 2, .operands = (nc_value *[]){a, b},
 *     .n_results = 1, .result_types = (nc_type *[]){t}});
 * Attributes in `attrs` are split by the op definition into inherent ones
 * (stored as properties) and discardable ones; for unregistered ops all of
 * them are discardable and `props` (any attribute, or NULL) is kept as is. */
typedef struct nc_op_state {
  nc_context *ctx;
  const char *name;        /* full op name, e.g. "graph.conv" */
  nc_ident *name_id;       /* alternatively, the interned name */
  nc_location loc;
  size_t n_operands;
  nc_value *const *operands;
  size_t n_results;
  nc_type *const *result_types;
  size_t n_attrs;
  const nc_named_attr *attrs;
  nc_attr *props;          /* properties attribute (merged with inherent attrs) */
  size_t n_regions;        /* empty regions are created */
  size_t n_successors;
  nc_block *const *successors;
} nc_op_state;

/** Creates a detached op. Returns NULL (after emitting a diagnostic at the
 * state's location) if the name is not a registered op and unregistered
 * dialects are not allowed. The op is not verified. */
NC_GIVE nc_op *nc_op_create(NC_KEEP const nc_op_state *state);
/** Frees a detached op with its regions; its results must have no uses. */
void nc_op_destroy(NC_TAKE nc_op *op);
/** Unlinks an op from its block and destroys it; results must have no uses. */
void nc_op_erase(NC_TAKE nc_op *op);
/** Unlinks an op from its block; the caller owns it again. */
void nc_op_remove(nc_op *op);
/** Inserts a detached op before / after an attached op. */
void nc_op_insert_before(NC_TAKE nc_op *op, nc_op *anchor);
void nc_op_insert_after(NC_TAKE nc_op *op, nc_op *anchor);
/** Moves an attached op before / after another attached op (any block). */
void nc_op_move_before(nc_op *op, nc_op *anchor);
void nc_op_move_after(nc_op *op, nc_op *anchor);
/** Replaces every use of the op's results with `values` (n_results of them). */
void nc_op_replace_all_uses_with(nc_op *op, nc_value *const *values);
/** Replaces every use of op's results with other's results (same count). */
void nc_op_replace_all_uses_with_op(nc_op *op, nc_op *other);
/** Drops all operand uses of the op and of every op nested in it. */
void nc_op_drop_all_uses_of_operands(nc_op *op);

/** A mapping from old values and blocks to new ones, used by cloning. */
typedef struct nc_mapping nc_mapping;
/** Creates an empty mapping. */
NC_GIVE nc_mapping *nc_mapping_create(void);
/** Frees a mapping. */
void nc_mapping_destroy(NC_TAKE nc_mapping *m);
/** Maps a value / block. */
void nc_mapping_map_value(nc_mapping *m, NC_KEEP nc_value *from, NC_KEEP nc_value *to);
void nc_mapping_map_block(nc_mapping *m, NC_KEEP nc_block *from, NC_KEEP nc_block *to);
/** The mapped value / block, or NULL. */
NC_KEEP nc_value *nc_mapping_lookup_value(NC_KEEP const nc_mapping *m, NC_KEEP const nc_value *from);
NC_KEEP nc_block *nc_mapping_lookup_block(NC_KEEP const nc_mapping *m, NC_KEEP const nc_block *from);
/** Deep-copies a detached or attached op (with its regions) as a new detached
 * op. Operands found in `map` are remapped, others are kept; the new results,
 * blocks and block arguments are recorded in `map` (which may be NULL). */
NC_GIVE nc_op *nc_op_clone(NC_KEEP nc_op *op, nc_mapping *map);
/** Clones the blocks of `from` into `to` (appended), recording them in map. */
void nc_region_clone_into(NC_KEEP nc_region *from, nc_region *to, nc_mapping *map);

/* --- querying ops ----------------------------------------------------------------- */

/** The op's interned full name. */
NC_KEEP nc_ident *nc_op_get_name(NC_KEEP const nc_op *op);
/** True if the op's name is `name` (NUL-terminated). */
bool nc_op_is(NC_KEEP const nc_op *op, const char *name);
/** The op's definition, or NULL for unregistered ops. */
NC_KEEP const nc_op_def *nc_op_get_def(NC_KEEP const nc_op *op);
/** The context that owns the op. */
NC_KEEP nc_context *nc_op_get_context(NC_KEEP const nc_op *op);
/** The op's location. */
nc_location nc_op_get_loc(NC_KEEP const nc_op *op);
/** Sets the op's location. */
void nc_op_set_loc(nc_op *op, nc_location loc);
/** Operands. */
size_t nc_op_get_num_operands(NC_KEEP const nc_op *op);
NC_KEEP nc_value *nc_op_get_operand(NC_KEEP const nc_op *op, size_t i);
NC_KEEP nc_use *nc_op_get_operand_use(NC_KEEP nc_op *op, size_t i);
void nc_op_set_operand(nc_op *op, size_t i, nc_value *v);
/** Replaces all operands (the count may change). */
void nc_op_set_operands(nc_op *op, size_t n, nc_value *const *vals);
/** Inserts / erases operands at a position. */
void nc_op_insert_operands(nc_op *op, size_t pos, size_t n, nc_value *const *vals);
void nc_op_erase_operands(nc_op *op, size_t pos, size_t n);
/** Results. */
size_t nc_op_get_num_results(NC_KEEP const nc_op *op);
NC_KEEP nc_value *nc_op_get_result(NC_KEEP const nc_op *op, size_t i);
/** Regions. */
size_t nc_op_get_num_regions(NC_KEEP const nc_op *op);
NC_KEEP nc_region *nc_op_get_region(NC_KEEP const nc_op *op, size_t i);
/** Successors. */
size_t nc_op_get_num_successors(NC_KEEP const nc_op *op);
NC_KEEP nc_block *nc_op_get_successor(NC_KEEP const nc_op *op, size_t i);
void nc_op_set_successor(nc_op *op, size_t i, nc_block *b);

/** Operand range of operand group `group` of a registered op (resolving
 * variadic and optional operands, with operandSegmentSizes when present).
 * Returns false if the op does not match its definition. */
bool nc_op_get_operand_group(NC_KEEP const nc_op *op, size_t group, size_t *start, size_t *count);
/** Same for result groups. */
bool nc_op_get_result_group(NC_KEEP const nc_op *op, size_t group, size_t *start, size_t *count);
/** Operand of a registered op by its declared name (the first operand of
 * the group), or NULL if the group is empty. */
NC_KEEP nc_value *nc_op_get_operand_by_name(NC_KEEP const nc_op *op, const char *name);

/** Attributes: properties (inherent attributes) are looked up first, then the
 * discardable dictionary. */
NC_KEEP nc_attr *nc_op_get_attr(NC_KEEP const nc_op *op, NC_KEEP const nc_ident *name);
NC_KEEP nc_attr *nc_op_get_attr_str(NC_KEEP const nc_op *op, const char *name);
/** Sets an attribute: into the properties if `name` is inherent to the op's
 * definition, into the discardable dictionary otherwise. */
void nc_op_set_attr(nc_op *op, nc_ident *name, nc_attr *value);
void nc_op_set_attr_str(nc_op *op, const char *name, nc_attr *value);
/** Removes an attribute; returns true if it was present. */
bool nc_op_remove_attr(nc_op *op, NC_KEEP const nc_ident *name);
/** The discardable attribute dictionary (never NULL). */
NC_KEEP nc_attr *nc_op_get_attr_dict(NC_KEEP const nc_op *op);
/** Replaces the discardable dictionary (NULL means empty). */
void nc_op_set_attr_dict(nc_op *op, nc_attr *dict);
/** The properties attribute (a dictionary for registered ops; may be NULL). */
NC_KEEP nc_attr *nc_op_get_props(NC_KEEP const nc_op *op);
/** Replaces the properties attribute. */
void nc_op_set_props(nc_op *op, nc_attr *props);

/** Navigation. */
NC_KEEP nc_block *nc_op_get_block(NC_KEEP const nc_op *op);
NC_KEEP nc_region *nc_op_get_parent_region(NC_KEEP const nc_op *op);
NC_KEEP nc_op *nc_op_get_parent_op(NC_KEEP const nc_op *op);
NC_KEEP nc_op *nc_op_get_next(NC_KEEP const nc_op *op);
NC_KEEP nc_op *nc_op_get_prev(NC_KEEP const nc_op *op);
/** True if `a` comes before `b` in the same block (amortised O(1)). */
bool nc_op_is_before_in_block(NC_KEEP nc_op *a, NC_KEEP nc_op *b);
/** True if `ancestor` is `op` or contains it. */
bool nc_op_is_ancestor(NC_KEEP const nc_op *ancestor, NC_KEEP const nc_op *op);
/** The ancestor of `op` (or op itself) that lives directly in `block`, or NULL. */
NC_KEEP nc_op *nc_block_find_ancestor_op(NC_KEEP const nc_block *block, NC_KEEP nc_op *op);
/** Nearest ancestor (or self) with the given name, or NULL. */
NC_KEEP nc_op *nc_op_get_parent_of_name(NC_KEEP nc_op *op, const char *name);

/* --- walking -------------------------------------------------------------- */

/** What a walk callback asks for next. */
typedef enum nc_walk_result {
  NC_WALK_ADVANCE,   /* continue */
  NC_WALK_SKIP,      /* (pre-order) do not visit the op's regions */
  NC_WALK_INTERRUPT, /* stop the whole walk */
} nc_walk_result;

/** Walk order. */
typedef enum nc_walk_order { NC_WALK_PRE_ORDER, NC_WALK_POST_ORDER } nc_walk_order;

/** Walk callback. In post-order the callback may erase the op it is given. */
typedef nc_walk_result (*nc_walk_fn)(nc_op *op, void *user);

/** Visits `op` and every op nested in it. Returns NC_WALK_INTERRUPT if a
 * callback interrupted the walk, NC_WALK_ADVANCE otherwise. */
nc_walk_result nc_op_walk(nc_op *op, nc_walk_order order, nc_walk_fn fn, void *user);

/* --- blocks ------------------------------------------------------------------------ */

/** Creates a detached empty block. */
NC_GIVE nc_block *nc_block_create(nc_context *ctx);
/** Destroys a detached block and its ops. */
void nc_block_destroy(NC_TAKE nc_block *b);
/** Unlinks and destroys an attached block (no predecessors may remain). */
void nc_block_erase(NC_TAKE nc_block *b);
/** Appends an argument. */
NC_KEEP nc_value *nc_block_add_arg(nc_block *b, nc_type *type, nc_location loc);
/** Inserts an argument at `pos`. */
NC_KEEP nc_value *nc_block_insert_arg(nc_block *b, size_t pos, nc_type *type, nc_location loc);
/** Erases argument `i` (it must have no uses). */
void nc_block_erase_arg(nc_block *b, size_t i);
size_t nc_block_get_num_args(NC_KEEP const nc_block *b);
NC_KEEP nc_value *nc_block_get_arg(NC_KEEP const nc_block *b, size_t i);
/** First/last op, or NULL when empty. */
NC_KEEP nc_op *nc_block_get_first_op(NC_KEEP const nc_block *b);
NC_KEEP nc_op *nc_block_get_last_op(NC_KEEP const nc_block *b);
/** The last op if it is a terminator (registered with the Terminator trait,
 * or unregistered and last), else NULL. */
NC_KEEP nc_op *nc_block_get_terminator(NC_KEEP const nc_block *b);
bool nc_block_is_empty(NC_KEEP const nc_block *b);
/** Appends / prepends a detached op. */
void nc_block_append_op(nc_block *b, NC_TAKE nc_op *op);
void nc_block_prepend_op(nc_block *b, NC_TAKE nc_op *op);
/** Moves ops [first, end of block) of another block to the end of `b`. */
void nc_block_splice_ops(nc_block *b, nc_op *first);
NC_KEEP nc_block *nc_block_get_next(NC_KEEP const nc_block *b);
NC_KEEP nc_block *nc_block_get_prev(NC_KEEP const nc_block *b);
NC_KEEP nc_region *nc_block_get_parent_region(NC_KEEP const nc_block *b);
NC_KEEP nc_op *nc_block_get_parent_op(NC_KEEP const nc_block *b);
/** True if the block is the first of its region. */
bool nc_block_is_entry(NC_KEEP const nc_block *b);
/** Number of predecessor edges (successor slots of terminators targeting b). */
size_t nc_block_get_num_predecessors(NC_KEEP const nc_block *b);
/** Predecessor edge iteration: the op whose successor slot targets b. */
typedef struct nc_block_use nc_block_use;
/** First predecessor edge of b, the next edge, and the edge's terminator. */
NC_KEEP nc_block_use *nc_block_get_first_pred(NC_KEEP const nc_block *b);
NC_KEEP nc_block_use *nc_block_use_get_next(NC_KEEP const nc_block_use *u);
NC_KEEP nc_op *nc_block_use_get_owner(NC_KEEP const nc_block_use *u);
/** Successor count of the block's terminator, and successor i. */
size_t nc_block_get_num_successors(NC_KEEP const nc_block *b);
NC_KEEP nc_block *nc_block_get_successor(NC_KEEP const nc_block *b, size_t i);

/* --- regions ------------------------------------------------------------------ */

/** First / last block of the region (NULL if empty), its parent op, emptiness. */
NC_KEEP nc_block *nc_region_get_first_block(NC_KEEP const nc_region *r);
NC_KEEP nc_block *nc_region_get_last_block(NC_KEEP const nc_region *r);
NC_KEEP nc_op *nc_region_get_parent_op(NC_KEEP const nc_region *r);
bool nc_region_is_empty(NC_KEEP const nc_region *r);
/** Number of blocks (walks the list). */
size_t nc_region_get_num_blocks(NC_KEEP const nc_region *r);
/** Appends / inserts a detached block. */
void nc_region_append_block(nc_region *r, NC_TAKE nc_block *b);
void nc_region_insert_block_before(nc_region *r, NC_TAKE nc_block *b, nc_block *anchor);
/** Unlinks a block from its region; the caller owns it again. */
void nc_block_remove(nc_block *b);
/** Moves all blocks of `src` to the end of `dst`. */
void nc_region_take_body(nc_region *dst, nc_region *src);
/** True if `ancestor` is `r` or contains it. */
bool nc_region_is_ancestor(NC_KEEP const nc_region *ancestor, NC_KEEP const nc_region *r);
/** Creates the entry block of an empty region (convenience). */
NC_KEEP nc_block *nc_region_add_entry_block(nc_region *r);

/* --- verification ------------------------------------------------------------ */

/** Verifies the op and everything nested in it (structure, op definitions,
 * dominance, symbol tables, then symbol uses). Every problem is emitted as a
 * diagnostic at the offending op; returns false if there was any. */
bool nc_op_verify(nc_op *op);

/* --- whole-module helpers ------------------------------------------------------- */

/** Creates a detached `builtin.module` with an empty body block. */
NC_GIVE nc_op *nc_module_create(nc_context *ctx, nc_location loc);
/** The body block of a builtin.module. */
NC_KEEP nc_block *nc_module_get_body(NC_KEEP nc_op *module);

#endif
