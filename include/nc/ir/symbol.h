/* symbol.h: symbols and symbol tables.
 *
 * An op with the SymbolTable trait (builtin.module) holds symbols: ops with a
 * `sym_name` string attribute (func.func), unique within the table. Symbol
 * references (`@f`, `@m::@f`) are resolved from the nearest enclosing table.
 */
#ifndef NC_IR_SYMBOL_H
#define NC_IR_SYMBOL_H

#include "nc/ir/ops.h"

/** A name -> op map for the symbols directly inside one symbol-table op. */
typedef struct nc_symbol_table nc_symbol_table;

/** Builds the table of `table_op`'s first region. */
NC_GIVE nc_symbol_table *nc_symbol_table_create(NC_KEEP nc_op *table_op);
/** Frees the table (not the ops). */
void nc_symbol_table_destroy(NC_TAKE nc_symbol_table *t);
/** The symbol op named `name`, or NULL. */
NC_KEEP nc_op *nc_symbol_table_lookup(NC_KEEP const nc_symbol_table *t, NC_KEEP const nc_ident *name);
/** Records a symbol op (already in the table op's body). */
void nc_symbol_table_insert(nc_symbol_table *t, NC_KEEP nc_op *op);
/** Forgets a symbol op. */
void nc_symbol_table_remove(nc_symbol_table *t, NC_KEEP nc_op *op);

/** A cache of symbol tables, built on demand (verifier, symbol-dce, calls). */
typedef struct nc_symbol_table_collection nc_symbol_table_collection;
/** Creates an empty cache. */
NC_GIVE nc_symbol_table_collection *nc_symbol_table_collection_create(void);
/** Frees the cache and its tables (not the ops). */
void nc_symbol_table_collection_destroy(NC_TAKE nc_symbol_table_collection *c);
/** The (cached) table of a symbol-table op. */
NC_KEEP nc_symbol_table *nc_symbol_table_collection_get(nc_symbol_table_collection *c, NC_KEEP nc_op *table_op);
/** Resolves `ref` (flat or nested) starting from the nearest symbol table
 * enclosing `from` (or `from` itself if it is one); NULL if not found. */
NC_KEEP nc_op *nc_symbol_lookup_nearest(nc_symbol_table_collection *c, NC_KEEP nc_op *from, NC_KEEP const nc_attr *ref);

/** The `sym_name` of a symbol op, or NULL. */
NC_KEEP nc_ident *nc_symbol_get_name(NC_KEEP const nc_op *op);
/** True if the symbol's `sym_visibility` is "private". */
bool nc_symbol_is_private(NC_KEEP const nc_op *op);
/** The nearest ancestor (excluding op) with the SymbolTable trait, or NULL. */
NC_KEEP nc_op *nc_symbol_get_nearest_table(NC_KEEP nc_op *op);
/** Calls fn for every symbol reference attribute used by ops nested in
 * `from` (not `from` itself); stops early if fn returns false. */
bool nc_symbol_walk_uses(NC_KEEP nc_op *from, bool (*fn)(NC_KEEP nc_op *user, NC_KEEP nc_attr *ref, void *u), void *u);

#endif
