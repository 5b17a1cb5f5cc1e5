/* dominance.c: dominator trees with the Cooper-Harvey-Kennedy iteration over
 * reverse post-order, plus interval numbering for O(1) dominance queries. */
#include "ir-internal.h"
#include "nc/ir/dominance.h"

#include <stdlib.h>
#include <string.h>

struct nc_dominance {
  nc_region *region;
  nc_block **rpo;        /* reachable blocks in reverse post-order */
  size_t n;
  uint32_t *idom;        /* rpo index of the idom */
  uint32_t *pre, *post;  /* dominator-tree interval numbers */
  uint32_t *child_start, *children; /* children lists in CSR form */
  /* block -> rpo index */
  nc_block **keys;
  uint32_t *vals;
  size_t cap;
};

static void map_put(nc_dominance *d, nc_block *b, uint32_t v)
{
  size_t j = nc_hash_ptr(b) & (d->cap - 1);
  while (d->keys[j] && d->keys[j] != b)
    j = (j + 1) & (d->cap - 1);
  d->keys[j] = b;
  d->vals[j] = v;
}

static uint32_t map_get(const nc_dominance *d, const nc_block *b)
{
  size_t j = nc_hash_ptr(b) & (d->cap - 1);
  while (d->keys[j]) {
    if (d->keys[j] == b)
      return d->vals[j];
    j = (j + 1) & (d->cap - 1);
  }
  return UINT32_MAX;
}

nc_dominance *nc_dominance_create(nc_region *r)
{
  nc_dominance *d = nc_xcalloc(1, sizeof *d);
  d->region = r;
  size_t nb = nc_region_get_num_blocks(r);
  d->cap = 16;
  while (d->cap < 2 * nb + 2)
    d->cap *= 2;
  d->keys = nc_xcalloc(d->cap, sizeof *d->keys);
  d->vals = nc_xcalloc(d->cap, sizeof *d->vals);
  if (!r->first)
    return d;
  /* post-order DFS from the entry (iterative) */
  nc_block **post = nc_xmalloc((nb + 1) * sizeof *post);
  struct frame { nc_block *b; size_t next; } *stack = nc_xmalloc((nb + 1) * sizeof *stack);
  size_t sp = 0, np = 0;
  stack[sp++] = (struct frame){r->first, 0};
  map_put(d, r->first, UINT32_MAX - 1); /* visited marker */
  while (sp) {
    struct frame *f = &stack[sp - 1];
    size_t ns = nc_block_get_num_successors(f->b);
    if (f->next < ns) {
      nc_block *s = nc_block_get_successor(f->b, f->next++);
      if (s && s->region == r && map_get(d, s) == UINT32_MAX) {
        map_put(d, s, UINT32_MAX - 1);
        stack[sp++] = (struct frame){s, 0};
      }
    } else {
      post[np++] = f->b;
      sp--;
    }
  }
  free(stack);
  d->n = np;
  d->rpo = nc_xmalloc((np + 1) * sizeof *d->rpo);
  for (size_t i = 0; i < np; i++) {
    d->rpo[i] = post[np - 1 - i];
    map_put(d, d->rpo[i], (uint32_t)i);
  }
  free(post);
  d->idom = nc_xmalloc((np + 1) * sizeof *d->idom);
  for (size_t i = 0; i < np; i++)
    d->idom[i] = UINT32_MAX;
  d->idom[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < np; i++) {
      uint32_t nidom = UINT32_MAX;
      for (nc_block_use *u = d->rpo[i]->first_use; u; u = u->next) {
        nc_block *pb = u->owner->block;
        uint32_t pi = pb && pb->region == r ? map_get(d, pb) : UINT32_MAX;
        if (pi >= np || d->idom[pi] == UINT32_MAX)
          continue;
        if (nidom == UINT32_MAX) {
          nidom = pi;
          continue;
        }
        uint32_t a = pi, b = nidom;
        while (a != b) {
          while (a > b)
            a = d->idom[a];
          while (b > a)
            b = d->idom[b];
        }
        nidom = a;
      }
      if (nidom != UINT32_MAX && d->idom[i] != nidom) {
        d->idom[i] = nidom;
        changed = true;
      }
    }
  }
  /* children in CSR form, then interval numbering by an explicit DFS */
  d->child_start = nc_xcalloc(np + 2, sizeof *d->child_start);
  d->children = nc_xcalloc(np + 1, sizeof *d->children);
  for (size_t i = 1; i < np; i++)
    d->child_start[d->idom[i] + 1]++;
  for (size_t i = 0; i < np; i++)
    d->child_start[i + 1] += d->child_start[i];
  uint32_t *fill = nc_xcalloc(np + 1, sizeof *fill);
  for (size_t i = 1; i < np; i++) {
    uint32_t p = d->idom[i];
    d->children[d->child_start[p] + fill[p]++] = (uint32_t)i;
  }
  free(fill);
  d->pre = nc_xcalloc(np + 1, sizeof *d->pre);
  d->post = nc_xcalloc(np + 1, sizeof *d->post);
  uint32_t *st = nc_xmalloc((np + 1) * sizeof *st), *it = nc_xmalloc((np + 1) * sizeof *it);
  size_t top = 0;
  uint32_t clock = 0;
  st[top] = 0;
  it[top++] = d->child_start[0];
  d->pre[0] = clock++;
  while (top) {
    uint32_t b = st[top - 1];
    if (it[top - 1] == d->child_start[b + 1]) {
      d->post[b] = clock++;
      top--;
      continue;
    }
    uint32_t c = d->children[it[top - 1]++];
    d->pre[c] = clock++;
    st[top] = c;
    it[top++] = d->child_start[c];
  }
  free(st);
  free(it);
  return d;
}

void nc_dominance_destroy(nc_dominance *d)
{
  if (!d)
    return;
  free(d->rpo);
  free(d->idom);
  free(d->pre);
  free(d->post);
  free(d->child_start);
  free(d->children);
  free(d->keys);
  free(d->vals);
  free(d);
}

bool nc_dominance_is_reachable(const nc_dominance *d, const nc_block *b) { return map_get(d, b) < d->n; }

bool nc_dominance_dominates(const nc_dominance *d, const nc_block *a, const nc_block *b)
{
  uint32_t ia = map_get(d, a), ib = map_get(d, b);
  if (ia >= d->n || ib >= d->n)
    return false;
  return d->pre[ia] <= d->pre[ib] && d->post[ib] <= d->post[ia];
}

nc_block *nc_dominance_get_idom(const nc_dominance *d, const nc_block *b)
{
  uint32_t i = map_get(d, b);
  return i == 0 || i >= d->n ? NULL : d->rpo[d->idom[i]];
}

size_t nc_dominance_get_num_children(const nc_dominance *d, const nc_block *b)
{
  uint32_t i = map_get(d, b);
  return i >= d->n ? 0 : d->child_start[i + 1] - d->child_start[i];
}

nc_block *nc_dominance_get_child(const nc_dominance *d, const nc_block *b, size_t k)
{
  uint32_t i = map_get(d, b);
  return d->rpo[d->children[d->child_start[i] + k]];
}
