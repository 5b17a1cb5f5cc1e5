/* parse_api.c: the parser functions offered to custom syntax hooks and the
 * declarative-format engine (nc_asm_parse_*), and string entry points for
 * single types and attributes.
 */
#include "parser.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void nc_parser_init(nc_asm_parser *p, nc_context *ctx, unsigned source_id, size_t start, size_t end);
void nc_parser_fini(nc_asm_parser *p);

nc_context *nc_asm_parser_get_context(nc_asm_parser *p) { return p->ctx; }
nc_location nc_asm_parser_get_loc(nc_asm_parser *p) { return tok_loc(p); }
const nc_op_def *nc_asm_parser_get_op_def(nc_asm_parser *p) { return p->cur_def; }

bool nc_asm_parser_error(nc_asm_parser *p, nc_location loc, const char *fmt, ...)
{
  if (p->failed)
    return false;
  p->failed = true;
  va_list ap;
  va_start(ap, fmt);
  nc_diag_emit(nc_diag_createv(p->ctx, NC_SEV_ERROR, loc, fmt, ap));
  va_end(ap);
  return false;
}

/* The token kind of a punctuation string: a switch on its characters, not a
 * table search (custom syntax asks for `<`, `,` and `>` on every op). */
static bool punct_kind(const char *s, tok_kind *k)
{
  if (!s[0])
    return false;
  if (!s[1]) {
    switch (s[0]) {
    case '(': *k = T_LPAREN; return true;
    case ')': *k = T_RPAREN; return true;
    case '{': *k = T_LBRACE; return true;
    case '}': *k = T_RBRACE; return true;
    case '[': *k = T_LSQUARE; return true;
    case ']': *k = T_RSQUARE; return true;
    case '<': *k = T_LESS; return true;
    case '>': *k = T_GREATER; return true;
    case ',': *k = T_COMMA; return true;
    case ':': *k = T_COLON; return true;
    case '=': *k = T_EQUAL; return true;
    case '?': *k = T_QUESTION; return true;
    case '*': *k = T_STAR; return true;
    case '+': *k = T_PLUS; return true;
    case '-': *k = T_MINUS; return true;
    case '|': *k = T_BAR; return true;
    default: return false;
    }
  }
  if (!strcmp(s, "->")) {
    *k = T_ARROW;
    return true;
  }
  if (!strcmp(s, "...")) {
    *k = T_ELLIPSIS;
    return true;
  }
  return false;
}

bool nc_asm_parse_optional_punct(nc_asm_parser *p, const char *punct)
{
  tok_kind k;
  if (!punct_kind(punct, &k))
    return false;
  return consume(p, k);
}

bool nc_asm_parse_punct(nc_asm_parser *p, const char *punct)
{
  tok_kind k;
  if (!punct_kind(punct, &k))
    return perr(p, "internal: unknown punctuation '%s'", punct);
  if (consume(p, k))
    return true;
  if (p->tok.kind == T_ERROR)
    return false;
  return perr(p, "expected '%s'", punct);
}

bool nc_asm_parse_optional_keyword(nc_asm_parser *p, const char *kw)
{
  if (!tok_is_kw(p, kw))
    return false;
  lex_next(p);
  return true;
}

bool nc_asm_parse_keyword(nc_asm_parser *p, const char *kw)
{
  if (nc_asm_parse_optional_keyword(p, kw))
    return true;
  return perr(p, "expected '%s'", kw);
}

bool nc_asm_parse_optional_any_keyword(nc_asm_parser *p, const char **out, size_t *len)
{
  if (p->tok.kind != T_BARE)
    return false;
  *out = p->tok.start;
  *len = p->tok.len;
  lex_next(p);
  return true;
}

bool nc_asm_parse_optional_string(nc_asm_parser *p, nc_attr **out)
{
  if (p->tok.kind != T_STRING)
    return false;
  size_t len;
  char *s = string_value(p, &p->tok, &len);
  if (!s)
    return false;
  *out = nc_attr_string(p->ctx, s, len);
  free(s);
  lex_next(p);
  return true;
}

bool nc_asm_parse_string(nc_asm_parser *p, nc_attr **out)
{
  if (p->tok.kind != T_STRING)
    return perr(p, "expected string literal");
  return nc_asm_parse_optional_string(p, out);
}

bool nc_asm_parse_float(nc_asm_parser *p, double *out)
{
  const char *start = p->tok.start;
  bool neg = consume(p, T_MINUS);
  token t = p->tok;
  if (t.kind == T_INT) {
    uint64_t v;
    if (!int_value(&t, &v))
      return perr(p, "integer value too large");
    *out = (double)v;
  } else if (t.kind == T_FLOAT) {
    char buf[64], *s = t.len < sizeof buf ? buf : nc_xmalloc(t.len + 1);
    memcpy(s, t.start, t.len);
    s[t.len] = 0;
    *out = strtod(s, NULL);
    if (s != buf)
      free(s);
  } else {
    return perr_at(p, start, "expected floating point literal");
  }
  if (neg)
    *out = -*out;
  lex_next(p);
  return true;
}

bool nc_asm_parse_optional_integer(nc_asm_parser *p, int64_t *out, bool *present)
{
  *present = false;
  bool neg = false;
  if (p->tok.kind == T_MINUS) {
    const char *save = p->tok.start;
    lex_next(p);
    if (p->tok.kind != T_INT) {
      lex_reset(p, save);
      return true;
    }
    neg = true;
  }
  if (p->tok.kind != T_INT)
    return true;
  uint64_t v;
  if (!int_value(&p->tok, &v) || v > (uint64_t)INT64_MAX + neg)
    return perr(p, "integer value too large");
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  *present = true;
  lex_next(p);
  return true;
}

bool nc_asm_parse_integer(nc_asm_parser *p, int64_t *out)
{
  bool present;
  if (!nc_asm_parse_optional_integer(p, out, &present))
    return false;
  return present ? true : perr(p, "expected integer value");
}

bool nc_asm_parse_type(nc_asm_parser *p, nc_type **out)
{
  *out = parse_type(p);
  return *out != NULL;
}

bool nc_asm_parse_optional_type(nc_asm_parser *p, nc_type **out, bool *present)
{
  *present = at_type_start(p);
  if (!*present)
    return true;
  return nc_asm_parse_type(p, out);
}

bool nc_asm_parse_attr(nc_asm_parser *p, nc_type *hint, nc_attr **out)
{
  *out = parse_attr(p, hint);
  return *out != NULL;
}

bool nc_asm_parse_optional_attr(nc_asm_parser *p, nc_type *hint, nc_attr **out, bool *present)
{
  *present = at_attr_start(p) && !tok_is_kw(p, "attributes") && !tok_is_kw(p, "loc");
  if (!*present)
    return true;
  return nc_asm_parse_attr(p, hint, out);
}

bool nc_asm_parse_optional_attr_dict(nc_asm_parser *p, nc_attr **out)
{
  *out = NULL;
  if (p->tok.kind != T_LBRACE)
    return true;
  *out = parse_attr_dict(p);
  return *out != NULL;
}

bool nc_asm_parse_optional_attr_dict_with_keyword(nc_asm_parser *p, nc_attr **out)
{
  *out = NULL;
  if (!nc_asm_parse_optional_keyword(p, "attributes"))
    return true;
  if (p->tok.kind != T_LBRACE)
    return perr(p, "expected '{' after 'attributes'");
  *out = parse_attr_dict(p);
  return *out != NULL;
}

bool nc_asm_parse_optional_symbol_name(nc_asm_parser *p, nc_attr **out, bool *present)
{
  *present = p->tok.kind == T_AT;
  if (!*present)
    return true;
  token t = p->tok;
  if (t.start[1] == '"') {
    size_t len;
    char *s = string_value(p, &t, &len);
    if (!s)
      return false;
    *out = nc_attr_string(p->ctx, s, len);
    free(s);
  } else {
    *out = nc_attr_string(p->ctx, t.start + 1, t.len - 1);
  }
  lex_next(p);
  return true;
}

bool nc_asm_parse_symbol_name(nc_asm_parser *p, nc_attr **out)
{
  bool present;
  if (!nc_asm_parse_optional_symbol_name(p, out, &present))
    return false;
  return present ? true : perr(p, "expected valid '@'-identifier for symbol name");
}

bool nc_asm_parse_optional_argument(nc_asm_parser *p, bool with_type, bool with_attrs, nc_asm_argument *out,
                                    bool *present)
{
  memset(out, 0, sizeof *out);
  if (!nc_asm_parse_optional_operand(p, &out->ssa, present) || !*present)
    return !p->failed;
  out->loc = out->ssa.loc;
  if (with_type) {
    if (!nc_asm_parse_punct(p, ":") || !nc_asm_parse_type(p, &out->type))
      return false;
  }
  if (with_attrs && !nc_asm_parse_optional_attr_dict(p, &out->attrs))
    return false;
  return parse_trailing_loc(p, &out->loc);
}

bool nc_asm_parse_argument(nc_asm_parser *p, bool with_type, bool with_attrs, nc_asm_argument *out)
{
  bool present;
  if (!nc_asm_parse_optional_argument(p, with_type, with_attrs, out, &present))
    return false;
  return present ? true : perr(p, "expected SSA identifier");
}

bool nc_asm_parse_region(nc_asm_parser *p, nc_region *r, size_t n_args, const nc_asm_argument *args, bool isolated)
{
  return parse_region_body(p, r, n_args, args, isolated);
}

bool nc_asm_parse_optional_region(nc_asm_parser *p, nc_region *r, size_t n_args, const nc_asm_argument *args,
                                  bool isolated, bool *present)
{
  *present = p->tok.kind == T_LBRACE;
  if (!*present)
    return true;
  return parse_region_body(p, r, n_args, args, isolated);
}

bool nc_asm_parse_optional_location(nc_asm_parser *p, nc_location *out)
{
  return parse_trailing_loc(p, out);
}

/* --- single types and attributes from strings -------------------------------------------------- */

static void *parse_one(nc_context *ctx, const char *str, bool type)
{
  size_t len = strlen(str);
  char *copy = nc_xmalloc(len + 1);
  memcpy(copy, str, len + 1);
  unsigned id = nc_context_add_source_owned(ctx, "<string>", copy, len);
  nc_asm_parser p;
  nc_parser_init(&p, ctx, id, 0, len);
  void *r = type ? (void *)parse_type(&p) : (void *)parse_attr(&p, NULL);
  if (r && p.tok.kind != T_EOF) {
    perr(&p, "unexpected trailing characters");
    r = NULL;
  }
  nc_parser_fini(&p);
  return r;
}

nc_type *nc_parse_type(nc_context *ctx, const char *str) { return parse_one(ctx, str, true); }
nc_attr *nc_parse_attr(nc_context *ctx, const char *str) { return parse_one(ctx, str, false); }
