/* verify.c: the verifier.
 *
 * Checks, for every op: its definition's table (operand/result counts and
 * type constraints, attributes, regions, successors, traits), block
 * structure (terminators, successors), SSA dominance in CFG regions and
 * visibility in graph regions, isolation from above, symbol tables, and
 * then the op's own verify hooks. Every failure is a diagnostic at the
 * op's location.
 */
#include "ir-internal.h"
#include "nc/ir/diag.h"
#include "nc/ir/dominance.h"
#include "nc/ir/threading.h"

#include <stdlib.h>
#include <string.h>

/* --- operand and result groups ------------------------------------------------------------------- */

static bool groups(const nc_op *op, bool results, size_t g, size_t *start, size_t *count)
{
  const nc_op_def *d = op->info->def;
  if (!d)
    return false;
  const nc_value_def *defs = results ? d->results : d->operands;
  size_t n = results ? d->n_results : d->n_operands;
  size_t total = results ? op->n_results : op->n_operands;
  if (g >= n)
    return false;
  uint64_t trait = results ? NC_TRAIT_ATTR_SIZED_RESULT_SEGMENTS : NC_TRAIT_ATTR_SIZED_OPERAND_SEGMENTS;
  if (op->info->traits & trait) {
    nc_attr *seg = nc_op_get_attr_str(op, results ? "resultSegmentSizes" : "operandSegmentSizes");
    if (!seg || seg->kind != NC_ATTR_DENSE_ARRAY || seg->darray.n != n)
      return false;
    size_t s = 0;
    for (size_t i = 0; i < g; i++)
      s += (size_t)nc_attr_dense_array_get_int(seg, i);
    *start = s;
    *count = (size_t)nc_attr_dense_array_get_int(seg, g);
    return s + *count <= total;
  }
  size_t fixed = 0, var = 0, opt = 0;
  for (size_t i = 0; i < n; i++) {
    defs[i].arity == NC_ARITY_ONE ? fixed++ : var++;
    opt += defs[i].arity == NC_ARITY_OPTIONAL;
  }
  if (total < fixed || (var == 0 && total != fixed))
    return false;
  if (var > 1 && opt == var) {
    /* only optional groups: positional, as ONNX's optional inputs (the
     * first total - fixed of them are present) */
    if (total - fixed > var)
      return false;
    size_t s = 0, extra = total - fixed;
    for (size_t i = 0; i < g; i++)
      s += defs[i].arity == NC_ARITY_ONE ? 1 : extra ? (extra--, 1) : 0;
    *start = s;
    *count = defs[g].arity == NC_ARITY_ONE ? 1 : extra ? 1 : 0;
    return true;
  }
  size_t var_size = var ? (total - fixed) / var : 0;
  if (var > 1 && (total - fixed) % var)
    return false; /* ambiguous without segment sizes */
  size_t s = 0;
  for (size_t i = 0; i < g; i++)
    s += defs[i].arity == NC_ARITY_ONE ? 1 : var_size;
  *start = s;
  *count = defs[g].arity == NC_ARITY_ONE ? 1 : var_size;
  return true;
}

bool nc_op_get_operand_group(const nc_op *op, size_t g, size_t *start, size_t *count)
{
  return groups(op, false, g, start, count);
}

bool nc_op_get_result_group(const nc_op *op, size_t g, size_t *start, size_t *count)
{
  return groups(op, true, g, start, count);
}

nc_value *nc_op_get_operand_by_name(const nc_op *op, const char *name)
{
  const nc_op_def *d = op->info->def;
  if (!d)
    return NULL;
  for (size_t g = 0; g < d->n_operands; g++)
    if (!strcmp(d->operands[g].name, name)) {
      size_t start, count;
      if (!groups(op, false, g, &start, &count) || !count)
        return NULL;
      return op->operands[start].value;
    }
  return NULL;
}

/* --- per-op checks from the table ---------------------------------------------------------------- */

static char *tstr(const nc_type *t) { return nc_type_to_string(t); }

static bool check_values(nc_op *op, bool results)
{
  const nc_op_def *d = op->info->def;
  const nc_value_def *defs = results ? d->results : d->operands;
  size_t n = results ? d->n_results : d->n_operands;
  size_t total = results ? op->n_results : op->n_operands;
  const char *what = results ? "result" : "operand";
  size_t fixed = 0, var = 0, opt = 0;
  for (size_t i = 0; i < n; i++) {
    defs[i].arity == NC_ARITY_ONE ? fixed++ : var++;
    opt += defs[i].arity == NC_ARITY_OPTIONAL;
  }
  uint64_t seg_trait = results ? NC_TRAIT_ATTR_SIZED_RESULT_SEGMENTS : NC_TRAIT_ATTR_SIZED_OPERAND_SEGMENTS;
  if (op->info->traits & seg_trait) {
    const char *sname = results ? "resultSegmentSizes" : "operandSegmentSizes";
    nc_attr *seg = nc_op_get_attr_str(op, sname);
    if (!seg || seg->kind != NC_ATTR_DENSE_ARRAY || seg->darray.n != n)
      return nc_op_emit_error(op, "requires dense i32 array attribute '%s' with %zu elements", sname, n);
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
      int64_t k = nc_attr_dense_array_get_int(seg, i);
      if (k < 0 || (defs[i].arity == NC_ARITY_ONE && k != 1) || (defs[i].arity == NC_ARITY_OPTIONAL && k > 1))
        return nc_op_emit_error(op, "'%s' entry %zu (%lld) does not fit %s group '%s'", sname, i, (long long)k, what,
                                defs[i].name);
      sum += k;
    }
    if ((size_t)sum != total)
      return nc_op_emit_error(op, "'%s' adds up to %lld, but the op has %zu %ss", sname, (long long)sum, total, what);
  } else if (var == 0 && total != fixed) {
    return nc_op_emit_error(op, "expected %zu %ss, but found %zu", fixed, what, total);
  } else if (total < fixed) {
    return nc_op_emit_error(op, "expected %zu or more %ss, but found %zu", fixed, what, total);
  } else if (var > 1 && opt == var && total - fixed > var) {
    return nc_op_emit_error(op, "expected at most %zu %ss, but found %zu", fixed + var, what, total);
  } else if (var > 1 && opt != var && (total - fixed) % var) {
    return nc_op_emit_error(op, "cannot split %zu %ss among its variadic groups", total, what);
  }
  for (size_t g = 0; g < n; g++) {
    size_t start, count;
    if (!groups(op, results, g, &start, &count))
      return nc_op_emit_error(op, "malformed %s groups", what);
    if (defs[g].arity == NC_ARITY_OPTIONAL && count > 1)
      return nc_op_emit_error(op, "optional %s group '%s' has %zu values", what, defs[g].name, count);
    if (!defs[g].type)
      continue;
    for (size_t i = start; i < start + count; i++) {
      nc_value *v = results ? &nc_op_results(op)[i] : op->operands[i].value;
      if (!v)
        return nc_op_emit_error(op, "operand #%zu is null", i);
      if (!defs[g].type->pred(v->type)) {
        char *s = tstr(v->type);
        nc_op_emit_error(op, "%s #%zu must be %s, but got '%s'", what, i, defs[g].type->summary, s);
        free(s);
        return false;
      }
    }
  }
  return true;
}

static bool check_attrs(nc_op *op)
{
  const nc_op_def *d = op->info->def;
  nc_attr *props = op->props;
  if (props && props->kind != NC_ATTR_DICTIONARY)
    return nc_op_emit_error(op, "properties must be a dictionary");
  if (props) {
    for (size_t i = 0; i < props->dict.n; i++) {
      const nc_ident *name = props->dict.entries[i].name;
      bool known = false; /* names are interned: a pointer compare, the segment sizes' strings last */
      for (size_t k = 0; k < d->n_attrs && !known; k++)
        known = op->info->attr_names[k] == name;
      known = known || !strcmp(name->str, "operandSegmentSizes") || !strcmp(name->str, "resultSegmentSizes");
      if (!known)
        return nc_op_emit_error(op, "'%s' is not a property of this op", name->str);
    }
  }
  for (size_t k = 0; k < d->n_attrs; k++) {
    const nc_attr_def *ad = &d->attrs[k];
    nc_attr *a = props ? nc_attr_dict_get(props, op->info->attr_names[k]) : NULL;
    if (!a) {
      if (!ad->optional)
        return nc_op_emit_error(op, "requires attribute '%s'", ad->name);
      continue;
    }
    if (ad->constraint && !ad->constraint->pred(a))
      return nc_op_emit_error(op, "attribute '%s' failed to satisfy constraint: %s", ad->name, ad->constraint->summary);
  }
  return true;
}

static bool same_shape(const nc_type *a, const nc_type *b)
{
  if (!nc_type_is_shaped(a) || !nc_type_is_shaped(b))
    return nc_type_is_shaped(a) == nc_type_is_shaped(b);
  if (!nc_type_has_rank(a) || !nc_type_has_rank(b))
    return true;
  if (a->shaped.rank != b->shaped.rank)
    return false;
  for (uint32_t i = 0; i < a->shaped.rank; i++)
    if (a->shaped.shape[i] != b->shaped.shape[i] && a->shaped.shape[i] != NC_DYNAMIC && b->shaped.shape[i] != NC_DYNAMIC)
      return false;
  return true;
}

static bool check_traits(nc_op *op)
{
  uint64_t t = op->info->traits;
  const nc_op_def *d = op->info->def;
  nc_value *res = nc_op_results(op);
  if (t & NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE) {
    nc_type *ty = op->n_results ? res[0].type : op->n_operands ? op->operands[0].value->type : NULL;
    for (uint32_t i = 0; i < op->n_results; i++)
      if (res[i].type != ty)
        return nc_op_emit_error(op, "requires the same type for all operands and results");
    for (uint32_t i = 0; i < op->n_operands; i++)
      if (op->operands[i].value->type != ty)
        return nc_op_emit_error(op, "requires the same type for all operands and results");
  }
  if (t & NC_TRAIT_SAME_TYPE_OPERANDS)
    for (uint32_t i = 1; i < op->n_operands; i++)
      if (op->operands[i].value->type != op->operands[0].value->type)
        return nc_op_emit_error(op, "requires all operands to have the same type");
  if (t & NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE) {
    nc_type *e = op->n_results ? nc_type_get_element_type(res[0].type) : NULL;
    for (uint32_t i = 0; i < op->n_operands; i++) {
      nc_type *x = nc_type_get_element_type(op->operands[i].value->type);
      if (e && x != e)
        return nc_op_emit_error(op, "requires the same element type for all operands and results");
      e = x;
    }
  }
  if (t & NC_TRAIT_SAME_OPERANDS_AND_RESULT_SHAPE) {
    nc_type *ref = op->n_results ? res[0].type : op->n_operands ? op->operands[0].value->type : NULL;
    for (uint32_t i = 0; i < op->n_operands; i++)
      if (!same_shape(ref, op->operands[i].value->type))
        return nc_op_emit_error(op, "requires the same shape for all operands and results");
    for (uint32_t i = 0; i < op->n_results; i++)
      if (!same_shape(ref, res[i].type))
        return nc_op_emit_error(op, "requires the same shape for all operands and results");
  }
  if (t & NC_TRAIT_SYMBOL) {
    nc_op *parent = nc_op_get_parent_op(op);
    if (parent && !(parent->info->traits & NC_TRAIT_SYMBOL_TABLE)) /* as MLIR: no func.func inside a func.func */
      return nc_op_emit_error(op, "symbol's parent must have the SymbolTable trait");
    nc_attr *name = nc_op_get_attr_str(op, "sym_name");
    if (!name || name->kind != NC_ATTR_STRING)
      return nc_op_emit_error(op, "requires string attribute 'sym_name'");
    nc_attr *vis = nc_op_get_attr_str(op, "sym_visibility");
    if (vis && !nc_attr_is_string_eq(vis, "public") && !nc_attr_is_string_eq(vis, "private") &&
        !nc_attr_is_string_eq(vis, "nested"))
      return nc_op_emit_error(op, "visibility expected to be one of [\"public\", \"private\", \"nested\"]");
  }
  if (t & NC_TRAIT_HAS_PARENT) {
    nc_op *parent = nc_op_get_parent_op(op);
    bool ok = false;
    for (const char *const *p = d->parents; p && *p && !ok; p++)
      ok = parent && nc_op_is(parent, *p);
    if (!ok) {
      nc_diag *dg = nc_op_diag_error(op, "expects parent op %s'%s'", d->parents && d->parents[1] ? "to be one of " : "",
                                     d->parents ? d->parents[0] : "?");
      for (const char *const *p = d->parents ? d->parents + 1 : NULL; p && *p; p++)
        nc_diag_append(dg, ", '%s'", *p);
      nc_diag_emit(dg);
      return false;
    }
  }
  if (op->n_regions != d->n_regions) {
    bool variadic = d->n_regions && d->regions[d->n_regions - 1].variadic;
    if (!variadic || op->n_regions < d->n_regions - 1)
      return nc_op_emit_error(op, "requires %zu region%s", d->n_regions, d->n_regions == 1 ? "" : "s");
  }
  for (size_t i = 0; i < d->n_regions && i < op->n_regions; i++)
    if ((d->regions[i].single_block || (t & NC_TRAIT_SINGLE_BLOCK)) && nc_op_regions(op)[i].first &&
        nc_op_regions(op)[i].first != nc_op_regions(op)[i].last)
      return nc_op_emit_error(op, "expects region #%zu to have 0 or 1 blocks", i);
  size_t ns = d->n_successors;
  bool svar = ns && d->successors[ns - 1].variadic;
  if (op->n_succs != ns && !(svar && op->n_succs >= ns - 1))
    return nc_op_emit_error(op, "requires %zu successor%s but found %u", ns, ns == 1 ? "" : "s", op->n_succs);
  return true;
}

/* --- dominance ------------------------------------------------------------------------------------------ */

typedef struct dom_entry {
  nc_region *region;
  nc_dominance *dom;
} dom_entry;

typedef struct verifier {
  nc_context *ctx;
  dom_entry *trees; /* dominator trees of the multi-block regions seen so far */
  size_t n_trees, cap_trees;
} verifier;

static nc_dominance *get_dom(verifier *v, nc_region *r)
{
  for (size_t i = 0; i < v->n_trees; i++)
    if (v->trees[i].region == r)
      return v->trees[i].dom;
  if (v->n_trees == v->cap_trees) {
    v->cap_trees = v->cap_trees ? v->cap_trees * 2 : 8;
    v->trees = nc_xrealloc(v->trees, v->cap_trees * sizeof *v->trees);
  }
  v->trees[v->n_trees] = (dom_entry){r, nc_dominance_create(r)};
  return v->trees[v->n_trees++].dom;
}

static bool operand_error(nc_op *user, size_t i, nc_value *v, const char *msg)
{
  nc_diag *d = nc_op_diag_error(user, "operand #%zu %s", i, msg);
  nc_diag_attach_note(d, nc_value_get_loc(v), "operand defined here");
  nc_diag_emit(d);
  return false;
}

static bool check_operand(verifier *v, nc_op *user, size_t i)
{
  nc_value *val = user->operands[i].value;
  if (!val)
    return nc_op_emit_error(user, "operand #%zu is null", i);
  nc_block *db = nc_value_get_parent_block(val);
  if (!db || !db->region)
    return nc_op_emit_error(user, "operand #%zu is not defined in any region", i);
  bool is_arg = val->bits & NC_VALUE_ARG;
  if (db == user->block) { /* the common case */
    nc_op *owner = db->region->op;
    if (is_arg || !owner || nc_op_has_graph_regions(owner) || nc_op_is_before_in_block(nc_result_owner(val), user))
      return true;
    return operand_error(user, i, val, "does not dominate this use");
  }
  nc_region *dr = db->region;
  nc_op *anc = user;
  while (anc->block && anc->block->region != dr) {
    nc_op *parent = anc->block->region ? anc->block->region->op : NULL;
    if (!parent)
      break;
    if (parent->info->traits & NC_TRAIT_ISOLATED_FROM_ABOVE) {
      nc_diag *d = nc_op_diag_error(parent, "using value defined outside the region");
      nc_diag_attach_note(d, user->loc, "required by region isolation constraints");
      nc_diag_emit(d);
      return false;
    }
    anc = parent;
  }
  if (!anc->block || anc->block->region != dr)
    return operand_error(user, i, val, "is defined in a region that does not enclose this use");
  nc_op *owner = dr->op;
  if (!owner || nc_op_has_graph_regions(owner))
    return true;
  if (anc->block == db) {
    if (is_arg || (nc_result_owner(val) != anc && nc_op_is_before_in_block(nc_result_owner(val), anc)))
      return true;
    return operand_error(user, i, val, "does not dominate this use");
  }
  nc_dominance *t = get_dom(v, dr);
  if (!nc_dominance_is_reachable(t, anc->block))
    return true; /* dominance is meaningless in unreachable code */
  if (nc_dominance_is_reachable(t, db) && nc_dominance_dominates(t, db, anc->block))
    return true;
  return operand_error(user, i, val, "does not dominate this use");
}

static bool verify_op(verifier *v, nc_op *op);

/* --- isolated ops in parallel ------------------------------------------------------------------------- */

/* A block with at least this many isolated-from-above ops that have regions
 * verifies them on the context's threads first. Fewer (a module's one
 * function and one chip) stay serial, so the ops nested in them (a
 * function's dataflow nodes) can still use the threads. */
enum { PARALLEL_MIN_OPS = 4 };

/* An isolated op verified ahead of the block's serial walk. */
typedef struct pre_op {
  nc_op *op;
  nc_diag_capture *diags; /* its diagnostics, held until the walk reaches it */
  bool ok;
} pre_op;

typedef struct pre_job {
  nc_context *ctx;
  pre_op *ops;
} pre_job;

static bool is_isolated_with_regions(const nc_op *o)
{
  return o->n_regions && (o->info->traits & NC_TRAIT_ISOLATED_FROM_ABOVE);
}

/* Item i: verifies op i with a verifier of its own (an isolated op's checks
 * look at nothing outside it but its parent's name). */
static bool pre_verify(size_t i, void *user)
{
  pre_job *j = user;
  verifier local = {j->ctx, NULL, 0, 0};
  pre_op *p = &j->ops[i];
  p->diags = nc_diag_capture_begin();
  p->ok = verify_op(&local, p->op);
  nc_diag_capture_end(p->diags);
  for (size_t k = 0; k < local.n_trees; k++)
    nc_dominance_destroy(local.trees[k].dom);
  free(local.trees);
  return true;
}

/* Verifies b's isolated ops (as verify_op) in parallel when there are
 * enough of them and threads to use; returns them in block order (NULL and
 * *n = 0 otherwise). The walk then takes each one's result in place of
 * verify_op, delivering its diagnostics then; those it never reaches (it
 * stopped at an earlier failure) are discarded, so the diagnostics are a
 * serial walk's. As MLIR's verifier, which verifies nested isolated ops with
 * a parallel for. */
static pre_op *pre_verify_isolated(verifier *v, nc_block *b, size_t *n)
{
  *n = 0;
  if (nc_context_get_num_threads(v->ctx) <= 1)
    return NULL;
  size_t count = 0;
  for (nc_op *o = b->first; o; o = o->next)
    count += is_isolated_with_regions(o);
  if (count < PARALLEL_MIN_OPS)
    return NULL;
  pre_op *ops = nc_xcalloc(count, sizeof *ops);
  for (nc_op *o = b->first; o; o = o->next)
    if (is_isolated_with_regions(o))
      ops[(*n)++].op = o;
  pre_job job = {v->ctx, ops};
  nc_parallel_for(v->ctx, count, pre_verify, &job);
  return ops;
}

/* The block's ops in order, stopping at the first failure. */
static bool verify_ops(verifier *v, nc_block *b, pre_op *pre, size_t n_pre)
{
  size_t next_pre = 0;
  for (nc_op *o = b->first; o; o = o->next) {
    if (o->block != b)
      return nc_op_emit_error(o, "is linked into the wrong block");
    if (o->next && (o->info->traits & NC_TRAIT_TERMINATOR))
      return nc_op_emit_error(o, "must be the last operation in the parent block");
    if (o->n_succs) {
      if (o->next)
        return nc_op_emit_error(o, "has successors but is not the last operation in its block");
      for (uint32_t i = 0; i < o->n_succs; i++) {
        nc_block *s = nc_op_succs(o)[i].block;
        if (!s || s->region != b->region)
          return nc_op_emit_error(o, "reference to block defined in another region");
      }
    }
    for (uint32_t i = 0; i < o->n_operands; i++)
      if (!check_operand(v, o, i))
        return false;
    if (next_pre < n_pre && pre[next_pre].op == o) {
      pre_op *p = &pre[next_pre++];
      nc_diag_capture_flush(p->diags, v->ctx);
      p->diags = NULL;
      if (!p->ok)
        return false;
    } else if (!verify_op(v, o)) {
      return false;
    }
  }
  return true;
}

static bool verify_block(verifier *v, nc_block *b, nc_op *parent)
{
  bool registered = parent && parent->info->def;
  size_t n_pre;
  pre_op *pre = pre_verify_isolated(v, b, &n_pre);
  bool ok = verify_ops(v, b, pre, n_pre);
  for (size_t i = 0; i < n_pre; i++)
    if (pre[i].diags)
      nc_diag_capture_discard(pre[i].diags);
  free(pre);
  if (!ok)
    return false;
  if (registered && !(parent->info->traits & NC_TRAIT_NO_TERMINATOR)) {
    nc_op *last = b->last;
    if (!last)
      return nc_op_emit_error(parent, "empty block: expect at least a terminator");
    if (last->info->def && !(last->info->traits & NC_TRAIT_TERMINATOR))
      return nc_op_emit_error(last, "block with no terminator, has '%s' last", last->info->name->str);
  }
  return true;
}

static bool verify_region(verifier *v, nc_region *r, nc_op *parent)
{
  if (r->first && r->first->first_use) {
    nc_op *pred = r->first->first_use->owner;
    return nc_op_emit_error(pred, "entry block of region may not have predecessors");
  }
  for (nc_block *b = r->first; b; b = b->next) {
    if (b->region != r)
      return nc_op_emit_error(parent, "has a block linked into the wrong region");
    if (!verify_block(v, b, parent))
      return false;
  }
  return true;
}

static bool check_symbol_table(nc_op *op)
{
  if (op->n_regions != 1 || (nc_op_regions(op)[0].first && nc_op_regions(op)[0].first != nc_op_regions(op)[0].last))
    return nc_op_emit_error(op, "Operations with a 'SymbolTable' must have exactly one block");
  nc_block *b = nc_op_regions(op)[0].first;
  if (!b)
    return true;
  size_t n = 0;
  for (nc_op *o = b->first; o; o = o->next)
    n++;
  size_t cap = 16;
  while (cap < 2 * n + 2)
    cap *= 2;
  nc_op **slots = nc_xcalloc(cap, sizeof *slots);
  bool ok = true;
  for (nc_op *o = b->first; o && ok; o = o->next) {
    nc_attr *name = nc_op_get_attr_str(o, "sym_name");
    if (!name || name->kind != NC_ATTR_STRING)
      continue;
    size_t j = name->hash & (cap - 1); /* attributes keep their hash inline, not in a header */
    while (slots[j]) {
      if (nc_op_get_attr_str(slots[j], "sym_name") == name) {
        nc_diag *d = nc_op_diag_error(o, "redefinition of symbol named '%s'", name->str.s);
        nc_diag_attach_note(d, slots[j]->loc, "see existing symbol definition here");
        nc_diag_emit(d);
        ok = false;
        break;
      }
      j = (j + 1) & (cap - 1);
    }
    slots[j] = o;
  }
  free(slots);
  return ok;
}

static bool verify_op(verifier *v, nc_op *op)
{
  const nc_op_def *d = op->info->def;
  if (d) {
    if (!check_values(op, false) || !check_values(op, true) || !check_attrs(op) || !check_traits(op))
      return false;
    if ((op->info->traits & NC_TRAIT_SYMBOL_TABLE) && !check_symbol_table(op))
      return false;
    if (d->verify && !d->verify(op))
      return false;
  }
  for (uint32_t i = 0; i < op->n_regions; i++)
    if (!verify_region(v, &nc_op_regions(op)[i], op))
      return false;
  if (d && d->verify_regions && !d->verify_regions(op))
    return false;
  return true;
}

bool nc_verify_op_def(nc_op *op)
{
  if (!op->info->def)
    return true;
  return check_values(op, false) && check_values(op, true) && check_attrs(op) && check_traits(op) &&
         (!op->info->def->verify || op->info->def->verify(op));
}

typedef struct sym_walk {
  nc_symbol_table_collection *tables;
  bool ok;
} sym_walk;

static nc_walk_result verify_uses(nc_op *op, void *user)
{
  sym_walk *w = user;
  const nc_op_def *d = op->info->def;
  if (d && d->verify_symbol_uses && !d->verify_symbol_uses(op, w->tables)) {
    w->ok = false;
    return NC_WALK_INTERRUPT;
  }
  return NC_WALK_ADVANCE;
}

bool nc_op_verify(nc_op *op)
{
  verifier v = {op->info->ctx, NULL, 0, 0};
  bool ok = verify_op(&v, op);
  for (size_t i = 0; i < v.n_trees; i++)
    nc_dominance_destroy(v.trees[i].dom);
  free(v.trees);
  if (!ok)
    return false;
  sym_walk w = {nc_symbol_table_collection_create(), true};
  nc_op_walk(op, NC_WALK_PRE_ORDER, verify_uses, &w);
  nc_symbol_table_collection_destroy(w.tables);
  return w.ok;
}
