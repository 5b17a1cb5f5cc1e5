/* dataflow_internal.h: what the files of the dataflow dialect share and the
 * public header (nc/dialects/dataflow/dataflow.h) hides. Include only from
 * dialects/dataflow/. */
#ifndef NC_DIALECTS_DATAFLOW_DATAFLOW_INTERNAL_H
#define NC_DIALECTS_DATAFLOW_DATAFLOW_INTERNAL_H

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/ir/diag.h"
#include "nc/ir/dialect_attrs.h"

/** While alive, `ctx` reports errors by returning NULL (never aborting or
 * printing); leaving restores the caller's error mode. */
typedef struct df_isl_scope {
  isl_ctx *ctx;
  int saved;
} df_isl_scope;
df_isl_scope df_isl_scope_enter(isl_ctx *ctx);
void df_isl_scope_exit(df_isl_scope s);

/** The dialect's attribute definitions: #dataflow.set, #dataflow.map. */
#define DF_NUM_ATTRS 2
extern const nc_dialect_attr_def df_attr_defs[DF_NUM_ATTRS];

/** The dialect's verify_attr hook, for dialect attributes kept as text: any
 * mnemonic but `set` and `map` is an error. */
bool df_verify_attr(nc_context *ctx, nc_location loc, NC_KEEP nc_attr *a);

/** Checks every attribute of a node against its operands, results and
 * region (the op's verify hook). */
bool df_verify_node(nc_op *op);

/** Checks the node's `kind` and `params` (layer.h) with diagnostics at the
 * node; the same decoder as nc_dataflow_node_get_layer. */
bool df_verify_layer(nc_op *node);

/** The memo of an isl context from nc_dataflow_isl_ctx_create, or NULL for
 * any other context (dataflow_isl_memo.c). */
typedef struct df_isl_memo df_isl_memo;
df_isl_memo *df_isl_memo_of(isl_ctx *ctx);
/** A copy of the object parsed from `text` (a set if is_set, else a map), or
 * NULL if the memo has none. */
void *df_isl_memo_get(df_isl_memo *m, const char *text, bool is_set);
/** Remembers a copy of `obj` (kept by the caller), parsed from `text`. */
void df_isl_memo_put(df_isl_memo *m, const char *text, bool is_set, void *obj);

/** isl_set_to_str / isl_map_to_str into a malloc'ed string (NULL on error). */
NC_GIVE char *df_set_text(__isl_keep isl_set *s);
NC_GIVE char *df_map_text(__isl_keep isl_map *m);

#endif
