/* rewrite.h: the rewriter that patterns use, pattern sets, folding, and the
 * greedy pattern driver behind canonicalize (MLIR's applyPatternsGreedily).
 *
 * Patterns must change IR only through the rewriter, which tells the driver
 * what changed so it can revisit the affected ops.
 */
#ifndef NC_IR_REWRITE_H
#define NC_IR_REWRITE_H

#include "nc/ir/ods.h"

/** Returns the context of the IR being rewritten. */
NC_KEEP nc_context *nc_rewriter_get_context(nc_rewriter *rw);
/** Insertion points for nc_rewriter_create. */
void nc_rewriter_set_insertion_point_before(nc_rewriter *rw, nc_op *op);
void nc_rewriter_set_insertion_point_after(nc_rewriter *rw, nc_op *op);
void nc_rewriter_set_insertion_point_to_start(nc_rewriter *rw, nc_block *b);
void nc_rewriter_set_insertion_point_to_end(nc_rewriter *rw, nc_block *b);
/** Creates an op at the insertion point (NULL with a diagnostic on failure);
 * the op is owned by its block. */
NC_KEEP nc_op *nc_rewriter_create(nc_rewriter *rw, NC_KEEP const nc_op_state *st);
/** Inserts a detached op at the insertion point. */
void nc_rewriter_insert(nc_rewriter *rw, NC_TAKE nc_op *op);
/** Replaces all uses of op's results with `values` and erases op. */
void nc_rewriter_replace_op(nc_rewriter *rw, nc_op *op, nc_value *const *values);
/** Replaces op with the results of another (already inserted) op. */
void nc_rewriter_replace_op_with_op(nc_rewriter *rw, nc_op *op, nc_op *with);
/** Erases an op whose results have no uses. */
void nc_rewriter_erase_op(nc_rewriter *rw, nc_op *op);
/** Call after changing an op in place (operands, attributes, types). */
void nc_rewriter_modified(nc_rewriter *rw, nc_op *op);
/** Replaces all uses of a value, telling the driver about the users. */
void nc_rewriter_replace_all_uses_with(nc_rewriter *rw, nc_value *from, nc_value *to);
/** Creates (or reuses) a constant of `value`/`type` via the dialect's
 * materialize_constant hook, placed where the driver keeps constants. */
NC_KEEP nc_value *nc_rewriter_materialize_constant(nc_rewriter *rw, NC_KEEP const nc_dialect_def *dialect,
                                                   nc_attr *value, nc_type *type, nc_location loc);
/** A standalone rewriter (no driver): changes apply immediately. */
NC_GIVE nc_rewriter *nc_rewriter_create_standalone(nc_context *ctx);
void nc_rewriter_destroy(NC_TAKE nc_rewriter *rw);

/** The constant value of a value defined by a ConstantLike op, or NULL. */
NC_KEEP nc_attr *nc_value_get_constant(NC_KEEP nc_value *v);

/** A set of patterns indexed by root op name. */
typedef struct nc_pattern_set nc_pattern_set;
/** Creates an empty set. */
NC_GIVE nc_pattern_set *nc_pattern_set_create(nc_context *ctx);
/** Frees the set (not the patterns, which are static data). */
void nc_pattern_set_destroy(NC_TAKE nc_pattern_set *s);
/** Adds a pattern for ops named `root` (NULL: every op). */
void nc_pattern_set_add(nc_pattern_set *s, const char *root, NC_KEEP const nc_pattern *p);
/** Adds the canonicalization patterns of every registered op, skipping the
 * ones named in `disabled` and, if `n_enabled` > 0, keeping only `enabled`. */
void nc_pattern_set_add_canonicalizations(nc_pattern_set *s, size_t n_disabled, const char *const *disabled,
                                          size_t n_enabled, const char *const *enabled);

/** Region simplification levels (canonicalize's region-simplify option). */
typedef enum nc_region_simplify {
  NC_REGION_SIMPLIFY_DISABLED,
  NC_REGION_SIMPLIFY_NORMAL,
  NC_REGION_SIMPLIFY_AGGRESSIVE,
} nc_region_simplify;

/** Greedy driver configuration (MLIR's GreedyRewriteConfig). */
typedef struct nc_greedy_config {
  int64_t max_iterations;   /* default 10; -1 for no limit */
  int64_t max_num_rewrites; /* -1 for no limit */
  bool top_down;            /* default true */
  nc_region_simplify region_simplify; /* default normal */
  bool fold;                /* default true */
} nc_greedy_config;

/** The default configuration. */
nc_greedy_config nc_greedy_config_default(void);

/** Statistics of one driver run. */
typedef struct nc_greedy_stats {
  bool converged;
  uint64_t rewrites;   /* patterns applied */
  uint64_t folds;      /* ops folded */
  uint64_t erased;     /* ops erased as dead */
} nc_greedy_stats;

/** Applies patterns and folds to the ops nested in `root`'s regions until a
 * fixpoint (or the limits). Dead ops are erased and constants are deduplicated
 * and hoisted to the entry block of the nearest isolated region. */
void nc_apply_patterns_greedily(nc_op *root, NC_KEEP const nc_pattern_set *patterns, NC_KEEP const nc_greedy_config *cfg,
                                nc_greedy_stats *stats);

/** True if the op has no used results and no side effects (and is not a
 * terminator or symbol). */
bool nc_op_is_trivially_dead(NC_KEEP nc_op *op);

#endif
