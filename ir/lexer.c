/* lexer.c: tokens of MLIR's textual syntax, and parser error reporting.
 *
 * The lexer works directly on the source bytes (no copies): a token is a
 * kind plus a pointer and length into the buffer. String escapes and
 * integer values are decoded on demand.
 */
#include "parser.h"

#include <stdarg.h>
#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "nc/support/hex.h"

static inline bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
static inline bool is_bare_char(char c) { return is_letter(c) || is_digit(c) || c == '_' || c == '$' || c == '.'; }
static inline bool is_suffix_char(char c) { return is_bare_char(c) || c == '-'; }

nc_location loc_at(nc_asm_parser *p, const char *pos)
{
  return nc_location_from_source(p->source_id, (size_t)(pos - p->base));
}

nc_location tok_loc(nc_asm_parser *p) { return loc_at(p, p->tok.start); }

#define RELEASE_PAGE ((uintptr_t)4096)
#define RELEASE_MIN ((uintptr_t)1 << 20) /* not worth a system call below this */

void nc_parser_release_text(nc_asm_parser *p, const char *start, const char *end)
{
  if (!p->mapped)
    return;
  uintptr_t a = ((uintptr_t)start + RELEASE_PAGE - 1) & ~(RELEASE_PAGE - 1);
  uintptr_t b = (uintptr_t)end & ~(RELEASE_PAGE - 1);
  if (b > a && b - a >= RELEASE_MIN)
    madvise((void *)a, b - a, MADV_DONTNEED);
}

void nc_parser_release_token_text(nc_asm_parser *p, const char *start, size_t len)
{
  const char *from = (size_t)(start - p->base) > ((size_t)2 << 20) ? start - ((size_t)2 << 20) : p->base;
  nc_parser_release_text(p, from, start + len);
}

void nc_parser_release_behind(nc_asm_parser *p)
{
  /* keep a margin behind the cursor: tokens being looked at live there */
  if (p->mapped && p->tok.start - p->released > (ptrdiff_t)(4 << 20)) {
    const char *upto = p->tok.start - (1 << 20);
    nc_parser_release_text(p, p->released, upto);
    p->released = upto;
  }
}

static bool perr_v(nc_asm_parser *p, const char *pos, const char *fmt, va_list ap)
{
  if (p->failed) /* report the first error only: later ones are usually noise */
    return false;
  p->failed = true;
  nc_diag_emit(nc_diag_createv(p->ctx, NC_SEV_ERROR, loc_at(p, pos), fmt, ap));
  return false;
}

bool perr(nc_asm_parser *p, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  perr_v(p, p->tok.start, fmt, ap);
  va_end(ap);
  return false;
}

bool perr_at(nc_asm_parser *p, const char *pos, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  perr_v(p, pos, fmt, ap);
  va_end(ap);
  return false;
}

bool enter(nc_asm_parser *p)
{
  if (++p->depth > NC_MAX_NESTING) {
    p->depth--;
    return perr(p, "nesting is too deep (more than %d levels)", NC_MAX_NESTING);
  }
  return true;
}

void lex_init(nc_asm_parser *p, const char *start, const char *end)
{
  p->cur = start;
  p->end = end;
  lex_next(p);
}

void lex_reset(nc_asm_parser *p, const char *pos)
{
  p->cur = pos;
  lex_next(p);
}

static void form(nc_asm_parser *p, tok_kind k, const char *start, const char *end)
{
  p->tok.kind = k;
  p->tok.start = start;
  p->tok.len = (size_t)(end - start);
  p->cur = end;
}

static void lex_error(nc_asm_parser *p, const char *start, const char *msg)
{
  form(p, T_ERROR, start, start + 1 <= p->end ? start + 1 : start);
  perr_at(p, start, "%s", msg);
}

/* Validates one UTF-8 sequence starting at s; returns its length or 0. */
static size_t utf8_len(const unsigned char *s, const unsigned char *end)
{
  unsigned c = s[0];
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (!n || s + n > end)
    return 0;
  for (size_t i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  if (n == 2 && c < 0xc2)
    return 0; /* overlong */
  if (n == 3) {
    unsigned v = ((c & 0xf) << 12) | ((s[1] & 0x3fu) << 6) | (s[2] & 0x3fu);
    if (v < 0x800 || (v >= 0xd800 && v <= 0xdfff))
      return 0;
  }
  if (n == 4) {
    unsigned v = ((c & 7) << 18) | ((s[1] & 0x3fu) << 12) | ((s[2] & 0x3fu) << 6) | (s[3] & 0x3fu);
    if (v < 0x10000 || v > 0x10ffff)
      return 0;
  }
  return n;
}

/* First byte in [s, e) that ends the fast path of string lexing: the
 * closing quote, a backslash, a line break or a non-ASCII byte. Sixteen (or
 * eight) bytes at a time, since weight blobs are hundreds of megabytes of hex
 * in one string. */
static const char *string_stop(const char *s, const char *e)
{
#if defined(__SSE2__)
  const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'), nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
  while (e - s >= 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)s);
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs)),
                               _mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, cr)));
    int m = _mm_movemask_epi8(hit) | _mm_movemask_epi8(v);
    if (m)
      return s + __builtin_ctz((unsigned)m);
    s += 16;
  }
#endif
  for (; s < e; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c >= 0x80)
      return s;
  }
  return NULL;
}

static void lex_string(nc_asm_parser *p, const char *start)
{
  const char *s = start + 1;
  const char *end = p->end;
  for (;;) {
    s = string_stop(s, end);
    if (!s) {
      lex_error(p, start, "expected '\"' in string literal");
      return;
    }
    unsigned char c = (unsigned char)*s;
    if (c == '"') {
      form(p, T_STRING, start, s + 1);
      return;
    }
    if (c == '\n' || c == '\r') {
      lex_error(p, s, "expected '\"' in string literal");
      return;
    }
    if (c == '\\') {
      if (s + 1 >= end) {
        lex_error(p, s, "unknown escape in string literal");
        return;
      }
      char e = s[1];
      if (e == '"' || e == '\\' || e == 'n' || e == 't') {
        s += 2;
      } else if (s + 2 < end && e && s[2] && strchr("0123456789abcdefABCDEF", e) &&
                 strchr("0123456789abcdefABCDEF", s[2])) {
        s += 3;
      } else {
        lex_error(p, s, "unknown escape in string literal");
        return;
      }
      continue;
    }
    size_t n = utf8_len((const unsigned char *)s, (const unsigned char *)end);
    if (!n) {
      lex_error(p, s, "invalid UTF-8 in string literal");
      return;
    }
    s += n;
  }
}

static void lex_number(nc_asm_parser *p, const char *start)
{
  const char *s = start;
  const char *end = p->end;
  if (s + 1 < end && s[0] == '0' && s[1] == 'x' && s + 2 < end && strchr("0123456789abcdefABCDEF", s[2]) && s[2]) {
    s += 2;
    while (s < end && ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
      s++;
    form(p, T_INT, start, s);
    return;
  }
  while (s < end && is_digit(*s))
    s++;
  if (s < end && *s == '.') {
    s++;
    while (s < end && is_digit(*s))
      s++;
    if (s < end && (*s == 'e' || *s == 'E')) {
      const char *e = s + 1;
      if (e < end && (*e == '+' || *e == '-'))
        e++;
      if (e < end && is_digit(*e)) {
        s = e;
        while (s < end && is_digit(*s))
          s++;
      }
    }
    form(p, T_FLOAT, start, s);
    return;
  }
  form(p, T_INT, start, s);
}

/* %name, ^name, #name, !name: suffix-id = digits | (letter|_|$|.|-)(...)* */
static void lex_prefixed(nc_asm_parser *p, tok_kind k, const char *start)
{
  const char *s = start + 1, *end = p->end;
  if (s < end && is_digit(*s)) {
    while (s < end && is_digit(*s))
      s++;
  } else if (s < end && (is_letter(*s) || *s == '_' || *s == '$' || *s == '.' || *s == '-')) {
    while (s < end && is_suffix_char(*s))
      s++;
  } else {
    lex_error(p, start, k == T_PERCENT ? "invalid SSA name" : k == T_CARET ? "invalid block name" : "invalid identifier");
    return;
  }
  form(p, k, start, s);
}

void lex_next(nc_asm_parser *p)
{
  const char *s = p->cur, *end = p->end;
  for (;;) {
    while (s < end && (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r'))
      s++;
    if (s + 1 < end && s[0] == '/' && s[1] == '/') {
      const char *nl = memchr(s, '\n', (size_t)(end - s));
      s = nl ? nl + 1 : end;
      continue;
    }
    break;
  }
  if (s >= end) {
    form(p, T_EOF, end, end);
    return;
  }
  char c = *s;
  switch (c) {
  case '(': form(p, T_LPAREN, s, s + 1); return;
  case ')': form(p, T_RPAREN, s, s + 1); return;
  case '}': form(p, T_RBRACE, s, s + 1); return;
  case '[': form(p, T_LSQUARE, s, s + 1); return;
  case ']': form(p, T_RSQUARE, s, s + 1); return;
  case '<': form(p, T_LESS, s, s + 1); return;
  case '>': form(p, T_GREATER, s, s + 1); return;
  case ',': form(p, T_COMMA, s, s + 1); return;
  case ':': form(p, T_COLON, s, s + 1); return;
  case '=': form(p, T_EQUAL, s, s + 1); return;
  case '?': form(p, T_QUESTION, s, s + 1); return;
  case '*': form(p, T_STAR, s, s + 1); return;
  case '+': form(p, T_PLUS, s, s + 1); return;
  case '|': form(p, T_BAR, s, s + 1); return;
  case '{':
    if (s + 2 < end && s[1] == '-' && s[2] == '#')
      form(p, T_META_BEGIN, s, s + 3);
    else
      form(p, T_LBRACE, s, s + 1);
    return;
  case '-':
    if (s + 1 < end && s[1] == '>')
      form(p, T_ARROW, s, s + 2);
    else
      form(p, T_MINUS, s, s + 1);
    return;
  case '.':
    if (s + 2 < end && s[1] == '.' && s[2] == '.') {
      form(p, T_ELLIPSIS, s, s + 3);
      return;
    }
    break;
  case '"': lex_string(p, s); return;
  case '%': lex_prefixed(p, T_PERCENT, s); return;
  case '^': lex_prefixed(p, T_CARET, s); return;
  case '!': lex_prefixed(p, T_EXCL, s); return;
  case '#':
    if (s + 2 < end && s[1] == '-' && s[2] == '}') {
      form(p, T_META_END, s, s + 3);
      return;
    }
    lex_prefixed(p, T_HASH, s);
    return;
  case '@':
    if (s + 1 < end && s[1] == '"') {
      lex_string(p, s + 1);
      if (p->tok.kind == T_STRING)
        form(p, T_AT, s, p->cur);
      return;
    }
    lex_prefixed(p, T_AT, s);
    return;
  default:
    break;
  }
  if (is_digit(c)) {
    lex_number(p, s);
    return;
  }
  if (is_letter(c) || c == '_') {
    const char *e = s + 1;
    while (e < end && is_bare_char(*e))
      e++;
    form(p, T_BARE, s, e);
    return;
  }
  if ((unsigned char)c >= 0x80 && !utf8_len((const unsigned char *)s, (const unsigned char *)end))
    lex_error(p, s, "invalid UTF-8 in source");
  else
    lex_error(p, s, "unexpected character");
}

bool tok_is_kw(const nc_asm_parser *p, const char *kw)
{
  size_t n = strlen(kw);
  return p->tok.kind == T_BARE && p->tok.len == n && !memcmp(p->tok.start, kw, n);
}

bool consume(nc_asm_parser *p, tok_kind k)
{
  if (p->tok.kind != k)
    return false;
  lex_next(p);
  return true;
}

const char *tok_spelling(tok_kind k)
{
  switch (k) {
  case T_LPAREN: return "'('";
  case T_RPAREN: return "')'";
  case T_LBRACE: return "'{'";
  case T_RBRACE: return "'}'";
  case T_LSQUARE: return "'['";
  case T_RSQUARE: return "']'";
  case T_LESS: return "'<'";
  case T_GREATER: return "'>'";
  case T_COMMA: return "','";
  case T_COLON: return "':'";
  case T_EQUAL: return "'='";
  case T_ARROW: return "'->'";
  case T_QUESTION: return "'?'";
  case T_STAR: return "'*'";
  case T_PLUS: return "'+'";
  case T_MINUS: return "'-'";
  case T_ELLIPSIS: return "'...'";
  case T_BAR: return "'|'";
  case T_META_END: return "'#-}'";
  case T_STRING: return "string";
  case T_INT: return "integer";
  default: return "token";
  }
}

bool expect(nc_asm_parser *p, tok_kind k, const char *what)
{
  if (p->tok.kind == k) {
    lex_next(p);
    return true;
  }
  if (p->tok.kind == T_ERROR)
    return false;
  if (what)
    return perr(p, "expected %s", what);
  return perr(p, "expected %s", tok_spelling(k));
}

char *string_value(nc_asm_parser *p, const token *t, size_t *len)
{
  const char *s = t->start, *e = t->start + t->len;
  if (*s == '@')
    s++;
  s++; /* opening quote */
  e--; /* closing quote */
  char *out = nc_xmalloc((size_t)(e - s) + 1);
  size_t n = 0;
  while (s < e) {
    if (*s != '\\') {
      const char *bs = memchr(s, '\\', (size_t)(e - s));
      size_t run = bs ? (size_t)(bs - s) : (size_t)(e - s);
      memcpy(out + n, s, run);
      n += run;
      s += run;
      continue;
    }
    char c = s[1];
    switch (c) {
    case '"': out[n++] = '"'; s += 2; break;
    case '\\': out[n++] = '\\'; s += 2; break;
    case 'n': out[n++] = '\n'; s += 2; break;
    case 't': out[n++] = '\t'; s += 2; break;
    default: {
      int h = nc_hex_digit_value(c), l = nc_hex_digit_value(s[2]);
      if (h < 0 || l < 0) { /* the lexer already checked; keep the parser safe anyway */
        perr_at(p, s, "unknown escape in string literal");
        free(out);
        return NULL;
      }
      out[n++] = (char)(h * 16 + l);
      s += 3;
    }
    }
  }
  out[n] = 0;
  *len = n;
  return out;
}

bool int_value(const token *t, uint64_t *out)
{
  const char *s = t->start, *e = t->start + t->len;
  uint64_t v = 0;
  if (t->len > 2 && s[0] == '0' && s[1] == 'x') {
    for (s += 2; s < e; s++) {
      if (v >> 60)
        return false;
      v = v * 16 + (uint64_t)nc_hex_digit_value(*s);
    }
  } else {
    for (; s < e; s++) {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v))
        return false;
    }
  }
  *out = v;
  return true;
}
