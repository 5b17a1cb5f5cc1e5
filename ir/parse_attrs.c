/* parse_attrs.c: parsing types, attributes and locations.
 *
 * Dense element literals are parsed straight into their final byte storage:
 * the parser first skips ahead to the `: type` that follows `dense<...>`,
 * then converts every literal once with the right precision (strtof for f32,
 * so decimal f32 values round exactly as they would from the C library).
 * Hex blobs are decoded with a table at memory speed.
 */
#include "parser.h"
#include "nc/support/hex.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void *parse_vec_push(nc_asm_parser *p, void **vec, size_t *n, size_t *cap, size_t elt)
{
  (void)p;
  if (*n == *cap) {
    *cap = *cap ? *cap * 2 : 8;
    *vec = nc_xrealloc(*vec, *cap * elt);
  }
  return (char *)*vec + (*n)++ * elt;
}

#define SLAB_BLOCK 256
#define SLAB_BLOCKS 256

static bool in_slab(const nc_asm_parser *p, const void *v)
{
  return p->slab && (const char *)v >= p->slab && (const char *)v < p->slab + SLAB_BLOCK * SLAB_BLOCKS;
}

void parse_tmp_free(nc_asm_parser *p, void *vec)
{
  if (in_slab(p, vec)) {
    *(void **)vec = p->slab_free;
    p->slab_free = vec;
  } else {
    free(vec);
  }
}

void *parse_tmp_push(nc_asm_parser *p, void **vec, size_t *n, size_t *cap, size_t elt)
{
  if (*n == *cap) {
    if (!*cap && elt <= SLAB_BLOCK / 4) {
      if (!p->slab) {
        p->slab = nc_xmalloc(SLAB_BLOCK * SLAB_BLOCKS);
        for (size_t i = SLAB_BLOCKS; i-- > 0;) {
          *(void **)(p->slab + i * SLAB_BLOCK) = p->slab_free;
          p->slab_free = p->slab + i * SLAB_BLOCK;
        }
      }
      if (p->slab_free) {
        *vec = p->slab_free;
        p->slab_free = *(void **)p->slab_free;
        *cap = SLAB_BLOCK / elt;
        return (char *)*vec + (*n)++ * elt;
      }
    }
    size_t ncap = *cap ? *cap * 2 : 8;
    if (in_slab(p, *vec)) { /* outgrew its block: move to the heap */
      void *heap = nc_xmalloc(ncap * elt);
      memcpy(heap, *vec, *n * elt);
      parse_tmp_free(p, *vec);
      *vec = heap;
    } else {
      *vec = nc_xrealloc(*vec, ncap * elt);
    }
    *cap = ncap;
  }
  return (char *)*vec + (*n)++ * elt;
}

alias_entry *find_alias(nc_asm_parser *p, const char *name, size_t len)
{
  for (size_t i = 0; i < p->n_aliases; i++)
    if (p->aliases[i].len == len && !memcmp(p->aliases[i].name, name, len))
      return &p->aliases[i];
  return NULL;
}

/* --- types ---------------------------------------------------------------------------- */

static bool kw_eq(const token *t, const char *kw)
{
  size_t n = strlen(kw);
  return t->len == n && !memcmp(t->start, kw, n);
}

bool at_type_start(nc_asm_parser *p)
{
  switch (p->tok.kind) {
  case T_LPAREN: return true;
  case T_EXCL: return true;
  case T_BARE: {
    const token *t = &p->tok;
    if (kw_eq(t, "index") || kw_eq(t, "f16") || kw_eq(t, "bf16") || kw_eq(t, "f32") || kw_eq(t, "f64") ||
        kw_eq(t, "none") || kw_eq(t, "tensor") || kw_eq(t, "memref") || kw_eq(t, "vector") || kw_eq(t, "tuple") ||
        kw_eq(t, "complex"))
      return true;
    const char *s = t->start;
    size_t i = s[0] == 'i' ? 1 : (t->len > 2 && (s[0] == 's' || s[0] == 'u') && s[1] == 'i') ? 2 : 0;
    if (!i || i >= t->len)
      return false;
    for (; i < t->len; i++)
      if (s[i] < '0' || s[i] > '9')
        return false;
    return true;
  }
  default: return false;
  }
}

static bool parse_type_list_until(nc_asm_parser *p, tok_kind close, nc_type ***types, size_t *n)
{
  size_t cap = 0;
  *types = NULL;
  *n = 0;
  if (consume(p, close))
    return true;
  do {
    nc_type *t = parse_type(p);
    if (!t) {
      parse_tmp_free(p, *types);
      *types = NULL;
      return false;
    }
    *(nc_type **)parse_tmp_push(p, (void **)types, n, &cap, sizeof(nc_type *)) = t;
  } while (consume(p, T_COMMA));
  if (!expect(p, close, NULL)) {
    parse_tmp_free(p, *types);
    *types = NULL;
    return false;
  }
  return true;
}

bool parse_type_list_parens(nc_asm_parser *p, nc_type ***types, size_t *n)
{
  if (!expect(p, T_LPAREN, "'('"))
    return false;
  return parse_type_list_until(p, T_RPAREN, types, n);
}

bool parse_function_result_types(nc_asm_parser *p, nc_type ***types, size_t *n)
{
  if (p->tok.kind == T_LPAREN) {
    /* `(` could start a parenthesised result list or a function type result */
    const char *save = p->tok.start;
    lex_next(p);
    if (!parse_type_list_until(p, T_RPAREN, types, n))
      return false;
    if (p->tok.kind == T_ARROW) { /* it was a function type: reparse as one type */
      parse_tmp_free(p, *types);
      *types = NULL; /* the caller frees it on failure too */
      lex_reset(p, save);
      nc_type *t = parse_type(p);
      if (!t)
        return false;
      *types = nc_xmalloc(sizeof(nc_type *));
      (*types)[0] = t;
      *n = 1;
    }
    return true;
  }
  nc_type *t = parse_type(p);
  if (!t)
    return false;
  *types = nc_xmalloc(sizeof(nc_type *));
  (*types)[0] = t;
  *n = 1;
  return true;
}

static nc_type *parse_function_type(nc_asm_parser *p)
{
  nc_type **in = NULL, **out = NULL;
  size_t ni = 0, no = 0;
  lex_next(p); /* ( */
  if (!parse_type_list_until(p, T_RPAREN, &in, &ni))
    return NULL;
  nc_type *r = NULL;
  if (expect(p, T_ARROW, "'->' in function type") && parse_function_result_types(p, &out, &no))
    r = nc_type_function(p->ctx, ni, in, no, out);
  parse_tmp_free(p, in);
  parse_tmp_free(p, out);
  return r;
}

/* Reads `<...>` raw text with balanced brackets and strings starting at the
 * current token (which must be '<'); returns the text between the angle
 * brackets and moves past the closing '>'. */
static bool raw_angle_body(nc_asm_parser *p, const char **body, size_t *len)
{
  const char *s = p->tok.start, *e = p->end;
  char stack[NC_MAX_NESTING];
  int depth = 0;
  for (const char *q = s; q < e; q++) {
    char c = *q;
    if (c == '"') {
      for (q++; q < e && *q != '"'; q++)
        if (*q == '\\')
          q++;
      if (q >= e)
        break;
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      if (depth == NC_MAX_NESTING)
        return perr_at(p, q, "nesting is too deep (more than %d levels)", NC_MAX_NESTING);
      stack[depth++] = c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : '}';
      continue;
    }
    if (c == '>' && q > s && q[-1] == '-')
      continue; /* the '>' of an '->' */
    if (c == '>' && q + 1 < e && q[1] == '=' && depth && stack[depth - 1] != '>')
      continue; /* a `>=` comparison inside parentheses (affine sets) */
    if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (!depth || stack[depth - 1] != c)
        return perr_at(p, q, "unbalanced '%c' in dialect body", c);
      if (--depth == 0) {
        *body = s + 1;
        *len = (size_t)(q - s - 1);
        lex_reset(p, q + 1);
        return true;
      }
    }
  }
  return perr_at(p, s, "unbalanced '<' in dialect body");
}

/* A dialect namespace is an identifier (the lexer also accepts `!.x`, `!0.x`
 * and `!-x` as tokens). */
static bool valid_namespace(const char *s, size_t len)
{
  if (!len || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
    return false;
  for (size_t i = 1; i < len; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
          s[i] == '$'))
      return false;
  return true;
}

/* `!dialect.body`, `!dialect<body>` or `!alias`. Returns dialect + body. */
static bool parse_extended(nc_asm_parser *p, bool is_type, nc_ident **dialect, const char **body, size_t *len,
                           bool *is_alias)
{
  const char *name = p->tok.start + 1;
  size_t nlen = p->tok.len - 1;
  const char *dot = memchr(name, '.', nlen);
  *is_alias = false;
  if (!dot) {
    lex_next(p);
    if (p->tok.kind != T_LESS || p->tok.start != name + nlen) {
      *is_alias = true;
      *body = name;
      *len = nlen;
      return true;
    }
    /* `!dialect<body>`: as in MLIR the body is the raw text between the
     * brackets (quotes included), so `!d<x<1>>` and `!d.x<1>` are equal */
    if (!valid_namespace(name, nlen))
      return perr_at(p, name - 1, "invalid dialect namespace '%.*s'", (int)nlen, name);
    *dialect = nc_ident_get(p->ctx, name, nlen);
    return raw_angle_body(p, body, len);
  }
  if (!valid_namespace(name, (size_t)(dot - name)))
    return perr(p, "invalid dialect namespace '%.*s'", (int)(dot - name), name);
  *dialect = nc_ident_get(p->ctx, name, (size_t)(dot - name));
  const char *bstart = dot + 1;
  const char *tok_end = p->tok.start + p->tok.len;
  lex_next(p);
  if (p->tok.kind == T_LESS && p->tok.start == tok_end) {
    const char *b;
    size_t bl;
    if (!raw_angle_body(p, &b, &bl))
      return false;
    *body = bstart;
    *len = (size_t)(b + bl + 1 - bstart);
  } else {
    *body = bstart;
    *len = (size_t)(tok_end - bstart);
  }
  (void)is_type;
  return true;
}

static nc_type *parse_shaped(nc_asm_parser *p, const token *kw)
{
  bool is_tensor = kw_eq(kw, "tensor"), is_memref = kw_eq(kw, "memref"), is_vector = kw_eq(kw, "vector");
  const char *tok_end = kw->start + kw->len;
  if (p->tok.kind != T_LESS || p->tok.start != tok_end)
    return perr(p, "expected '<' in %.*s type", (int)kw->len, kw->start), NULL;
  /* dimension list, scanned by hand: `1x?x3x` or `*x` */
  const char *s = p->tok.start + 1, *e = p->end;
  int64_t shape[NC_MAX_RANK];
  size_t rank = 0;
  bool unranked = false;
  for (;;) {
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
      s++;
    if (s < e && *s == '*' && rank == 0 && !is_vector) {
      unranked = true;
      s++;
      if (s >= e || *s != 'x')
        return perr_at(p, s, "expected 'x' in dimension list"), NULL;
      s++;
      break;
    }
    if (s < e && *s == '?' && !is_vector) {
      if (rank == NC_MAX_RANK)
        return perr_at(p, s, "rank exceeds the limit of %d", NC_MAX_RANK), NULL;
      shape[rank++] = NC_DYNAMIC;
      s++;
    } else if (s < e && *s >= '0' && *s <= '9') {
      const char *d = s;
      uint64_t v = 0;
      while (s < e && *s >= '0' && *s <= '9') {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v) ||
            v > (uint64_t)INT64_MAX)
          return perr_at(p, d, "dimension is too large"), NULL;
        s++;
      }
      if (s >= e || *s != 'x') { /* not a dimension: an integer type like i32 cannot start with a digit */
        return perr_at(p, s, "expected 'x' in dimension list"), NULL;
      }
      if (rank == NC_MAX_RANK)
        return perr_at(p, d, "rank exceeds the limit of %d", NC_MAX_RANK), NULL;
      if (is_vector && v == 0)
        return perr_at(p, d, "vector types must have positive constant sizes"), NULL;
      shape[rank++] = (int64_t)v;
    } else {
      break;
    }
    if (s >= e || *s != 'x')
      return perr_at(p, s, "expected 'x' in dimension list"), NULL;
    s++;
  }
  if (is_vector && rank == 0)
    return perr_at(p, s, "vector types must have at least one dimension"), NULL;
  lex_reset(p, s);
  nc_type *elt = parse_type(p);
  if (!elt)
    return NULL;
  nc_attr *enc = NULL, *space = NULL;
  if ((is_vector || (unranked && !is_memref)) && p->tok.kind == T_COMMA) /* no encoding for these */
    return perr(p, "expected '>' in %s type", is_vector ? "vector" : "tensor"), NULL;
  if (!is_memref && consume(p, T_COMMA) && !(enc = parse_attr(p, NULL)))
    return NULL;
  while (is_memref && consume(p, T_COMMA)) {
    /* as in MLIR: affine maps and strided layouts are layouts, anything else is a memory space */
    const char *at = p->tok.start;
    nc_attr *a = parse_attr(p, NULL);
    if (!a)
      return NULL;
    bool layout = a->kind == NC_ATTR_BUILTIN_OPAQUE && strcmp(a->opaque.dialect->str, "affine_set");
    if (layout && (enc || space || unranked))
      return perr_at(p, at, "unexpected layout attribute in memref type"), NULL;
    if (!layout && space)
      return perr_at(p, at, "multiple memory spaces specified in memref type"), NULL;
    if (!layout && !(a->kind == NC_ATTR_INTEGER || a->kind == NC_ATTR_STRING || a->kind == NC_ATTR_DICTIONARY ||
                     a->kind == NC_ATTR_DIALECT ||
                     (a->kind == NC_ATTR_OPAQUE &&
                      nc_context_lookup_dialect(p->ctx, a->opaque.dialect->str, a->opaque.dialect->len))))
      return perr_at(p, at, "unsupported memory space Attribute"), NULL;
    *(layout ? &enc : &space) = a;
  }
  if (!expect(p, T_GREATER, "'>' in shaped type"))
    return NULL;
  nc_type *t;
  if (unranked)
    t = is_tensor ? nc_type_unranked_tensor(p->ctx, elt) : is_memref ? nc_type_unranked_memref(p->ctx, elt, space) : NULL;
  else if (is_tensor)
    t = nc_type_tensor(p->ctx, rank, shape, elt, enc);
  else if (is_memref)
    t = nc_type_memref(p->ctx, rank, shape, elt, enc, space);
  else
    t = nc_type_vector(p->ctx, rank, shape, elt);
  if (!t)
    perr_at(p, kw->start, "invalid %.*s type", (int)kw->len, kw->start);
  return t;
}

nc_type *parse_type(nc_asm_parser *p)
{
  if (!enter(p))
    return NULL;
  nc_type *r = NULL;
  token t = p->tok;
  switch (t.kind) {
  case T_LPAREN:
    r = parse_function_type(p);
    break;
  case T_EXCL: {
    nc_ident *d;
    const char *body;
    size_t len;
    bool alias;
    if (!parse_extended(p, true, &d, &body, &len, &alias))
      break;
    if (alias) {
      alias_entry *a = find_alias(p, body, len);
      if (!a || !a->is_type)
        perr_at(p, t.start, "undefined symbol alias id '%.*s'", (int)len, body);
      else
        r = a->value;
    } else {
      const nc_dialect_def *dd = nc_context_lookup_dialect(p->ctx, d->str, d->len);
      bool handled = false;
      if (!dd && !p->ctx->allow_unregistered) {
        perr_at(p, t.start,
                "dialect '%s' is not registered; to allow unregistered dialects use --allow-unregistered-dialect", d->str);
        break;
      }
      if (dd && dd->n_types)
        r = parse_dialect_storage(p, dd, true, t.start, body, len, &handled);
      if (!handled) {
        r = nc_type_opaque(p->ctx, d, body, len);
        if (dd && dd->verify_type && !dd->verify_type(p->ctx, loc_at(p, t.start), r)) {
          p->failed = true;
          r = NULL;
        }
      }
    }
    break;
  }
  case T_BARE: {
    nc_context *ctx = p->ctx;
    lex_next(p);
    const char *s = t.start;
    if (kw_eq(&t, "index")) r = ctx->index_type;
    else if (kw_eq(&t, "f32")) r = ctx->f32;
    else if (kw_eq(&t, "f64")) r = ctx->f64;
    else if (kw_eq(&t, "f16")) r = ctx->f16;
    else if (kw_eq(&t, "bf16")) r = ctx->bf16;
    else if (kw_eq(&t, "none")) r = ctx->none;
    else if (kw_eq(&t, "tensor") || kw_eq(&t, "memref") || kw_eq(&t, "vector")) r = parse_shaped(p, &t);
    else if (kw_eq(&t, "tuple") || kw_eq(&t, "complex")) {
      bool tuple = kw_eq(&t, "tuple");
      if (!expect(p, T_LESS, NULL))
        break;
      nc_type **ts = NULL;
      size_t n = 0;
      if (!parse_type_list_until(p, T_GREATER, &ts, &n))
        break;
      if (tuple)
        r = nc_type_tuple(ctx, n, ts);
      else if (n != 1 || !(nc_type_is_float(ts[0]) || nc_type_is_integer(ts[0])))
        perr_at(p, t.start, "invalid element type for complex");
      else
        r = nc_type_complex(ctx, ts[0]);
      parse_tmp_free(p, ts);
    } else {
      size_t i = s[0] == 'i' ? 1 : (t.len > 2 && (s[0] == 's' || s[0] == 'u') && s[1] == 'i') ? 2 : 0;
      bool digits = i && i < t.len;
      uint64_t w = 0;
      for (size_t j = i; digits && j < t.len; j++) {
        if (s[j] < '0' || s[j] > '9')
          digits = false;
        else if ((w = w * 10 + (uint64_t)(s[j] - '0')) > 1000000)
          w = 1000000;
      }
      if (digits) {
        if (w == 0 || w > NC_MAX_INT_WIDTH) /* the width as written: it may not fit any integer */
          perr_at(p, t.start, "integer bitwidth %.*s is not supported (nc supports 1 to %d)", (int)(t.len - i), s + i,
                  NC_MAX_INT_WIDTH);
        else
          r = nc_type_integer(ctx, (unsigned)w, i == 1 ? NC_SIGNLESS : s[0] == 's' ? NC_SIGNED : NC_UNSIGNED);
      } else {
        perr_at(p, t.start, "unknown type '%.*s'", (int)t.len, t.start);
      }
    }
    break;
  }
  case T_ERROR:
    break;
  default:
    perr(p, "expected type");
  }
  leave(p);
  return r;
}

/* --- numbers -------------------------------------------------------------------------- */

/* Range check for an integer literal (magnitude `mag`, sign `neg`) in type t. */
static bool int_fits(const nc_type *t, uint64_t mag, bool neg)
{
  unsigned w = t->kind == NC_TYPE_INDEX ? 64 : t->width;
  if (t->kind == NC_TYPE_INTEGER && t->signedness == NC_UNSIGNED)
    return !neg || mag == 0 ? (w >= 64 || mag <= ((1ull << w) - 1)) : false;
  if (t->kind == NC_TYPE_INTEGER && t->signedness == NC_SIGNED)
    return neg ? mag <= (1ull << (w - 1)) : mag <= (1ull << (w - 1)) - 1;
  /* signless (and index): either interpretation */
  if (neg)
    return mag <= (1ull << (w - 1));
  return w >= 64 || mag <= ((1ull << w) - 1);
}

static nc_attr *make_int(nc_asm_parser *p, const char *at, nc_type *t, uint64_t mag, bool neg)
{
  if (!int_fits(t, mag, neg)) {
    perr_at(p, at, "integer constant out of range for attribute");
    return NULL;
  }
  return nc_attr_integer(p->ctx, t, neg ? (int64_t)(0 - mag) : (int64_t)mag);
}

/* Converts a float literal (text of a T_FLOAT or T_INT token, optional minus)
 * into raw bits of float type t. Hex integers are raw bits. */
static bool float_bits(nc_asm_parser *p, const token *tk, bool neg, const nc_type *t, uint64_t *bits)
{
  if (tk->kind == T_INT && tk->len > 2 && tk->start[1] == 'x') {
    uint64_t v;
    unsigned w = t->width;
    if (neg)
      return perr_at(p, tk->start, "hexadecimal float literal should not have a leading minus");
    if (!int_value(tk, &v) || (w < 64 && v >> w))
      return perr_at(p, tk->start, "hexadecimal float constant out of range for type");
    *bits = v;
    return true;
  }
  char buf[128];
  size_t n = tk->len < sizeof buf - 2 ? tk->len : sizeof buf - 2;
  size_t o = 0;
  if (neg)
    buf[o++] = '-';
  memcpy(buf + o, tk->start, n);
  buf[o + n] = 0;
  if (t->kind == NC_TYPE_F32) {
    float f = strtof(buf, NULL);
    uint32_t b;
    memcpy(&b, &f, 4);
    *bits = b;
  } else {
    double d = strtod(buf, NULL);
    *bits = nc_float_double_to_bits(t, d);
  }
  return true;
}

/* --- dense elements ------------------------------------------------------------------------- */

/* Skips the balanced body of `dense<...>` starting at the current '<' without
 * interpreting it; returns the position right after the closing '>'. */
static const char *skip_angle(nc_asm_parser *p)
{
  const char *body;
  size_t len;
  const char *save = p->tok.start;
  if (!raw_angle_body(p, &body, &len))
    return NULL;
  const char *after = body + len + 1;
  lex_reset(p, save);
  return after;
}


/* Decodes the hex digits of a "0x..." string token (no escapes allowed). */
static void *decode_hex(nc_asm_parser *p, const token *st, size_t *nbytes)
{
  const char *s = st->start + 1, *e = st->start + st->len - 1;
  if (e - s < 2 || s[0] != '0' || s[1] != 'x')
    return perr_at(p, st->start, "expected a hex string \"0x...\""), NULL;
  s += 2;
  size_t nd = (size_t)(e - s);
  if (nd % 2)
    return perr_at(p, st->start, "hex string has an odd number of digits"), NULL;
  unsigned char *out = nc_xmalloc_bulk(nd / 2 ? nd / 2 : 1);
  size_t bad;
  if (!nc_hex_decode(s, nd / 2, out, &bad)) {
    free(out);
    return perr_at(p, s + bad, "invalid hex digit in hex string"), NULL;
  }
  nc_parser_release_token_text(p, st->start, st->len);
  *nbytes = nd / 2;
  return out;
}

typedef struct dense_builder {
  nc_type *elt;
  size_t es;
  unsigned char *data;
  size_t n, cap; /* elements */
  int64_t shape[NC_MAX_RANK];
  int rank;      /* -1 until the first leaf fixes it */
  int64_t counts[NC_MAX_RANK];
} dense_builder;

static bool dense_push(nc_asm_parser *p, dense_builder *b)
{
  bool neg = false;
  const char *at = p->tok.start;
  if (p->tok.kind == T_MINUS) {
    neg = true;
    lex_next(p);
  }
  if (b->n == b->cap) {
    b->cap = b->cap ? b->cap * 2 : 64;
    b->data = nc_xrealloc(b->data, b->cap * b->es);
  }
  unsigned char *slot = b->data + b->n * b->es;
  nc_type *elt = b->elt;
  token tk = p->tok;
  if (nc_type_is_float(elt)) {
    uint64_t bits;
    if (tk.kind != T_INT && tk.kind != T_FLOAT)
      return perr(p, "expected floating point literal");
    if (!float_bits(p, &tk, neg, elt, &bits))
      return false;
    memcpy(slot, &bits, b->es);
  } else if (elt->kind == NC_TYPE_INTEGER || elt->kind == NC_TYPE_INDEX) {
    uint64_t mag;
    bool is_bool = tk.kind == T_BARE && (kw_eq(&tk, "true") || kw_eq(&tk, "false")) && !neg;
    if (is_bool) {
      if (elt->width != 1)
        return perr(p, "expected integer elements, but parsed boolean");
      mag = kw_eq(&tk, "true");
      neg = mag && elt->signedness == NC_SIGNED; /* true is -1 in si1 */
    } else if (tk.kind == T_INT) {
      if (!int_value(&tk, &mag))
        return perr(p, "integer constant out of range for type");
    } else if (tk.kind == T_FLOAT) {
      return perr(p, "expected integer elements, but parsed floating-point");
    } else {
      return perr(p, "expected integer literal");
    }
    if (!int_fits(elt, mag, neg))
      return perr_at(p, at, "integer constant out of range for type");
    int64_t v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    if (elt->width < 8 && elt->kind == NC_TYPE_INTEGER) { /* normalise sub-byte values */
      unsigned w = elt->width;
      v = (elt->signedness == NC_UNSIGNED || (w == 1 && elt->signedness == NC_SIGNLESS))
            ? (int64_t)((uint64_t)v & ((1ull << w) - 1))
            : (int64_t)((uint64_t)v << (64 - w)) >> (64 - w);
    }
    memcpy(slot, &v, b->es); /* little-endian: low bytes first */
  } else {
    return perr(p, "unsupported element type for dense literal");
  }
  b->n++;
  lex_next(p);
  return true;
}

static bool dense_list(nc_asm_parser *p, dense_builder *b, int dim)
{
  if (!enter(p))
    return false;
  bool ok = true;
  if (p->tok.kind == T_LSQUARE) {
    if (dim >= NC_MAX_RANK) {
      leave(p);
      return perr(p, "dense literal nested too deeply");
    }
    lex_next(p);
    int64_t count = 0;
    if (p->tok.kind != T_RSQUARE) {
      do {
        if (!dense_list(p, b, dim + 1)) {
          ok = false;
          break;
        }
        count++;
      } while (consume(p, T_COMMA));
    } else if (b->rank < 0) {
      b->rank = dim + 1;
    }
    if (ok && !expect(p, T_RSQUARE, NULL))
      ok = false;
    if (ok) {
      if (b->rank >= 0 && dim >= b->rank)
        ok = perr(p, "tensor literal is invalid; ranks are not consistent between elements");
      else if (b->counts[dim] < 0)
        b->counts[dim] = count;
      else if (b->counts[dim] != count)
        ok = perr(p, "tensor literal is invalid; ranks are not consistent between elements");
    }
  } else {
    if (b->rank < 0)
      b->rank = dim;
    else if (b->rank != dim)
      ok = perr(p, "tensor literal is invalid; ranks are not consistent between elements");
    if (ok)
      ok = dense_push(p, b);
  }
  leave(p);
  return ok;
}

static nc_attr *parse_dense(nc_asm_parser *p, const char *kw_at)
{
  if (p->tok.kind != T_LESS)
    return perr(p, "expected '<' after 'dense'"), NULL;
  const char *body_start = p->tok.start;
  /* the type comes after the literal: find it first. A hex string body is
   * lexed as one token (fast); other bodies are skipped bracket by bracket. */
  token hex = {T_EOF, NULL, 0}; /* a hex body, lexed once */
  const char *raw = p->cur;
  while (raw < p->end && (*raw == ' ' || *raw == '\n' || *raw == '\t' || *raw == '\r'))
    raw++;
  const char *close = p->end - raw > 3 && raw[0] == '"' && raw[1] == '0' && raw[2] == 'x'
                        ? memchr(raw + 1, '"', (size_t)(p->end - raw - 1))
                        : NULL;
  if (close) {
    /* "0x...": its end is the next quote; decoding checks every digit, so
     * the body is scanned once (weight blobs are hundreds of megabytes) */
    hex = (token){T_STRING, raw, (size_t)(close + 1 - raw)};
    lex_reset(p, close + 1);
    if (!expect(p, T_GREATER, "'>'"))
      return NULL;
  } else if (lex_next(p), p->tok.kind == T_STRING) {
    hex = p->tok;
    lex_next(p);
    if (!expect(p, T_GREATER, "'>'"))
      return NULL;
  } else {
    lex_reset(p, body_start);
    const char *after = skip_angle(p);
    if (!after)
      return NULL;
    lex_reset(p, after);
  }
  if (!expect(p, T_COLON, "':' after dense literal"))
    return NULL;
  const char *type_at = p->tok.start;
  nc_type *t = parse_type(p);
  if (!t)
    return NULL;
  const char *resume = p->tok.start;
  if ((t->kind != NC_TYPE_TENSOR && t->kind != NC_TYPE_VECTOR) || !nc_type_has_static_shape(t))
    return perr_at(p, type_at, "elements literal type must be a statically shaped tensor or vector"), NULL;
  nc_type *elt = t->shaped.elt;
  size_t es = nc_dense_element_size(elt);
  if (!es || elt->kind == NC_TYPE_COMPLEX)
    return perr_at(p, type_at, "unsupported element type for dense elements"), NULL;
  int64_t n = nc_type_get_num_elements(t);
  if (n < 0)
    return perr_at(p, type_at, "too many elements"), NULL;
  nc_attr *r = NULL;
  if (hex.kind == T_STRING) {
    token st = hex;
    size_t nbytes;
    unsigned char *data = decode_hex(p, &st, &nbytes);
    if (!data)
      return NULL;
    if (elt->kind == NC_TYPE_INTEGER && elt->width == 1) { /* bit-packed on the wire */
      size_t need = ((size_t)n + 7) / 8;
      unsigned char *unpacked;
      if (nbytes == 1 && (data[0] == 0 || data[0] == 0xff)) { /* a splat, as MLIR reads it */
        unpacked = nc_xmalloc(1);
        unpacked[0] = data[0] != 0;
        nbytes = 1;
      } else if (nbytes == need) {
        unpacked = nc_xmalloc(n ? (size_t)n : 1);
        for (int64_t i = 0; i < n; i++)
          unpacked[i] = (data[i / 8] >> (i % 8)) & 1;
        nbytes = (size_t)n;
      } else {
        free(data);
        return perr_at(p, st.start, "hex data has %zu bytes, expected %zu for %lld i1 elements", nbytes, need,
                       (long long)n), NULL;
      }
      free(data);
      data = unpacked;
    } else {
      /* as in MLIR, an integer takes ceil(width / 8) bytes on the wire (i24: 3), fewer than nc stores */
      size_t wire = elt->kind == NC_TYPE_INTEGER ? (elt->width + 7) / 8 : es;
      if (nbytes != wire && (uint64_t)nbytes != (uint64_t)n * wire) {
        free(data);
        return perr_at(p, st.start, "hex data has %zu bytes, but the type needs %llu (or %zu for a splat)", nbytes,
                       (unsigned long long)((uint64_t)n * wire), wire), NULL;
      }
      if (wire != es) {
        size_t count = nbytes / wire;
        unsigned char *wide = nc_xcalloc(count ? count : 1, es);
        for (size_t i = 0; i < count; i++)
          memcpy(wide + i * es, data + i * wire, wire); /* the high bytes are filled in by normalisation */
        free(data);
        data = wide;
        nbytes = count * es;
      }
    }
    r = nc_attr_dense_elements_owned(p->ctx, t, data, nbytes);
    if (!r)
      return perr_at(p, kw_at, "invalid dense elements attribute"), NULL;
    return r; /* the lexer is already past the type */
  }
  lex_reset(p, body_start);
  lex_next(p); /* past '<' */
  if (p->tok.kind == T_GREATER) { /* dense<> : an empty tensor */
    if (n != 0)
      return perr_at(p, kw_at, "empty dense literal for a type with %lld elements", (long long)n), NULL;
    r = nc_attr_dense_elements(p->ctx, t, "", 0);
  } else {
    dense_builder b = {.elt = elt, .es = es, .rank = -1};
    for (int i = 0; i < NC_MAX_RANK; i++)
      b.counts[i] = -1;
    if (!dense_list(p, &b, 0)) {
      free(b.data);
      return NULL;
    }
    size_t rank = t->shaped.rank;
    if (b.rank == 0 && b.n == 1) { /* splat */
      r = nc_attr_dense_elements_owned(p->ctx, t, b.data, es);
    } else {
      bool shape_ok = (size_t)b.rank == rank;
      for (size_t i = 0; shape_ok && i < rank; i++)
        shape_ok = b.counts[i] == t->shaped.shape[i];
      if (!shape_ok) {
        free(b.data);
        return perr_at(p, kw_at, "inferred shape of elements literal does not match type %s",
                       "(check the nesting and the number of elements)"), NULL;
      }
      r = nc_attr_dense_elements_owned(p->ctx, t, b.data, b.n * es);
    }
  }
  if (!r)
    return perr_at(p, kw_at, "invalid dense elements attribute"), NULL;
  if (!expect(p, T_GREATER, "'>'"))
    return NULL;
  lex_reset(p, resume);
  return r;
}

static nc_attr *parse_dense_array(nc_asm_parser *p)
{
  if (!expect(p, T_LESS, "'<' after 'array'"))
    return NULL;
  const char *type_at = p->tok.start;
  nc_type *elt = parse_type(p);
  if (!elt)
    return NULL;
  size_t es = nc_dense_element_size(elt);
  if (!(elt->kind == NC_TYPE_INTEGER || elt->kind == NC_TYPE_F32 || elt->kind == NC_TYPE_F64) || !es)
    return perr_at(p, type_at, "expected integer or float type in dense array"), NULL;
  dense_builder b = {.elt = elt, .es = es, .rank = 0};
  if (consume(p, T_COLON)) {
    do {
      if (!dense_push(p, &b)) {
        free(b.data);
        return NULL;
      }
    } while (consume(p, T_COMMA));
  }
  if (!expect(p, T_GREATER, "'>' to close an array attribute")) {
    free(b.data);
    return NULL;
  }
  nc_attr *r = nc_attr_dense_array(p->ctx, elt, b.n, b.data);
  free(b.data);
  return r;
}

/* --- attributes ------------------------------------------------------------------------------- */

bool at_attr_start(nc_asm_parser *p)
{
  switch (p->tok.kind) {
  case T_INT: case T_FLOAT: case T_MINUS: case T_STRING: case T_LSQUARE: case T_LBRACE: case T_AT: case T_HASH:
  case T_EXCL: case T_LPAREN:
    return true;
  case T_BARE:
    return true;
  default:
    return false;
  }
}

nc_attr *parse_symbol_ref(nc_asm_parser *p)
{
  nc_context *ctx = p->ctx;
  nc_ident *parts[64];
  size_t n = 0;
  for (;;) {
    token t = p->tok;
    if (t.kind != T_AT)
      return perr(p, "expected symbol reference"), NULL;
    nc_ident *id;
    if (t.start[1] == '"') {
      size_t len;
      char *s = string_value(p, &t, &len);
      if (!s)
        return NULL;
      id = nc_ident_get(ctx, s, len);
      free(s);
    } else {
      id = nc_ident_get(ctx, t.start + 1, t.len - 1);
    }
    if (n == 64)
      return perr(p, "symbol reference has too many parts"), NULL;
    parts[n++] = id;
    lex_next(p);
    /* `::@nested` */
    if (p->tok.kind == T_COLON && p->cur < p->end && *p->cur == ':' && p->tok.start + 1 == p->cur) {
      const char *after = p->cur + 1;
      if (after < p->end && *after == '@') {
        lex_reset(p, after);
        continue;
      }
    }
    break;
  }
  return nc_attr_symbol_ref(ctx, parts[0], n - 1, parts + 1);
}

static nc_attr *parse_array(nc_asm_parser *p)
{
  lex_next(p); /* [ */
  nc_attr **elts = NULL;
  size_t n = 0, cap = 0;
  nc_attr *r = NULL;
  if (!consume(p, T_RSQUARE)) {
    do {
      nc_attr *a = parse_attr(p, NULL);
      if (!a)
        goto out;
      *(nc_attr **)parse_tmp_push(p, (void **)&elts, &n, &cap, sizeof *elts) = a;
    } while (consume(p, T_COMMA));
    if (!expect(p, T_RSQUARE, "']'"))
      goto out;
  }
  r = nc_attr_array(p->ctx, n, elts);
out:
  parse_tmp_free(p, elts);
  return r;
}

nc_attr *parse_attr_dict(nc_asm_parser *p)
{
  if (!enter(p))
    return NULL;
  lex_next(p); /* { */
  nc_named_attr *es = NULL;
  size_t n = 0, cap = 0;
  nc_attr *r = NULL;
  if (!consume(p, T_RBRACE)) {
    do {
      token t = p->tok;
      nc_ident *name;
      if (t.kind == T_BARE) {
        name = nc_ident_get(p->ctx, t.start, t.len);
      } else if (t.kind == T_STRING) {
        size_t len;
        char *s = string_value(p, &t, &len);
        if (!s)
          goto out;
        if (!len) {
          free(s);
          perr(p, "expected valid attribute name");
          goto out;
        }
        name = nc_ident_get(p->ctx, s, len);
        free(s);
      } else {
        perr(p, "expected attribute name");
        goto out;
      }
      lex_next(p);
      for (size_t i = 0; i < n; i++)
        if (es[i].name == name) {
          perr_at(p, t.start, "duplicate key '%s' in dictionary attribute", name->str);
          goto out;
        }
      nc_attr *v;
      if (consume(p, T_EQUAL)) {
        v = parse_attr(p, NULL);
        if (!v)
          goto out;
      } else {
        v = p->ctx->unit;
      }
      nc_named_attr *e = parse_tmp_push(p, (void **)&es, &n, &cap, sizeof *es);
      e->name = name;
      e->value = v;
    } while (consume(p, T_COMMA));
    if (!expect(p, T_RBRACE, "'}' in attribute dictionary"))
      goto out;
  }
  r = nc_attr_dictionary(p->ctx, n, es);
out:
  parse_tmp_free(p, es);
  leave(p);
  return r;
}

static nc_attr *parse_number_attr(nc_asm_parser *p, nc_type *hint)
{
  bool neg = consume(p, T_MINUS);
  token tk = p->tok;
  if (tk.kind != T_INT && tk.kind != T_FLOAT)
    return perr(p, "expected integer or floating point literal after '-'"), NULL;
  lex_next(p);
  nc_type *t = hint; /* as in MLIR, a literal whose type is known takes no `: type` */
  if (!t && consume(p, T_COLON) && !(t = parse_type(p)))
    return NULL;
  if (!t)
    t = tk.kind == T_FLOAT ? p->ctx->f64 : p->ctx->int_types[NC_SIGNLESS][64];
  if (nc_type_is_float(t)) {
    if (tk.kind == T_INT && !(tk.len > 2 && tk.start[1] == 'x'))
      return perr_at(p, tk.start, "unexpected decimal integer literal for a floating point value"), NULL;
    uint64_t bits;
    if (!float_bits(p, &tk, neg, t, &bits))
      return NULL;
    return nc_attr_float_bits(p->ctx, t, bits);
  }
  if (t->kind != NC_TYPE_INTEGER && t->kind != NC_TYPE_INDEX)
    return perr_at(p, tk.start, "integer literal not valid for specified type"), NULL;
  if (tk.kind == T_FLOAT)
    return perr_at(p, tk.start, "floating point value not valid for specified type"), NULL;
  uint64_t mag;
  if (!int_value(&tk, &mag))
    return perr_at(p, tk.start, "integer constant out of range for attribute"), NULL;
  return make_int(p, tk.start, t, mag, neg);
}

nc_attr *parse_attr(nc_asm_parser *p, nc_type *hint)
{
  if (!enter(p))
    return NULL;
  nc_attr *r = NULL;
  nc_context *ctx = p->ctx;
  token t = p->tok;
  switch (t.kind) {
  case T_INT: case T_FLOAT: case T_MINUS:
    r = parse_number_attr(p, hint);
    break;
  case T_STRING: {
    size_t len;
    char *s = string_value(p, &t, &len);
    if (!s)
      break;
    lex_next(p);
    if (p->tok.kind == T_COLON) {
      perr(p, "typed string attributes are not supported");
    } else {
      r = nc_attr_string(ctx, s, len);
    }
    free(s);
    break;
  }
  case T_LSQUARE: r = parse_array(p); break;
  case T_LBRACE: r = parse_attr_dict(p); break;
  case T_AT: r = parse_symbol_ref(p); break;
  case T_HASH: {
    nc_ident *d;
    const char *body;
    size_t len;
    bool alias;
    if (!parse_extended(p, false, &d, &body, &len, &alias))
      break;
    if (alias) {
      alias_entry *a = find_alias(p, body, len);
      if (!a || a->is_type)
        perr_at(p, t.start, "undefined symbol alias id '%.*s'", (int)len, body);
      else
        r = a->value;
    } else {
      const nc_dialect_def *dd = nc_context_lookup_dialect(ctx, d->str, d->len);
      bool handled = false;
      if (!dd && !ctx->allow_unregistered) {
        perr_at(p, t.start,
                "dialect '%s' is not registered; to allow unregistered dialects use --allow-unregistered-dialect", d->str);
        break;
      }
      if (dd && dd->n_attrs)
        r = parse_dialect_storage(p, dd, false, t.start, body, len, &handled);
      if (!handled) {
        r = nc_attr_opaque(ctx, d, body, len);
        if (dd && dd->verify_attr && !dd->verify_attr(ctx, loc_at(p, t.start), r)) {
          p->failed = true;
          r = NULL;
        }
      }
    }
    break;
  }
  case T_BARE:
    if (kw_eq(&t, "true") || kw_eq(&t, "false")) {
      lex_next(p);
      r = nc_attr_bool(ctx, kw_eq(&t, "true"));
      if (p->tok.kind == T_COLON) { /* `true : i1` */
        lex_next(p);
        nc_type *ty = parse_type(p);
        if (ty && !(ty->kind == NC_TYPE_INTEGER && ty->width == 1 && ty->signedness == NC_SIGNLESS))
          perr_at(p, t.start, "boolean literal requires type i1"), r = NULL;
        else if (!ty)
          r = NULL;
      }
    } else if (kw_eq(&t, "unit")) {
      lex_next(p);
      r = ctx->unit;
    } else if (kw_eq(&t, "dense")) {
      lex_next(p);
      r = parse_dense(p, t.start);
    } else if (kw_eq(&t, "dense_resource")) {
      lex_next(p);
      if (!expect(p, T_LESS, "'<' after 'dense_resource'"))
        break;
      token nt = p->tok;
      if (nt.kind != T_BARE && nt.kind != T_STRING) {
        perr(p, "expected resource handle name");
        break;
      }
      size_t nlen = nt.len;
      char *owned = NULL;
      const char *name = nt.start;
      if (nt.kind == T_STRING) {
        owned = string_value(p, &nt, &nlen);
        if (!owned)
          break;
        name = owned;
      }
      nc_resource *res = parse_resource(p, name, nlen);
      free(owned);
      lex_next(p);
      if (!expect(p, T_GREATER, "'>'") || !expect(p, T_COLON, "':' after dense_resource"))
        break;
      const char *type_at = p->tok.start;
      nc_type *ty = parse_type(p);
      if (!ty)
        break;
      if (!nc_type_is_shaped(ty) || !nc_type_has_static_shape(ty) || !nc_dense_element_size(ty->shaped.elt)) {
        perr_at(p, type_at, "dense_resource requires a statically shaped tensor or vector type");
        break;
      }
      r = nc_attr_dense_resource(ctx, ty, res);
    } else if (kw_eq(&t, "array")) {
      lex_next(p);
      r = parse_dense_array(p);
    } else if (kw_eq(&t, "affine_map") || kw_eq(&t, "affine_set") || kw_eq(&t, "strided")) {
      lex_next(p);
      const char *body;
      size_t len;
      if (p->tok.kind != T_LESS)
        perr(p, "expected '<'");
      else if (raw_angle_body(p, &body, &len))
        r = nc_attr_builtin_opaque(ctx, nc_ident_get(ctx, t.start, t.len), body, len);
    } else if (kw_eq(&t, "loc")) {
      lex_next(p);
      nc_location l;
      if (expect(p, T_LPAREN, "'(' in location") && parse_loc_inner(p, &l, NULL) && expect(p, T_RPAREN, "')'"))
        r = nc_location_get_attr(ctx, l);
    } else if (at_type_start(p)) {
      nc_type *ty = parse_type(p);
      if (ty)
        r = nc_attr_type(ctx, ty);
    } else {
      perr(p, "expected attribute value");
    }
    break;
  case T_EXCL: case T_LPAREN: {
    nc_type *ty = parse_type(p);
    if (ty)
      r = nc_attr_type(ctx, ty);
    break;
  }
  case T_ERROR:
    break;
  default:
    perr(p, "expected attribute value");
  }
  leave(p);
  return r;
}

/* --- locations ------------------------------------------------------------------------------------ */

static bool parse_loc_attr(nc_asm_parser *p, nc_attr **out)
{
  nc_location l;
  if (!parse_loc_inner(p, &l, NULL))
    return false;
  if (!l.raw && p->failed)
    return false;
  *out = nc_location_get_attr(p->ctx, l);
  return true;
}

/* Parses the inside of `loc(...)`. With a `slot`, a `#alias` that is not yet
 * defined is deferred to the end of the file (MLIR prints location aliases
 * after their uses). */
bool parse_loc_inner(nc_asm_parser *p, nc_location *out, nc_location *slot)
{
  if (!enter(p))
    return false;
  nc_context *ctx = p->ctx;
  bool ok = false;
  token t = p->tok;
  if (t.kind == T_HASH) {
    alias_entry *a = find_alias(p, t.start + 1, t.len - 1);
    lex_next(p);
    if (a) {
      if (a->is_type || !nc_attr_is_location(a->value))
        ok = perr_at(p, t.start, "expected location, but found a non-location alias");
      else {
        *out = nc_location_from_attr(a->value);
        ok = true;
      }
    } else if (slot) {
      deferred_loc *d = parse_vec_push(p, (void **)&p->dlocs, &p->n_dlocs, &p->cap_dlocs, sizeof *d);
      d->name = t.start + 1;
      d->len = t.len - 1;
      d->at = loc_at(p, t.start);
      *out = d->at; /* the marker, replaced by resolve_deferred_locs */
      ok = true;
    } else {
      ok = perr_at(p, t.start, "undefined location alias '%.*s'", (int)t.len, t.start);
    }
  } else if (tok_is_kw(p, "unknown")) {
    lex_next(p);
    *out = nc_location_unknown();
    ok = true;
  } else if (tok_is_kw(p, "callsite")) {
    lex_next(p);
    nc_attr *callee, *caller;
    if (expect(p, T_LPAREN, "'(' in callsite location") && parse_loc_attr(p, &callee)) {
      if (!tok_is_kw(p, "at"))
        perr(p, "expected 'at' in callsite location");
      else {
        lex_next(p);
        if (parse_loc_attr(p, &caller) && expect(p, T_RPAREN, "')' in callsite location")) {
          *out = nc_location_from_attr(nc_loc_callsite(ctx, callee, caller));
          ok = true;
        }
      }
    }
  } else if (tok_is_kw(p, "fused")) {
    lex_next(p);
    nc_attr *meta = NULL;
    if (consume(p, T_LESS)) {
      meta = parse_attr(p, NULL);
      if (!meta || !expect(p, T_GREATER, "'>' after fused location metadata"))
        goto done;
    }
    if (!expect(p, T_LSQUARE, "'[' in fused location"))
      goto done;
    nc_attr **locs = NULL;
    size_t n = 0, cap = 0;
    bool good = true;
    if (p->tok.kind != T_RSQUARE) {
      do {
        nc_attr *l;
        if (!parse_loc_attr(p, &l)) {
          good = false;
          break;
        }
        *(nc_attr **)parse_vec_push(p, (void **)&locs, &n, &cap, sizeof *locs) = l;
      } while (consume(p, T_COMMA));
    }
    if (good && expect(p, T_RSQUARE, "']' in fused location")) {
      *out = nc_location_from_attr(nc_loc_fused(ctx, n, locs, meta));
      ok = true;
    }
    free(locs);
  } else if (t.kind == T_STRING) {
    size_t len;
    char *s = string_value(p, &t, &len);
    if (!s)
      goto done;
    nc_ident *name = nc_ident_get(ctx, s, len);
    free(s);
    lex_next(p);
    if (consume(p, T_COLON)) { /* "file":line:col */
      uint64_t line, col = 0;
      if (p->tok.kind != T_INT || !int_value(&p->tok, &line) || line > UINT32_MAX) {
        perr(p, "expected integer line number in FileLineColLoc");
        goto done;
      }
      lex_next(p);
      if (consume(p, T_COLON)) {
        if (p->tok.kind != T_INT || !int_value(&p->tok, &col) || col > UINT32_MAX) {
          perr(p, "expected integer column number in FileLineColLoc");
          goto done;
        }
        lex_next(p);
      }
      *out = nc_location_from_attr(nc_loc_file(ctx, name, (unsigned)line, (unsigned)col));
      if (!line && !col)
        nc_context_note_whole_file_read(ctx, name, nc_context_get_source_name(ctx, p->source_id));
      ok = true;
    } else if (consume(p, T_LPAREN)) { /* "name"(child) */
      nc_attr *child;
      if (parse_loc_attr(p, &child) && expect(p, T_RPAREN, "')' after child location of NameLoc")) {
        *out = nc_location_from_attr(nc_loc_name(ctx, name, child));
        ok = true;
      }
    } else {
      *out = nc_location_from_attr(nc_loc_name(ctx, name, NULL));
      ok = true;
    }
  } else {
    perr(p, "expected location instance");
  }
done:
  leave(p);
  return ok;
}

bool parse_trailing_loc(nc_asm_parser *p, nc_location *slot)
{
  if (!tok_is_kw(p, "loc"))
    return true;
  lex_next(p);
  nc_location l;
  if (!expect(p, T_LPAREN, "'(' in location") || !parse_loc_inner(p, &l, slot) || !expect(p, T_RPAREN, "')' in location"))
    return false;
  *slot = l;
  return true;
}
