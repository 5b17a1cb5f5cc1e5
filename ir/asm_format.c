/* asm_format.c: the declarative assembly format engine.
 *
 * An op definition's format string, e.g.
 *   "$lhs `,` $rhs attr-dict `:` type($result)"
 * is compiled once into a list of elements; the same list drives parsing
 * and printing, so an op's custom syntax is declared, never hand-written.
 * Supported: literals, $operand/$attr/$region/$successor variables,
 * attr-dict, attr-dict-with-keyword, type(...), functional-type(..., ...),
 * operands, results (in type directives), regions, successors, and optional
 * groups `(...)?` with a `^` anchor. Types a format does not spell are
 * inferred from SameOperandsAndResultType / SameTypeOperands or the op's
 * infer_types hook.
 */
#include "parser.h"

#include <stdlib.h>
#include <string.h>

enum { F_LIT, F_OPERAND, F_ATTR, F_REGION, F_SUCC, F_ATTR_DICT, F_ATTR_DICT_KW, F_TYPE, F_FUNC_TYPE, F_OPERANDS,
       F_REGIONS, F_SUCCS, F_GROUP };
enum { TT_OPERAND, TT_RESULT, TT_ALL_OPERANDS, TT_ALL_RESULTS };

typedef struct target {
  int kind, index;
} target;

typedef struct felem felem;
struct felem {
  int kind;
  char lit[16];
  int index;
  target t1, t2;
  felem *children;
  int n_children;
  int anchor; /* index into children */
  bool is_anchor;
};

typedef struct format {
  felem *elems;
  int n;
  bool *attr_in_format;
} format;

/* --- compiling format strings ---------------------------------------------------------------------- */

typedef struct fcomp {
  const nc_op_def *def;
  const char *s;
  char *err;
  size_t errlen;
  bool failed;
} fcomp;

static bool ferr(fcomp *c, const char *msg)
{
  if (!c->failed)
    snprintf(c->err, c->errlen, "bad assembly format for '%s': %s (at \"%.20s\")", c->def->name, msg, c->s);
  c->failed = true;
  return false;
}

static void skip_ws(fcomp *c)
{
  while (*c->s == ' ' || *c->s == '\n' || *c->s == '\t')
    c->s++;
}

static bool word(fcomp *c, const char *w)
{
  size_t n = strlen(w);
  if (strncmp(c->s, w, n))
    return false;
  char next = c->s[n];
  if ((next >= 'a' && next <= 'z') || next == '-' || next == '_')
    return false;
  c->s += n;
  return true;
}

static int find_value(const nc_value_def *defs, size_t n, const char *name, size_t len)
{
  for (size_t i = 0; i < n; i++)
    if (strlen(defs[i].name) == len && !strncmp(defs[i].name, name, len))
      return (int)i;
  return -1;
}

static bool parse_var_name(fcomp *c, const char **name, size_t *len)
{
  if (*c->s != '$')
    return ferr(c, "expected '$'");
  c->s++;
  *name = c->s;
  while ((*c->s >= 'a' && *c->s <= 'z') || (*c->s >= 'A' && *c->s <= 'Z') || (*c->s >= '0' && *c->s <= '9') ||
         *c->s == '_')
    c->s++;
  *len = (size_t)(c->s - *name);
  return *len ? true : ferr(c, "expected a variable name");
}

static bool parse_target(fcomp *c, target *t)
{
  skip_ws(c);
  if (word(c, "operands")) {
    t->kind = TT_ALL_OPERANDS;
    return true;
  }
  if (word(c, "results")) {
    t->kind = TT_ALL_RESULTS;
    return true;
  }
  const char *name;
  size_t len;
  if (!parse_var_name(c, &name, &len))
    return false;
  int i = find_value(c->def->operands, c->def->n_operands, name, len);
  if (i >= 0) {
    t->kind = TT_OPERAND;
    t->index = i;
    return true;
  }
  i = find_value(c->def->results, c->def->n_results, name, len);
  if (i >= 0) {
    t->kind = TT_RESULT;
    t->index = i;
    return true;
  }
  return ferr(c, "type directive refers to an unknown operand or result");
}

static bool parse_elems(fcomp *c, felem **out, int *n, bool in_group);

static bool parse_elem(fcomp *c, felem *e)
{
  memset(e, 0, sizeof *e);
  skip_ws(c);
  const nc_op_def *d = c->def;
  if (*c->s == '`') {
    const char *start = ++c->s;
    while (*c->s && *c->s != '`')
      c->s++;
    if (!*c->s)
      return ferr(c, "unterminated literal");
    size_t len = (size_t)(c->s - start);
    c->s++;
    if (len >= sizeof e->lit)
      return ferr(c, "literal too long");
    e->kind = F_LIT;
    memcpy(e->lit, start, len);
    e->lit[len] = 0;
    return true;
  }
  if (*c->s == '$') {
    const char *name;
    size_t len;
    if (!parse_var_name(c, &name, &len))
      return false;
    int i;
    e->kind = F_LIT; /* "not found yet" */
    if ((i = find_value(d->operands, d->n_operands, name, len)) >= 0)
      e->kind = F_OPERAND;
    if (e->kind != F_OPERAND) {
      for (size_t k = 0; k < d->n_attrs; k++)
        if (strlen(d->attrs[k].name) == len && !strncmp(d->attrs[k].name, name, len)) {
          e->kind = F_ATTR;
          i = (int)k;
        }
    }
    if (e->kind != F_OPERAND && e->kind != F_ATTR) {
      for (size_t k = 0; k < d->n_regions; k++)
        if (strlen(d->regions[k].name) == len && !strncmp(d->regions[k].name, name, len)) {
          e->kind = F_REGION;
          i = (int)k;
        }
      for (size_t k = 0; k < d->n_successors; k++)
        if (strlen(d->successors[k].name) == len && !strncmp(d->successors[k].name, name, len)) {
          e->kind = F_SUCC;
          i = (int)k;
        }
    }
    if (i < 0 || e->kind == F_LIT)
      return ferr(c, "unknown variable");
    e->index = i;
    if (*c->s == '^') {
      c->s++;
      e->is_anchor = true;
    }
    return true;
  }
  if (*c->s == '(') {
    c->s++;
    e->kind = F_GROUP;
    if (!parse_elems(c, &e->children, &e->n_children, true))
      return false;
    skip_ws(c);
    if (*c->s != ')')
      return ferr(c, "expected ')' to end an optional group");
    c->s++;
    if (*c->s != '?')
      return ferr(c, "expected '?' after an optional group");
    c->s++;
    e->anchor = -1;
    for (int k = 0; k < e->n_children; k++)
      if (e->children[k].is_anchor)
        e->anchor = k;
    if (e->anchor < 0)
      return ferr(c, "optional group has no '^' anchor");
    if (!e->n_children || e->children[0].kind == F_ATTR_DICT || e->children[0].kind == F_GROUP)
      return ferr(c, "optional group must start with a literal, variable or type");
    return true;
  }
  if (word(c, "attr-dict-with-keyword")) {
    e->kind = F_ATTR_DICT_KW;
    return true;
  }
  if (word(c, "attr-dict")) {
    e->kind = F_ATTR_DICT;
    return true;
  }
  if (word(c, "functional-type")) {
    e->kind = F_FUNC_TYPE;
    skip_ws(c);
    if (*c->s++ != '(' || !parse_target(c, &e->t1))
      return ferr(c, "expected '(' target");
    skip_ws(c);
    if (*c->s++ != ',' || !parse_target(c, &e->t2))
      return ferr(c, "expected ',' target");
    skip_ws(c);
    if (*c->s++ != ')')
      return ferr(c, "expected ')'");
    return true;
  }
  if (word(c, "type")) {
    e->kind = F_TYPE;
    skip_ws(c);
    if (*c->s++ != '(' || !parse_target(c, &e->t1))
      return ferr(c, "expected '(' target");
    skip_ws(c);
    if (*c->s++ != ')')
      return ferr(c, "expected ')'");
    if (*c->s == '^') {
      c->s++;
      e->is_anchor = true;
    }
    return true;
  }
  if (word(c, "operands")) {
    e->kind = F_OPERANDS;
    return true;
  }
  if (word(c, "regions")) {
    e->kind = F_REGIONS;
    return true;
  }
  if (word(c, "successors")) {
    e->kind = F_SUCCS;
    return true;
  }
  return ferr(c, "unknown directive");
}

static bool parse_elems(fcomp *c, felem **out, int *n, bool in_group)
{
  int cap = 0;
  *out = NULL;
  *n = 0;
  for (;;) {
    skip_ws(c);
    if (!*c->s || (in_group && *c->s == ')'))
      return true;
    if (*n == cap) {
      cap = cap ? cap * 2 : 8;
      *out = nc_xrealloc(*out, (size_t)cap * sizeof **out);
    }
    if (!parse_elem(c, &(*out)[*n]))
      return false;
    (*n)++;
  }
}

static void free_elems(felem *e, int n)
{
  for (int i = 0; i < n; i++)
    if (e[i].kind == F_GROUP)
      free_elems(e[i].children, e[i].n_children);
  free(e);
}

void nc_format_destroy(void *f)
{
  format *fm = f;
  free_elems(fm->elems, fm->n);
  free(fm->attr_in_format);
  free(fm);
}

static void mark_attrs(format *f, const felem *e, int n)
{
  for (int i = 0; i < n; i++) {
    if (e[i].kind == F_ATTR)
      f->attr_in_format[e[i].index] = true;
    if (e[i].kind == F_GROUP)
      mark_attrs(f, e[i].children, e[i].n_children);
  }
}

void *nc_format_compile(nc_context *ctx, const nc_op_def *def, char *err, size_t errlen)
{
  (void)ctx;
  fcomp c = {def, def->assembly_format, err, errlen, false};
  format *f = nc_xcalloc(1, sizeof *f);
  f->attr_in_format = nc_xcalloc(def->n_attrs + 1, sizeof(bool));
  if (!parse_elems(&c, &f->elems, &f->n, false)) {
    nc_format_destroy(f);
    return NULL;
  }
  mark_attrs(f, f->elems, f->n);
  return f;
}

static format *get_format(nc_op_info *info)
{
  if (info->format || info->format_failed)
    return info->format;
  nc_context *ctx = info->ctx;
  pthread_mutex_lock(&ctx->lock);
  if (!info->format && !info->format_failed) {
    char err[256];
    info->format = nc_format_compile(ctx, info->def, err, sizeof err);
    if (!info->format) {
      info->format_failed = true;
      fprintf(stderr, "nc: %s\n", err);
    }
  }
  pthread_mutex_unlock(&ctx->lock);
  return info->format;
}

/* --- parsing ------------------------------------------------------------------------------------- */

typedef struct tlist {
  nc_type **v;
  size_t n, cap;
  bool set;
} tlist;

typedef struct fstate {
  nc_asm_parser *p;
  nc_op_builder *b;
  const nc_op_def *def;
  nc_op_info *info;
  struct { nc_asm_operand *v; size_t n, cap; } *orefs; /* per operand group */
  struct { nc_asm_operand *v; size_t n, cap; } all_refs;
  bool used_all_operands;
  tlist *otypes, *rtypes, all_otypes, all_rtypes;
  nc_attr **attrs;
  nc_region **regions;
  nc_block **succs;
  size_t n_succs, cap_succs;
} fstate;

static void push_type(tlist *l, nc_type *t)
{
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 4;
    l->v = nc_xrealloc(l->v, l->cap * sizeof *l->v);
  }
  l->v[l->n++] = t;
}

static bool lit_is_keyword(const char *lit) { return (lit[0] >= 'a' && lit[0] <= 'z') || (lit[0] >= 'A' && lit[0] <= 'Z') || lit[0] == '_'; }

static bool lit_present(fstate *s, const char *lit)
{
  if (!lit[0])
    return true;
  if (lit_is_keyword(lit))
    return tok_is_kw(s->p, lit);
  nc_asm_parser *p = s->p;
  static const struct { const char *s; tok_kind k; } map[] = {
    {"(", T_LPAREN}, {")", T_RPAREN}, {"{", T_LBRACE}, {"}", T_RBRACE}, {"[", T_LSQUARE}, {"]", T_RSQUARE},
    {"<", T_LESS}, {">", T_GREATER}, {",", T_COMMA}, {":", T_COLON}, {"=", T_EQUAL}, {"->", T_ARROW},
    {"?", T_QUESTION}, {"*", T_STAR}, {"+", T_PLUS}, {"-", T_MINUS}, {"...", T_ELLIPSIS}, {"|", T_BAR}};
  for (size_t i = 0; i < NC_COUNTOF(map); i++)
    if (!strcmp(map[i].s, lit))
      return p->tok.kind == map[i].k;
  return false;
}

static bool parse_lit(fstate *s, const char *lit)
{
  if (!lit[0])
    return true;
  if (lit_is_keyword(lit))
    return nc_asm_parse_keyword(s->p, lit);
  return nc_asm_parse_punct(s->p, lit);
}

static bool parse_operand_group(fstate *s, int g)
{
  nc_arity a = s->def->operands[g].arity;
  bool present;
  nc_asm_operand r;
  if (a == NC_ARITY_ONE) {
    if (!nc_asm_parse_operand(s->p, &r))
      return false;
  } else {
    if (!nc_asm_parse_optional_operand(s->p, &r, &present))
      return false;
    if (!present)
      return true;
  }
  for (;;) {
    if (s->orefs[g].n == s->orefs[g].cap) {
      s->orefs[g].cap = s->orefs[g].cap ? s->orefs[g].cap * 2 : 4;
      s->orefs[g].v = nc_xrealloc(s->orefs[g].v, s->orefs[g].cap * sizeof r);
    }
    s->orefs[g].v[s->orefs[g].n++] = r;
    if (a != NC_ARITY_VARIADIC || s->p->tok.kind != T_COMMA)
      return true;
    /* a comma continues the list only if an operand follows */
    const char *save = s->p->tok.start;
    lex_next(s->p);
    if (s->p->tok.kind != T_PERCENT) {
      lex_reset(s->p, save);
      return true;
    }
    if (!nc_asm_parse_operand(s->p, &r))
      return false;
  }
}

static bool parse_attr_elem(fstate *s, int i)
{
  const nc_attr_def *ad = &s->def->attrs[i];
  const nc_attr_constraint *c = ad->constraint;
  nc_asm_parser *p = s->p;
  nc_attr *a = NULL;
  nc_attr_syntax syn = c ? c->syntax : NC_ATTR_SYNTAX_FULL;
  switch (syn) {
  case NC_ATTR_SYNTAX_IMPLIED_TYPE:
    if (!nc_asm_parse_attr(p, c->implied_type(p->ctx), &a))
      return false;
    break;
  case NC_ATTR_SYNTAX_ENUM: {
    const char *kw;
    size_t len;
    const char *at = p->tok.start;
    if (!nc_asm_parse_optional_any_keyword(p, &kw, &len))
      return perr(p, "expected one of the cases of '%s'", ad->name);
    for (size_t k = 0; k < c->n_cases; k++)
      if (strlen(c->cases[k].name) == len && !memcmp(c->cases[k].name, kw, len))
        a = nc_attr_integer(p->ctx, p->ctx->int_types[NC_SIGNLESS][64], c->cases[k].value);
    if (!a)
      return perr_at(p, at, "'%.*s' is not a valid case of '%s'", (int)len, kw, ad->name);
    break;
  }
  case NC_ATTR_SYNTAX_SYMBOL_NAME:
    if (!nc_asm_parse_symbol_name(p, &a))
      return false;
    break;
  case NC_ATTR_SYNTAX_TYPE: {
    nc_type *t;
    if (!nc_asm_parse_type(p, &t))
      return false;
    a = nc_attr_type(p->ctx, t);
    break;
  }
  case NC_ATTR_SYNTAX_STRING:
    if (!nc_asm_parse_optional_string(p, &a))
      return p->failed ? false : perr(p, "expected string for '%s'", ad->name);
    break;
  default:
    if (!nc_asm_parse_attr(p, NULL, &a))
      return false;
  }
  s->attrs[i] = a;
  return true;
}

static bool attr_present(fstate *s, int i)
{
  const nc_attr_constraint *c = s->def->attrs[i].constraint;
  nc_asm_parser *p = s->p;
  switch (c ? c->syntax : NC_ATTR_SYNTAX_FULL) {
  case NC_ATTR_SYNTAX_SYMBOL_NAME: return p->tok.kind == T_AT;
  case NC_ATTR_SYNTAX_STRING: return p->tok.kind == T_STRING;
  case NC_ATTR_SYNTAX_TYPE: return at_type_start(p);
  case NC_ATTR_SYNTAX_ENUM:
    for (size_t k = 0; k < c->n_cases; k++)
      if (tok_is_kw(p, c->cases[k].name))
        return true;
    return false;
  default: return at_attr_start(p) && p->tok.kind != T_LBRACE;
  }
}

static tlist *target_list(fstate *s, const target *t)
{
  switch (t->kind) {
  case TT_OPERAND: return &s->otypes[t->index];
  case TT_RESULT: return &s->rtypes[t->index];
  case TT_ALL_OPERANDS: return &s->all_otypes;
  default: return &s->all_rtypes;
  }
}

static bool target_is_single(fstate *s, const target *t)
{
  if (t->kind == TT_OPERAND)
    return s->def->operands[t->index].arity == NC_ARITY_ONE;
  if (t->kind == TT_RESULT)
    return s->def->results[t->index].arity == NC_ARITY_ONE;
  return false;
}

static bool parse_type_into(fstate *s, const target *t)
{
  tlist *l = target_list(s, t);
  l->set = true;
  if (target_is_single(s, t)) {
    nc_type *ty;
    if (!nc_asm_parse_type(s->p, &ty))
      return false;
    push_type(l, ty);
    return true;
  }
  /* a (possibly empty) comma-separated list */
  if (!at_type_start(s->p))
    return true;
  do {
    nc_type *ty;
    if (!nc_asm_parse_type(s->p, &ty))
      return false;
    push_type(l, ty);
  } while (nc_asm_parse_optional_punct(s->p, ","));
  return true;
}

static bool parse_elems_run(fstate *s, const felem *e, int n);

static bool elem_present(fstate *s, const felem *e)
{
  nc_asm_parser *p = s->p;
  switch (e->kind) {
  case F_LIT: return lit_present(s, e->lit);
  case F_OPERAND: return p->tok.kind == T_PERCENT;
  case F_ATTR: return attr_present(s, e->index);
  case F_REGION: return p->tok.kind == T_LBRACE;
  case F_SUCC: return p->tok.kind == T_CARET;
  case F_TYPE: case F_FUNC_TYPE: return at_type_start(p);
  case F_OPERANDS: return p->tok.kind == T_PERCENT;
  default: return false;
  }
}

static bool parse_region_elem(fstate *s, int i)
{
  nc_region *r = s->regions[i];
  bool isolated = s->info->traits & NC_TRAIT_ISOLATED_FROM_ABOVE;
  if (!nc_asm_parse_region(s->p, r, 0, NULL, isolated))
    return false;
  if (!r->first && (s->def->regions[i].single_block || (s->info->traits & NC_TRAIT_NO_TERMINATOR)))
    nc_region_append_block(r, nc_block_create(s->p->ctx));
  return true;
}

static bool parse_elems_run(fstate *s, const felem *e, int n)
{
  for (int i = 0; i < n; i++) {
    const felem *x = &e[i];
    switch (x->kind) {
    case F_LIT:
      if (!parse_lit(s, x->lit))
        return false;
      break;
    case F_OPERAND:
      if (!parse_operand_group(s, x->index))
        return false;
      break;
    case F_OPERANDS: {
      s->used_all_operands = true;
      bool present;
      nc_asm_operand r;
      if (!nc_asm_parse_optional_operand(s->p, &r, &present))
        return false;
      while (present) {
        if (s->all_refs.n == s->all_refs.cap) {
          s->all_refs.cap = s->all_refs.cap ? s->all_refs.cap * 2 : 4;
          s->all_refs.v = nc_xrealloc(s->all_refs.v, s->all_refs.cap * sizeof r);
        }
        s->all_refs.v[s->all_refs.n++] = r;
        if (!nc_asm_parse_optional_punct(s->p, ","))
          break;
        if (!nc_asm_parse_operand(s->p, &r))
          return false;
      }
      break;
    }
    case F_ATTR:
      if (!parse_attr_elem(s, x->index))
        return false;
      break;
    case F_REGION:
      if (!parse_region_elem(s, x->index))
        return false;
      break;
    case F_REGIONS:
      for (size_t k = 0; k < s->def->n_regions; k++) {
        if (k && !nc_asm_parse_punct(s->p, ","))
          return false;
        if (!parse_region_elem(s, (int)k))
          return false;
      }
      break;
    case F_SUCC: case F_SUCCS: {
      bool variadic = x->kind == F_SUCCS || s->def->successors[x->index].variadic;
      nc_block *b;
      bool present;
      if (!nc_asm_parse_optional_successor(s->p, &b, &present))
        return false;
      if (!present && !variadic)
        return perr(s->p, "expected block name");
      while (present) {
        if (s->n_succs == s->cap_succs) {
          s->cap_succs = s->cap_succs ? s->cap_succs * 2 : 4;
          s->succs = nc_xrealloc(s->succs, s->cap_succs * sizeof *s->succs);
        }
        s->succs[s->n_succs++] = b;
        if (!variadic || !nc_asm_parse_optional_punct(s->p, ","))
          break;
        if (!nc_asm_parse_successor(s->p, &b))
          return false;
      }
      break;
    }
    case F_ATTR_DICT: case F_ATTR_DICT_KW: {
      nc_attr *d;
      if (!(x->kind == F_ATTR_DICT ? nc_asm_parse_optional_attr_dict(s->p, &d)
                                   : nc_asm_parse_optional_attr_dict_with_keyword(s->p, &d)))
        return false;
      nc_op_builder_merge_attr_dict(s->b, d);
      break;
    }
    case F_TYPE:
      if (!parse_type_into(s, &x->t1))
        return false;
      break;
    case F_FUNC_TYPE: {
      nc_type *ft;
      const char *at = s->p->tok.start;
      if (!nc_asm_parse_type(s->p, &ft))
        return false;
      if (ft->kind != NC_TYPE_FUNCTION)
        return perr_at(s->p, at, "expected function type");
      tlist *in = target_list(s, &x->t1), *out = target_list(s, &x->t2);
      in->set = out->set = true;
      for (uint32_t k = 0; k < ft->func.n_inputs; k++)
        push_type(in, ft->func.types[k]);
      for (uint32_t k = 0; k < ft->func.n_results; k++)
        push_type(out, ft->func.types[ft->func.n_inputs + k]);
      break;
    }
    case F_GROUP:
      if (elem_present(s, &x->children[0])) {
        if (!parse_elems_run(s, x->children, x->n_children))
          return false;
      }
      break;
    }
  }
  return true;
}

/* Splits a flat list into groups by arity (at most one non-single group, or
 * only optional ones, which are filled in order as ONNX's optional inputs). */
static bool split_counts(const nc_value_def *defs, size_t n, size_t total, size_t *counts)
{
  size_t fixed = 0, var = 0, opt = 0;
  for (size_t i = 0; i < n; i++) {
    if (defs[i].arity == NC_ARITY_ONE)
      fixed++;
    else
      var++;
    opt += defs[i].arity == NC_ARITY_OPTIONAL;
  }
  if (var > 1 && opt == var && total >= fixed && total - fixed <= var) {
    size_t extra = total - fixed;
    for (size_t i = 0; i < n; i++)
      counts[i] = defs[i].arity == NC_ARITY_ONE ? 1 : extra ? (extra--, 1) : 0;
    return true;
  }
  if (var > 1 || total < fixed || (var == 0 && total != fixed))
    return false;
  for (size_t i = 0; i < n; i++)
    counts[i] = defs[i].arity == NC_ARITY_ONE ? 1 : total - fixed;
  for (size_t i = 0; i < n; i++)
    if (defs[i].arity == NC_ARITY_OPTIONAL && counts[i] > 1)
      return false;
  return true;
}

bool nc_format_parse_op(nc_asm_parser *p, nc_op_builder *b, nc_op_info *info)
{
  format *f = get_format(info);
  if (!f)
    return perr(p, "op '%s' has an invalid assembly format", info->name->str);
  const nc_op_def *d = info->def;
  size_t no = d->n_operands, nr = d->n_results;
  fstate s = {.p = p, .b = b, .def = d, .info = info};
  s.orefs = nc_xcalloc(no + 1, sizeof *s.orefs);
  s.otypes = nc_xcalloc(no + 1, sizeof *s.otypes);
  s.rtypes = nc_xcalloc(nr + 1, sizeof *s.rtypes);
  s.attrs = nc_xcalloc(d->n_attrs + 1, sizeof *s.attrs);
  s.regions = nc_xcalloc(d->n_regions + 1, sizeof *s.regions);
  for (size_t i = 0; i < d->n_regions; i++)
    s.regions[i] = nc_op_builder_add_region(b);
  bool ok = parse_elems_run(&s, f->elems, f->n);
  size_t *ocounts = nc_xcalloc(no + 1, sizeof *ocounts);
  size_t *rcounts = nc_xcalloc(nr + 1, sizeof *rcounts);
  nc_asm_operand *refs = NULL;
  size_t n_refs = 0;
  nc_type **otys = NULL, **rtys = NULL;
  size_t n_rtys = 0;
  if (!ok)
    goto out;

  /* operand references, flattened in group order */
  if (s.used_all_operands) {
    refs = s.all_refs.v;
    n_refs = s.all_refs.n;
    s.all_refs.v = NULL;
    if (!split_counts(d->operands, no, n_refs, ocounts)) {
      ok = nc_asm_parser_error(p, b->loc, "'%s' got %zu operands, which do not fit its operand groups", d->name,
                               n_refs);
      goto out;
    }
  } else {
    for (size_t g = 0; g < no; g++)
      n_refs += s.orefs[g].n;
    refs = nc_xmalloc((n_refs + 1) * sizeof *refs);
    size_t k = 0;
    for (size_t g = 0; g < no; g++) {
      ocounts[g] = s.orefs[g].n;
      if (s.orefs[g].n)
        memcpy(refs + k, s.orefs[g].v, s.orefs[g].n * sizeof *refs);
      k += s.orefs[g].n;
    }
  }

  /* result types */
  if (s.all_rtypes.set) {
    if (!split_counts(d->results, nr, s.all_rtypes.n, rcounts)) {
      ok = nc_asm_parser_error(p, b->loc, "'%s' got %zu result types, which do not fit its result groups", d->name,
                               s.all_rtypes.n);
      goto out;
    }
    rtys = s.all_rtypes.v;
    n_rtys = s.all_rtypes.n;
    s.all_rtypes.v = NULL;
  } else {
    bool all_set = true;
    for (size_t g = 0; g < nr; g++)
      all_set &= s.rtypes[g].set;
    if (all_set) {
      for (size_t g = 0; g < nr; g++)
        n_rtys += s.rtypes[g].n;
      rtys = nc_xmalloc((n_rtys + 1) * sizeof *rtys);
      size_t k = 0;
      for (size_t g = 0; g < nr; g++) {
        rcounts[g] = s.rtypes[g].n;
        if (d->results[g].arity == NC_ARITY_ONE && rcounts[g] != 1) {
          ok = nc_asm_parser_error(p, b->loc, "expected one type for result '%s'", d->results[g].name);
          goto out;
        }
        if (s.rtypes[g].n)
          memcpy(rtys + k, s.rtypes[g].v, s.rtypes[g].n * sizeof *rtys);
        k += s.rtypes[g].n;
      }
    }
  }

  /* operand types */
  otys = nc_xcalloc(n_refs + 1, sizeof *otys);
  if (s.all_otypes.set) {
    if (s.all_otypes.n != n_refs) {
      ok = nc_asm_parser_error(p, b->loc, "%zu operands present, but expected %zu types", n_refs, s.all_otypes.n);
      goto out;
    }
    if (n_refs)
      memcpy(otys, s.all_otypes.v, n_refs * sizeof *otys);
  } else {
    size_t k = 0;
    nc_type *known = NULL;
    for (size_t g = 0; g < no; g++)
      if (s.otypes[g].set && s.otypes[g].n)
        known = s.otypes[g].v[0];
    if (!known && rtys && n_rtys && (info->traits & NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE))
      known = rtys[0];
    for (size_t g = 0; g < no; g++) {
      if (s.otypes[g].set) {
        if (s.otypes[g].n != ocounts[g]) {
          if (s.otypes[g].n == 1 && ocounts[g] == 0 && d->operands[g].arity == NC_ARITY_OPTIONAL) {
            /* type of an absent optional operand: ignore */
          } else {
            ok = nc_asm_parser_error(p, b->loc, "%zu operands present, but expected %zu types for '%s'", ocounts[g],
                                     s.otypes[g].n, d->operands[g].name);
            goto out;
          }
        }
        for (size_t i = 0; i < ocounts[g]; i++)
          otys[k + i] = s.otypes[g].v[i];
      } else if (known && (info->traits & (NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE | NC_TRAIT_SAME_TYPE_OPERANDS))) {
        for (size_t i = 0; i < ocounts[g]; i++)
          otys[k + i] = known;
      } else if (ocounts[g]) {
        ok = nc_asm_parser_error(p, b->loc, "the assembly format of '%s' does not give the type of operand '%s'",
                                 d->name, d->operands[g].name);
        goto out;
      }
      k += ocounts[g];
    }
  }

  /* inferred result types */
  if (!rtys) {
    size_t n_fixed = 0;
    for (size_t g = 0; g < nr; g++)
      n_fixed += d->results[g].arity == NC_ARITY_ONE;
    rtys = nc_xcalloc(nr + 1, sizeof *rtys);
    n_rtys = n_fixed;
    for (size_t g = 0; g < nr; g++)
      rcounts[g] = d->results[g].arity == NC_ARITY_ONE;
    if (nr && (info->traits & NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE) && n_refs) {
      for (size_t i = 0; i < n_fixed; i++)
        rtys[i] = otys[0];
    } else if (nr && d->infer_types) {
      nc_attr *props = nc_attr_empty_dictionary(p->ctx);
      for (size_t i = 0; i < d->n_attrs; i++)
        if (s.attrs[i])
          props = nc_attr_dict_set(p->ctx, props, nc_ident_get_cstr(p->ctx, d->attrs[i].name), s.attrs[i]);
      if (!d->infer_types(p->ctx, b->loc, n_refs, otys, props, n_fixed, rtys)) {
        ok = nc_asm_parser_error(p, b->loc, "failed to infer the result types of '%s'", d->name);
        goto out;
      }
    } else if (n_fixed) {
      ok = nc_asm_parser_error(p, b->loc, "the assembly format of '%s' does not give its result types", d->name);
      goto out;
    }
  }

  for (size_t i = 0; i < n_refs; i++) {
    nc_value *v;
    if (!nc_asm_resolve_operand(p, &refs[i], otys[i], &v)) {
      ok = false;
      goto out;
    }
    nc_op_builder_add_operands(b, 1, &v);
  }
  nc_op_builder_add_result_types(b, n_rtys, rtys);
  for (size_t i = 0; i < d->n_attrs; i++)
    if (s.attrs[i])
      nc_op_builder_set_attr(b, d->attrs[i].name, s.attrs[i]);
  for (size_t i = 0; i < s.n_succs; i++)
    nc_op_builder_add_successor(b, s.succs[i]);
  if (info->traits & NC_TRAIT_ATTR_SIZED_OPERAND_SEGMENTS) {
    int32_t seg[64];
    for (size_t g = 0; g < no && g < 64; g++)
      seg[g] = (int32_t)ocounts[g];
    nc_op_builder_set_attr(b, "operandSegmentSizes",
                           nc_attr_dense_array(p->ctx, p->ctx->int_types[NC_SIGNLESS][32], no, seg));
  }
  if (info->traits & NC_TRAIT_ATTR_SIZED_RESULT_SEGMENTS) {
    int32_t seg[64];
    for (size_t g = 0; g < nr && g < 64; g++)
      seg[g] = (int32_t)rcounts[g];
    nc_op_builder_set_attr(b, "resultSegmentSizes",
                           nc_attr_dense_array(p->ctx, p->ctx->int_types[NC_SIGNLESS][32], nr, seg));
  }
out:
  for (size_t g = 0; g < no; g++) {
    free(s.orefs[g].v);
    free(s.otypes[g].v);
  }
  for (size_t g = 0; g < nr; g++)
    free(s.rtypes[g].v);
  free(s.orefs);
  free(s.otypes);
  free(s.rtypes);
  free(s.all_refs.v);
  free(s.all_otypes.v);
  free(s.all_rtypes.v);
  free(s.attrs);
  free(s.regions);
  free(s.succs);
  free(ocounts);
  free(rcounts);
  free(refs);
  free(otys);
  free(rtys);
  return ok;
}

/* --- printing ---------------------------------------------------------------------------------------------- */

typedef struct pstate {
  nc_asm_printer *p;
  nc_op *op;
  const nc_op_def *def;
  format *f;
  bool space;      /* emit a space before the next element */
  bool last_punct;
} pstate;

static void group_range(nc_op *op, bool results, size_t g, size_t *start, size_t *count)
{
  if (!(results ? nc_op_get_result_group(op, g, start, count) : nc_op_get_operand_group(op, g, start, count)))
    *start = *count = 0;
}

static bool emit_space_before(const char *lit, bool last_punct)
{
  size_t n = strlen(lit);
  if (n != 1 && strcmp(lit, "->"))
    return true;
  if (last_punct)
    return !strchr(">)}],", lit[0]);
  return !strchr("<>(){}[],", lit[0]);
}

static void print_space(pstate *s)
{
  if (s->space)
    nc_asm_print(s->p, " ");
}

static void print_types_of(pstate *s, const target *t)
{
  nc_op *op = s->op;
  size_t start = 0, count = 0;
  bool results = t->kind == TT_RESULT || t->kind == TT_ALL_RESULTS;
  if (t->kind == TT_OPERAND || t->kind == TT_RESULT)
    group_range(op, results, (size_t)t->index, &start, &count);
  else
    count = results ? nc_op_get_num_results(op) : nc_op_get_num_operands(op);
  for (size_t i = 0; i < count; i++) {
    if (i)
      nc_asm_print(s->p, ", ");
    nc_value *v = results ? nc_op_get_result(op, start + i) : nc_op_get_operand(op, start + i);
    nc_asm_print_type(s->p, nc_value_get_type(v));
  }
}

static size_t target_count(pstate *s, const target *t)
{
  size_t start, count;
  switch (t->kind) {
  case TT_OPERAND: group_range(s->op, false, (size_t)t->index, &start, &count); return count;
  case TT_RESULT: group_range(s->op, true, (size_t)t->index, &start, &count); return count;
  case TT_ALL_OPERANDS: return nc_op_get_num_operands(s->op);
  default: return nc_op_get_num_results(s->op);
  }
}

static bool anchor_present(pstate *s, const felem *e)
{
  nc_op *op = s->op;
  size_t start, count;
  switch (e->kind) {
  case F_OPERAND: group_range(op, false, (size_t)e->index, &start, &count); return count > 0;
  case F_ATTR: return nc_op_get_attr_str(op, s->def->attrs[e->index].name) != NULL;
  case F_REGION: return !nc_region_is_empty(nc_op_get_region(op, (size_t)e->index));
  case F_SUCC: return nc_op_get_num_successors(op) > 0;
  case F_TYPE: return target_count(s, &e->t1) > 0;
  default: return true;
  }
}

static void print_attr_elem(pstate *s, int i)
{
  const nc_attr_def *ad = &s->def->attrs[i];
  nc_attr *a = nc_op_get_attr_str(s->op, ad->name);
  if (!a)
    return;
  const nc_attr_constraint *c = ad->constraint;
  switch (c ? c->syntax : NC_ATTR_SYNTAX_FULL) {
  case NC_ATTR_SYNTAX_IMPLIED_TYPE:
    if (a->type == c->implied_type(nc_op_get_context(s->op)))
      nc_asm_print_attr_without_type(s->p, a);
    else
      nc_asm_print_attr(s->p, a);
    return;
  case NC_ATTR_SYNTAX_ENUM:
    if (a->kind == NC_ATTR_INTEGER)
      for (size_t k = 0; k < c->n_cases; k++)
        if (c->cases[k].value == a->i) {
          nc_asm_print(s->p, c->cases[k].name);
          return;
        }
    nc_asm_print_attr(s->p, a);
    return;
  case NC_ATTR_SYNTAX_SYMBOL_NAME:
    if (a->kind == NC_ATTR_STRING) {
      nc_asm_print_symbol_name(s->p, a->str.s, a->str.len);
      return;
    }
    break;
  case NC_ATTR_SYNTAX_TYPE:
    if (a->kind == NC_ATTR_TYPE) {
      nc_asm_print_type(s->p, a->type);
      return;
    }
    break;
  default:
    break;
  }
  nc_asm_print_attr(s->p, a);
}

void nc_asm_print_key(nc_asm_printer *p, const char *str, size_t len);

static void print_attr_dict(pstate *s, bool keyword)
{
  nc_op *op = s->op;
  nc_attr *props = nc_op_get_props(op), *attrs = nc_op_get_attr_dict(op);
  /* merge the two sorted dictionaries, skipping attributes the format prints */
  size_t np = props && props->kind == NC_ATTR_DICTIONARY ? props->dict.n : 0, na = attrs->dict.n;
  size_t i = 0, j = 0;
  bool first = true;
  while (i < np || j < na) {
    const nc_named_attr *e;
    if (j >= na || (i < np && strcmp(props->dict.entries[i].name->str, attrs->dict.entries[j].name->str) <= 0))
      e = &props->dict.entries[i++];
    else
      e = &attrs->dict.entries[j++];
    bool skip = !strcmp(e->name->str, "operandSegmentSizes") || !strcmp(e->name->str, "resultSegmentSizes");
    for (size_t k = 0; k < s->def->n_attrs && !skip; k++)
      skip = s->f->attr_in_format[k] && !strcmp(s->def->attrs[k].name, e->name->str);
    if (skip)
      continue;
    nc_asm_print(s->p, first ? (keyword ? " attributes {" : " {") : ", ");
    first = false;
    nc_asm_print_key(s->p, e->name->str, e->name->len);
    if (e->value->kind != NC_ATTR_UNIT) {
      nc_asm_print(s->p, " = ");
      nc_asm_print_attr(s->p, e->value);
    }
  }
  if (!first)
    nc_asm_print(s->p, "}");
}

static void print_elems(pstate *s, const felem *e, int n)
{
  nc_op *op = s->op;
  for (int i = 0; i < n; i++) {
    const felem *x = &e[i];
    switch (x->kind) {
    case F_LIT:
      if (!x->lit[0])
        break;
      if (s->space && emit_space_before(x->lit, s->last_punct))
        nc_asm_print(s->p, " ");
      nc_asm_print(s->p, x->lit);
      s->space = strlen(x->lit) != 1 || !strchr("<({[", x->lit[0]);
      s->last_punct = !lit_is_keyword(x->lit);
      break;
    case F_OPERAND: {
      size_t start, count;
      group_range(op, false, (size_t)x->index, &start, &count);
      if (!count)
        break;
      print_space(s);
      for (size_t k = 0; k < count; k++) {
        if (k)
          nc_asm_print(s->p, ", ");
        nc_asm_print_operand(s->p, nc_op_get_operand(op, start + k));
      }
      s->space = true;
      s->last_punct = false;
      break;
    }
    case F_OPERANDS:
      if (nc_op_get_num_operands(op))
        print_space(s);
      for (size_t k = 0; k < nc_op_get_num_operands(op); k++) {
        if (k)
          nc_asm_print(s->p, ", ");
        nc_asm_print_operand(s->p, nc_op_get_operand(op, k));
      }
      s->space = true;
      s->last_punct = false;
      break;
    case F_ATTR:
      if (!nc_op_get_attr_str(op, s->def->attrs[x->index].name))
        break;
      print_space(s);
      print_attr_elem(s, x->index);
      s->space = true;
      s->last_punct = false;
      break;
    case F_REGION: case F_REGIONS:
      for (size_t k = x->kind == F_REGION ? (size_t)x->index : 0;
           k < (x->kind == F_REGION ? (size_t)x->index + 1 : nc_op_get_num_regions(op)); k++) {
        if (x->kind == F_REGIONS && k)
          nc_asm_print(s->p, ",");
        print_space(s);
        nc_asm_print_region(s->p, nc_op_get_region(op, k), true, false);
      }
      s->space = true;
      s->last_punct = false;
      break;
    case F_SUCC: case F_SUCCS:
      print_space(s);
      for (size_t k = 0; k < nc_op_get_num_successors(op); k++) {
        if (k)
          nc_asm_print(s->p, ", ");
        nc_asm_print_successor(s->p, nc_op_get_successor(op, k));
      }
      s->space = true;
      s->last_punct = false;
      break;
    case F_ATTR_DICT: case F_ATTR_DICT_KW:
      print_attr_dict(s, x->kind == F_ATTR_DICT_KW);
      s->space = true;
      s->last_punct = false;
      break;
    case F_TYPE:
      if (!target_count(s, &x->t1) && !target_is_single(&(fstate){.def = s->def}, &x->t1))
        break;
      print_space(s);
      print_types_of(s, &x->t1);
      s->space = true;
      s->last_punct = false;
      break;
    case F_FUNC_TYPE: {
      print_space(s);
      nc_asm_print(s->p, "(");
      print_types_of(s, &x->t1);
      nc_asm_print(s->p, ") -> ");
      size_t nres = target_count(s, &x->t2);
      bool paren = nres != 1;
      if (nres == 1) {
        size_t start = 0, count = 1;
        if (x->t2.kind == TT_RESULT)
          group_range(op, true, (size_t)x->t2.index, &start, &count);
        paren = nc_type_get_kind(nc_value_get_type(nc_op_get_result(op, start))) == NC_TYPE_FUNCTION;
      }
      if (paren)
        nc_asm_print(s->p, "(");
      print_types_of(s, &x->t2);
      if (paren)
        nc_asm_print(s->p, ")");
      s->space = true;
      s->last_punct = false;
      break;
    }
    case F_GROUP:
      if (anchor_present(s, &x->children[x->anchor]))
        print_elems(s, x->children, x->n_children);
      break;
    }
  }
}

bool nc_format_ok(nc_op_info *info);
bool nc_format_ok(nc_op_info *info) { return get_format(info) != NULL; }

void nc_format_print_op(nc_asm_printer *p, nc_op *op, nc_op_info *info)
{
  format *f = get_format(info);
  if (!f)
    return;
  pstate s = {p, op, info->def, f, true, false};
  print_elems(&s, f->elems, f->n);
}
