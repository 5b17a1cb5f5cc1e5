/* cse.c: common subexpression elimination, scoped by dominance.
 *
 * Walks each region's dominator tree keeping a scoped table of the pure ops
 * seen so far; an op equal to a dominating one (same name, attributes,
 * properties, operands and result types) is replaced by it. Ops with side
 * effects or regions are never merged. Trivially dead ops are erased on the
 * way, as MLIR's CSE does. Graph regions with several blocks are skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "nc/ir/diag.h"
#include "nc/ir/dominance.h"
#include "nc/ir/pass.h"
#include "nc/ir/rewrite.h"
#include "nc/support/hash.h"

/* Open addressing with linear probing; each slot keeps its op's hash, so
 * probing, growing and popping never touch an op that is not a real match
 * (on 10^6-op blocks those loads were cache misses, most of the pass). */
typedef struct slot {
  uint64_t hash;
  nc_op *op; /* NULL: empty; TOMB: deleted */
} slot;

typedef struct table {
  slot *slots;
  size_t cap, count, tombs;
  slot *log; /* inserted ops with their hashes, for popping scopes */
  size_t n_log, cap_log;
  uint64_t n_cse, n_dce;
} table;

#define TOMB ((nc_op *)1)

static uint64_t op_hash(nc_op *op)
{
  uint64_t h = nc_hash_combine((uintptr_t)nc_op_get_name(op), (uintptr_t)nc_op_get_attr_dict(op));
  h = nc_hash_combine(h, (uintptr_t)nc_op_get_props(op));
  if (nc_op_has_trait(op, NC_TRAIT_COMMUTATIVE)) { /* operand order does not matter, as in MLIR */
    uint64_t sum = 0;
    for (size_t i = 0, n = nc_op_get_num_operands(op); i < n; i++)
      sum += nc_hash_combine(0, (uintptr_t)nc_op_get_operand(op, i));
    h = nc_hash_combine(h, sum);
  } else {
    for (size_t i = 0, n = nc_op_get_num_operands(op); i < n; i++)
      h = nc_hash_combine(h, (uintptr_t)nc_op_get_operand(op, i));
  }
  for (size_t i = 0, n = nc_op_get_num_results(op); i < n; i++)
    h = nc_hash_combine(h, (uintptr_t)nc_value_get_type(nc_op_get_result(op, i)));
  return h;
}

static int cmp_ptr(const void *x, const void *y)
{
  uintptr_t a = *(const uintptr_t *)x, b = *(const uintptr_t *)y;
  return (a > b) - (a < b);
}

/* Commutative ops are equal whatever the order of their operands. */
static bool same_operand_multiset(nc_op *a, nc_op *b, size_t n)
{
  if (n == 2)
    return (nc_op_get_operand(a, 0) == nc_op_get_operand(b, 0) && nc_op_get_operand(a, 1) == nc_op_get_operand(b, 1)) ||
           (nc_op_get_operand(a, 0) == nc_op_get_operand(b, 1) && nc_op_get_operand(a, 1) == nc_op_get_operand(b, 0));
  uintptr_t *x = malloc(2 * n * sizeof *x + 1);
  if (!x)
    abort();
  for (size_t i = 0; i < n; i++) {
    x[i] = (uintptr_t)nc_op_get_operand(a, i);
    x[n + i] = (uintptr_t)nc_op_get_operand(b, i);
  }
  qsort(x, n, sizeof *x, cmp_ptr);
  qsort(x + n, n, sizeof *x, cmp_ptr);
  bool same = !memcmp(x, x + n, n * sizeof *x);
  free(x);
  return same;
}

static bool op_equal(nc_op *a, nc_op *b)
{
  size_t no = nc_op_get_num_operands(a), nr = nc_op_get_num_results(a);
  if (nc_op_get_name(a) != nc_op_get_name(b) || nc_op_get_attr_dict(a) != nc_op_get_attr_dict(b) ||
      nc_op_get_props(a) != nc_op_get_props(b) || no != nc_op_get_num_operands(b) || nr != nc_op_get_num_results(b))
    return false;
  if (nc_op_has_trait(a, NC_TRAIT_COMMUTATIVE)) {
    if (!same_operand_multiset(a, b, no))
      return false;
  } else {
    for (size_t i = 0; i < no; i++)
      if (nc_op_get_operand(a, i) != nc_op_get_operand(b, i))
        return false;
  }
  for (size_t i = 0; i < nr; i++)
    if (nc_value_get_type(nc_op_get_result(a, i)) != nc_value_get_type(nc_op_get_result(b, i)))
      return false;
  return true;
}

static void grow(table *t)
{
  size_t ncap = t->cap ? t->cap * 2 : 1024;
  if (t->cap && t->count * 4 < t->cap)
    ncap = t->cap; /* mostly tombstones: rehash in place */
  slot *slots = calloc(ncap, sizeof *slots);
  if (!slots)
    abort();
  for (size_t i = 0; i < t->cap; i++) {
    slot e = t->slots[i];
    if (!e.op || e.op == TOMB)
      continue;
    size_t j = e.hash & (ncap - 1);
    while (slots[j].op)
      j = (j + 1) & (ncap - 1);
    slots[j] = e;
  }
  free(t->slots);
  t->slots = slots;
  t->cap = ncap;
  t->tombs = 0;
}

/* Returns an equal op already in the table, or inserts op and returns NULL. */
static nc_op *lookup_or_insert(table *t, nc_op *op)
{
  if ((t->count + t->tombs + 1) * 4 > t->cap * 3)
    grow(t);
  uint64_t h = op_hash(op);
  size_t mask = t->cap - 1, j = h & mask, tomb = SIZE_MAX;
  for (nc_op *e; (e = t->slots[j].op); j = (j + 1) & mask) {
    if (e == TOMB) {
      if (tomb == SIZE_MAX)
        tomb = j;
      continue;
    }
    if (t->slots[j].hash == h && op_equal(e, op))
      return e;
  }
  if (tomb != SIZE_MAX) {
    j = tomb;
    t->tombs--;
  }
  t->slots[j] = (slot){h, op};
  t->count++;
  if (t->n_log == t->cap_log) {
    t->cap_log = t->cap_log ? t->cap_log * 2 : 1024;
    t->log = realloc(t->log, t->cap_log * sizeof *t->log);
    if (!t->log)
      abort();
  }
  t->log[t->n_log++] = (slot){h, op};
  return NULL;
}

/* Removes the ops inserted since `mark` (a scope ends). */
static void pop_to(table *t, size_t mark)
{
  if (mark == 0 && t->n_log && t->n_log * 8 >= t->cap) { /* everything goes and the table is full enough: clear it at once */
    memset(t->slots, 0, t->cap * sizeof *t->slots);
    t->count = t->tombs = t->n_log = 0;
    return;
  }
  while (t->n_log > mark) {
    slot e = t->log[--t->n_log];
    size_t mask = t->cap - 1, j = e.hash & mask;
    while (t->slots[j].op != e.op)
      j = (j + 1) & mask;
    t->slots[j].op = TOMB;
    t->count--;
    t->tombs++;
  }
}

static void cse_region(table *t, nc_region *r);

static bool is_candidate(nc_op *op)
{
  return !nc_op_get_num_regions(op) && nc_op_get_num_results(op) && nc_op_is_pure(op);
}

/* How many ops ahead cse_block prefetches the table slot of: on large
 * blocks the table outgrows the caches and each first probe is a miss. */
enum { PREFETCH_AHEAD = 8 };

static void prefetch_slot(table *t, nc_op *op)
{
  if (t->cap >= 4096 && is_candidate(op)) /* a hint: the op's hash may still change before its turn */
    __builtin_prefetch(&t->slots[op_hash(op) & (t->cap - 1)]);
}

static void cse_block(table *t, nc_block *b)
{
  nc_op *ahead = nc_block_get_first_op(b);
  for (int i = 0; ahead && i < PREFETCH_AHEAD; i++)
    ahead = nc_op_get_next(ahead);
  for (nc_op *op = nc_block_get_first_op(b), *next; op; op = next) {
    next = nc_op_get_next(op);
    if (ahead) { /* ops after the current one are never erased before their turn */
      prefetch_slot(t, ahead);
      ahead = nc_op_get_next(ahead);
    }
    if (nc_op_is_trivially_dead(op)) {
      nc_op_erase(op);
      t->n_dce++;
      continue;
    }
    size_t nreg = nc_op_get_num_regions(op);
    if (nreg) {
      /* isolated ops start from an empty scope: outer values are invisible */
      bool isolated = nc_op_has_trait(op, NC_TRAIT_ISOLATED_FROM_ABOVE);
      table inner = {0};
      for (size_t i = 0; i < nreg; i++)
        cse_region(isolated ? &inner : t, nc_op_get_region(op, i));
      if (isolated) {
        t->n_cse += inner.n_cse;
        t->n_dce += inner.n_dce;
        free(inner.slots);
        free(inner.log);
      }
      continue;
    }
    if (!nc_op_get_num_results(op) || !nc_op_is_pure(op))
      continue;
    nc_op *existing = lookup_or_insert(t, op);
    if (existing) {
      nc_op_replace_all_uses_with_op(op, existing);
      nc_op_erase(op);
      t->n_cse++;
    }
  }
}

static void cse_dom_subtree(table *t, nc_dominance *d, nc_block *b)
{
  size_t mark = t->n_log;
  cse_block(t, b);
  for (size_t i = 0, n = nc_dominance_get_num_children(d, b); i < n; i++)
    cse_dom_subtree(t, d, nc_dominance_get_child(d, b, i));
  pop_to(t, mark);
}

static void cse_region(table *t, nc_region *r)
{
  nc_block *first = nc_region_get_first_block(r);
  if (!first)
    return;
  size_t mark = t->n_log;
  if (!nc_block_get_next(first)) {
    cse_block(t, first);
  } else {
    nc_op *parent = nc_region_get_parent_op(r);
    if (parent && nc_op_has_graph_regions(parent))
      return; /* no dominance to scope by */
    nc_dominance *d = nc_dominance_create(r);
    cse_dom_subtree(t, d, first);
    nc_dominance_destroy(d);
  }
  pop_to(t, mark);
}

static const nc_pass_stat_def stats[] = {
  {"num-cse'd", "Number of operations CSE'd"},
  {"num-dce'd", "Number of operations DCE'd"},
};

static bool run(nc_pass *pass, nc_op *op)
{
  table t = {0};
  for (size_t i = 0; i < nc_op_get_num_regions(op); i++)
    cse_region(&t, nc_op_get_region(op, i));
  nc_pass_stat_add(pass, 0, t.n_cse);
  nc_pass_stat_add(pass, 1, t.n_dce);
  free(t.slots);
  free(t.log);
  return true;
}

const nc_pass_def nc_cse_pass = {
  .argument = "cse",
  .name = "CSE",
  .group = "Generic",
  .summary = "Eliminate common sub-expressions",
  .description = "Replaces a pure op by an equal op that dominates it (same name, attributes, properties, operands "
                 "and result types), and erases trivially dead ops, scoped by the dominator tree of each region.",
  .stats = stats, .n_stats = 2,
  .run = run,
};
