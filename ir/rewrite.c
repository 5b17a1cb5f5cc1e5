/* rewrite.c: the rewriter, pattern sets, folding and the greedy driver
 * (MLIR's GreedyPatternRewriteDriver, simplified but with the same
 * observable behaviour: fold, apply patterns by benefit, erase dead ops,
 * deduplicate and hoist constants, simplify regions, iterate to a fixpoint).
 *
 * The worklist needs no side table: an op carries "queued", "erased" and
 * "known constant" flag bits, and erased ops are freed only when the
 * current iteration ends, so stale worklist entries are recognised safely.
 */
#include "ir-internal.h"
#include "nc/ir/rewrite.h"

#include <stdlib.h>
#include <string.h>

typedef struct const_entry {
  const nc_dialect_def *dialect;
  nc_attr *value;
  nc_type *type;
  nc_region *region;
  nc_op *op;
} const_entry;

typedef struct driver driver;

struct nc_rewriter {
  nc_context *ctx;
  nc_block *ip_block;
  nc_op *ip_before; /* insert before this op; NULL: at the end of ip_block */
  driver *drv;
};

struct driver {
  nc_rewriter rw;
  nc_op *root;
  const nc_pattern_set *patterns;
  nc_op **wl;
  size_t n_wl, cap_wl;
  nc_op **grave;
  size_t n_grave, cap_grave;
  const_entry *consts;
  size_t cap_consts, n_consts;
  /* the value of each known constant op, so that folding does not ask the
   * op's fold hook again for every use (NULL: ask the op) */
  struct cval { nc_op *op; nc_attr *value; } *cvals;
  size_t cap_cvals, n_cvals;
  nc_greedy_stats stats;
  bool changed;
  /* patterns by root op name: a small direct-mapped cache of patterns_for */
  struct { nc_ident *name; const struct pat_entry *pats; size_t n; } pat_cache[32];
  const struct pat_entry *any_pats; /* patterns for any op */
  size_t n_any_pats;
};

/* --- pattern sets ---------------------------------------------------------------------------- */

typedef struct pat_entry {
  nc_ident *root;
  const nc_pattern *p;
  size_t seq; /* insertion order: equal benefits keep it, as MLIR's stable sort does */
} pat_entry;

struct nc_pattern_set {
  nc_context *ctx;
  pat_entry *v;
  size_t n, cap;
};

nc_pattern_set *nc_pattern_set_create(nc_context *ctx)
{
  nc_pattern_set *s = nc_xcalloc(1, sizeof *s);
  s->ctx = ctx;
  return s;
}

void nc_pattern_set_destroy(nc_pattern_set *s)
{
  if (!s)
    return;
  free(s->v);
  free(s);
}

static int cmp_pat(const void *a, const void *b)
{
  const pat_entry *x = a, *y = b;
  if (x->root != y->root)
    return (uintptr_t)x->root < (uintptr_t)y->root ? -1 : 1;
  if (x->p->benefit != y->p->benefit)
    return (int)y->p->benefit - (int)x->p->benefit;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

void nc_pattern_set_add(nc_pattern_set *s, const char *root, const nc_pattern *p)
{
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 16;
    s->v = nc_xrealloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n] = (pat_entry){root ? nc_ident_get_cstr(s->ctx, root) : NULL, p, s->n};
  s->n++;
  qsort(s->v, s->n, sizeof *s->v, cmp_pat); /* grouped by root, then by benefit */
}

static bool in_names(const char *name, size_t n, const char *const *names)
{
  for (size_t i = 0; i < n; i++)
    if (!strcmp(names[i], name))
      return true;
  return false;
}

void nc_pattern_set_add_canonicalizations(nc_pattern_set *s, size_t n_dis, const char *const *dis, size_t n_en,
                                          const char *const *en)
{
  nc_context *ctx = s->ctx;
  for (size_t d = 0; d < ctx->n_dialects; d++) {
    const nc_dialect_def *dd = ctx->dialects[d];
    for (size_t i = 0; i < dd->n_ops; i++)
      for (size_t k = 0; k < dd->ops[i].n_canonicalize; k++) {
        const nc_pattern *p = &dd->ops[i].canonicalize[k];
        if (in_names(p->name, n_dis, dis) || (n_en && !in_names(p->name, n_en, en)))
          continue;
        nc_pattern_set_add(s, dd->ops[i].name, p);
      }
  }
}

/* --- worklist ------------------------------------------------------------------------------------------ */

static void push(driver *d, nc_op *op)
{
  if (!op || (op->flags & (NC_OP_IN_WORKLIST | NC_OP_ERASED)))
    return;
  if (d->n_wl == d->cap_wl) {
    d->cap_wl = d->cap_wl ? d->cap_wl * 2 : 1024;
    d->wl = nc_xrealloc(d->wl, d->cap_wl * sizeof *d->wl);
  }
  op->flags |= NC_OP_IN_WORKLIST;
  d->wl[d->n_wl++] = op;
}

static nc_walk_result push_walk(nc_op *op, void *u)
{
  push(u, op);
  return NC_WALK_ADVANCE;
}

static void push_users(driver *d, nc_value *v)
{
  for (nc_use *u = v->first_use; u; u = u->next)
    push(d, u->owner);
}

/* --- constants -------------------------------------------------------------------------------------------- */

nc_attr *nc_value_get_constant(nc_value *v)
{
  if (v->bits & NC_VALUE_ARG)
    return NULL;
  nc_op *def = nc_result_owner(v);
  if (!(def->info->traits & NC_TRAIT_CONSTANT_LIKE) || (def->flags & NC_OP_ERASED))
    return NULL;
  return nc_op_get_constant_value(def);
}

static nc_region *insertion_region(nc_op *op, nc_op *root)
{
  nc_region *r = op->block ? op->block->region : NULL;
  while (r && r->op && r->op != root && !(r->op->info->traits & NC_TRAIT_ISOLATED_FROM_ABOVE)) {
    nc_op *p = r->op;
    if (!p->block)
      break;
    r = p->block->region;
  }
  return r;
}

static uint64_t const_hash(const nc_dialect_def *dl, nc_attr *v, nc_type *t, nc_region *r)
{
  return nc_hash_combine(nc_hash_combine(nc_hash_combine((uintptr_t)dl, (uintptr_t)v), (uintptr_t)t), (uintptr_t)r);
}

static const_entry *const_find(driver *d, const nc_dialect_def *dl, nc_attr *v, nc_type *t, nc_region *r, bool insert)
{
  if (insert && (d->n_consts + 1) * 2 > d->cap_consts) {
    size_t ncap = d->cap_consts ? d->cap_consts * 2 : 256;
    const_entry *nc = nc_xcalloc(ncap, sizeof *nc);
    for (size_t i = 0; i < d->cap_consts; i++) {
      const_entry *e = &d->consts[i];
      if (!e->op)
        continue;
      size_t j = const_hash(e->dialect, e->value, e->type, e->region) & (ncap - 1);
      while (nc[j].op)
        j = (j + 1) & (ncap - 1);
      nc[j] = *e;
    }
    free(d->consts);
    d->consts = nc;
    d->cap_consts = ncap;
  }
  if (!d->cap_consts)
    return NULL;
  size_t j = const_hash(dl, v, t, r) & (d->cap_consts - 1);
  while (d->consts[j].op) {
    const_entry *e = &d->consts[j];
    if (e->dialect == dl && e->value == v && e->type == t && e->region == r)
      return e;
    j = (j + 1) & (d->cap_consts - 1);
  }
  if (!insert)
    return NULL;
  d->n_consts++;
  d->consts[j] = (const_entry){dl, v, t, r, NULL};
  return &d->consts[j];
}

static size_t cval_slot(const driver *d, const nc_op *op)
{
  size_t mask = d->cap_cvals - 1, j = (size_t)(((uintptr_t)op >> 4) * 0x9e3779b97f4a7c15ull >> 20) & mask;
  while (d->cvals[j].op && d->cvals[j].op != op)
    j = (j + 1) & mask;
  return j;
}

static void cval_put(driver *d, nc_op *op, nc_attr *value)
{
  if ((d->n_cvals + 1) * 2 > d->cap_cvals) {
    struct cval *old = d->cvals;
    size_t old_cap = d->cap_cvals;
    d->cap_cvals = old_cap ? old_cap * 2 : 256;
    d->cvals = nc_xcalloc(d->cap_cvals, sizeof *d->cvals);
    for (size_t i = 0; i < old_cap; i++)
      if (old[i].op)
        d->cvals[cval_slot(d, old[i].op)] = old[i];
    free(old);
  }
  size_t j = cval_slot(d, op);
  d->n_cvals += !d->cvals[j].op;
  d->cvals[j] = (struct cval){op, value};
}

/* nc_value_get_constant, answered from the known constants where it can. */
static nc_attr *operand_constant(driver *d, nc_value *v)
{
  if (!v || (v->bits & NC_VALUE_ARG))
    return NULL;
  nc_op *def = nc_result_owner(v);
  if (!(def->info->traits & NC_TRAIT_CONSTANT_LIKE) || (def->flags & NC_OP_ERASED))
    return NULL;
  if ((def->flags & NC_OP_KNOWN_CONSTANT) && d->cap_cvals) {
    struct cval *c = &d->cvals[cval_slot(d, def)];
    if (c->op && c->value)
      return c->value;
  }
  return nc_op_get_constant_value(def);
}

static void erase(driver *d, nc_op *op);

/* Records a constant op in the folder, deduplicating and hoisting it.
 * Returns true if it is (now) a known constant. */
static bool insert_known_constant(driver *d, nc_op *op)
{
  if (!nc_op_is_constant(op) || !op->info->def)
    return false;
  nc_attr *value = nc_op_get_constant_value(op);
  nc_region *r = insertion_region(op, d->root);
  if (!value || !r || !r->first)
    return false;
  const_entry *e = const_find(d, op->info->dialect, value, nc_op_results(op)->type, r, true);
  if (e->op && e->op != op && !(e->op->flags & NC_OP_ERASED)) {
    push_users(d, nc_op_results(op));
    nc_value_replace_all_uses_with(nc_op_results(op), nc_op_results(e->op));
    erase(d, op);
    d->changed = true;
    return true;
  }
  e->op = op;
  op->flags |= NC_OP_KNOWN_CONSTANT;
  cval_put(d, op, value);
  nc_block *entry = r->first;
  if (op->block == entry && (entry->first == op || (op->prev && (op->prev->flags & NC_OP_KNOWN_CONSTANT))))
    return true;
  nc_op_remove(op);
  nc_block_prepend_op(entry, op);
  return true;
}

nc_value *nc_rewriter_materialize_constant(nc_rewriter *rw, const nc_dialect_def *dl, nc_attr *value, nc_type *type,
                                           nc_location loc)
{
  if (!dl || !dl->materialize_constant)
    return NULL;
  driver *d = rw->drv;
  nc_region *r = NULL;
  if (d && rw->ip_block) {
    nc_op *anchor = rw->ip_before ? rw->ip_before : rw->ip_block->last;
    r = anchor ? insertion_region(anchor, d->root) : rw->ip_block->region;
    if (r && r->first) {
      const_entry *e = const_find(d, dl, value, type, r, false);
      if (e && e->op && !(e->op->flags & NC_OP_ERASED))
        return nc_op_results(e->op);
    }
  }
  nc_op *c = dl->materialize_constant(rw->ctx, value, type, loc);
  if (!c)
    return NULL;
  if (d && r && r->first) {
    nc_block_prepend_op(r->first, c);
    const_entry *e = const_find(d, dl, value, type, r, true);
    e->op = c;
    c->flags |= NC_OP_KNOWN_CONSTANT;
    cval_put(d, c, nc_op_get_constant_value(c));
  } else {
    nc_rewriter_insert(rw, c);
  }
  return nc_op_results(c);
}

/* --- rewriter ------------------------------------------------------------------------------------------- */

nc_context *nc_rewriter_get_context(nc_rewriter *rw) { return rw->ctx; }

void nc_rewriter_set_insertion_point_before(nc_rewriter *rw, nc_op *op)
{
  rw->ip_block = op->block;
  rw->ip_before = op;
}

void nc_rewriter_set_insertion_point_after(nc_rewriter *rw, nc_op *op)
{
  rw->ip_block = op->block;
  rw->ip_before = op->next;
}

void nc_rewriter_set_insertion_point_to_start(nc_rewriter *rw, nc_block *b)
{
  rw->ip_block = b;
  rw->ip_before = b->first;
}

void nc_rewriter_set_insertion_point_to_end(nc_rewriter *rw, nc_block *b)
{
  rw->ip_block = b;
  rw->ip_before = NULL;
}

void nc_rewriter_insert(nc_rewriter *rw, nc_op *op)
{
  if (rw->ip_before)
    nc_op_insert_before(op, rw->ip_before);
  else if (rw->ip_block)
    nc_block_append_op(rw->ip_block, op);
  else
    NC_UNREACHABLE("rewriter has no insertion point");
  if (rw->drv) {
    nc_op_walk(op, NC_WALK_PRE_ORDER, push_walk, rw->drv);
    rw->drv->changed = true;
  }
}

nc_op *nc_rewriter_create(nc_rewriter *rw, const nc_op_state *st)
{
  nc_op *op = nc_op_create(st);
  if (op)
    nc_rewriter_insert(rw, op);
  return op;
}

static nc_walk_result mark_erased(nc_op *op, void *u)
{
  (void)u;
  op->flags |= NC_OP_ERASED;
  return NC_WALK_ADVANCE;
}

static void erase(driver *d, nc_op *op)
{
  for (uint32_t i = 0; i < op->n_operands; i++) {
    nc_value *v = op->operands[i].value;
    if (v && !(v->bits & NC_VALUE_ARG))
      push(d, nc_result_owner(v));
  }
  nc_op_remove(op);
  nc_op_drop_all_uses_of_operands(op);
  if (op->n_regions)
    nc_op_walk(op, NC_WALK_PRE_ORDER, mark_erased, NULL);
  else
    op->flags |= NC_OP_ERASED;
  if (d->n_grave == d->cap_grave) {
    d->cap_grave = d->cap_grave ? d->cap_grave * 2 : 256;
    d->grave = nc_xrealloc(d->grave, d->cap_grave * sizeof *d->grave);
  }
  d->grave[d->n_grave++] = op;
  /* its operands' definitions may now be dead: revisit them */
  d->changed = true;
}

void nc_rewriter_erase_op(nc_rewriter *rw, nc_op *op)
{
  for (uint32_t i = 0; i < op->n_results; i++)
    if (nc_op_results(op)[i].first_use)
      NC_UNREACHABLE("erasing an op whose results are still used");
  if (rw->drv)
    erase(rw->drv, op);
  else
    nc_op_erase(op);
}

void nc_rewriter_replace_all_uses_with(nc_rewriter *rw, nc_value *from, nc_value *to)
{
  if (rw->drv)
    push_users(rw->drv, from);
  nc_value_replace_all_uses_with(from, to);
  if (rw->drv)
    rw->drv->changed = true;
}

void nc_rewriter_replace_op(nc_rewriter *rw, nc_op *op, nc_value *const *values)
{
  for (uint32_t i = 0; i < op->n_results; i++)
    nc_rewriter_replace_all_uses_with(rw, &nc_op_results(op)[i], values[i]);
  nc_rewriter_erase_op(rw, op);
}

void nc_rewriter_replace_op_with_op(nc_rewriter *rw, nc_op *op, nc_op *with)
{
  nc_value *vals[64] = {0};
  nc_value **v = op->n_results <= 64 ? vals : nc_xmalloc(op->n_results * sizeof *v);
  for (uint32_t i = 0; i < op->n_results; i++)
    v[i] = &nc_op_results(with)[i];
  nc_rewriter_replace_op(rw, op, v);
  if (v != vals)
    free(v);
}

void nc_rewriter_modified(nc_rewriter *rw, nc_op *op)
{
  if (rw->drv && (op->flags & NC_OP_KNOWN_CONSTANT))
    cval_put(rw->drv, op, NULL);
  if (rw->drv) {
    push(rw->drv, op);
    rw->drv->changed = true;
  }
}

nc_rewriter *nc_rewriter_create_standalone(nc_context *ctx)
{
  nc_rewriter *rw = nc_xcalloc(1, sizeof *rw);
  rw->ctx = ctx;
  return rw;
}

void nc_rewriter_destroy(nc_rewriter *rw) { free(rw); }

/* --- dead code --------------------------------------------------------------------------------------------- */

bool nc_op_is_trivially_dead(nc_op *op)
{
  for (uint32_t i = 0; i < op->n_results; i++)
    if (nc_op_results(op)[i].first_use)
      return false;
  uint64_t t = op->info->traits;
  if ((t & (NC_TRAIT_TERMINATOR | NC_TRAIT_SYMBOL)) || !op->info->def)
    return false;
  return nc_op_is_pure(op);
}

/* --- folding ---------------------------------------------------------------------------------------------- */

/* MLIR's Commutative trait fold: a constant operand moves to the right. */
static bool fold_commutative(driver *d, nc_op *op)
{
  if (!(op->info->traits & NC_TRAIT_COMMUTATIVE) || op->n_operands != 2 ||
      !operand_constant(d, op->operands[0].value) || operand_constant(d, op->operands[1].value))
    return false;
  nc_value *a = op->operands[0].value, *b = op->operands[1].value;
  nc_use_set(&op->operands[0], b);
  nc_use_set(&op->operands[1], a);
  return true;
}

/* Folds as MLIR's Operation::fold: the op's fold hook first, then, if it
 * failed or changed the op in place, the trait folds. An op changed in place
 * goes back on the worklist. */
static bool try_fold(driver *d, nc_op *op)
{
  const nc_op_def *def = op->info->def;
  if (!def || (op->info->traits & NC_TRAIT_CONSTANT_LIKE))
    return false;
  bool in_place = false;
  if (def->fold) {
    nc_attr *cbuf[8], **consts = op->n_operands <= 8 ? cbuf : nc_xmalloc(op->n_operands * sizeof *consts);
    for (uint32_t i = 0; i < op->n_operands; i++)
      consts[i] = operand_constant(d, op->operands[i].value);
    nc_fold_result rbuf[8], *res = op->n_results <= 8 ? rbuf : nc_xmalloc(op->n_results * sizeof *res);
    memset(res, 0, op->n_results * sizeof *res);
    bool folded = def->fold(op, consts, res);
    if (consts != cbuf)
      free(consts);
    if (folded) {
      in_place = true;
      for (uint32_t i = 0; i < op->n_results; i++)
        in_place &= res[i].value == &nc_op_results(op)[i];
    }
    if (folded && !in_place) {
      nc_value *vbuf[8], **vals = op->n_results <= 8 ? vbuf : nc_xmalloc(op->n_results * sizeof *vals);
      memset(vals, 0, op->n_results * sizeof *vals);
      bool ok = true;
      nc_rewriter_set_insertion_point_before(&d->rw, op);
      for (uint32_t i = 0; i < op->n_results && ok; i++) {
        if (res[i].value)
          vals[i] = res[i].value;
        else if (res[i].attr)
          ok = (vals[i] = nc_rewriter_materialize_constant(&d->rw, op->info->dialect, res[i].attr,
                                                           nc_op_results(op)[i].type, op->loc)) != NULL;
        else
          ok = false;
      }
      if (ok) {
        nc_rewriter_replace_op(&d->rw, op, vals);
        d->stats.folds++;
      }
      if (vals != vbuf)
        free(vals);
      if (res != rbuf)
        free(res);
      return ok; /* a result that cannot be materialized leaves the op to the patterns */
    }
    if (res != rbuf)
      free(res);
  }
  in_place |= fold_commutative(d, op);
  if (!in_place)
    return false;
  push(d, op);
  d->stats.folds++;
  return true;
}

/* --- the driver -------------------------------------------------------------------------------------------- */

static const pat_entry *patterns_for(const nc_pattern_set *s, nc_ident *name, size_t *n)
{
  /* entries are sorted by root pointer: binary search the run for `name` */
  *n = 0;
  if (!s)
    return NULL;
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if ((uintptr_t)s->v[mid].root < (uintptr_t)name)
      lo = mid + 1;
    else
      hi = mid;
  }
  size_t e = lo;
  while (e < s->n && s->v[e].root == name)
    e++;
  *n = e - lo;
  return s->v + lo;
}

static const pat_entry *patterns_of(driver *d, nc_ident *name, size_t *n)
{
  size_t h = ((uintptr_t)name >> 4) % (sizeof d->pat_cache / sizeof *d->pat_cache);
  if (d->pat_cache[h].name != name) {
    d->pat_cache[h].pats = patterns_for(d->patterns, name, &d->pat_cache[h].n);
    d->pat_cache[h].name = name;
  }
  *n = d->pat_cache[h].n;
  return d->pat_cache[h].pats;
}

static bool process(driver *d, nc_op *op, const nc_greedy_config *cfg)
{
  if (nc_op_is_trivially_dead(op)) {
    erase(d, op);
    d->stats.erased++;
    return true;
  }
  if (cfg->fold && try_fold(d, op))
    return true;
  if (op->flags & NC_OP_ERASED)
    return true;
  size_t n;
  const pat_entry *pats = patterns_of(d, op->info->name, &n);
  for (int pass = 0; pass < 2; pass++) { /* the op's own patterns, then those for any op */
    for (size_t i = 0; i < n; i++) {
      nc_rewriter_set_insertion_point_before(&d->rw, op);
      const nc_pattern *p = pats[i].p;
      if (p->match_and_rewrite ? p->match_and_rewrite(op, &d->rw)
                               : p->match_and_rewrite_with_data(op, &d->rw, p->userData)) {
        if ((op->flags & (NC_OP_KNOWN_CONSTANT | NC_OP_ERASED)) == NC_OP_KNOWN_CONSTANT)
          cval_put(d, op, NULL); /* it may have changed in place: ask it again */
        d->stats.rewrites++;
        d->changed = true;
        return true;
      }
    }
    pats = d->any_pats;
    n = d->n_any_pats;
  }
  return false;
}

typedef struct collect {
  nc_op **ops;
  size_t n, cap;
} collect;

static void collect_push(collect *c, nc_op *op)
{
  if (c->n == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 1024;
    c->ops = nc_xrealloc(c->ops, c->cap * sizeof *c->ops);
  }
  c->ops[c->n++] = op;
}

/* The ops nested in `op` (not `op` itself), in pre- or post-order: a direct
 * walk, as the worklist is refilled from it on every iteration. */
static void collect_nested(collect *c, nc_op *op, bool pre_order)
{
  for (uint32_t i = 0; i < op->n_regions; i++)
    for (nc_block *b = nc_op_regions(op)[i].first; b; b = b->next)
      for (nc_op *o = b->first; o; o = o->next) {
        __builtin_prefetch((const char *)o + 1024); /* ops mostly lie in allocation order */
        if (pre_order)
          collect_push(c, o);
        if (o->n_regions)
          collect_nested(c, o, pre_order);
        if (!pre_order)
          collect_push(c, o);
      }
}

/* Known constants carry a flag while they are in the folder's table; the
 * table is rebuilt on every iteration, so the flags are dropped with it
 * (before erased ops are freed: some of them may be in the table). */
static void forget_constants(driver *d)
{
  for (size_t i = 0; i < d->cap_consts; i++)
    if (d->consts[i].op)
      d->consts[i].op->flags &= (uint8_t)~NC_OP_KNOWN_CONSTANT;
  free(d->consts);
  d->consts = NULL;
  d->cap_consts = d->n_consts = 0;
  free(d->cvals);
  d->cvals = NULL;
  d->cap_cvals = d->n_cvals = 0;
}

static void bury(driver *d)
{
  for (size_t i = 0; i < d->n_grave; i++)
    nc_op_destroy(d->grave[i]);
  d->n_grave = 0;
}

/* Region simplification: erase unreachable blocks, then dead ops bottom-up. */
static bool simplify_region_dce(driver *d, nc_region *r);

static bool erase_unreachable(driver *d, nc_region *r)
{
  if (!r->first || r->first == r->last)
    return false;
  bool changed = false;
  for (nc_block *b = r->first; b; b = b->next)
    b->print_id = 0;
  /* mark reachable from the entry */
  size_t cap = 16, n = 0;
  nc_block **stack = nc_xmalloc(cap * sizeof *stack);
  stack[n++] = r->first;
  r->first->print_id = 1;
  while (n) {
    nc_block *b = stack[--n];
    for (size_t i = 0; i < nc_block_get_num_successors(b); i++) {
      nc_block *s = nc_block_get_successor(b, i);
      if (s && s->region == r && !s->print_id) {
        s->print_id = 1;
        if (n == cap)
          stack = nc_xrealloc(stack, (cap *= 2) * sizeof *stack);
        stack[n++] = s;
      }
    }
  }
  free(stack);
  for (nc_block *b = r->first->next, *next; b; b = next) {
    next = b->next;
    if (b->print_id)
      continue;
    /* values of dead blocks can only be used in dead blocks: drop them */
    for (nc_op *o = b->first; o; o = o->next) {
      for (uint32_t i = 0; i < o->n_results; i++)
        while (nc_op_results(o)[i].first_use)
          nc_use_set(nc_op_results(o)[i].first_use, NULL);
      nc_op_walk(o, NC_WALK_PRE_ORDER, mark_erased, NULL);
    }
    for (uint32_t i = 0; i < b->n_args; i++)
      while (b->args[i]->v.first_use)
        nc_use_set(b->args[i]->v.first_use, NULL);
    nc_block_remove(b);
    for (nc_op *o = b->first; o; o = o->next)
      nc_op_drop_all_uses_of_operands(o);
    while (b->first) {
      nc_op *o = b->first;
      nc_op_remove(o);
      if (d->n_grave == d->cap_grave) {
        d->cap_grave = d->cap_grave ? d->cap_grave * 2 : 256;
        d->grave = nc_xrealloc(d->grave, d->cap_grave * sizeof *d->grave);
      }
      d->grave[d->n_grave++] = o;
    }
    nc_block_destroy(b);
    changed = true;
  }
  return changed;
}

static bool simplify_region_dce(driver *d, nc_region *r)
{
  bool changed = erase_unreachable(d, r);
  for (nc_block *b = r->last; b; b = b->prev)
    for (nc_op *o = b->last, *prev; o; o = prev) {
      prev = o->prev;
      for (uint32_t i = 0; i < o->n_regions; i++)
        changed |= simplify_region_dce(d, &nc_op_regions(o)[i]);
      if (nc_op_is_trivially_dead(o)) {
        erase(d, o);
        d->stats.erased++;
        changed = true;
      }
    }
  return changed;
}

nc_greedy_config nc_greedy_config_default(void)
{
  return (nc_greedy_config){10, -1, true, NC_REGION_SIMPLIFY_NORMAL, true};
}

void nc_apply_patterns_greedily(nc_op *root, const nc_pattern_set *patterns, const nc_greedy_config *cfg,
                                nc_greedy_stats *stats)
{
  nc_greedy_config defaults = nc_greedy_config_default();
  if (!cfg)
    cfg = &defaults;
  driver d;
  memset(&d, 0, sizeof d);
  d.rw.ctx = root->info->ctx;
  d.rw.drv = &d;
  d.root = root;
  d.patterns = patterns;
  d.any_pats = patterns_for(patterns, NULL, &d.n_any_pats);
  bool changed, again;
  int64_t iter = 0;
  collect c = {NULL, 0, 0};
  do {
    d.changed = false;
    /* fill the worklist: pre-order; constants go to the folder instead */
    c.n = 0;
    collect_nested(&c, root, cfg->top_down);
    for (size_t i = 0; i < c.n; i++) {
      nc_op *op = c.ops[i];
      if (op->flags & NC_OP_ERASED)
        continue;
      if (!insert_known_constant(&d, op))
        push(&d, op);
    }
    /* the worklist is a stack: reverse so ops are processed in walk order */
    for (size_t i = 0, j = d.n_wl ? d.n_wl - 1 : 0; i < j; i++, j--) {
      nc_op *t = d.wl[i];
      d.wl[i] = d.wl[j];
      d.wl[j] = t;
    }
    while (d.n_wl) {
      nc_op *op = d.wl[--d.n_wl];
      op->flags &= (uint8_t)~NC_OP_IN_WORKLIST;
      if (op->flags & NC_OP_ERASED)
        continue;
      if (cfg->max_num_rewrites >= 0 && (int64_t)d.stats.rewrites >= cfg->max_num_rewrites)
        break;
      if (process(&d, op, cfg))
        d.changed = true;
    }
    for (size_t i = 0; i < d.n_wl; i++)
      d.wl[i]->flags &= (uint8_t)~NC_OP_IN_WORKLIST;
    d.n_wl = 0;
    changed = d.changed;
    if (cfg->region_simplify != NC_REGION_SIMPLIFY_DISABLED)
      for (uint32_t i = 0; i < root->n_regions; i++)
        changed |= simplify_region_dce(&d, &nc_op_regions(root)[i]);
    forget_constants(&d);
    again = changed && (cfg->max_iterations < 0 || ++iter < cfg->max_iterations) &&
            (cfg->max_num_rewrites < 0 || (int64_t)d.stats.rewrites < cfg->max_num_rewrites);
    /* the region simplification queues the operands' definitions of the ops
     * it erases, for the next iteration: drop the erased ones before they are
     * freed, and unmark them all if there is no next iteration */
    size_t kept = 0;
    for (size_t i = 0; i < d.n_wl; i++) {
      nc_op *op = d.wl[i];
      if (again && !(op->flags & NC_OP_ERASED))
        d.wl[kept++] = op;
      else
        op->flags &= (uint8_t)~NC_OP_IN_WORKLIST;
    }
    d.n_wl = kept;
    bury(&d);
  } while (again);
  d.stats.converged = !changed;
  free(c.ops);
  free(d.wl);
  free(d.grave);
  if (stats)
    *stats = d.stats;
}
