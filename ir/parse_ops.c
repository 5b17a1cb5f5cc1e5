/* parse_ops.c: parsing operations, blocks, regions and whole files.
 *
 * Generic syntax is parsed here; custom syntax is delegated to the op's
 * declarative format (asm_format.c) or its hand-written hook. Both build the
 * op through an nc_op_builder. SSA uses of names not yet defined get
 * placeholder ops that are replaced when the definition arrives (graph
 * regions and CFG back-edges need this).
 */
#include "parser.h"
#include "nc/support/hex.h"

#include <stdlib.h>
#include <string.h>

nc_op *nc_op_alloc(nc_context *ctx, nc_op_info *info, nc_location loc, size_t n_operands,
                   nc_value *const *operands, size_t n_results, nc_type *const *types, size_t n_regions,
                   size_t n_succs, nc_block *const *succs);
bool nc_op_split_attrs(nc_context *ctx, nc_op_info *info, size_t n, const nc_named_attr *attrs, nc_attr *props_in,
                       nc_attr **props_out, nc_attr **attrs_out);

/* --- name table ------------------------------------------------------------------------------ */

#define TOMB ((void *)1)

static uint64_t name_hash(uint8_t kind, uint32_t scope, const char *s, size_t len)
{
  return nc_hash_bytes(s, len, ((uint64_t)kind << 32) | scope);
}

static name_entry *nt_find(name_table *t, uint8_t kind, uint32_t scope, const char *s, size_t len, uint64_t h)
{
  if (!t->cap)
    return NULL;
  size_t mask = t->cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    name_entry *e = &t->slots[i];
    if (!e->ptr)
      return NULL;
    if (e->ptr != TOMB && e->hash == h && e->kind == kind && e->scope == scope && e->len == len &&
        !memcmp(e->name, s, len))
      return e;
  }
}

static void nt_grow(name_table *t)
{
  size_t ncap = t->cap ? t->cap * 2 : 256;
  if (t->cap && t->count * 4 < t->cap)
    ncap = t->cap; /* mostly tombstones: rehash at the same size */
  name_entry *slots = nc_xcalloc(ncap, sizeof *slots);
  for (size_t i = 0; i < t->cap; i++) {
    name_entry *e = &t->slots[i];
    if (!e->ptr || e->ptr == TOMB)
      continue;
    size_t j = e->hash & (ncap - 1);
    while (slots[j].ptr)
      j = (j + 1) & (ncap - 1);
    slots[j] = *e;
  }
  free(t->slots);
  t->slots = slots;
  t->cap = ncap;
  t->tombs = 0;
}

static name_entry *nt_insert(name_table *t, uint8_t kind, uint32_t scope, const char *s, size_t len, uint64_t h)
{
  if ((t->count + t->tombs + 1) * 10 > t->cap * 7)
    nt_grow(t);
  size_t mask = t->cap - 1, i = h & mask;
  while (t->slots[i].ptr && t->slots[i].ptr != TOMB)
    i = (i + 1) & mask;
  if (t->slots[i].ptr == TOMB)
    t->tombs--;
  name_entry *e = &t->slots[i];
  *e = (name_entry){s, (uint32_t)len, scope, kind, NULL, h};
  t->count++;
  return e;
}

static void nt_remove(name_table *t, name_entry *e)
{
  e->ptr = TOMB;
  t->count--;
  t->tombs++;
}

/* The resource this file calls `name`. Names belong to the file: one an
 * earlier parse (or the API) already uses gets a fresh resource, and every
 * mention of the name in this file must find that same resource, so the
 * parser remembers them (name table kind 3). */
nc_resource *parse_resource(nc_asm_parser *p, const char *name, size_t len)
{
  nc_ident *id = nc_ident_get(p->ctx, name, len); /* keeps the key's bytes alive */
  uint64_t h = name_hash(3, 0, id->str, id->len);
  name_entry *e = nt_find(&p->names, 3, 0, id->str, id->len, h);
  if (!e) {
    e = nt_insert(&p->names, 3, 0, id->str, id->len, h);
    e->ptr = nc_resource_get_or_declare(p->ctx, name, len, p->parse_id);
  }
  return e->ptr;
}

/* --- SSA scopes ---------------------------------------------------------------------------------- */

#define MAX_NUMERIC (1u << 22)

static bool is_numeric(const char *s, size_t len, uint32_t *num)
{
  if (!len || len > 7)
    return false;
  uint32_t v = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9')
      return false;
    v = v * 10 + (uint32_t)(s[i] - '0');
  }
  if (v >= MAX_NUMERIC || (len > 1 && s[0] == '0'))
    return false;
  *num = v;
  return true;
}

static iso_scope *cur_iso(nc_asm_parser *p) { return &p->isos[p->n_isos - 1]; }

static void push_iso(nc_asm_parser *p)
{
  iso_scope *s = parse_vec_push(p, (void **)&p->isos, &p->n_isos, &p->cap_isos, sizeof *s);
  s->id = p->next_scope_id++;
  s->nums = NULL;
  s->n_nums = 0;
  s->fwd_start = p->n_fwd;
  s->root_depth = SIZE_MAX;
}

static bool report_fwd(nc_asm_parser *p, size_t from, uint32_t scope)
{
  for (size_t i = from; i < p->n_fwd; i++) {
    fwd_ref *f = &p->fwd[i];
    if (f->placeholder && f->scope == scope) {
      if (!p->failed) {
        p->failed = true;
        nc_emit_error(p->ctx, f->loc, "use of undeclared SSA value name");
      }
      return false;
    }
  }
  return true;
}

static bool pop_iso(nc_asm_parser *p)
{
  iso_scope *s = cur_iso(p);
  bool ok = report_fwd(p, s->fwd_start, s->id);
  free(s->nums);
  p->n_isos--;
  return ok;
}

static nc_value **num_slot(nc_asm_parser *p, uint32_t num, bool grow)
{
  iso_scope *s = cur_iso(p);
  if (num >= s->n_nums) {
    if (!grow)
      return NULL;
    size_t n = s->n_nums ? s->n_nums : 256;
    while (n <= num)
      n += n / 2; /* 1.5x: the table of a 300k-value function is part of the parse's peak memory */
    s->nums = nc_xrealloc(s->nums, n * sizeof *s->nums);
    memset(s->nums + s->n_nums, 0, (n - s->n_nums) * sizeof *s->nums);
    s->n_nums = n;
  }
  return &s->nums[num];
}

/* Slot holding the value for `name` (group base) in the current isolated scope. */
static nc_value **value_slot(nc_asm_parser *p, const char *name, size_t len, bool create)
{
  uint32_t num;
  if (is_numeric(name, len, &num))
    return num_slot(p, num, create);
  uint32_t scope = cur_iso(p)->id;
  uint64_t h = name_hash(0, scope, name, len);
  name_entry *e = nt_find(&p->names, 0, scope, name, len, h);
  if (!e && create)
    e = nt_insert(&p->names, 0, scope, name, len, h);
  return e ? (nc_value **)&e->ptr : NULL;
}

static bool is_placeholder(nc_asm_parser *p, const nc_value *v)
{
  return !(v->bits & NC_VALUE_ARG) && nc_result_owner(v)->info == p->fwd_info;
}

/* Forward-reference placeholder (a detached op with one result). */
static nc_value *make_placeholder(nc_asm_parser *p, const nc_asm_operand *ref, nc_type *type)
{
  nc_op *ph = nc_op_alloc(p->ctx, p->fwd_info, ref->loc, 0, NULL, 1, &type, 0, 0, NULL);
  fwd_ref *f = parse_vec_push(p, (void **)&p->fwd, &p->n_fwd, &p->cap_fwd, sizeof *f);
  *f = (fwd_ref){ph, ref->name, (uint32_t)ref->len, ref->number, cur_iso(p)->id, ref->loc};
  p->n_fwd_live++;
  return nc_op_get_result(ph, 0);
}

static void group_size_set(nc_asm_parser *p, nc_value *first, uint32_t n);
static uint32_t group_size_get(nc_asm_parser *p, nc_value *first);

static bool type_mismatch(nc_asm_parser *p, nc_location at, const char *name, size_t len, nc_type *want, nc_type *have)
{
  char *a = nc_type_to_string(want), *b = nc_type_to_string(have);
  if (!p->failed) {
    p->failed = true;
    nc_emit_error(p->ctx, at, "use of value '%%%.*s' expects different type than prior uses: '%s' vs '%s'", (int)len,
                  name, a, b);
  }
  free(a);
  free(b);
  return false;
}

bool nc_asm_resolve_operand(nc_asm_parser *p, const nc_asm_operand *ref, nc_type *type, nc_value **out)
{
  nc_value **slot = value_slot(p, ref->name, ref->len, true);
  if (!slot) /* numeric slot beyond limits cannot happen with create=true */
    return perr(p, "internal: no slot for SSA name");
  nc_value *v = *slot;
  if (ref->number == 0) {
    if (!v) {
      *slot = *out = make_placeholder(p, ref, type);
      return true;
    }
    if (v->type != type)
      return type_mismatch(p, ref->loc, ref->name, ref->len, type, v->type);
    *out = v;
    return true;
  }
  if (v && !is_placeholder(p, v)) {
    uint32_t n = group_size_get(p, v);
    if (ref->number >= n) {
      if (!p->failed) {
        p->failed = true;
        nc_emit_error(p->ctx, ref->loc, "result number %u out of range for '%%%.*s' (it has %u results)", ref->number,
                      (int)ref->len, ref->name, n);
      }
      return false;
    }
    nc_value *r = v + ref->number;
    if (r->type != type)
      return type_mismatch(p, ref->loc, ref->name, ref->len, type, r->type);
    *out = r;
    return true;
  }
  /* forward reference to a later result of a group: look for an earlier one */
  uint32_t scope = cur_iso(p)->id;
  for (size_t i = 0; i < p->n_fwd; i++) {
    fwd_ref *f = &p->fwd[i];
    if (f->placeholder && f->scope == scope && f->number == ref->number && f->len == ref->len &&
        !memcmp(f->name, ref->name, ref->len)) {
      nc_value *r = nc_op_get_result(f->placeholder, 0);
      if (r->type != type)
        return type_mismatch(p, ref->loc, ref->name, ref->len, type, r->type);
      *out = r;
      return true;
    }
  }
  *out = make_placeholder(p, ref, type);
  return true;
}

static bool resolve_placeholder(nc_asm_parser *p, nc_value *ph, nc_value *v, nc_location def_loc, const char *name,
                                size_t len, uint32_t number)
{
  if (ph->type != v->type) {
    char *a = nc_type_to_string(v->type), *b = nc_type_to_string(ph->type);
    if (!p->failed) {
      p->failed = true;
      nc_diag *d = nc_diag_create(p->ctx, NC_SEV_ERROR, def_loc, "definition of SSA value '%%%.*s#%u' has type '%s'",
                                  (int)len, name, number, a);
      nc_diag_attach_note(d, nc_op_get_loc(nc_result_owner(ph)), "previously used here with type '%s'", b);
      nc_diag_emit(d);
    }
    free(a);
    free(b);
    return false;
  }
  nc_value_replace_all_uses_with(ph, v);
  nc_op *phop = nc_result_owner(ph);
  for (size_t i = 0; i < p->n_fwd; i++)
    if (p->fwd[i].placeholder == phop) {
      p->fwd[i].placeholder = NULL;
      p->n_fwd_live--;
      break;
    }
  nc_op_destroy(phop);
  return true;
}

/* Defines `%name` (and %name#1.. for a group of n values starting at first). */
static bool define_values(nc_asm_parser *p, const char *name, size_t len, nc_value *first, uint32_t n,
                          nc_location def_loc)
{
  nc_value **slot = value_slot(p, name, len, true);
  nc_value *old = *slot;
  if (old && !is_placeholder(p, old)) {
    if (!p->failed) {
      p->failed = true;
      nc_diag *d = nc_diag_create(p->ctx, NC_SEV_ERROR, def_loc, "redefinition of SSA value '%%%.*s'", (int)len, name);
      /* as MLIR, the note points at the earlier name (a named value's entry
       * keeps where it was first written; an op is located at its name) */
      uint32_t num;
      const name_entry *e = is_numeric(name, len, &num)
                              ? NULL
                              : (const name_entry *)((const char *)slot - offsetof(name_entry, ptr));
      nc_diag_attach_note(d, e ? loc_at(p, e->name - 1) : nc_value_get_loc(old), "previously defined here");
      nc_diag_emit(d);
    }
    return false;
  }
  *slot = first;
  /* a group that runs to the op's last result (the usual `%x:2 = ...`) needs
   * no record: its size follows from the op */
  bool to_end = !(first->bits & NC_VALUE_ARG) && n == nc_result_owner(first)->n_results - (first->bits >> 1);
  if (n > 1 && !to_end)
    group_size_set(p, first, n);
  if (old && !resolve_placeholder(p, old, first, def_loc, name, len, 0))
    return false;
  if (p->n_fwd_live) { /* forward references to %name#k, k > 0 */
    uint32_t scope = cur_iso(p)->id;
    for (size_t i = 0; i < p->n_fwd; i++) {
      fwd_ref *f = &p->fwd[i];
      if (f->placeholder && f->number > 0 && f->scope == scope && f->len == len && !memcmp(f->name, name, len)) {
        if (f->number >= n) {
          if (!p->failed) {
            p->failed = true;
            nc_emit_error(p->ctx, f->loc, "result number %u out of range for '%%%.*s' (it has %u results)", f->number,
                          (int)len, name, n);
          }
          return false;
        }
        if (!resolve_placeholder(p, nc_op_get_result(f->placeholder, 0), first + f->number, def_loc, name, len,
                                 f->number))
          return false;
      }
    }
  }
  /* the undo log takes 4 bytes a definition: a numeric name itself, or the
   * index of a named entry with the top bit set */
  uint32_t num;
  bool numeric = is_numeric(name, len, &num);
  /* numeric names in the isolated region's own body go when its table is
   * freed (pop_iso): no undo entry (4 bytes a value, 2 MB on 300k values) */
  if (numeric && cur_iso(p)->root_depth == p->n_bscopes)
    return true;
  uint32_t *u = parse_vec_push(p, (void **)&p->log, &p->n_log, &p->cap_log, sizeof *u);
  if (numeric) {
    *u = num;
  } else {
    undo *n = parse_vec_push(p, (void **)&p->name_log, &p->n_name_log, &p->cap_name_log, sizeof *n);
    n->name = name;
    n->len = (uint32_t)len;
    *u = 0x80000000u | (uint32_t)(p->n_name_log - 1);
  }
  return true;
}

/* Forgets the definitions logged since `mark` (leaving a region). */
static void undo_to(nc_asm_parser *p, size_t mark)
{
  while (p->n_log > mark) {
    uint32_t e32 = p->log[--p->n_log];
    if (!(e32 & 0x80000000u)) {
      nc_value **s = num_slot(p, e32, false);
      if (s)
        *s = NULL;
    } else {
      undo *u = &p->name_log[e32 & 0x7fffffffu];
      p->n_name_log = e32 & 0x7fffffffu;
      uint32_t scope = cur_iso(p)->id;
      name_entry *e = nt_find(&p->names, 0, scope, u->name, u->len, name_hash(0, scope, u->name, u->len));
      if (e)
        nt_remove(&p->names, e);
    }
  }
}

/* Group sizes of multi-result definitions, in the name table under kind 2. */
static void group_size_set(nc_asm_parser *p, nc_value *first, uint32_t n)
{
  char key[sizeof first];
  memcpy(key, &first, sizeof first);
  char *k = nc_arena_memdup(p->arena, key, sizeof key);
  uint64_t h = name_hash(2, 0, k, sizeof key);
  name_entry *e = nt_find(&p->names, 2, 0, k, sizeof key, h);
  if (!e)
    e = nt_insert(&p->names, 2, 0, k, sizeof key, h);
  e->ptr = (void *)(uintptr_t)(n * 2u + 2u); /* never NULL or TOMB */
}

static uint32_t group_size_get(nc_asm_parser *p, nc_value *first)
{
  char key[sizeof first];
  memcpy(key, &first, sizeof first);
  name_entry *e = nt_find(&p->names, 2, 0, key, sizeof key, name_hash(2, 0, key, sizeof key));
  if (e)
    return (uint32_t)(((uintptr_t)e->ptr - 2u) / 2u);
  if (first->bits & NC_VALUE_ARG)
    return 1;
  return nc_result_owner(first)->n_results - (first->bits >> 1);
}

/* --- operand references ----------------------------------------------------------------------- */

bool nc_asm_parse_optional_operand(nc_asm_parser *p, nc_asm_operand *out, bool *present)
{
  *present = false;
  if (p->tok.kind != T_PERCENT)
    return true;
  *present = true;
  out->name = p->tok.start + 1;
  out->len = p->tok.len - 1;
  out->loc = tok_loc(p);
  out->number = 0;
  const char *end = p->tok.start + p->tok.len;
  lex_next(p);
  if (p->tok.kind == T_HASH && p->tok.start == end) {
    uint64_t n = 0;
    const char *s = p->tok.start + 1;
    size_t l = p->tok.len - 1;
    for (size_t i = 0; i < l; i++) {
      if (s[i] < '0' || s[i] > '9' || (n = n * 10 + (uint64_t)(s[i] - '0')) > UINT32_MAX)
        return perr(p, "invalid SSA value result number");
    }
    out->number = (unsigned)n;
    lex_next(p);
  }
  return true;
}

bool nc_asm_parse_operand(nc_asm_parser *p, nc_asm_operand *out)
{
  bool present;
  if (!nc_asm_parse_optional_operand(p, out, &present))
    return false;
  return present ? true : perr(p, "expected SSA operand");
}

/* --- blocks and regions ------------------------------------------------------------------------------ */

static block_scope *cur_bscope(nc_asm_parser *p) { return &p->bscopes[p->n_bscopes - 1]; }

/* Finds or creates (as a forward reference) the block `^name` of the current region. */
static nc_block *block_ref(nc_asm_parser *p, const token *t, bool *was_forward)
{
  block_scope *bs = cur_bscope(p);
  const char *name = t->start + 1;
  size_t len = t->len - 1;
  uint64_t h = name_hash(1, bs->id, name, len);
  name_entry *e = nt_find(&p->names, 1, bs->id, name, len, h);
  *was_forward = false;
  if (e)
    return e->ptr;
  nc_block *b = nc_block_create(p->ctx);
  b->print_id = 1; /* marks "referenced, not yet defined" while parsing */
  e = nt_insert(&p->names, 1, bs->id, name, len, h);
  e->ptr = b;
  bs->n_forward++;
  *was_forward = true;
  return b;
}

bool nc_asm_parse_optional_successor(nc_asm_parser *p, nc_block **out, bool *present)
{
  *present = p->tok.kind == T_CARET;
  if (!*present)
    return true;
  if (!p->n_bscopes)
    return perr(p, "successor reference outside of a region");
  bool fwd;
  *out = block_ref(p, &p->tok, &fwd);
  lex_next(p);
  return true;
}

bool nc_asm_parse_successor(nc_asm_parser *p, nc_block **out)
{
  bool present;
  if (!nc_asm_parse_optional_successor(p, out, &present))
    return false;
  return present ? true : perr(p, "expected block name");
}

/* `(%a: t loc(..), ...)` after a block label. */
static bool parse_block_args(nc_asm_parser *p, nc_block *b)
{
  if (!consume(p, T_LPAREN))
    return true;
  if (consume(p, T_RPAREN))
    return true;
  do {
    nc_asm_operand ref;
    const char *at = p->tok.start;
    if (!nc_asm_parse_operand(p, &ref) || !expect(p, T_COLON, "':' and type for SSA value"))
      return false;
    nc_type *t = parse_type(p);
    if (!t)
      return false;
    nc_value *v = nc_block_add_arg(b, t, loc_at(p, at));
    nc_block_arg *arg = (nc_block_arg *)v;
    if (!parse_trailing_loc(p, &arg->loc))
      return false;
    if (!define_values(p, ref.name, ref.len, v, 1, loc_at(p, at)))
      return false;
  } while (consume(p, T_COMMA));
  return expect(p, T_RPAREN, "')' to end argument list");
}

static bool parse_block_ops(nc_asm_parser *p, nc_block *b)
{
  while (p->tok.kind != T_RBRACE && p->tok.kind != T_CARET) {
    if (p->tok.kind == T_EOF)
      return perr(p, "expected '}' to end region");
    if (!parse_op(p, b))
      return false;
  }
  return true;
}

/* At the end of a region (or file): reports the first reference to a block
 * that was never defined, and frees such blocks, which nobody owns. */
static void drop_forward_blocks(nc_asm_parser *p)
{
  if (!cur_bscope(p)->n_forward)
    return;
  uint32_t id = cur_bscope(p)->id;
  const char *first = NULL;
  for (size_t i = 0; i < p->names.cap; i++) {
    name_entry *e = &p->names.slots[i];
    if (e->ptr && e->ptr != TOMB && e->kind == 1 && e->scope == id && ((nc_block *)e->ptr)->print_id == 1 &&
        !((nc_block *)e->ptr)->region) {
      nc_block *b = e->ptr;
      if (!first || e->name < first)
        first = e->name;
      while (b->first_use) { /* detach successor slots pointing at it */
        nc_block_use *u = b->first_use;
        b->first_use = u->next;
        u->block = NULL;
        u->next = NULL;
        u->prev = NULL;
        if (b->first_use)
          b->first_use->prev = &b->first_use;
      }
      nc_block_destroy(b);
      e->ptr = TOMB; /* keep the table from pointing at freed memory */
      p->names.count--;
      p->names.tombs++;
    }
  }
  cur_bscope(p)->n_forward = 0;
  if (first)
    perr_at(p, first - 1, "reference to an undefined block");
}

bool parse_region_body(nc_asm_parser *p, nc_region *r, size_t n_args, const nc_asm_argument *args, bool isolated)
{
  if (!enter(p))
    return false;
  bool ok = false;
  if (p->tok.kind != T_LBRACE) {
    leave(p);
    return perr(p, "expected '{' to begin a region");
  }
  lex_next(p);
  if (isolated)
    push_iso(p);
  size_t mark = p->n_log;
  block_scope *bs = parse_vec_push(p, (void **)&p->bscopes, &p->n_bscopes, &p->cap_bscopes, sizeof *bs);
  bs->id = p->next_scope_id++;
  bs->n_forward = 0;
  if (isolated)
    cur_iso(p)->root_depth = p->n_bscopes;

  if (p->tok.kind == T_RBRACE && !n_args) {
    lex_next(p);
    ok = true;
    goto out;
  }
  nc_block *entry = NULL;
  if (p->tok.kind != T_CARET || n_args) {
    if (n_args && p->tok.kind == T_CARET) {
      perr(p, "invalid block name in region with named arguments");
      goto out;
    }
    entry = nc_block_create(p->ctx);
    nc_region_append_block(r, entry);
    for (size_t i = 0; i < n_args; i++) {
      nc_value *v = nc_block_add_arg(entry, args[i].type, args[i].loc);
      if (args[i].ssa.name && !define_values(p, args[i].ssa.name, args[i].ssa.len, v, 1, args[i].ssa.loc))
        goto out;
    }
    if (!parse_block_ops(p, entry))
      goto out;
  }
  while (p->tok.kind == T_CARET) {
    token label = p->tok;
    bool fwd;
    nc_block *b = block_ref(p, &label, &fwd);
    if (!fwd && b->print_id == 0) {
      perr(p, "redefinition of block '%.*s'", (int)label.len, label.start);
      goto out;
    }
    if (b->print_id == 1) { /* defined now */
      b->print_id = 0;
      cur_bscope(p)->n_forward--;
    }
    nc_region_append_block(r, b);
    lex_next(p);
    if (!parse_block_args(p, b) || !expect(p, T_COLON, "':' after block name") || !parse_block_ops(p, b))
      goto out;
  }
  if (!expect(p, T_RBRACE, "'}' to end region"))
    goto out;
  ok = !cur_bscope(p)->n_forward;
out:
  drop_forward_blocks(p);
  undo_to(p, mark);
  p->n_bscopes--;
  if (isolated && !pop_iso(p))
    ok = false;
  leave(p);
  return ok && !p->failed;
}

/* --- the op builder ------------------------------------------------------------------------------------ */



void nc_op_builder_add_operands(nc_op_builder *b, size_t n, nc_value *const *vals)
{
  for (size_t i = 0; i < n; i++)
    *(nc_value **)parse_tmp_push(b->p, (void **)&b->operands, &b->n_operands, &b->cap_operands, sizeof(nc_value *)) =
      vals[i];
}

void nc_op_builder_add_result_types(nc_op_builder *b, size_t n, nc_type *const *types)
{
  for (size_t i = 0; i < n; i++)
    *(nc_type **)parse_tmp_push(b->p, (void **)&b->types, &b->n_types, &b->cap_types, sizeof(nc_type *)) = types[i];
}

static void builder_set(nc_op_builder *b, nc_ident *name, nc_attr *value);

/* Expands a dictionary kept whole into the attribute list. */
static void builder_flush_dict(nc_op_builder *b)
{
  nc_attr *d = b->whole_dict;
  if (!d)
    return;
  b->whole_dict = NULL;
  for (size_t i = 0; i < d->dict.n; i++)
    builder_set(b, d->dict.entries[i].name, d->dict.entries[i].value);
}

static void builder_set(nc_op_builder *b, nc_ident *name, nc_attr *value)
{
  for (size_t i = 0; i < b->n_attrs; i++)
    if (b->attrs[i].name == name) {
      b->attrs[i].value = value;
      return;
    }
  nc_named_attr *e = parse_tmp_push(b->p, (void **)&b->attrs, &b->n_attrs, &b->cap_attrs, sizeof *e);
  e->name = name;
  e->value = value;
}

void nc_op_builder_set_attr(nc_op_builder *b, const char *name, nc_attr *value)
{
  builder_flush_dict(b);
  builder_set(b, nc_ident_get_cstr(b->p->ctx, name), value);
}

void nc_op_builder_merge_attr_dict(nc_op_builder *b, nc_attr *dict)
{
  if (!dict)
    return;
  if (!b->n_attrs && !b->whole_dict) { /* keep it whole: no need to rebuild it */
    b->whole_dict = dict;
    return;
  }
  builder_flush_dict(b);
  for (size_t i = 0; i < dict->dict.n; i++)
    builder_set(b, dict->dict.entries[i].name, dict->dict.entries[i].value);
}

nc_region *nc_op_builder_add_region(nc_op_builder *b)
{
  nc_region *r = nc_xcalloc(1, sizeof *r);
  *(nc_region **)parse_vec_push(b->p, (void **)&b->regions, &b->n_regions, &b->cap_regions, sizeof r) = r;
  return r;
}

void nc_op_builder_add_successor(nc_op_builder *b, nc_block *succ)
{
  *(nc_block **)parse_vec_push(b->p, (void **)&b->succs, &b->n_succs, &b->cap_succs, sizeof succ) = succ;
}

size_t nc_op_builder_get_num_result_names(nc_op_builder *b) { return b->n_result_names; }

/* Unlinks every use of values defined inside `r` (uses from outside too), so
 * that a region thrown away after a parse error leaves nothing dangling. */
static void drop_defs(nc_region *r)
{
  for (nc_block *b = r->first; b; b = b->next) {
    for (uint32_t i = 0; i < b->n_args; i++)
      while (b->args[i]->v.first_use)
        nc_use_set(b->args[i]->v.first_use, NULL);
    for (nc_op *o = b->first; o; o = o->next) {
      for (uint32_t i = 0; i < o->n_results; i++)
        while (nc_op_results(o)[i].first_use)
          nc_use_set(nc_op_results(o)[i].first_use, NULL);
      for (uint32_t i = 0; i < o->n_regions; i++)
        drop_defs(&nc_op_regions(o)[i]);
    }
  }
}

static void builder_free(nc_op_builder *b)
{
  for (size_t i = 0; i < b->n_regions; i++) {
    nc_region *r = b->regions[i];
    drop_defs(r);
    while (r->first) {
      nc_block *blk = r->first;
      nc_block_remove(blk);
      nc_block_destroy(blk);
    }
    free(r);
  }
  free(b->regions);
  parse_tmp_free(b->p, b->operands);
  parse_tmp_free(b->p, b->types);
  parse_tmp_free(b->p, b->attrs);
  free(b->succs);
}

/* Creates the op from the builder and appends it to `block`. */
static nc_op *builder_finish(nc_op_builder *b, nc_block *block)
{
  nc_asm_parser *p = b->p;
  nc_attr *props, *attrs;
  if (b->info->def && b->props && b->props->kind != NC_ATTR_DICTIONARY) {
    nc_asm_parser_error(p, b->loc, "expected a dictionary for the properties of '%s'", b->info->name->str);
    return NULL;
  }
  if (b->whole_dict && !b->info->def) { /* unregistered: the dictionary is the attribute dict */
    props = b->props;
    attrs = b->whole_dict->dict.n ? b->whole_dict : NULL;
  } else if (builder_flush_dict(b), !nc_op_split_attrs(p->ctx, b->info, b->n_attrs, b->attrs, b->props, &props, &attrs)) {
    nc_asm_parser_error(p, b->loc, "duplicate attribute in '%s'", b->info->name->str);
    return NULL;
  }
  if (b->n_succs > 255 || b->n_regions > 65535) {
    perr(p, "too many successors or regions");
    return NULL;
  }
  nc_op *op = nc_op_alloc(p->ctx, b->info, b->loc, b->n_operands, b->operands, b->n_types, b->types, b->n_regions,
                          b->n_succs, b->succs);
  op->props = props;
  op->attrs = attrs;
  for (size_t i = 0; i < b->n_regions; i++)
    nc_region_take_body(&nc_op_regions(op)[i], b->regions[i]);
  nc_block_append_op(block, op);
  return op;
}

/* --- operations ---------------------------------------------------------------------------------------- */

typedef struct result_name {
  const char *name;
  size_t len;
  uint32_t count;
  nc_location loc;
} result_name;

static const char *default_dialect(nc_asm_parser *p)
{
  for (size_t i = p->n_defaults; i-- > 0;)
    if (p->default_dialects[i])
      return p->default_dialects[i];
  return NULL;
}

static void push_default(nc_asm_parser *p, const nc_op_info *info)
{
  const char **slot = parse_vec_push(p, (void **)&p->default_dialects, &p->n_defaults, &p->cap_defaults, sizeof *slot);
  *slot = info->def ? info->def->default_dialect : NULL;
}

static bool check_registered(nc_asm_parser *p, nc_op_info *info, const char *at)
{
  if (info->def)
    return true;
  if (info->dialect)
    return perr_at(p, at, "unregistered operation '%s' found in dialect ('%s') that does not allow unknown operations",
                   info->name->str, info->dialect->name);
  if (!p->ctx->allow_unregistered) {
    const char *dot = strchr(info->name->str, '.');
    return perr_at(p, at, "operation '%s' belongs to unregistered dialect '%.*s'; to allow unregistered dialects use "
                          "--allow-unregistered-dialect",
                   info->name->str, dot ? (int)(dot - info->name->str) : (int)info->name->len, info->name->str);
  }
  return true;
}

static nc_op *parse_generic(nc_asm_parser *p, nc_block *block, nc_location loc, size_t n_result_names)
{
  token nt = p->tok;
  size_t nlen;
  char *name = string_value(p, &nt, &nlen);
  if (!name)
    return NULL;
  if (!nlen) {
    free(name);
    perr(p, "empty operation name is invalid");
    return NULL;
  }
  nc_op_info *info = nc_context_get_op_info(p->ctx, nc_ident_get(p->ctx, name, nlen));
  free(name);
  if (!check_registered(p, info, nt.start))
    return NULL;
  lex_next(p);

  nc_op_builder b = {.p = p, .info = info, .loc = loc, .n_result_names = n_result_names};
  nc_asm_operand *refs = NULL;
  size_t n_refs = 0, cap_refs = 0;
  nc_op *op = NULL;

  if (!expect(p, T_LPAREN, "'(' to start operand list"))
    goto out;
  if (p->tok.kind != T_RPAREN) {
    do {
      nc_asm_operand *r = parse_tmp_push(p, (void **)&refs, &n_refs, &cap_refs, sizeof *r);
      if (!nc_asm_parse_operand(p, r))
        goto out;
    } while (consume(p, T_COMMA));
  }
  if (!expect(p, T_RPAREN, "')' to end operand list"))
    goto out;
  if (consume(p, T_LSQUARE)) {
    do {
      nc_block *s;
      if (!nc_asm_parse_successor(p, &s))
        goto out;
      nc_op_builder_add_successor(&b, s);
    } while (consume(p, T_COMMA));
    if (!expect(p, T_RSQUARE, "']' to end successor list"))
      goto out;
  }
  if (p->tok.kind == T_LESS) {
    lex_next(p);
    b.props = parse_attr(p, NULL);
    if (!b.props || !expect(p, T_GREATER, "'>' to close properties"))
      goto out;
  }
  if (p->tok.kind == T_LPAREN) {
    lex_next(p);
    push_default(p, info);
    bool good = true;
    do {
      nc_region *r = nc_op_builder_add_region(&b);
      /* as in MLIR, a registered op's isolation applies to its generic form too */
      if (!parse_region_body(p, r, 0, NULL, info->traits & NC_TRAIT_ISOLATED_FROM_ABOVE)) {
        good = false;
        break;
      }
    } while (consume(p, T_COMMA));
    p->n_defaults--;
    if (!good || !expect(p, T_RPAREN, "')' to end region list"))
      goto out;
  }
  if (p->tok.kind == T_LBRACE) {
    nc_attr *d = parse_attr_dict(p);
    if (!d)
      goto out;
    nc_op_builder_merge_attr_dict(&b, d);
  }
  if (!expect(p, T_COLON, "':' followed by operation type"))
    goto out;
  /* the `(inputs) -> results` type is read as two lists, not uniqued as a
   * function type only to be taken apart again */
  const char *type_at = p->tok.start;
  if (p->tok.kind != T_LPAREN) {
    if (p->tok.kind != T_ERROR)
      perr(p, "expected function type");
    goto out;
  }
  {
    nc_type **ins = NULL, **outs = NULL;
    size_t n_in = 0, n_out = 0;
    bool good = parse_type_list_parens(p, &ins, &n_in) && expect(p, T_ARROW, "'->' in function type") &&
                parse_function_result_types(p, &outs, &n_out);
    if (good && n_in != n_refs) {
      perr_at(p, type_at, "expected %zu operand type%s but had %zu", n_refs, n_refs == 1 ? "" : "s", n_in);
      good = false;
    }
    for (size_t i = 0; good && i < n_refs; i++) {
      nc_value *v;
      good = nc_asm_resolve_operand(p, &refs[i], ins[i], &v);
      if (good)
        nc_op_builder_add_operands(&b, 1, &v);
    }
    if (good)
      nc_op_builder_add_result_types(&b, n_out, outs);
    parse_tmp_free(p, ins);
    parse_tmp_free(p, outs);
    if (!good)
      goto out;
  }
  op = builder_finish(&b, block);
out:
  parse_tmp_free(p, refs);
  builder_free(&b);
  return op;
}

static nc_op_info *lookup_custom(nc_asm_parser *p, const token *t)
{
  nc_context *ctx = p->ctx;
  if (memchr(t->start, '.', t->len)) {
    nc_op_info *info = nc_context_get_op_info(ctx, nc_ident_get(ctx, t->start, t->len));
    if (info->def)
      return info;
  }
  char buf[256];
  const char *dd = default_dialect(p);
  if (dd && strlen(dd) + t->len + 2 < sizeof buf) {
    int n = snprintf(buf, sizeof buf, "%s.%.*s", dd, (int)t->len, t->start);
    nc_op_info *info = nc_context_get_op_info(ctx, nc_ident_get(ctx, buf, (size_t)n));
    if (info->def)
      return info;
  }
  if (t->len + 9 < sizeof buf) {
    int n = snprintf(buf, sizeof buf, "builtin.%.*s", (int)t->len, t->start);
    nc_op_info *info = nc_context_get_op_info(ctx, nc_ident_get(ctx, buf, (size_t)n));
    if (info->def)
      return info;
  }
  return NULL;
}

static nc_op *parse_custom(nc_asm_parser *p, nc_block *block, nc_location loc, size_t n_result_names)
{
  token t = p->tok;
  nc_op_info *info = lookup_custom(p, &t);
  if (!info || (!info->def->parse && !info->def->assembly_format)) {
    const char *dd = default_dialect(p);
    if (info)
      perr(p, "op '%s' has no custom assembly form; use the generic form \"%s\"(...)", info->name->str, info->name->str);
    else if (dd)
      perr(p, "custom op '%.*s' is unknown (tried '%s.%.*s' as well)", (int)t.len, t.start, dd, (int)t.len, t.start);
    else
      perr(p, "custom op '%.*s' is unknown", (int)t.len, t.start);
    return NULL;
  }
  lex_next(p);
  nc_op_builder b = {.p = p, .info = info, .loc = loc, .n_result_names = n_result_names};
  const nc_op_def *saved = p->cur_def;
  p->cur_def = info->def;
  push_default(p, info);
  bool ok = info->def->parse ? info->def->parse(p, &b) : nc_format_parse_op(p, &b, info);
  p->n_defaults--;
  p->cur_def = saved;
  nc_op *op = ok && !p->failed ? builder_finish(&b, block) : NULL;
  if (!ok && !p->failed)
    perr(p, "failed to parse '%s'", info->name->str);
  builder_free(&b);
  return op;
}

bool parse_op(nc_asm_parser *p, nc_block *block)
{
  nc_parser_release_behind(p);
  const char *op_start = p->tok.start;
  nc_location loc = loc_at(p, op_start);
  result_name *names = NULL;
  size_t n_names = 0, cap_names = 0, n_results = 0;
  bool ok = false;
  if (p->tok.kind == T_PERCENT) {
    do {
      result_name *r = parse_tmp_push(p, (void **)&names, &n_names, &cap_names, sizeof *r);
      if (p->tok.kind != T_PERCENT) {
        perr(p, "expected SSA value name");
        goto out;
      }
      r->name = p->tok.start + 1;
      r->len = p->tok.len - 1;
      r->loc = tok_loc(p);
      r->count = 1;
      lex_next(p);
      if (consume(p, T_COLON)) {
        uint64_t n;
        if (p->tok.kind != T_INT || !int_value(&p->tok, &n) || n == 0 || n > UINT32_MAX) {
          perr(p, "expected a positive number of results after ':'");
          goto out;
        }
        r->count = (uint32_t)n;
        lex_next(p);
      }
      n_results += r->count;
    } while (consume(p, T_COMMA));
    if (!expect(p, T_EQUAL, "'=' after SSA name"))
      goto out;
    loc = loc_at(p, p->tok.start); /* as MLIR: an op is located at its name, not at its results */
  }
  nc_op *op;
  if (p->tok.kind == T_STRING)
    op = parse_generic(p, block, loc, n_results);
  else if (p->tok.kind == T_BARE)
    op = parse_custom(p, block, loc, n_results);
  else {
    if (p->tok.kind != T_ERROR)
      perr(p, "expected operation name in quotes");
    goto out;
  }
  if (!op)
    goto out;
  if (!parse_trailing_loc(p, &op->loc))
    goto out;
  if (n_names && op->n_results != n_results) {
    perr_at(p, op_start, "operation defines %u results but was provided %zu to bind", op->n_results, n_results);
    goto out;
  }
  size_t idx = 0;
  for (size_t i = 0; i < n_names; i++) {
    if (!define_values(p, names[i].name, names[i].len, nc_op_get_result(op, idx), names[i].count, names[i].loc))
      goto out;
    idx += names[i].count;
  }
  ok = true;
out:
  parse_tmp_free(p, names);
  return ok && !p->failed;
}

/* --- whole files --------------------------------------------------------------------------------------- */

static bool parse_alias_def(nc_asm_parser *p)
{
  token t = p->tok;
  bool is_type = t.kind == T_EXCL;
  const char *name = t.start + 1;
  size_t len = t.len - 1;
  if (memchr(name, '.', len))
    return perr(p, "%s names with a '.' are reserved for dialect-defined names", is_type ? "type" : "attribute");
  if (find_alias(p, name, len))
    return perr(p, "redefinition of %s alias id '%.*s'", is_type ? "type" : "attribute", (int)len, name);
  lex_next(p);
  if (!expect(p, T_EQUAL, "'=' in alias definition"))
    return false;
  void *v = is_type ? (void *)parse_type(p) : (void *)parse_attr(p, NULL);
  if (!v)
    return false;
  alias_entry *a = parse_vec_push(p, (void **)&p->aliases, &p->n_aliases, &p->cap_aliases, sizeof *a);
  *a = (alias_entry){name, len, is_type, v};
  return true;
}

/* With the ':' of a resource entry as the current token: if the value is a
 * "0x..." blob, makes it the current token by finding its closing quote only
 * (decoding checks every digit), instead of scanning it twice. */
static bool quick_hex_token(nc_asm_parser *p)
{
  const char *raw = p->cur;
  while (raw < p->end && (*raw == ' ' || *raw == '\n' || *raw == '\t' || *raw == '\r'))
    raw++;
  if (p->end - raw <= 3 || raw[0] != '"' || raw[1] != '0' || raw[2] != 'x')
    return false;
  const char *close = memchr(raw + 1, '"', (size_t)(p->end - raw - 1));
  if (!close)
    return false;
  p->tok = (token){T_STRING, raw, (size_t)(close + 1 - raw)};
  p->cur = close + 1;
  return true;
}

/* `key: value` entries of one resource group; `fn` handles each. */
static bool parse_resource_entries(nc_asm_parser *p, bool (*fn)(nc_asm_parser *, const token *, void *), void *u)
{
  if (!expect(p, T_LBRACE, "'{'"))
    return false;
  if (consume(p, T_RBRACE))
    return true;
  do {
    token key = p->tok;
    if (key.kind != T_BARE && key.kind != T_STRING)
      return perr(p, "expected identifier key for resource entry");
    lex_next(p);
    if (p->tok.kind != T_COLON)
      return expect(p, T_COLON, "':'");
    if (!quick_hex_token(p))
      lex_next(p); /* past the ':' */
    if (!fn(p, &key, u))
      return false;
  } while (consume(p, T_COMMA));
  return expect(p, T_RBRACE, "'}'");
}

static bool blob_entry(nc_asm_parser *p, const token *key, void *u)
{
  (void)u;
  if (p->tok.kind != T_STRING)
    return perr(p, "expected hex string blob for resource '%.*s'", (int)key->len, key->start);
  const char *s = p->tok.start + 1;
  size_t len = p->tok.len - 2;
  if (len < 10 || s[0] != '0' || s[1] != 'x' || len % 2)
    return perr(p, "expected hex string blob (\"0x\" then an alignment word and data) for resource '%.*s'",
                (int)key->len, key->start);
  size_t nb = (len - 2) / 2, bad_at;
  unsigned char head[4];
  unsigned char *all = nc_xmalloc_bulk(nb - 4 ? nb - 4 : 1);
  if (!nc_hex_decode(s + 2, 4, head, &bad_at) || !nc_hex_decode(s + 10, nb - 4, all, &bad_at)) {
    free(all);
    return perr(p, "invalid hex digit in resource blob");
  }
  nc_parser_release_token_text(p, p->tok.start, p->tok.len);
  uint32_t align = (uint32_t)head[0] | ((uint32_t)head[1] << 8) | ((uint32_t)head[2] << 16) | ((uint32_t)head[3] << 24);
  if (!align && nb == 4)
    align = 1; /* mlir-opt writes an empty blob as "0x00000000" */
  if (!align || (align & (align - 1))) {
    free(all);
    return perr(p, "resource blob alignment %u is not a power of two", align);
  }
  size_t nlen = key->len;
  char *owned = NULL;
  const char *name = key->start;
  if (key->kind == T_STRING) {
    owned = string_value(p, key, &nlen);
    if (!owned) {
      free(all);
      return false;
    }
    name = owned;
  }
  nc_resource *r = parse_resource(p, name, nlen);
  free(owned);
  if (r->data) {
    free(all);
    return perr_at(p, key->start, "redefinition of resource blob '%.*s'", (int)key->len, key->start);
  }
  nc_resource_set_data(r, all, nb - 4, align);
  lex_next(p);
  return true;
}

static bool dialect_group(nc_asm_parser *p, const token *key, void *u)
{
  (void)u;
  if (!(key->kind == T_BARE && key->len == 7 && !memcmp(key->start, "builtin", 7)))
    return perr_at(p, key->start, "resources of dialect '%.*s' are not supported (only builtin blobs are)", (int)key->len,
                   key->start);
  return parse_resource_entries(p, blob_entry, NULL);
}

typedef struct ext_ctx {
  nc_named_attr *entries;
  size_t n, cap;
} ext_ctx;

static bool ext_value(nc_asm_parser *p, const token *key, void *u)
{
  ext_ctx *e = u;
  nc_attr *v = parse_attr(p, NULL);
  if (!v)
    return false;
  nc_named_attr *n = parse_vec_push(p, (void **)&e->entries, &e->n, &e->cap, sizeof *n);
  n->name = nc_ident_get(p->ctx, key->start, key->len);
  n->value = v;
  return true;
}

static bool ext_group(nc_asm_parser *p, const token *key, void *u)
{
  ext_ctx inner = {0};
  bool ok = parse_resource_entries(p, ext_value, &inner);
  if (ok) {
    nc_attr *d = nc_attr_dictionary(p->ctx, inner.n, inner.entries);
    if (!d)
      ok = perr_at(p, key->start, "duplicate key in external resource '%.*s'", (int)key->len, key->start);
    else
      p->external_resources = nc_attr_dict_set(p->ctx, p->external_resources, nc_ident_get(p->ctx, key->start, key->len), d);
  }
  (void)u;
  free(inner.entries);
  return ok;
}

static bool section_group(nc_asm_parser *p, const token *key, void *u)
{
  (void)u;
  if (key->kind == T_BARE && key->len == 17 && !memcmp(key->start, "dialect_resources", 17))
    return parse_resource_entries(p, dialect_group, NULL);
  if (key->kind == T_BARE && key->len == 18 && !memcmp(key->start, "external_resources", 18))
    return parse_resource_entries(p, ext_group, NULL);
  return perr_at(p, key->start, "unknown file metadata key '%.*s'", (int)key->len, key->start);
}

static bool parse_metadata(nc_asm_parser *p)
{
  lex_next(p); /* {-# */
  if (!consume(p, T_META_END)) {
    do {
      token key = p->tok;
      if (key.kind != T_BARE)
        return perr(p, "expected identifier key in file metadata dictionary");
      lex_next(p);
      if (!expect(p, T_COLON, "':'") || !section_group(p, &key, NULL))
        return false;
    } while (consume(p, T_COMMA));
    if (!expect(p, T_META_END, "'#-}' to end file metadata"))
      return false;
  }
  return true;
}

static void parser_free(nc_asm_parser *p)
{
  for (size_t i = 0; i < p->n_fwd; i++)
    if (p->fwd[i].placeholder) {
      nc_op *ph = p->fwd[i].placeholder;
      nc_value *v = nc_op_get_result(ph, 0);
      while (v->first_use)
        nc_use_set(v->first_use, NULL);
      nc_op_destroy(ph);
    }
  for (size_t i = 0; i < p->n_isos; i++)
    free(p->isos[i].nums);
  free(p->isos);
  free(p->names.slots);
  free(p->log);
  free(p->name_log);
  free(p->slab);
  free(p->fwd);
  free(p->bscopes);
  free(p->aliases);
  free(p->dlocs);
  free(p->storage_cache);
  free(p->default_dialects);
  nc_arena_destroy(p->arena);
}

void nc_parser_init(nc_asm_parser *p, nc_context *ctx, unsigned source_id, size_t start, size_t end);
void nc_parser_init(nc_asm_parser *p, nc_context *ctx, unsigned source_id, size_t start, size_t end)
{
  memset(p, 0, sizeof *p);
  p->ctx = ctx;
  p->source_id = source_id;
  size_t len;
  p->base = nc_context_get_source(ctx, source_id, &len);
  if (end > len)
    end = len;
  p->arena = nc_arena_create();
  pthread_mutex_lock(&ctx->lock);
  p->parse_id = ++ctx->next_parse_id;
  pthread_mutex_unlock(&ctx->lock);
  p->fwd_info = nc_context_get_op_info(ctx, nc_ident_get_cstr(ctx, "builtin.forward_reference"));
  nc_source *src = nc_context_source(ctx, source_id);
  p->mapped = src && src->mapped;
  p->released = p->base + start;
  push_iso(p);
  lex_init(p, p->base + start, p->base + end);
}

void nc_parser_fini(nc_asm_parser *p);
void nc_parser_fini(nc_asm_parser *p) { parser_free(p); }

/* Replaces a deferred-alias marker (see deferred_loc) by the alias's value. */
static void resolve_loc(nc_asm_parser *p, nc_location *l)
{
  size_t lo = 0, hi = p->n_dlocs; /* markers were recorded in source order */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (p->dlocs[mid].at.raw < l->raw)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < p->n_dlocs && p->dlocs[lo].at.raw == l->raw)
    *l = nc_location_from_attr(find_alias(p, p->dlocs[lo].name, p->dlocs[lo].len)->value);
}

static void resolve_locs_in_block(nc_asm_parser *p, nc_block *b)
{
  for (uint32_t i = 0; i < b->n_args; i++)
    resolve_loc(p, &b->args[i]->loc);
  for (nc_op *o = b->first; o; o = o->next) {
    resolve_loc(p, &o->loc);
    for (uint32_t r = 0; r < o->n_regions; r++)
      for (nc_block *nb = nc_op_regions(o)[r].first; nb; nb = nb->next)
        resolve_locs_in_block(p, nb);
  }
}

static bool resolve_deferred_locs(nc_asm_parser *p, nc_block *top)
{
  if (!p->n_dlocs)
    return true;
  for (size_t i = 0; i < p->n_dlocs; i++) {
    deferred_loc *d = &p->dlocs[i];
    alias_entry *a = find_alias(p, d->name, d->len);
    if (!a || a->is_type || !nc_attr_is_location(a->value)) {
      nc_emit_error(p->ctx, d->at, "operation location alias was never defined");
      return false;
    }
  }
  resolve_locs_in_block(p, top);
  return true;
}

nc_op *nc_parse_source_range(nc_context *ctx, unsigned source_id, size_t start, size_t end)
{
  nc_asm_parser p;
  nc_parser_init(&p, ctx, source_id, start, end);
  nc_block *top = nc_block_create(ctx);
  size_t mark = p.n_log;
  block_scope *bs = parse_vec_push(&p, (void **)&p.bscopes, &p.n_bscopes, &p.cap_bscopes, sizeof *bs);
  bs->id = p.next_scope_id++;
  bs->n_forward = 0;
  nc_op *result = NULL;
  bool ok = true;
  while (ok && p.tok.kind != T_EOF) {
    if (p.tok.kind == T_ERROR)
      ok = false;
    else if (p.tok.kind == T_HASH || p.tok.kind == T_EXCL)
      ok = parse_alias_def(&p);
    else if (p.tok.kind == T_META_BEGIN)
      ok = parse_metadata(&p);
    else
      ok = parse_op(&p, top);
  }
  if (p.bscopes[0].n_forward) {
    drop_forward_blocks(&p);
    ok = false;
  }
  ok = ok && !p.failed && report_fwd(&p, 0, p.isos[0].id) && resolve_deferred_locs(&p, top);
  (void)mark;
  if (ok) {
    ctx->external_resources = p.external_resources;
    nc_op *first = top->first;
    if (first && first == top->last && nc_op_is(first, "builtin.module")) {
      nc_op_remove(first);
      result = first;
    } else {
      result = nc_module_create(ctx, nc_location_from_source(source_id, start));
      nc_block *body = nc_module_get_body(result);
      if (top->first)
        nc_block_splice_ops(body, top->first);
    }
  }
  if (!result) {
    nc_region tmp = {top, top, NULL};
    drop_defs(&tmp);
  }
  nc_block_destroy(top);
  parser_free(&p);
  return result;
}

nc_op *nc_parse_string(nc_context *ctx, const char *data, size_t len, const char *filename)
{
  char *copy = nc_xmalloc(len + 1);
  memcpy(copy, data, len);
  copy[len] = 0;
  unsigned id = nc_context_add_source_owned(ctx, filename ? filename : "<string>", copy, len);
  return nc_parse_source_range(ctx, id, 0, len);
}

nc_op *nc_parse_file(nc_context *ctx, const char *path)
{
  unsigned id;
  char err[512];
  if (!nc_context_load_file(ctx, path, &id, err, sizeof err)) {
    nc_emit_error(ctx, nc_location_unknown(), "%s", err);
    return NULL;
  }
  size_t len;
  nc_context_get_source(ctx, id, &len);
  if (len >= ((size_t)1 << 32)) {
    nc_emit_error(ctx, nc_location_unknown(), "'%s' is larger than 4 GiB, which nc does not read", path);
    return NULL;
  }
  return nc_parse_source_range(ctx, id, 0, len);
}

nc_attr *nc_context_get_external_resource(nc_context *ctx, const char *key, const char *entry)
{
  nc_attr *g = nc_attr_dict_get_str(ctx->external_resources, key);
  return g ? nc_attr_dict_get_str(g, entry) : NULL;
}
