/* symbol.c: symbol tables (name -> op maps built on demand) and symbol
 * reference resolution. */
#include "ir-internal.h"

#include <stdlib.h>
#include <string.h>

struct nc_symbol_table {
  nc_op *table_op;
  nc_op **slots;
  nc_ident **keys;
  size_t cap, count;
};

struct nc_symbol_table_collection {
  nc_symbol_table **tables;
  size_t n, cap;
};

nc_ident *nc_symbol_get_name(const nc_op *op)
{
  nc_attr *a = nc_op_get_attr_str(op, "sym_name");
  if (!a || a->kind != NC_ATTR_STRING)
    return NULL;
  return nc_ident_get(op->info->ctx, a->str.s, a->str.len);
}

bool nc_symbol_is_private(const nc_op *op) { return nc_attr_is_string_eq(nc_op_get_attr_str(op, "sym_visibility"), "private"); }

static void put(nc_symbol_table *t, nc_ident *k, nc_op *op)
{
  if ((t->count + 1) * 2 > t->cap) {
    size_t ncap = t->cap ? t->cap * 2 : 32;
    nc_op **ns = nc_xcalloc(ncap, sizeof *ns);
    nc_ident **nk = nc_xcalloc(ncap, sizeof *nk);
    for (size_t i = 0; i < t->cap; i++)
      if (t->slots[i]) {
        size_t j = t->keys[i]->hash & (ncap - 1);
        while (ns[j])
          j = (j + 1) & (ncap - 1);
        ns[j] = t->slots[i];
        nk[j] = t->keys[i];
      }
    free(t->slots);
    free(t->keys);
    t->slots = ns;
    t->keys = nk;
    t->cap = ncap;
  }
  size_t j = k->hash & (t->cap - 1);
  while (t->slots[j] && t->keys[j] != k)
    j = (j + 1) & (t->cap - 1);
  if (!t->slots[j])
    t->count++;
  t->slots[j] = op;
  t->keys[j] = k;
}

nc_symbol_table *nc_symbol_table_create(nc_op *table_op)
{
  nc_symbol_table *t = nc_xcalloc(1, sizeof *t);
  t->table_op = table_op;
  if (table_op->n_regions && nc_op_regions(table_op)[0].first)
    for (nc_op *o = nc_op_regions(table_op)[0].first->first; o; o = o->next) {
      nc_ident *name = nc_symbol_get_name(o);
      if (name)
        put(t, name, o);
    }
  return t;
}

void nc_symbol_table_destroy(nc_symbol_table *t)
{
  if (!t)
    return;
  free(t->slots);
  free(t->keys);
  free(t);
}

nc_op *nc_symbol_table_lookup(const nc_symbol_table *t, const nc_ident *name)
{
  if (!t->cap)
    return NULL;
  size_t j = name->hash & (t->cap - 1);
  while (t->slots[j]) {
    if (t->keys[j] == name)
      return t->slots[j];
    j = (j + 1) & (t->cap - 1);
  }
  return NULL;
}

void nc_symbol_table_insert(nc_symbol_table *t, nc_op *op)
{
  nc_ident *name = nc_symbol_get_name(op);
  if (name)
    put(t, name, op);
}

void nc_symbol_table_remove(nc_symbol_table *t, nc_op *op)
{
  /* rebuild without the op: removal is rare (symbol-dce rebuilds anyway) */
  nc_op **slots = t->slots;
  nc_ident **keys = t->keys;
  size_t cap = t->cap;
  t->slots = NULL;
  t->keys = NULL;
  t->cap = t->count = 0;
  for (size_t i = 0; i < cap; i++)
    if (slots[i] && slots[i] != op)
      put(t, keys[i], slots[i]);
  free(slots);
  free(keys);
}

nc_symbol_table_collection *nc_symbol_table_collection_create(void) { return nc_xcalloc(1, sizeof(nc_symbol_table_collection)); }

void nc_symbol_table_collection_destroy(nc_symbol_table_collection *c)
{
  if (!c)
    return;
  for (size_t i = 0; i < c->n; i++)
    nc_symbol_table_destroy(c->tables[i]);
  free(c->tables);
  free(c);
}

nc_symbol_table *nc_symbol_table_collection_get(nc_symbol_table_collection *c, nc_op *table_op)
{
  for (size_t i = 0; i < c->n; i++)
    if (c->tables[i]->table_op == table_op)
      return c->tables[i];
  if (c->n == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 4;
    c->tables = nc_xrealloc(c->tables, c->cap * sizeof *c->tables);
  }
  return c->tables[c->n++] = nc_symbol_table_create(table_op);
}

nc_op *nc_symbol_get_nearest_table(nc_op *op)
{
  for (nc_op *p = nc_op_get_parent_op(op); p; p = nc_op_get_parent_op(p))
    if (p->info->traits & NC_TRAIT_SYMBOL_TABLE)
      return p;
  return NULL;
}

nc_op *nc_symbol_lookup_nearest(nc_symbol_table_collection *c, nc_op *from, const nc_attr *ref)
{
  if (!ref || ref->kind != NC_ATTR_SYMBOL_REF)
    return NULL;
  nc_op *table = (from->info->traits & NC_TRAIT_SYMBOL_TABLE) ? from : nc_symbol_get_nearest_table(from);
  if (!table)
    return NULL;
  nc_op *op = nc_symbol_table_lookup(nc_symbol_table_collection_get(c, table), ref->symref.root);
  for (size_t i = 0; op && i < ref->symref.n; i++) {
    if (!(op->info->traits & NC_TRAIT_SYMBOL_TABLE))
      return NULL;
    op = nc_symbol_table_lookup(nc_symbol_table_collection_get(c, op), ref->symref.nested[i]);
  }
  return op;
}

typedef struct uses_ctx {
  bool (*fn)(nc_op *, nc_attr *, void *);
  void *u;
  nc_op *from;
  bool stop;
} uses_ctx;

static bool scan_attr(uses_ctx *c, nc_op *user, nc_attr *a)
{
  if (!a)
    return true;
  switch (a->kind) {
  case NC_ATTR_SYMBOL_REF: return c->fn(user, a, c->u);
  case NC_ATTR_ARRAY:
    for (size_t i = 0; i < a->array.n; i++)
      if (!scan_attr(c, user, a->array.elts[i]))
        return false;
    return true;
  case NC_ATTR_DICTIONARY:
    for (size_t i = 0; i < a->dict.n; i++)
      if (!scan_attr(c, user, a->dict.entries[i].value))
        return false;
    return true;
  default: return true;
  }
}

static nc_walk_result scan_op(nc_op *op, void *u)
{
  uses_ctx *c = u;
  if (op == c->from)
    return NC_WALK_ADVANCE;
  if (!scan_attr(c, op, op->props) || !scan_attr(c, op, op->attrs)) {
    c->stop = true;
    return NC_WALK_INTERRUPT;
  }
  return NC_WALK_ADVANCE;
}

bool nc_symbol_walk_uses(nc_op *from, bool (*fn)(nc_op *, nc_attr *, void *), void *u)
{
  uses_ctx c = {fn, u, from, false};
  nc_op_walk(from, NC_WALK_PRE_ORDER, scan_op, &c);
  return !c.stop;
}
