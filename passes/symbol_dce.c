/* symbol_dce.c: erases private symbols that nothing live references, with
 * MLIR's semantics (SymbolDCE): ops that are not symbols and public symbols
 * are live (so are `nested` ones in symbol tables visible from outside); a live op makes every symbol it references live (nested
 * references such as @m::@f make both @m and @f live); nested symbol tables
 * are processed recursively. Unregistered ops are never symbols (their
 * meaning is unknown), and an unregistered op with one region might be a
 * symbol table, so uses cannot be computed through it: that is an error. */
#include <stdlib.h>
#include <string.h>

#include "nc/ir/diag.h"
#include "nc/ir/pass.h"
#include "nc/ir/symbol.h"

typedef struct ptr_set {
  nc_op **slots;
  size_t cap, count;
} ptr_set;

static size_t slot_of(const ptr_set *s, const nc_op *op)
{
  size_t h = ((uintptr_t)op >> 4) * 0x9e3779b97f4a7c15ull;
  size_t j = h & (s->cap - 1);
  while (s->slots[j] && s->slots[j] != op)
    j = (j + 1) & (s->cap - 1);
  return j;
}

static bool set_contains(const ptr_set *s, const nc_op *op) { return s->cap && s->slots[slot_of(s, op)] == op; }

/* Inserts op; returns false if it was there already. */
static bool set_insert(ptr_set *s, nc_op *op)
{
  if ((s->count + 1) * 2 > s->cap) {
    ptr_set g = {calloc(s->cap ? s->cap * 2 : 64, sizeof(nc_op *)), s->cap ? s->cap * 2 : 64, 0};
    if (!g.slots)
      abort();
    for (size_t i = 0; i < s->cap; i++)
      if (s->slots[i]) {
        g.slots[slot_of(&g, s->slots[i])] = s->slots[i];
        g.count++;
      }
    free(s->slots);
    *s = g;
  }
  size_t j = slot_of(s, op);
  if (s->slots[j])
    return false;
  s->slots[j] = op;
  s->count++;
  return true;
}

typedef struct dce {
  ptr_set live;
  nc_op **work;
  size_t n_work, cap_work;
  nc_symbol_table_collection *tables;
  uint64_t erased;
} dce;

static void push(dce *d, nc_op *op)
{
  if (d->n_work == d->cap_work) {
    d->cap_work = d->cap_work ? d->cap_work * 2 : 64;
    d->work = realloc(d->work, d->cap_work * sizeof *d->work);
    if (!d->work)
      abort();
  }
  d->work[d->n_work++] = op;
}

static bool is_symbol_table(const nc_op *op) { return nc_op_has_trait(op, NC_TRAIT_SYMBOL_TABLE); }

/* A symbol in MLIR's sense: a registered op implementing the symbol interface
 * (a module is one only when it is named). */
static bool is_symbol(const nc_op *op)
{
  return (nc_op_has_trait(op, NC_TRAIT_SYMBOL) || (is_symbol_table(op) && nc_op_get_def(op))) &&
         nc_symbol_get_name(op);
}

static bool potentially_unknown_table(const nc_op *op)
{
  if (nc_op_get_num_regions(op) != 1 || nc_op_get_def(op))
    return false;
  const char *name = nc_ident_str(nc_op_get_name(op)), *dot = strchr(name, '.');
  return !dot || !nc_context_lookup_dialect(nc_op_get_context(op), name, (size_t)(dot - name));
}

typedef struct use_walk {
  dce *d;
  nc_op *scope; /* the symbol table the references resolve in */
} use_walk;

/* Marks what one symbol reference names (each step of a nested one) live. */
static void mark_ref(dce *d, nc_op *scope, nc_attr *ref)
{
  nc_op *op = nc_symbol_table_lookup(nc_symbol_table_collection_get(d->tables, scope), nc_attr_symbol_ref_get_root(ref));
  for (size_t i = 0;; i++) {
    if (!op)
      return; /* references to unknown symbols are ignored */
    if (set_insert(&d->live, op))
      push(d, op);
    if (i == nc_attr_symbol_ref_get_num_nested(ref) || !is_symbol_table(op))
      return;
    op = nc_symbol_table_lookup(nc_symbol_table_collection_get(d->tables, op), nc_attr_symbol_ref_get_nested(ref, i));
  }
}

static void scan_attr(use_walk *w, nc_attr *a)
{
  if (!a)
    return;
  switch (nc_attr_get_kind(a)) {
  case NC_ATTR_SYMBOL_REF: mark_ref(w->d, w->scope, a); break;
  case NC_ATTR_ARRAY:
    for (size_t i = 0; i < nc_attr_get_num_elements(a); i++)
      scan_attr(w, nc_attr_get_element(a, i));
    break;
  case NC_ATTR_DICTIONARY:
    for (size_t i = 0; i < nc_attr_get_num_elements(a); i++)
      scan_attr(w, nc_attr_get_entry(a, i).value);
    break;
  default: break;
  }
}

/* The references held by op and the ops nested in it, not looking into
 * nested symbol tables (whose contents resolve in their own scope). */
static bool scan_uses(use_walk *w, nc_op *op)
{
  if (potentially_unknown_table(op)) {
    nc_emit_error(nc_op_get_context(op), nc_op_get_loc(op),
                  "operation contains potentially unknown symbol table, meaning that we can't reliable compute "
                  "symbol uses");
    return false;
  }
  scan_attr(w, nc_op_get_props(op));
  scan_attr(w, nc_op_get_attr_dict(op));
  if (is_symbol_table(op))
    return true;
  for (size_t r = 0; r < nc_op_get_num_regions(op); r++)
    for (nc_block *b = nc_region_get_first_block(nc_op_get_region(op, r)); b; b = nc_block_get_next(b))
      for (nc_op *c = nc_block_get_first_op(b); c; c = nc_op_get_next(c))
        if (!scan_uses(w, c))
          return false;
  return true;
}

static bool is_public(const nc_op *op)
{
  nc_attr *v = nc_op_get_attr_str(op, "sym_visibility");
  return !v || nc_attr_is_string_eq(v, "public");
}

/* `hidden`: the table cannot be referenced from outside the op the pass runs
 * on, so its non-public symbols are discardable too (private ones always). */
static bool compute_liveness(dce *d, nc_op *table, bool hidden)
{
  size_t base = d->n_work;
  nc_region *body = nc_op_get_region(table, 0);
  for (nc_block *b = nc_region_get_first_block(body); b; b = nc_block_get_next(b))
    for (nc_op *op = nc_block_get_first_op(b); op; op = nc_op_get_next(op)) {
      if (!is_symbol(op)) {
        push(d, op);
        continue;
      }
      bool discardable = (hidden || nc_symbol_is_private(op)) && !is_public(op);
      if (!discardable && set_insert(&d->live, op))
        push(d, op);
    }
  while (d->n_work > base) {
    nc_op *op = d->work[--d->n_work];
    if (is_symbol_table(op) && nc_op_get_num_regions(op) &&
        !compute_liveness(d, op, hidden || !is_symbol(op) || nc_symbol_is_private(op)))
      return false;
    nc_op *scope = nc_op_get_parent_op(op);
    if (!scope || !is_symbol_table(scope))
      continue;
    use_walk w = {d, scope};
    if (!scan_uses(&w, op))
      return false;
  }
  return true;
}

static nc_walk_result erase_dead(nc_op *table, void *user)
{
  dce *d = user;
  if (!is_symbol_table(table) || !nc_op_get_num_regions(table))
    return NC_WALK_ADVANCE;
  for (nc_block *b = nc_region_get_first_block(nc_op_get_region(table, 0)); b; b = nc_block_get_next(b))
    for (nc_op *op = nc_block_get_first_op(b), *next; op; op = next) {
      next = nc_op_get_next(op);
      if (is_symbol(op) && !set_contains(&d->live, op)) {
        nc_op_drop_all_uses_of_operands(op);
        nc_op_erase(op);
        d->erased++;
      }
    }
  return NC_WALK_ADVANCE;
}

static bool run(nc_pass *pass, nc_op *op)
{
  if (!is_symbol_table(op))
    return nc_op_emit_error(op, " was scheduled to run under SymbolDCE, but does not define a symbol table");
  dce d = {.tables = nc_symbol_table_collection_create()};
  bool hidden = !nc_op_get_parent_op(op) || !is_symbol(op) || nc_symbol_is_private(op);
  bool ok = compute_liveness(&d, op, hidden);
  if (ok)
    nc_op_walk(op, NC_WALK_POST_ORDER, erase_dead, &d);
  nc_pass_stat_add(pass, 0, d.erased);
  nc_symbol_table_collection_destroy(d.tables);
  free(d.live.slots);
  free(d.work);
  return ok;
}

static const nc_pass_stat_def stats[] = {
  {"num-dce'd", "Number of symbols DCE'd"},
};

const nc_pass_def nc_symbol_dce_pass = {
  .argument = "symbol-dce",
  .name = "SymbolDCE",
  .group = "Generic",
  .summary = "Eliminate dead symbols",
  .description = "Erases private symbols (e.g. `func.func private`) that no live op references, in the symbol table "
                 "the pass runs on and in the symbol tables nested in it. Public symbols and ops that are not symbols "
                 "are live; references from live ops make symbols live.",
  .stats = stats, .n_stats = 1,
  .run = run,
};
