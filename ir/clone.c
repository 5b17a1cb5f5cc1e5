/* clone.c: value/block mappings and deep cloning of ops and regions.
 *
 * Cloning is two-pass so graph regions work: ops are first copied with
 * operands mapped where the mapping already knows them, then a walk over the
 * copy remaps operands whose definitions came later (forward uses).
 */
#include "ir-internal.h"

#include <stdlib.h>

struct nc_mapping {
  const void **keys;
  void **vals;
  size_t cap, count;
};

nc_mapping *nc_mapping_create(void) { return nc_xcalloc(1, sizeof(nc_mapping)); }

void nc_mapping_destroy(nc_mapping *m)
{
  if (!m)
    return;
  free(m->keys);
  free(m->vals);
  free(m);
}

static void map_put(nc_mapping *m, const void *k, void *v)
{
  if ((m->count + 1) * 2 > m->cap) {
    size_t ncap = m->cap ? m->cap * 2 : 64;
    const void **nk = nc_xcalloc(ncap, sizeof *nk);
    void **nv = nc_xcalloc(ncap, sizeof *nv);
    for (size_t i = 0; i < m->cap; i++) {
      if (!m->keys[i])
        continue;
      size_t j = nc_hash_ptr(m->keys[i]) & (ncap - 1);
      while (nk[j])
        j = (j + 1) & (ncap - 1);
      nk[j] = m->keys[i];
      nv[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = nk;
    m->vals = nv;
    m->cap = ncap;
  }
  size_t j = nc_hash_ptr(k) & (m->cap - 1);
  while (m->keys[j] && m->keys[j] != k)
    j = (j + 1) & (m->cap - 1);
  if (!m->keys[j])
    m->count++;
  m->keys[j] = k;
  m->vals[j] = v;
}

static void *map_get(const nc_mapping *m, const void *k)
{
  if (!m || !m->cap)
    return NULL;
  size_t j = nc_hash_ptr(k) & (m->cap - 1);
  while (m->keys[j]) {
    if (m->keys[j] == k)
      return m->vals[j];
    j = (j + 1) & (m->cap - 1);
  }
  return NULL;
}

void nc_mapping_map_value(nc_mapping *m, nc_value *from, nc_value *to) { map_put(m, from, to); }
void nc_mapping_map_block(nc_mapping *m, nc_block *from, nc_block *to) { map_put(m, from, to); }
nc_value *nc_mapping_lookup_value(const nc_mapping *m, const nc_value *from) { return map_get(m, from); }
nc_block *nc_mapping_lookup_block(const nc_mapping *m, const nc_block *from) { return map_get(m, from); }

nc_op *nc_op_alloc(nc_context *ctx, nc_op_info *info, nc_location loc, size_t n_operands,
                   nc_value *const *operands, size_t n_results, nc_type *const *types, size_t n_regions,
                   size_t n_succs, nc_block *const *succs);

static nc_op *clone_rec(nc_op *op, nc_mapping *map);

static void clone_region(nc_region *from, nc_region *to, nc_mapping *map)
{
  nc_context *ctx = from->op ? from->op->info->ctx : to->op->info->ctx;
  for (nc_block *b = from->first; b; b = b->next) {
    nc_block *nb = nc_block_create(ctx);
    for (uint32_t i = 0; i < b->n_args; i++)
      map_put(map, &b->args[i]->v, nc_block_add_arg(nb, b->args[i]->v.type, b->args[i]->loc));
    map_put(map, b, nb);
    nc_region_append_block(to, nb);
  }
  for (nc_block *b = from->first; b; b = b->next) {
    nc_block *nb = map_get(map, b);
    for (nc_op *o = b->first; o; o = o->next)
      nc_block_append_op(nb, clone_rec(o, map));
  }
}

static nc_op *clone_rec(nc_op *op, nc_mapping *map)
{
  nc_context *ctx = op->info->ctx;
  nc_value *vbuf[8];
  nc_value **vals = op->n_operands <= 8 ? vbuf : nc_xmalloc(op->n_operands * sizeof *vals);
  for (uint32_t i = 0; i < op->n_operands; i++) {
    nc_value *v = op->operands[i].value, *m = map_get(map, v);
    vals[i] = m ? m : v;
  }
  nc_type *tbuf[8];
  nc_type **types = op->n_results <= 8 ? tbuf : nc_xmalloc(op->n_results * sizeof *types);
  for (uint32_t i = 0; i < op->n_results; i++)
    types[i] = nc_op_results(op)[i].type;
  nc_block *bbuf[8];
  nc_block **succs = op->n_succs <= 8 ? bbuf : nc_xmalloc(op->n_succs * sizeof *succs);
  for (uint32_t i = 0; i < op->n_succs; i++) {
    nc_block *b = nc_op_succs(op)[i].block, *m = map_get(map, b);
    succs[i] = m ? m : b;
  }
  nc_op *c = nc_op_alloc(ctx, op->info, op->loc, op->n_operands, vals, op->n_results, types, op->n_regions,
                         op->n_succs, succs);
  c->attrs = op->attrs;
  c->props = op->props;
  for (uint32_t i = 0; i < op->n_results; i++)
    map_put(map, &nc_op_results(op)[i], &nc_op_results(c)[i]);
  for (uint32_t i = 0; i < op->n_regions; i++)
    clone_region(&nc_op_regions(op)[i], &nc_op_regions(c)[i], map);
  if (vals != vbuf)
    free(vals);
  if (types != tbuf)
    free(types);
  if (succs != bbuf)
    free(succs);
  return c;
}

static nc_walk_result remap_operands(nc_op *op, void *user)
{
  nc_mapping *map = user;
  for (uint32_t i = 0; i < op->n_operands; i++) {
    nc_value *m = map_get(map, op->operands[i].value);
    if (m)
      nc_use_set(&op->operands[i], m);
  }
  return NC_WALK_ADVANCE;
}

nc_op *nc_op_clone(nc_op *op, nc_mapping *map)
{
  nc_mapping local = {0};
  nc_mapping *m = map ? map : &local;
  nc_op *c = clone_rec(op, m);
  if (op->n_regions)
    nc_op_walk(c, NC_WALK_PRE_ORDER, remap_operands, m);
  if (!map) {
    free(local.keys);
    free(local.vals);
  }
  return c;
}

void nc_region_clone_into(nc_region *from, nc_region *to, nc_mapping *map)
{
  nc_mapping local = {0};
  nc_mapping *m = map ? map : &local;
  nc_block *before_last = to->last;
  clone_region(from, to, m);
  for (nc_block *b = before_last ? before_last->next : to->first; b; b = b->next)
    for (nc_op *o = b->first; o; o = o->next)
      nc_op_walk(o, NC_WALK_PRE_ORDER, remap_operands, m);
  if (!map) {
    free(local.keys);
    free(local.vals);
  }
}
