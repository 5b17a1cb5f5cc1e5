/* ops.c: creating, destroying, linking and querying operations, values,
 * uses, blocks and regions.
 *
 * Use lists are intrusive doubly linked lists threaded through the operand
 * slots (nc_use.prev points at the pointer that points at the use, so
 * unlinking is O(1) without knowing the list head).
 */
#include "ir-internal.h"

#include <stdlib.h>
#include <string.h>

/* --- uses -------------------------------------------------------------------------------- */

static inline void use_link(nc_use *u, nc_value *v)
{
  u->value = v;
  if (!v) {
    u->next = NULL;
    u->prev = NULL;
    return;
  }
  u->next = v->first_use;
  if (u->next)
    u->next->prev = &u->next;
  u->prev = &v->first_use;
  v->first_use = u;
}

static inline void use_unlink(nc_use *u)
{
  if (u->prev) {
    *u->prev = u->next;
    if (u->next)
      u->next->prev = u->prev;
  }
  u->value = NULL;
  u->next = NULL;
  u->prev = NULL;
}

void nc_use_set(nc_use *u, nc_value *v)
{
  use_unlink(u);
  use_link(u, v);
}

nc_use *nc_use_get_next(const nc_use *u) { return u->next; }
nc_op *nc_use_get_owner(const nc_use *u) { return u->owner; }
unsigned nc_use_get_operand_index(const nc_use *u) { return (unsigned)(u - u->owner->operands); }
nc_value *nc_use_get_value(const nc_use *u) { return u->value; }

static void block_use_link(nc_block_use *u, nc_block *b)
{
  u->block = b;
  u->next = b ? b->first_use : NULL;
  if (!b) {
    u->prev = NULL;
    return;
  }
  if (u->next)
    u->next->prev = &u->next;
  u->prev = &b->first_use;
  b->first_use = u;
}

static void block_use_unlink(nc_block_use *u)
{
  if (u->prev) {
    *u->prev = u->next;
    if (u->next)
      u->next->prev = u->prev;
  }
  u->block = NULL;
  u->next = NULL;
  u->prev = NULL;
}

/* --- values ------------------------------------------------------------------------------- */

nc_type *nc_value_get_type(const nc_value *v) { return v->type; }
void nc_value_set_type(nc_value *v, nc_type *t) { v->type = t; }
bool nc_value_is_block_arg(const nc_value *v) { return v->bits & NC_VALUE_ARG; }
nc_op *nc_value_get_defining_op(const nc_value *v) { return (v->bits & NC_VALUE_ARG) ? NULL : nc_result_owner(v); }
unsigned nc_value_get_index(const nc_value *v) { return v->bits >> 1; }

nc_block *nc_value_get_parent_block(const nc_value *v)
{
  if (v->bits & NC_VALUE_ARG)
    return ((const nc_block_arg *)v)->block;
  return nc_result_owner(v)->block;
}

nc_region *nc_value_get_parent_region(const nc_value *v)
{
  nc_block *b = nc_value_get_parent_block(v);
  return b ? b->region : NULL;
}

nc_location nc_value_get_loc(const nc_value *v)
{
  if (v->bits & NC_VALUE_ARG)
    return ((const nc_block_arg *)v)->loc;
  return nc_result_owner(v)->loc;
}

void nc_block_arg_set_loc(nc_value *arg, nc_location loc)
{
  if (!(arg->bits & NC_VALUE_ARG))
    NC_UNREACHABLE("nc_block_arg_set_loc on an op result");
  ((nc_block_arg *)arg)->loc = loc;
}

nc_use *nc_value_get_first_use(const nc_value *v) { return v->first_use; }
bool nc_value_use_empty(const nc_value *v) { return !v->first_use; }
bool nc_value_has_one_use(const nc_value *v) { return v->first_use && !v->first_use->next; }

size_t nc_value_get_num_uses(const nc_value *v)
{
  size_t n = 0;
  for (nc_use *u = v->first_use; u; u = u->next)
    n++;
  return n;
}

void nc_value_replace_all_uses_with(nc_value *v, nc_value *with)
{
  if (v == with)
    return;
  while (v->first_use) {
    nc_use *u = v->first_use;
    use_unlink(u);
    use_link(u, with);
  }
}

void nc_value_replace_all_uses_except(nc_value *v, nc_value *with, const nc_op *except)
{
  if (v == with)
    return;
  for (nc_use *u = v->first_use, *next; u; u = next) {
    next = u->next;
    if (u->owner != except) {
      use_unlink(u);
      use_link(u, with);
    }
  }
}

/* --- op creation ---------------------------------------------------------------------------- */

static size_t op_alloc_size(uint32_t n_results, uint32_t n_operands, uint32_t n_regions, uint32_t n_succs)
{
  return sizeof(nc_op) + n_results * sizeof(nc_value) + n_operands * sizeof(nc_use) +
         n_regions * sizeof(nc_region) + n_succs * sizeof(nc_block_use);
}

/* Allocates and links an op without any registration check (the parser's
 * forward-reference placeholders use this too). */
nc_op *nc_op_alloc(nc_context *ctx, nc_op_info *info, nc_location loc, size_t n_operands,
                   nc_value *const *operands, size_t n_results, nc_type *const *types, size_t n_regions,
                   size_t n_succs, nc_block *const *succs);
nc_op *nc_op_alloc(nc_context *ctx, nc_op_info *info, nc_location loc, size_t n_operands,
                   nc_value *const *operands, size_t n_results, nc_type *const *types, size_t n_regions,
                   size_t n_succs, nc_block *const *succs)
{
  size_t size = op_alloc_size((uint32_t)n_results, (uint32_t)n_operands, (uint32_t)n_regions, (uint32_t)n_succs);
  nc_op *op = nc_ctx_alloc(ctx, size);
  memset(op, 0, sizeof *op);
  op->info = info;
  op->loc = loc;
  op->n_results = (uint32_t)n_results;
  op->n_operands = op->cap_operands = op->inline_operands = (uint32_t)n_operands;
  op->n_regions = (uint16_t)n_regions;
  op->n_succs = (uint8_t)n_succs;
  nc_value *res = nc_op_results(op);
  for (size_t i = 0; i < n_results; i++) {
    res[i].type = types ? types[i] : NULL;
    res[i].first_use = NULL;
    res[i].bits = (uint32_t)(i << 1);
    res[i].print_id = 0;
  }
  op->operands = (nc_use *)(res + n_results);
  for (size_t i = 0; i < n_operands; i++) {
    op->operands[i].owner = op;
    use_link(&op->operands[i], operands ? operands[i] : NULL);
  }
  nc_region *regions = nc_op_regions(op);
  for (size_t i = 0; i < n_regions; i++)
    regions[i] = (nc_region){NULL, NULL, op};
  nc_block_use *uses = nc_op_succs(op);
  for (size_t i = 0; i < n_succs; i++) {
    uses[i].owner = op;
    block_use_link(&uses[i], succs ? succs[i] : NULL);
  }
  return op;
}

static bool is_inherent(const nc_op_info *info, const nc_ident *name)
{
  if (!info->def)
    return false;
  for (size_t i = 0; i < info->def->n_attrs; i++)
    if (info->attr_names[i] == name)
      return true;
  return false;
}

/* The dictionary of an op definition's default-valued attributes (NULL if
 * none), parsed from the table's text on first use. Racing threads parse
 * the same uniqued attributes, so the result is the same pointer. */
static nc_attr *default_props(nc_context *ctx, nc_op_info *info)
{
  if (__atomic_load_n(&info->defaults_state, __ATOMIC_ACQUIRE))
    return __atomic_load_n(&info->default_props, __ATOMIC_ACQUIRE);
  nc_attr *d = NULL;
  for (size_t i = 0; i < info->def->n_attrs; i++) {
    const nc_attr_def *ad = &info->def->attrs[i];
    nc_attr *v = ad->optional && ad->default_value ? nc_parse_attr(ctx, ad->default_value) : NULL;
    if (v)
      d = nc_attr_dict_set(ctx, d, info->attr_names[i], v);
  }
  __atomic_store_n(&info->default_props, d, __ATOMIC_RELEASE);
  __atomic_store_n(&info->defaults_state, 1, __ATOMIC_RELEASE);
  return d;
}

/* Adds the absent default-valued attributes to the properties, as MLIR's
 * populateDefaultProperties does, so that an op written without them equals
 * one that spells them out. */
static nc_attr *with_defaults(nc_context *ctx, nc_op_info *info, nc_attr *props)
{
  nc_attr *d = default_props(ctx, info);
  if (!d || props == d)
    return props;
  if (!props)
    return d;
  for (size_t i = 0; i < d->dict.n; i++)
    if (!nc_attr_dict_get(props, d->dict.entries[i].name))
      props = nc_attr_dict_set(ctx, props, d->dict.entries[i].name, d->dict.entries[i].value);
  return props;
}

/* Splits named attributes into properties and discardable attributes. */
bool nc_op_split_attrs(nc_context *ctx, nc_op_info *info, size_t n, const nc_named_attr *attrs, nc_attr *props_in,
                       nc_attr **props_out, nc_attr **attrs_out);
bool nc_op_split_attrs(nc_context *ctx, nc_op_info *info, size_t n, const nc_named_attr *attrs, nc_attr *props_in,
                       nc_attr **props_out, nc_attr **attrs_out)
{
  if (!info->def) {
    *props_out = props_in;
    *attrs_out = n ? nc_attr_dictionary(ctx, n, attrs) : NULL;
    return !n || *attrs_out;
  }
  size_t np = 0, nd = 0;
  size_t nin = props_in && props_in->kind == NC_ATTR_DICTIONARY ? props_in->dict.n : 0;
  nc_named_attr sbuf[32];
  nc_named_attr *buf = 2 * n + nin <= 32 ? sbuf : nc_xmalloc((2 * n + nin) * sizeof *buf);
  nc_named_attr *p = buf, *d = buf + n + nin;
  for (size_t i = 0; i < nin; i++)
    p[np++] = props_in->dict.entries[i];
  for (size_t i = 0; i < n; i++) {
    if (is_inherent(info, attrs[i].name)) {
      bool dup = false; /* an attr-dict entry may repeat a property: property wins */
      for (size_t j = 0; j < nin; j++)
        dup |= p[j].name == attrs[i].name;
      if (!dup)
        p[np++] = attrs[i];
    } else {
      d[nd++] = attrs[i];
    }
  }
  *props_out = np ? nc_attr_dictionary(ctx, np, p) : NULL;
  *attrs_out = nd ? nc_attr_dictionary(ctx, nd, d) : NULL;
  bool ok = (!np || *props_out) && (!nd || *attrs_out);
  if (ok)
    *props_out = with_defaults(ctx, info, *props_out);
  if (buf != sbuf)
    free(buf);
  return ok;
}

nc_op *nc_op_create(const nc_op_state *st)
{
  nc_context *ctx = st->ctx;
  nc_ident *name = st->name_id ? st->name_id : nc_ident_get_cstr(ctx, st->name);
  nc_op_info *info = nc_context_get_op_info(ctx, name);
  if (!info->def) {
    if (info->dialect) {
      nc_emit_error(ctx, st->loc, "unregistered operation '%s' found in dialect ('%s') that does not allow unknown operations",
                    name->str, info->dialect->name);
      return NULL;
    }
    if (!ctx->allow_unregistered) {
      nc_emit_error(ctx, st->loc,
                    "operation '%s' is not registered; to allow unregistered dialects use --allow-unregistered-dialect",
                    name->str);
      return NULL;
    }
  }
  nc_attr *props, *attrs;
  if (info->def && st->props && st->props->kind != NC_ATTR_DICTIONARY) {
    nc_emit_error(ctx, st->loc, "expected a dictionary for the properties of '%s'", name->str);
    return NULL;
  }
  if (!nc_op_split_attrs(ctx, info, st->n_attrs, st->attrs, st->props, &props, &attrs)) {
    nc_emit_error(ctx, st->loc, "duplicate attribute name in '%s'", name->str);
    return NULL;
  }
  if (st->n_successors > 255) {
    nc_emit_error(ctx, st->loc, "too many successors");
    return NULL;
  }
  if (st->n_regions > 65535) {
    nc_emit_error(ctx, st->loc, "too many regions");
    return NULL;
  }
  nc_op *op = nc_op_alloc(ctx, info, st->loc, st->n_operands, st->operands, st->n_results, st->result_types,
                          st->n_regions, st->n_successors, st->successors);
  op->props = props;
  op->attrs = attrs;
  return op;
}

nc_context *nc_op_get_context(const nc_op *op) { return op->info->ctx; }

static void region_destroy_contents(nc_context *ctx, nc_region *r);

static void op_drop_uses_rec(nc_op *op)
{
  for (uint32_t i = 0; i < op->n_operands; i++)
    use_unlink(&op->operands[i]);
  for (uint32_t i = 0; i < op->n_succs; i++)
    block_use_unlink(&nc_op_succs(op)[i]);
  for (uint32_t r = 0; r < op->n_regions; r++)
    for (nc_block *b = nc_op_regions(op)[r].first; b; b = b->next)
      for (nc_op *o = b->first; o; o = o->next)
        op_drop_uses_rec(o);
}

void nc_op_drop_all_uses_of_operands(nc_op *op) { op_drop_uses_rec(op); }

/* Frees an op whose operand uses have been dropped (nested ones too). */
static void op_free(nc_context *ctx, nc_op *op)
{
  for (uint32_t r = 0; r < op->n_regions; r++)
    region_destroy_contents(ctx, &nc_op_regions(op)[r]);
  if (op->flags & NC_OP_OPERANDS_SEPARATE)
    nc_ctx_free(ctx, op->operands, op->cap_operands * sizeof(nc_use));
  nc_ctx_free(ctx, op, op_alloc_size(op->n_results, op->inline_operands, op->n_regions, op->n_succs));
}

static void block_free(nc_context *ctx, nc_block *b)
{
  for (nc_op *o = b->first, *n; o; o = n) {
    n = o->next;
    op_free(ctx, o);
  }
  for (uint32_t i = 0; i < b->n_args; i++)
    nc_ctx_free(ctx, b->args[i], sizeof(nc_block_arg));
  if (b->args)
    nc_ctx_free(ctx, b->args, b->cap_args * sizeof(nc_block_arg *));
  nc_ctx_free(ctx, b, sizeof *b);
}

static void region_destroy_contents(nc_context *ctx, nc_region *r)
{
  for (nc_block *b = r->first, *n; b; b = n) {
    n = b->next;
    block_free(ctx, b);
  }
  r->first = r->last = NULL;
}

void nc_op_destroy(nc_op *op)
{
  if (!op)
    return;
  if (op->block)
    NC_UNREACHABLE("nc_op_destroy on an op that is still in a block (use nc_op_erase)");
  op_drop_uses_rec(op);
  for (uint32_t i = 0; i < op->n_results; i++)
    if (nc_op_results(op)[i].first_use)
      NC_UNREACHABLE("destroying an op whose results still have uses");
  op_free(op->info->ctx, op);
}

/* --- linking ops into blocks ------------------------------------------------------------------- */

static void link_between(nc_block *b, nc_op *op, nc_op *prev, nc_op *next)
{
  op->block = b;
  op->prev = prev;
  op->next = next;
  if (prev)
    prev->next = op;
  else
    b->first = op;
  if (next)
    next->prev = op;
  else
    b->last = op;
  if (b->order_valid) {
    uint32_t lo = prev ? prev->order : 0;
    if (!next) {
      if (lo > UINT32_MAX - 16)
        b->order_valid = false;
      else
        op->order = lo + 8;
    } else if (next->order - lo > 1) {
      op->order = lo + (next->order - lo) / 2;
    } else {
      b->order_valid = false;
    }
  }
}

static void unlink_op(nc_op *op)
{
  nc_block *b = op->block;
  if (!b)
    return;
  if (op->prev)
    op->prev->next = op->next;
  else
    b->first = op->next;
  if (op->next)
    op->next->prev = op->prev;
  else
    b->last = op->prev;
  op->prev = op->next = NULL;
  op->block = NULL;
}

void nc_op_remove(nc_op *op) { unlink_op(op); }

void nc_op_erase(nc_op *op)
{
  unlink_op(op);
  nc_op_destroy(op);
}

void nc_op_insert_before(nc_op *op, nc_op *anchor) { link_between(anchor->block, op, anchor->prev, anchor); }
void nc_op_insert_after(nc_op *op, nc_op *anchor) { link_between(anchor->block, op, anchor, anchor->next); }

void nc_op_move_before(nc_op *op, nc_op *anchor)
{
  if (op == anchor)
    return;
  unlink_op(op);
  nc_op_insert_before(op, anchor);
}

void nc_op_move_after(nc_op *op, nc_op *anchor)
{
  if (op == anchor)
    return;
  unlink_op(op);
  nc_op_insert_after(op, anchor);
}

void nc_block_append_op(nc_block *b, nc_op *op) { link_between(b, op, b->last, NULL); }
void nc_block_prepend_op(nc_block *b, nc_op *op) { link_between(b, op, NULL, b->first); }

void nc_block_splice_ops(nc_block *b, nc_op *first)
{
  nc_block *src = first->block;
  if (src == b)
    return;
  nc_op *last = src->last;
  /* detach [first, last] from src */
  if (first->prev)
    first->prev->next = NULL;
  else
    src->first = NULL;
  src->last = first->prev;
  /* append to b */
  first->prev = b->last;
  if (b->last)
    b->last->next = first;
  else
    b->first = first;
  b->last = last;
  for (nc_op *o = first; o; o = o->next)
    o->block = b;
  b->order_valid = false;
}

void nc_op_replace_all_uses_with(nc_op *op, nc_value *const *values)
{
  for (uint32_t i = 0; i < op->n_results; i++)
    nc_value_replace_all_uses_with(&nc_op_results(op)[i], values[i]);
}

void nc_op_replace_all_uses_with_op(nc_op *op, nc_op *other)
{
  for (uint32_t i = 0; i < op->n_results; i++)
    nc_value_replace_all_uses_with(&nc_op_results(op)[i], &nc_op_results(other)[i]);
}

/* --- op queries ------------------------------------------------------------------------------------ */

nc_ident *nc_op_get_name(const nc_op *op) { return op->info->name; }

bool nc_op_is(const nc_op *op, const char *name)
{
  const nc_ident *id = op->info->name;
  size_t n = strlen(name);
  return id->len == n && !memcmp(id->str, name, n);
}

const nc_op_def *nc_op_get_def(const nc_op *op) { return op->info->def; }
const nc_dialect_def *nc_op_get_dialect(const nc_op *op) { return op->info->def ? op->info->dialect : NULL; }
nc_location nc_op_get_loc(const nc_op *op) { return op->loc; }
void nc_op_set_loc(nc_op *op, nc_location loc) { op->loc = loc; }
size_t nc_op_get_num_operands(const nc_op *op) { return op->n_operands; }
nc_value *nc_op_get_operand(const nc_op *op, size_t i) { return op->operands[i].value; }
nc_use *nc_op_get_operand_use(nc_op *op, size_t i) { return &op->operands[i]; }
void nc_op_set_operand(nc_op *op, size_t i, nc_value *v) { nc_use_set(&op->operands[i], v); }
size_t nc_op_get_num_results(const nc_op *op) { return op->n_results; }
nc_value *nc_op_get_result(const nc_op *op, size_t i) { return &nc_op_results(op)[i]; }
size_t nc_op_get_num_regions(const nc_op *op) { return op->n_regions; }
nc_region *nc_op_get_region(const nc_op *op, size_t i) { return &nc_op_regions(op)[i]; }
size_t nc_op_get_num_successors(const nc_op *op) { return op->n_succs; }
nc_block *nc_op_get_successor(const nc_op *op, size_t i) { return nc_op_succs(op)[i].block; }

void nc_op_set_successor(nc_op *op, size_t i, nc_block *b)
{
  block_use_unlink(&nc_op_succs(op)[i]);
  block_use_link(&nc_op_succs(op)[i], b);
}

/* Grows the operand array to hold `n` operands, keeping existing uses linked. */
static void reserve_operands(nc_op *op, uint32_t n)
{
  if (n <= op->cap_operands)
    return;
  nc_context *ctx = op->info->ctx;
  uint32_t cap = op->cap_operands * 2 > n ? op->cap_operands * 2 : n;
  nc_use *nu = nc_ctx_alloc(ctx, cap * sizeof(nc_use));
  for (uint32_t i = 0; i < op->n_operands; i++) {
    nc_value *v = op->operands[i].value;
    use_unlink(&op->operands[i]);
    nu[i].owner = op;
    use_link(&nu[i], v);
  }
  if (op->flags & NC_OP_OPERANDS_SEPARATE)
    nc_ctx_free(ctx, op->operands, op->cap_operands * sizeof(nc_use));
  op->operands = nu;
  op->cap_operands = cap;
  op->flags |= NC_OP_OPERANDS_SEPARATE;
}

void nc_op_insert_operands(nc_op *op, size_t pos, size_t n, nc_value *const *vals)
{
  size_t old = op->n_operands, total = old + n;
  nc_value **tmp = nc_xmalloc(total * sizeof *tmp);
  for (size_t i = 0; i < pos; i++)
    tmp[i] = op->operands[i].value;
  for (size_t i = 0; i < n; i++)
    tmp[pos + i] = vals[i];
  for (size_t i = pos; i < old; i++)
    tmp[n + i] = op->operands[i].value;
  nc_op_set_operands(op, total, tmp);
  free(tmp);
}

void nc_op_erase_operands(nc_op *op, size_t pos, size_t n)
{
  size_t old = op->n_operands;
  nc_value **tmp = nc_xmalloc((old ? old : 1) * sizeof *tmp);
  size_t m = 0;
  for (size_t i = 0; i < old; i++)
    if (i < pos || i >= pos + n)
      tmp[m++] = op->operands[i].value;
  nc_op_set_operands(op, m, tmp);
  free(tmp);
}

void nc_op_set_operands(nc_op *op, size_t n, nc_value *const *vals)
{
  for (uint32_t i = 0; i < op->n_operands; i++)
    use_unlink(&op->operands[i]);
  op->n_operands = 0; /* nothing to move when growing */
  reserve_operands(op, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    op->operands[i].owner = op;
    use_link(&op->operands[i], vals[i]);
  }
  op->n_operands = (uint32_t)n;
}

/* --- attributes ---------------------------------------------------------------------------------------- */

nc_attr *nc_op_get_attr(const nc_op *op, const nc_ident *name)
{
  nc_attr *a = op->props ? nc_attr_dict_get(op->props, name) : NULL;
  return a ? a : op->attrs ? nc_attr_dict_get(op->attrs, name) : NULL;
}

nc_attr *nc_op_get_attr_str(const nc_op *op, const char *name)
{
  nc_attr *a = op->props ? nc_attr_dict_get_str(op->props, name) : NULL;
  return a ? a : op->attrs ? nc_attr_dict_get_str(op->attrs, name) : NULL;
}

void nc_op_set_attr(nc_op *op, nc_ident *name, nc_attr *value)
{
  nc_context *ctx = op->info->ctx;
  if (is_inherent(op->info, name)) {
    op->props = nc_attr_dict_set(ctx, op->props, name, value);
    if (op->props == ctx->empty_dict)
      op->props = NULL;
  } else {
    op->attrs = nc_attr_dict_set(ctx, op->attrs, name, value);
    if (op->attrs == ctx->empty_dict)
      op->attrs = NULL;
  }
}

void nc_op_set_attr_str(nc_op *op, const char *name, nc_attr *value)
{
  nc_op_set_attr(op, nc_ident_get_cstr(op->info->ctx, name), value);
}

bool nc_op_remove_attr(nc_op *op, const nc_ident *name)
{
  if (!nc_op_get_attr(op, name))
    return false;
  nc_context *ctx = op->info->ctx;
  if (op->props && op->props->kind == NC_ATTR_DICTIONARY && nc_attr_dict_get(op->props, name)) {
    op->props = nc_attr_dict_set(ctx, op->props, (nc_ident *)name, NULL);
    if (op->props == ctx->empty_dict)
      op->props = NULL;
  } else {
    op->attrs = nc_attr_dict_set(ctx, op->attrs, (nc_ident *)name, NULL);
    if (op->attrs == ctx->empty_dict)
      op->attrs = NULL;
  }
  return true;
}

nc_attr *nc_op_get_attr_dict(const nc_op *op) { return op->attrs ? op->attrs : op->info->ctx->empty_dict; }

void nc_op_set_attr_dict(nc_op *op, nc_attr *dict)
{
  op->attrs = dict && dict != op->info->ctx->empty_dict ? dict : NULL;
}

nc_attr *nc_op_get_props(const nc_op *op) { return op->props; }
void nc_op_set_props(nc_op *op, nc_attr *props) { op->props = props; }

/* --- navigation ------------------------------------------------------------------------------------------ */

nc_block *nc_op_get_block(const nc_op *op) { return op->block; }
nc_region *nc_op_get_parent_region(const nc_op *op) { return op->block ? op->block->region : NULL; }
nc_op *nc_op_get_parent_op(const nc_op *op)
{
  return op->block && op->block->region ? op->block->region->op : NULL;
}
nc_op *nc_op_get_next(const nc_op *op) { return op->next; }
nc_op *nc_op_get_prev(const nc_op *op) { return op->prev; }

static void renumber(nc_block *b)
{
  uint32_t n = 0;
  for (nc_op *o = b->first; o; o = o->next)
    o->order = n += 8;
  b->order_valid = true;
}

bool nc_op_is_before_in_block(nc_op *a, nc_op *b)
{
  if (!a->block->order_valid)
    renumber(a->block);
  return a->order < b->order;
}

bool nc_op_is_ancestor(const nc_op *ancestor, const nc_op *op)
{
  for (; op; op = nc_op_get_parent_op(op))
    if (op == ancestor)
      return true;
  return false;
}

nc_op *nc_block_find_ancestor_op(const nc_block *block, nc_op *op)
{
  for (; op; op = nc_op_get_parent_op(op))
    if (op->block == block)
      return op;
  return NULL;
}

nc_op *nc_op_get_parent_of_name(nc_op *op, const char *name)
{
  for (; op; op = nc_op_get_parent_op(op))
    if (nc_op_is(op, name))
      return op;
  return NULL;
}

/* --- walking ----------------------------------------------------------------------------------------------- */

nc_walk_result nc_op_walk(nc_op *op, nc_walk_order order, nc_walk_fn fn, void *user)
{
  if (order == NC_WALK_PRE_ORDER) {
    nc_walk_result r = fn(op, user);
    if (r == NC_WALK_INTERRUPT)
      return r;
    if (r == NC_WALK_SKIP)
      return NC_WALK_ADVANCE;
  }
  for (uint32_t i = 0; i < op->n_regions; i++)
    for (nc_block *b = nc_op_regions(op)[i].first; b; b = b->next)
      for (nc_op *o = b->first, *next; o; o = next) {
        next = o->next;
        if (nc_op_walk(o, order, fn, user) == NC_WALK_INTERRUPT)
          return NC_WALK_INTERRUPT;
      }
  if (order == NC_WALK_POST_ORDER && fn(op, user) == NC_WALK_INTERRUPT)
    return NC_WALK_INTERRUPT;
  return NC_WALK_ADVANCE;
}

/* --- blocks -------------------------------------------------------------------------------------------------- */

nc_block *nc_block_create(nc_context *ctx)
{
  nc_block *b = nc_ctx_calloc(ctx, sizeof *b);
  b->ctx = ctx;
  b->order_valid = true;
  return b;
}

void nc_block_destroy(nc_block *b)
{
  if (!b)
    return;
  if (b->region)
    NC_UNREACHABLE("nc_block_destroy on a block still in a region (use nc_block_erase)");
  for (nc_op *o = b->first; o; o = o->next)
    op_drop_uses_rec(o);
  block_free(b->ctx, b);
}

void nc_block_remove(nc_block *b)
{
  nc_region *r = b->region;
  if (!r)
    return;
  if (b->prev)
    b->prev->next = b->next;
  else
    r->first = b->next;
  if (b->next)
    b->next->prev = b->prev;
  else
    r->last = b->prev;
  b->prev = b->next = NULL;
  b->region = NULL;
}

void nc_block_erase(nc_block *b)
{
  nc_block_remove(b);
  nc_block_destroy(b);
}

nc_value *nc_block_insert_arg(nc_block *b, size_t pos, nc_type *type, nc_location loc)
{
  if (b->n_args == b->cap_args) {
    uint32_t cap = b->cap_args ? b->cap_args * 2 : 4;
    nc_block_arg **args = nc_ctx_alloc(b->ctx, cap * sizeof *args);
    if (b->n_args)
      memcpy(args, b->args, b->n_args * sizeof *args);
    if (b->args)
      nc_ctx_free(b->ctx, b->args, b->cap_args * sizeof *args);
    b->args = args;
    b->cap_args = cap;
  }
  nc_block_arg *a = nc_ctx_alloc(b->ctx, sizeof *a);
  a->v.type = type;
  a->v.first_use = NULL;
  a->v.print_id = 0;
  a->block = b;
  a->loc = loc;
  memmove(b->args + pos + 1, b->args + pos, (b->n_args - pos) * sizeof *b->args);
  b->args[pos] = a;
  b->n_args++;
  for (size_t i = pos; i < b->n_args; i++)
    b->args[i]->v.bits = (uint32_t)(i << 1) | NC_VALUE_ARG;
  return &a->v;
}

nc_value *nc_block_add_arg(nc_block *b, nc_type *type, nc_location loc)
{
  return nc_block_insert_arg(b, b->n_args, type, loc);
}

void nc_block_erase_arg(nc_block *b, size_t i)
{
  if (b->args[i]->v.first_use)
    NC_UNREACHABLE("erasing a block argument that still has uses");
  nc_ctx_free(b->ctx, b->args[i], sizeof(nc_block_arg));
  memmove(b->args + i, b->args + i + 1, (b->n_args - i - 1) * sizeof *b->args);
  b->n_args--;
  for (size_t j = i; j < b->n_args; j++)
    b->args[j]->v.bits = (uint32_t)(j << 1) | NC_VALUE_ARG;
}

size_t nc_block_get_num_args(const nc_block *b) { return b->n_args; }
nc_value *nc_block_get_arg(const nc_block *b, size_t i) { return &b->args[i]->v; }
nc_op *nc_block_get_first_op(const nc_block *b) { return b->first; }
nc_op *nc_block_get_last_op(const nc_block *b) { return b->last; }
bool nc_block_is_empty(const nc_block *b) { return !b->first; }

nc_op *nc_block_get_terminator(const nc_block *b)
{
  nc_op *last = b->last;
  if (!last)
    return NULL;
  if (last->info->def)
    return (last->info->traits & NC_TRAIT_TERMINATOR) ? last : NULL;
  return last;
}

nc_block *nc_block_get_next(const nc_block *b) { return b->next; }
nc_block *nc_block_get_prev(const nc_block *b) { return b->prev; }
nc_region *nc_block_get_parent_region(const nc_block *b) { return b->region; }
nc_op *nc_block_get_parent_op(const nc_block *b) { return b->region ? b->region->op : NULL; }
bool nc_block_is_entry(const nc_block *b) { return b->region && b->region->first == b; }

size_t nc_block_get_num_predecessors(const nc_block *b)
{
  size_t n = 0;
  for (nc_block_use *u = b->first_use; u; u = u->next)
    n++;
  return n;
}

nc_block_use *nc_block_get_first_pred(const nc_block *b) { return b->first_use; }
nc_block_use *nc_block_use_get_next(const nc_block_use *u) { return u->next; }
nc_op *nc_block_use_get_owner(const nc_block_use *u) { return u->owner; }
size_t nc_block_get_num_successors(const nc_block *b) { return b->last ? b->last->n_succs : 0; }
nc_block *nc_block_get_successor(const nc_block *b, size_t i) { return nc_op_succs(b->last)[i].block; }

/* --- regions -------------------------------------------------------------------------------------------------- */

nc_block *nc_region_get_first_block(const nc_region *r) { return r->first; }
nc_block *nc_region_get_last_block(const nc_region *r) { return r->last; }
nc_op *nc_region_get_parent_op(const nc_region *r) { return r->op; }
bool nc_region_is_empty(const nc_region *r) { return !r->first; }

size_t nc_region_get_num_blocks(const nc_region *r)
{
  size_t n = 0;
  for (nc_block *b = r->first; b; b = b->next)
    n++;
  return n;
}

void nc_region_insert_block_before(nc_region *r, nc_block *b, nc_block *anchor)
{
  b->region = r;
  if (!anchor) {
    b->prev = r->last;
    b->next = NULL;
    if (r->last)
      r->last->next = b;
    else
      r->first = b;
    r->last = b;
    return;
  }
  b->next = anchor;
  b->prev = anchor->prev;
  if (anchor->prev)
    anchor->prev->next = b;
  else
    r->first = b;
  anchor->prev = b;
}

void nc_region_append_block(nc_region *r, nc_block *b) { nc_region_insert_block_before(r, b, NULL); }

void nc_region_take_body(nc_region *dst, nc_region *src)
{
  while (src->first) {
    nc_block *b = src->first;
    nc_block_remove(b);
    nc_region_append_block(dst, b);
  }
}

bool nc_region_is_ancestor(const nc_region *ancestor, const nc_region *r)
{
  while (r) {
    if (r == ancestor)
      return true;
    nc_op *op = r->op;
    r = op && op->block ? op->block->region : NULL;
  }
  return false;
}

nc_block *nc_region_add_entry_block(nc_region *r)
{
  nc_block *b = nc_block_create(r->op->info->ctx);
  nc_region_append_block(r, b);
  return b;
}
