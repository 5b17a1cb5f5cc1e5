/* print_ops.c: printing operations, blocks and regions, value numbering,
 * location aliases and the resource section; and the nc_asm_print_* API for
 * custom syntax.
 *
 * Values are numbered the way mlir-opt numbers them: each region continues
 * from the counters its parent region ended with, sibling regions restart
 * from the same point, entry-block arguments are %argN, blocks are ^bbN per
 * region. Numbers live in the values themselves (nc_value.print_id) during a
 * print, so numbering a million ops allocates nothing.
 */
#include "ir-internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void nc_out_symbol(nc_out *o, const char *s, size_t len);
void nc_out_attr_value(nc_out *o, const nc_attr *a, const nc_print_flags *flags);
void nc_out_loc_inner(nc_out *o, const nc_attr *l);
void nc_out_u64(nc_out *o, uint64_t v);
void nc_out_hex(nc_out *o, const unsigned char *p, size_t n);

void nc_out_keyword_or_string(nc_out *o, const char *s, size_t len);
bool nc_format_ok(nc_op_info *info);

#define ARG_BIT 0x80000000u
#define UNNUMBERED 0x7fffffffu

typedef struct loc_alias {
  uintptr_t raw;
} loc_alias;

struct nc_asm_printer {
  nc_block *inside_keys[64]; /* cache for defined_inside */
  bool inside_vals[64];
  nc_out *o;
  const nc_print_flags *flags;
  nc_context *ctx;
  int indent;
  nc_op *root;
  bool check_scope; /* root is nested or detached-with-outside-uses possible */
  const char **defaults;
  size_t n_defaults, cap_defaults;
  /* location aliases: open addressing on raw handle -> index+1 */
  uintptr_t *alias_keys;
  uint32_t *alias_vals;
  size_t alias_cap, n_aliases;
  uintptr_t *alias_order;
  size_t cap_order;
};

/* --- numbering ---------------------------------------------------------------------------- */

typedef struct counters {
  uint32_t value, arg;
} counters;

static void number_region(nc_region *r, counters c)
{
  uint32_t bid = 0;
  for (nc_block *b = r->first; b; b = b->next) {
    b->print_id = bid++;
    bool entry = b == r->first;
    for (uint32_t i = 0; i < b->n_args; i++)
      b->args[i]->v.print_id = entry ? (ARG_BIT | c.arg++) : c.value++;
    for (nc_op *o = b->first; o; o = o->next)
      if (o->n_results) {
        uint32_t id = c.value++;
        nc_value *res = nc_op_results(o);
        for (uint32_t i = 0; i < o->n_results; i++)
          res[i].print_id = id;
      }
  }
  for (nc_block *b = r->first; b; b = b->next)
    for (nc_op *o = b->first; o; o = o->next)
      for (uint32_t i = 0; i < o->n_regions; i++)
        number_region(&nc_op_regions(o)[i], c);
}

static void number_from(nc_op *top)
{
  counters c = {0, 0};
  if (top->n_results) {
    uint32_t id = c.value++;
    for (uint32_t i = 0; i < top->n_results; i++)
      nc_op_results(top)[i].print_id = id;
  }
  for (uint32_t i = 0; i < top->n_regions; i++)
    number_region(&nc_op_regions(top)[i], c);
}

static bool block_inside(const nc_op *root, nc_block *b)
{
  for (; b;) {
    nc_op *parent = b->region ? b->region->op : NULL;
    if (parent == root)
      return true;
    if (!parent)
      return false;
    b = parent->block;
  }
  return false;
}

/* Whether v is defined inside the printed root: the answer per block is
 * cached, since walking up for every operand showed in profiles. */
static bool defined_inside(nc_asm_printer *p, const nc_value *v)
{
  if (!(v->bits & NC_VALUE_ARG) && nc_result_owner(v) == p->root)
    return true;
  nc_block *b = nc_value_get_parent_block(v);
  size_t slot = (size_t)(nc_hash_ptr(b) & (NC_COUNTOF(p->inside_keys) - 1));
  if (p->inside_keys[slot] == b && b)
    return p->inside_vals[slot];
  bool in = block_inside(p->root, b);
  p->inside_keys[slot] = b;
  p->inside_vals[slot] = in;
  return in;
}

static void print_value_name(nc_asm_printer *p, const nc_value *v)
{
  nc_out *o = p->o;
  /* a value from outside the printed op (even a detached one) has no name
   * here; a whole top-level op has no outside, so it skips the check */
  if (!v || (p->check_scope && !defined_inside(p, v))) {
    nc_out_str(o, "<<UNKNOWN SSA VALUE>>"); /* as MLIR spells it */
    return;
  }
  uint32_t id = v->print_id;
  if (id & ARG_BIT) {
    nc_out_str(o, "%arg");
    nc_out_u64(o, id & ~ARG_BIT);
    return;
  }
  nc_out_char(o, '%');
  nc_out_u64(o, id);
  if (!(v->bits & NC_VALUE_ARG)) {
    nc_op *def = nc_result_owner(v);
    if (def->n_results > 1) {
      nc_out_char(o, '#');
      nc_out_u64(o, v->bits >> 1);
    }
  }
}

/* --- locations --------------------------------------------------------------------------------- */

static uint32_t alias_for(nc_asm_printer *p, uintptr_t raw)
{
  if ((p->n_aliases + 1) * 2 > p->alias_cap) {
    size_t ncap = p->alias_cap ? p->alias_cap * 2 : 256;
    uintptr_t *nk = nc_xcalloc(ncap, sizeof *nk);
    uint32_t *nv = nc_xcalloc(ncap, sizeof *nv);
    for (size_t i = 0; i < p->alias_cap; i++) {
      if (!p->alias_vals[i])
        continue;
      size_t j = nc_hash_combine(0, p->alias_keys[i]) & (ncap - 1);
      while (nv[j])
        j = (j + 1) & (ncap - 1);
      nk[j] = p->alias_keys[i];
      nv[j] = p->alias_vals[i];
    }
    free(p->alias_keys);
    free(p->alias_vals);
    p->alias_keys = nk;
    p->alias_vals = nv;
    p->alias_cap = ncap;
  }
  size_t j = nc_hash_combine(0, raw) & (p->alias_cap - 1);
  while (p->alias_vals[j]) {
    if (p->alias_keys[j] == raw)
      return p->alias_vals[j] - 1;
    j = (j + 1) & (p->alias_cap - 1);
  }
  p->alias_keys[j] = raw;
  p->alias_vals[j] = (uint32_t)++p->n_aliases;
  if (p->n_aliases > p->cap_order) {
    p->cap_order = p->cap_order ? p->cap_order * 2 : 256;
    p->alias_order = nc_xrealloc(p->alias_order, p->cap_order * sizeof *p->alias_order);
  }
  p->alias_order[p->n_aliases - 1] = raw;
  return (uint32_t)p->n_aliases - 1;
}

static void print_alias_name(nc_out *o, uint32_t idx)
{
  nc_out_str(o, "#loc");
  if (idx)
    nc_out_u64(o, idx);
}

static void print_loc_inline(nc_asm_printer *p, nc_location loc)
{
  nc_out *o = p->o;
  nc_out_str(o, "loc(");
  if (loc.raw & 1) {
    nc_ident *file;
    unsigned line, col;
    nc_location_get_file_line_col(p->ctx, loc, &file, &line, &col);
    nc_out_string_literal(o, file->str, file->len);
    nc_out_char(o, ':');
    nc_out_u64(o, line);
    nc_out_char(o, ':');
    nc_out_u64(o, col);
  } else {
    nc_out_loc_inner(o, nc_location_get_attr(p->ctx, loc));
  }
  nc_out_char(o, ')');
}

void nc_asm_print_optional_location(nc_asm_printer *p, nc_location loc)
{
  if (!p->flags->debuginfo)
    return;
  nc_out_char(p->o, ' ');
  if (p->flags->local_scope || !loc.raw) {
    print_loc_inline(p, loc);
    return;
  }
  nc_out_str(p->o, "loc(");
  print_alias_name(p->o, alias_for(p, loc.raw));
  nc_out_char(p->o, ')');
}

/* --- ops ------------------------------------------------------------------------------------------------ */

static void print_indent(nc_asm_printer *p)
{
  static const char spaces[] = "                                                                ";
  int n = p->indent;
  while (n > 0) {
    int k = n > 64 ? 64 : n;
    nc_out_write(p->o, spaces, (size_t)k);
    n -= k;
  }
}

static void print_op(nc_asm_printer *p, nc_op *op);

static void print_block_header(nc_asm_printer *p, nc_block *b)
{
  nc_out *o = p->o;
  nc_out_str(o, "^bb");
  nc_out_u64(o, b->print_id);
  if (b->n_args) {
    nc_out_char(o, '(');
    for (uint32_t i = 0; i < b->n_args; i++) {
      if (i)
        nc_out_write(o, ", ", 2);
      nc_asm_print_argument(p, &b->args[i]->v, NULL);
    }
    nc_out_char(o, ')');
  }
  nc_out_str(o, ":\n");
}

static void print_region(nc_asm_printer *p, nc_region *r, bool print_entry_args, bool print_empty_block)
{
  nc_out *o = p->o;
  nc_out_str(o, "{\n");
  p->indent += 2;
  for (nc_block *b = r->first; b; b = b->next) {
    bool header = b != r->first || (print_entry_args && b->n_args) || (print_empty_block && !b->first) ||
                  (b == r->first && b->first_use);
    if (header) {
      p->indent -= 2;
      print_indent(p);
      p->indent += 2;
      print_block_header(p, b);
    }
    for (nc_op *op = b->first; op; op = op->next)
      print_op(p, op);
  }
  p->indent -= 2;
  print_indent(p);
  nc_out_char(o, '}');
}

static void print_generic(nc_asm_printer *p, nc_op *op)
{
  nc_out *o = p->o;
  nc_out_string_literal(o, op->info->name->str, op->info->name->len);
  nc_out_char(o, '(');
  for (uint32_t i = 0; i < op->n_operands; i++) {
    if (i)
      nc_out_write(o, ", ", 2);
    print_value_name(p, op->operands[i].value);
  }
  nc_out_char(o, ')');
  if (op->n_succs) {
    nc_out_char(o, '[');
    for (uint32_t i = 0; i < op->n_succs; i++) {
      if (i)
        nc_out_write(o, ", ", 2);
      nc_asm_print_successor(p, nc_op_succs(op)[i].block);
    }
    nc_out_char(o, ']');
  }
  if (op->props) {
    nc_out_write(o, " <", 2);
    nc_out_attr(o, op->props, p->flags);
    nc_out_char(o, '>');
  }
  if (op->n_regions && !p->flags->skip_regions) {
    nc_out_write(o, " (", 2);
    for (uint32_t i = 0; i < op->n_regions; i++) {
      if (i)
        nc_out_write(o, ", ", 2);
      print_region(p, &nc_op_regions(op)[i], true, true);
    }
    nc_out_char(o, ')');
  }
  if (op->attrs && op->attrs->dict.n) {
    nc_out_char(o, ' ');
    nc_out_attr(o, op->attrs, p->flags);
  }
  nc_out_write(o, " : (", 4);
  for (uint32_t i = 0; i < op->n_operands; i++) {
    if (i)
      nc_out_write(o, ", ", 2);
    nc_value *v = op->operands[i].value;
    if (v)
      nc_out_type(o, v->type);
    else
      nc_out_str(o, "<<NULL TYPE>>");
  }
  nc_out_write(o, ") -> ", 5);
  nc_value *res = nc_op_results(op);
  bool paren = op->n_results != 1 || res[0].type->kind == NC_TYPE_FUNCTION;
  if (paren)
    nc_out_char(o, '(');
  for (uint32_t i = 0; i < op->n_results; i++) {
    if (i)
      nc_out_write(o, ", ", 2);
    nc_out_type(o, res[i].type);
  }
  if (paren)
    nc_out_char(o, ')');
}

static const char *default_dialect(nc_asm_printer *p)
{
  for (size_t i = p->n_defaults; i-- > 0;)
    if (p->defaults[i])
      return p->defaults[i];
  return NULL;
}

static void print_custom_name(nc_asm_printer *p, nc_op *op)
{
  const nc_ident *name = op->info->name;
  const char *dd = default_dialect(p);
  const char *dot = memchr(name->str, '.', name->len);
  size_t dl = dot ? (size_t)(dot - name->str) : 0;
  if (dot && ((dd && strlen(dd) == dl && !memcmp(dd, name->str, dl)) || (dl == 7 && !memcmp(name->str, "builtin", 7))))
    nc_out_write(p->o, dot + 1, name->len - dl - 1);
  else
    nc_out_write(p->o, name->str, name->len);
}

static void print_op(nc_asm_printer *p, nc_op *op)
{
  nc_out *o = p->o;
  print_indent(p);
  if (op->n_results) {
    nc_out_char(o, '%');
    nc_out_u64(o, nc_op_results(op)->print_id);
    if (op->n_results > 1) {
      nc_out_char(o, ':');
      nc_out_u64(o, op->n_results);
    }
    nc_out_write(o, " = ", 3);
  }
  const nc_op_def *def = op->info->def;
  if (!p->flags->generic && def && (def->print || (def->assembly_format && nc_format_ok(op->info)))) {
    print_custom_name(p, op);
    const char **slot = (p->n_defaults == p->cap_defaults)
                          ? (p->cap_defaults = p->cap_defaults ? p->cap_defaults * 2 : 8,
                             p->defaults = nc_xrealloc(p->defaults, p->cap_defaults * sizeof *p->defaults),
                             &p->defaults[p->n_defaults])
                          : &p->defaults[p->n_defaults];
    *slot = def->default_dialect;
    p->n_defaults++;
    if (def->print)
      def->print(p, op);
    else
      nc_format_print_op(p, op, op->info);
    p->n_defaults--;
  } else {
    print_generic(p, op);
  }
  nc_asm_print_optional_location(p, op->loc);
  nc_out_char(o, '\n');
}

/* --- resources ---------------------------------------------------------------------------------------------- */

typedef struct res_set {
  nc_resource **items;
  size_t n, cap;
} res_set;

static void collect_attr(res_set *s, const nc_attr *a)
{
  if (!a)
    return;
  switch (a->kind) {
  case NC_ATTR_DENSE_RESOURCE:
    for (size_t i = 0; i < s->n; i++)
      if (s->items[i] == a->res)
        return;
    if (s->n == s->cap) {
      s->cap = s->cap ? s->cap * 2 : 8;
      s->items = nc_xrealloc(s->items, s->cap * sizeof *s->items);
    }
    s->items[s->n++] = a->res;
    break;
  case NC_ATTR_ARRAY:
    for (size_t i = 0; i < a->array.n; i++)
      collect_attr(s, a->array.elts[i]);
    break;
  case NC_ATTR_DICTIONARY:
    for (size_t i = 0; i < a->dict.n; i++)
      collect_attr(s, a->dict.entries[i].value);
    break;
  default: break;
  }
}

static nc_walk_result collect_op(nc_op *op, void *user)
{
  collect_attr(user, op->props);
  collect_attr(user, op->attrs);
  return NC_WALK_ADVANCE;
}

static void print_resources(nc_asm_printer *p, nc_op *root)
{
  if (!p->ctx->resources.count)
    return; /* nothing to look for: skip walking every attribute */
  res_set s = {0};
  nc_op_walk(root, NC_WALK_PRE_ORDER, collect_op, &s);
  size_t n_data = 0;
  for (size_t i = 0; i < s.n; i++)
    n_data += s.items[i]->data != NULL;
  if (n_data) {
    nc_out *o = p->o;
    nc_out_str(o, "\n{-#\n  dialect_resources: {\n    builtin: {\n");
    size_t k = 0;
    for (size_t i = 0; i < s.n; i++) {
      nc_resource *r = s.items[i];
      if (!r->data)
        continue;
      nc_out_str(o, "      ");
      nc_out_keyword_or_string(o, r->name->str, r->name->len);
      nc_out_str(o, ": \"0x");
      unsigned char align[4] = {(unsigned char)r->alignment, (unsigned char)(r->alignment >> 8),
                                (unsigned char)(r->alignment >> 16), (unsigned char)(r->alignment >> 24)};
      nc_out_hex(o, align, 4);
      nc_out_hex(o, r->data, r->size);
      nc_out_str(o, ++k < n_data ? "\",\n" : "\"\n");
    }
    nc_out_str(o, "    }\n  }\n#-}\n");
  }
  free(s.items);
}

/* --- entry points ---------------------------------------------------------------------------------------------- */

static nc_op *numbering_root(nc_op *op)
{
  for (nc_op *a = op; a; a = nc_op_get_parent_op(a))
    if (a->info->traits & NC_TRAIT_ISOLATED_FROM_ABOVE)
      return a;
  nc_op *top = op;
  while (nc_op_get_parent_op(top))
    top = nc_op_get_parent_op(top);
  return top;
}

/* A detached top-level op whose own operands come from elsewhere. */
static bool has_outside_uses(const nc_op *root)
{
  for (uint32_t i = 0; i < root->n_operands; i++)
    if (root->operands[i].value)
      return true;
  return false;
}

static void print_to(nc_op *op, nc_out *o, const nc_print_flags *flags)
{
  nc_print_flags defaults = {0};
  nc_asm_printer p = {.o = o, .flags = flags ? flags : &defaults, .ctx = op->info->ctx};
  nc_op *root = numbering_root(op);
  p.root = root;
  /* only a top-level op (no parent, no block) can skip the outside check; a
   * nested or detached op may use values it does not define */
  p.check_scope = nc_op_get_parent_op(root) != NULL || root->block != NULL || root != op || has_outside_uses(root);
  number_from(root);
  /* the default dialects of the enclosing ops apply to a nested print too */
  size_t depth = 0;
  for (nc_op *a = nc_op_get_parent_op(op); a; a = nc_op_get_parent_op(a))
    depth++;
  if (depth) {
    p.defaults = nc_xcalloc(depth, sizeof *p.defaults);
    p.cap_defaults = p.n_defaults = depth;
    size_t i = depth;
    for (nc_op *a = nc_op_get_parent_op(op); a; a = nc_op_get_parent_op(a))
      p.defaults[--i] = a->info->def ? a->info->def->default_dialect : NULL;
  }
  print_op(&p, op);
  bool top = !nc_op_get_parent_op(op);
  if (p.n_aliases) {
    for (size_t i = 0; i < p.n_aliases; i++) {
      print_alias_name(o, (uint32_t)i);
      nc_out_str(o, " = ");
      print_loc_inline(&p, (nc_location){p.alias_order[i]});
      nc_out_char(o, '\n');
    }
  }
  if (top)
    print_resources(&p, op);
  free(p.defaults);
  free(p.alias_keys);
  free(p.alias_vals);
  free(p.alias_order);
}

void nc_op_print(nc_op *op, FILE *out, const nc_print_flags *flags)
{
  nc_out o = {nc_xmalloc(1 << 16), 0, 1 << 16, out};
  print_to(op, &o, flags);
  nc_out_flush(&o);
  free(o.buf);
}

char *nc_op_print_to_string(nc_op *op, const nc_print_flags *flags, size_t *len)
{
  nc_out o = {0};
  print_to(op, &o, flags);
  if (len)
    *len = o.len;
  nc_out_char(&o, 0);
  return o.buf;
}

/* --- custom syntax printer API ---------------------------------------------------------------------------------- */

/* A dialect attribute's or type's print hook gets a printer with no op
 * state: it prints types, attributes and text only. */
void nc_out_dialect_storage(nc_out *o, const nc_print_flags *flags, const nc_dialect_storage_def *def,
                            const void *storage)
{
  static const nc_print_flags defaults;
  nc_asm_printer p;
  memset(&p, 0, sizeof p);
  p.o = o;
  p.flags = flags ? flags : &defaults;
  if (def->print)
    def->print(&p, storage, def->user_data);
  else if (def->params)
    nc_dialect_params_print(&p, def->params, def->n_params, storage);
}

void nc_asm_print(nc_asm_printer *p, const char *s) { nc_out_str(p->o, s); }
void nc_asm_printn(nc_asm_printer *p, const char *s, size_t n) { nc_out_write(p->o, s, n); }

void nc_asm_printf(nc_asm_printer *p, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  nc_out_vprintf(p->o, fmt, ap);
  va_end(ap);
}

void nc_asm_print_type(nc_asm_printer *p, const nc_type *t) { nc_out_type(p->o, t); }
void nc_asm_print_attr(nc_asm_printer *p, const nc_attr *a) { nc_out_attr(p->o, a, p->flags); }
void nc_asm_print_attr_without_type(nc_asm_printer *p, const nc_attr *a) { nc_out_attr_value(p->o, a, p->flags); }
void nc_asm_print_operand(nc_asm_printer *p, const nc_value *v) { print_value_name(p, v); }

void nc_asm_print_argument(nc_asm_printer *p, const nc_value *v, nc_attr *attrs)
{
  print_value_name(p, v);
  nc_out_write(p->o, ": ", 2);
  nc_out_type(p->o, v->type);
  if (attrs && attrs->kind == NC_ATTR_DICTIONARY && attrs->dict.n) {
    nc_out_char(p->o, ' ');
    nc_out_attr(p->o, attrs, p->flags);
  }
  if (v->bits & NC_VALUE_ARG)
    nc_asm_print_optional_location(p, ((const nc_block_arg *)v)->loc);
}

void nc_asm_print_successor(nc_asm_printer *p, const nc_block *b)
{
  nc_out_str(p->o, "^bb");
  nc_out_u64(p->o, b ? b->print_id : 0);
}

void nc_asm_print_key(nc_asm_printer *p, const char *str, size_t len);
void nc_asm_print_key(nc_asm_printer *p, const char *str, size_t len) { nc_out_keyword_or_string(p->o, str, len); }

void nc_asm_print_symbol_name(nc_asm_printer *p, const char *name, size_t len) { nc_out_symbol(p->o, name, len); }
void nc_asm_print_string(nc_asm_printer *p, const char *s, size_t len) { nc_out_string_literal(p->o, s, len); }

static bool elided(const nc_ident *name, size_t n, const char *const *names)
{
  for (size_t i = 0; i < n; i++)
    if (strlen(names[i]) == name->len && !memcmp(names[i], name->str, name->len))
      return true;
  return false;
}

static void print_dict_filtered(nc_asm_printer *p, nc_attr *dict, size_t n_elided, const char *const *names,
                                bool keyword)
{
  if (!dict || dict->kind != NC_ATTR_DICTIONARY)
    return;
  size_t kept = 0;
  for (size_t i = 0; i < dict->dict.n; i++)
    kept += !elided(dict->dict.entries[i].name, n_elided, names);
  if (!kept)
    return;
  nc_out *o = p->o;
  nc_out_str(o, keyword ? " attributes {" : " {");
  bool first = true;
  for (size_t i = 0; i < dict->dict.n; i++) {
    const nc_named_attr *e = &dict->dict.entries[i];
    if (elided(e->name, n_elided, names))
      continue;
    if (!first)
      nc_out_write(o, ", ", 2);
    first = false;
    nc_out_keyword_or_string(o, e->name->str, e->name->len);
    if (e->value->kind != NC_ATTR_UNIT) {
      nc_out_write(o, " = ", 3);
      nc_out_attr(o, e->value, p->flags);
    }
  }
  nc_out_char(o, '}');
}

void nc_asm_print_optional_attr_dict(nc_asm_printer *p, nc_attr *dict, size_t n, const char *const *names)
{
  print_dict_filtered(p, dict, n, names, false);
}

void nc_asm_print_optional_attr_dict_with_keyword(nc_asm_printer *p, nc_attr *dict, size_t n, const char *const *names)
{
  print_dict_filtered(p, dict, n, names, true);
}

void nc_asm_print_region(nc_asm_printer *p, nc_region *r, bool print_entry_args, bool print_empty_block)
{
  if (p->flags->skip_regions) {
    nc_out_str(p->o, "{...}");
    return;
  }
  print_region(p, r, print_entry_args, print_empty_block);
}

const nc_print_flags *nc_asm_printer_get_flags(nc_asm_printer *p) { return p->flags; }
