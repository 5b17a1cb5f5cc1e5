/* dialect_attrs.c: dialect attributes and types with real storage: the
 * defaults of their hooks (`<key = value, ...>` parameter lists, field or
 * byte hashing), the parser's hand-off to a definition's parse hook, and
 * their docs.
 *
 * The parser has already cut the dialect body out of the text (as MLIR's
 * lexer does for pretty dialect syntax); a registered mnemonic re-lexes that
 * body in place, so the hook reads tokens with the ordinary nc_asm_parse_*
 * calls and every diagnostic points at its exact file:line:col. IR without
 * dialect attributes never reaches this file.
 */
#include "parser.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --- storage defaults ------------------------------------------------------------------------ */

uint64_t nc_dialect_storage_hash(const nc_dialect_storage_def *def, const void *storage)
{
  if (def->hash)
    return def->hash(storage, def->user_data);
  if (def->params)
    return nc_dialect_params_hash(def->params, def->n_params, storage);
  return def->storage_size ? nc_hash_bytes(storage, def->storage_size, 17) : 0;
}

bool nc_dialect_storage_equal(const nc_dialect_storage_def *def, const void *a, const void *b)
{
  if (def->equal)
    return def->equal(a, b, def->user_data);
  if (def->params)
    return nc_dialect_params_equal(def->params, def->n_params, a, b);
  return !def->storage_size || !memcmp(a, b, def->storage_size);
}

void *nc_dialect_storage_clone(nc_context *ctx, const nc_dialect_storage_def *def, const void *storage, bool adopt)
{
  size_t size = def->storage_size ? def->storage_size : 1;
  void *copy = nc_arena_alloc_aligned(ctx->arena, size, 16);
  if (def->storage_size)
    memcpy(copy, storage, def->storage_size);
  if (!adopt && def->copy)
    def->copy(ctx->arena, copy, storage, def->user_data);
  return copy;
}

static bool in_table(const nc_dialect_storage_def *def, const nc_dialect_storage_def *table, size_t n)
{
  for (size_t i = 0; i < n; i++) /* pointer comparison element by element: no cross-object ordering */
    if (&table[i] == def)
      return true;
  return false;
}

nc_ident *nc_dialect_storage_def_namespace(nc_context *ctx, const nc_dialect_storage_def *def, bool is_type)
{
  const char *ns = NULL;
  pthread_mutex_lock(&ctx->lock);
  for (size_t i = 0; i < ctx->n_dialects && !ns; i++) {
    const nc_dialect_def *d = ctx->dialects[i];
    if (is_type ? in_table(def, d->types, d->n_types) : in_table(def, d->attrs, d->n_attrs))
      ns = d->name;
  }
  pthread_mutex_unlock(&ctx->lock);
  return ns ? nc_ident_get_cstr(ctx, ns) : NULL;
}

static bool mnemonic_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.';
}

const nc_dialect_storage_def *nc_dialect_find_storage_def(const nc_dialect_def *dd, bool is_type, const char *body,
                                                          size_t len, size_t *mlen)
{
  const nc_dialect_storage_def *defs = is_type ? dd->types : dd->attrs;
  size_t n = is_type ? dd->n_types : dd->n_attrs, m = 0;
  if (!n)
    return NULL;
  while (m < len && mnemonic_char(body[m]))
    m++;
  for (size_t i = 0; i < n; i++)
    if (strlen(defs[i].mnemonic) == m && !memcmp(defs[i].mnemonic, body, m)) {
      *mlen = m;
      return &defs[i];
    }
  return NULL;
}

/* --- `<key = value, ...>` parameter lists ------------------------------------------------------ */

static void *field(void *storage, const nc_dialect_param *prm) { return (char *)storage + prm->offset; }
static const void *cfield(const void *storage, const nc_dialect_param *prm)
{
  return (const char *)storage + prm->offset;
}

static size_t field_size(nc_dialect_param_kind k)
{
  switch (k) {
  case NC_PARAM_I64: return sizeof(int64_t);
  case NC_PARAM_I32: return sizeof(int32_t);
  case NC_PARAM_BOOL: return sizeof(bool);
  case NC_PARAM_F64: return sizeof(double);
  case NC_PARAM_STRING: return sizeof(nc_ident *);
  case NC_PARAM_ATTR: return sizeof(nc_attr *);
  case NC_PARAM_TYPE: return sizeof(nc_type *);
  }
  return 0;
}

static bool field_is_zero(const void *storage, const nc_dialect_param *prm)
{
  static const unsigned char zero[sizeof(double) > sizeof(void *) ? sizeof(double) : sizeof(void *)];
  if (prm->kind == NC_PARAM_F64) { /* -0.0 is not "absent" */
    double d;
    memcpy(&d, cfield(storage, prm), sizeof d);
    return d == 0 && !signbit(d);
  }
  return !memcmp(cfield(storage, prm), zero, field_size(prm->kind));
}

static bool parse_value(nc_asm_parser *p, const nc_dialect_param *prm, void *storage)
{
  void *f = field(storage, prm);
  switch (prm->kind) {
  case NC_PARAM_I64: return nc_asm_parse_integer(p, f);
  case NC_PARAM_I32: {
    nc_location at = nc_asm_parser_get_loc(p);
    int64_t v;
    if (!nc_asm_parse_integer(p, &v))
      return false;
    if (v < INT32_MIN || v > INT32_MAX)
      return nc_asm_parser_error(p, at, "parameter '%s' must fit in 32 bits", prm->name);
    int32_t v32 = (int32_t)v;
    memcpy(f, &v32, sizeof v32);
    return true;
  }
  case NC_PARAM_BOOL: {
    bool v = nc_asm_parse_optional_keyword(p, "true");
    if (!v && !nc_asm_parse_optional_keyword(p, "false"))
      return nc_asm_parser_error(p, nc_asm_parser_get_loc(p), "expected 'true' or 'false' for parameter '%s'",
                                 prm->name);
    memcpy(f, &v, sizeof v);
    return true;
  }
  case NC_PARAM_F64: return nc_asm_parse_float(p, f);
  case NC_PARAM_STRING: {
    nc_attr *s;
    if (!nc_asm_parse_string(p, &s))
      return false;
    size_t len;
    const char *str = nc_attr_get_string(s, &len);
    nc_ident *id = nc_ident_get(p->ctx, str, len);
    memcpy(f, &id, sizeof id);
    return true;
  }
  case NC_PARAM_ATTR: return nc_asm_parse_attr(p, NULL, f);
  case NC_PARAM_TYPE: return nc_asm_parse_type(p, f);
  }
  return false;
}

bool nc_dialect_params_parse(nc_asm_parser *p, const nc_dialect_param *params, size_t n, void *storage)
{
  if (!nc_asm_parse_punct(p, "<"))
    return false;
  bool seen_small[64], *seen = n <= 64 ? seen_small : nc_xmalloc(n);
  memset(seen, 0, n);
  bool ok = true;
  if (!nc_asm_parse_optional_punct(p, ">")) {
    do {
      nc_location at = nc_asm_parser_get_loc(p);
      const char *key;
      size_t klen;
      if (!nc_asm_parse_optional_any_keyword(p, &key, &klen)) {
        ok = nc_asm_parser_error(p, at, "expected a parameter name");
        break;
      }
      size_t i = 0;
      while (i < n && !(strlen(params[i].name) == klen && !memcmp(params[i].name, key, klen)))
        i++;
      if (i == n) {
        char names[512];
        size_t used = 0;
        names[0] = 0;
        for (size_t j = 0; j < n && used < sizeof names; j++)
          used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", j ? ", " : "", params[j].name);
        ok = nc_asm_parser_error(p, at, "unknown parameter '%.*s'; expected one of: %s", (int)klen, key, names);
        break;
      }
      if (seen[i]) {
        ok = nc_asm_parser_error(p, at, "parameter '%s' appears twice", params[i].name);
        break;
      }
      seen[i] = true;
      if (!nc_asm_parse_punct(p, "=") || !parse_value(p, &params[i], storage)) {
        ok = false;
        break;
      }
    } while (nc_asm_parse_optional_punct(p, ","));
    nc_location close = nc_asm_parser_get_loc(p);
    if (ok && !nc_asm_parse_punct(p, ">"))
      ok = false;
    for (size_t i = 0; i < n && ok; i++)
      if (!seen[i] && !params[i].optional)
        ok = nc_asm_parser_error(p, close, "missing parameter '%s'", params[i].name);
  } else {
    for (size_t i = 0; i < n && ok; i++)
      if (!params[i].optional)
        ok = nc_asm_parser_error(p, nc_asm_parser_get_loc(p), "missing parameter '%s'", params[i].name);
  }
  if (seen != seen_small)
    free(seen);
  return ok;
}

void nc_dialect_params_print(nc_asm_printer *p, const nc_dialect_param *params, size_t n, const void *storage)
{
  nc_asm_print(p, "<");
  bool first = true;
  for (size_t i = 0; i < n; i++) {
    const nc_dialect_param *prm = &params[i];
    if (prm->optional && field_is_zero(storage, prm))
      continue;
    nc_asm_printf(p, "%s%s = ", first ? "" : ", ", prm->name);
    first = false;
    const void *f = cfield(storage, prm);
    switch (prm->kind) {
    case NC_PARAM_I64: { int64_t v; memcpy(&v, f, sizeof v); nc_asm_printf(p, "%lld", (long long)v); break; }
    case NC_PARAM_I32: { int32_t v; memcpy(&v, f, sizeof v); nc_asm_printf(p, "%d", (int)v); break; }
    case NC_PARAM_BOOL: { bool v; memcpy(&v, f, sizeof v); nc_asm_print(p, v ? "true" : "false"); break; }
    case NC_PARAM_F64: {
      double v;
      memcpy(&v, f, sizeof v);
      char text[40]; /* the shortest that reads back to the same double */
      for (int digits = 6; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (strtod(text, NULL) == v || v != v)
          break;
      }
      /* keep it a float literal MLIR reads: digits '.' digits, so "4e+08" prints as "4.0e+08" */
      char *e = strpbrk(text, "eE");
      if (!strpbrk(text, ".n") && e) {
        nc_asm_printf(p, "%.*s.0%s", (int)(e - text), text, e);
      } else {
        nc_asm_print(p, text);
        if (!strpbrk(text, ".n"))
          nc_asm_print(p, ".0");
      }
      break;
    }
    case NC_PARAM_STRING: {
      nc_ident *id;
      memcpy(&id, f, sizeof id);
      if (id)
        nc_asm_print_string(p, nc_ident_str(id), nc_ident_len(id));
      else
        nc_asm_print(p, "\"\"");
      break;
    }
    case NC_PARAM_ATTR: { nc_attr *a; memcpy(&a, f, sizeof a); nc_asm_print_attr(p, a); break; }
    case NC_PARAM_TYPE: { nc_type *t; memcpy(&t, f, sizeof t); nc_asm_print_type(p, t); break; }
    }
  }
  nc_asm_print(p, ">");
}

uint64_t nc_dialect_params_hash(const nc_dialect_param *params, size_t n, const void *storage)
{
  uint64_t h = n;
  for (size_t i = 0; i < n; i++) {
    uint64_t v = 0;
    const void *f = cfield(storage, &params[i]);
    if (params[i].kind == NC_PARAM_F64) { /* 0.0 == -0.0 must hash alike */
      double d;
      memcpy(&d, f, sizeof d);
      if (d != 0)
        memcpy(&v, &d, sizeof v);
    } else {
      memcpy(&v, f, field_size(params[i].kind)); /* little or big endian alike: same bytes, same hash */
    }
    h = nc_hash_combine(h, v);
  }
  return h;
}

bool nc_dialect_params_equal(const nc_dialect_param *params, size_t n, const void *a, const void *b)
{
  for (size_t i = 0; i < n; i++) {
    const void *fa = cfield(a, &params[i]), *fb = cfield(b, &params[i]);
    if (params[i].kind == NC_PARAM_F64) {
      double x, y;
      memcpy(&x, fa, sizeof x);
      memcpy(&y, fb, sizeof y);
      if (!(x == y || (x != x && y != y)))
        return false;
    } else if (memcmp(fa, fb, field_size(params[i].kind))) {
      return false;
    }
  }
  return true;
}

/* --- the parser's hand-off ------------------------------------------------------------------------ */

/* Parses [body + mnemonic, body + len) with the definition's hook into a
 * zeroed storage, verifies it at `at` and uniques it. */
static void *parse_defined(nc_asm_parser *p, const nc_dialect_def *dd, const nc_dialect_storage_def *def, bool is_type,
                           const char *at, const char *body, size_t len, size_t mlen)
{
  token saved_tok = p->tok;
  const char *saved_cur = p->cur, *saved_end = p->end;
  _Alignas(16) unsigned char small[256];
  void *storage = def->storage_size <= sizeof small ? small : nc_xmalloc(def->storage_size);
  memset(storage, 0, def->storage_size <= sizeof small ? sizeof small : def->storage_size);
  lex_init(p, body + mlen, body + len);
  bool ok;
  if (def->parse)
    ok = def->parse(p, storage, def->user_data);
  else if (def->params)
    ok = nc_dialect_params_parse(p, def->params, def->n_params, storage);
  else
    ok = true;
  if (ok && p->tok.kind != T_EOF)
    ok = perr(p, "unexpected text after the parameters of %c%s.%s", is_type ? '!' : '#', dd->name, def->mnemonic);
  ok = ok && !p->failed;
  p->tok = saved_tok;
  p->cur = saved_cur;
  p->end = saved_end;
  if (ok && def->verify && !def->verify(p->ctx, loc_at(p, at), storage, def->user_data)) {
    p->failed = true;
    ok = false;
  }
  void *r = NULL;
  if (ok)
    r = is_type ? (void *)nc_type_dialect_owned(p->ctx, def, storage) : (void *)nc_attr_dialect_owned(p->ctx, def, storage);
  else if (def->destroy)
    def->destroy(storage, def->user_data);
  if (storage != small)
    free(storage);
  return r;
}

/* The same short text of one definition always gives the same object within
 * a parse (aliases cannot be redefined), and generic IR repeats the same few
 * (`<{overflowFlags = #arith.overflow<none>}>` on every arith op, as mlir-opt
 * prints it): those parse once, then come from this direct-mapped cache of
 * their text. Hooking the parse back into the lexer each time cost a third of
 * the parse of such files. */
#define STORAGE_CACHE_SLOTS 64
#define STORAGE_CACHE_TEXT 46
struct storage_cache_entry {
  const nc_dialect_storage_def *def;
  void *result;
  unsigned char len;
  char text[STORAGE_CACHE_TEXT];
};

void *parse_dialect_storage(nc_asm_parser *p, const nc_dialect_def *dd, bool is_type, const char *at,
                            const char *body, size_t len, bool *handled)
{
  size_t mlen;
  const nc_dialect_storage_def *def = nc_dialect_find_storage_def(dd, is_type, body, len, &mlen);
  *handled = def != NULL;
  if (!def)
    return NULL;
  struct storage_cache_entry *e = NULL;
  if (len <= STORAGE_CACHE_TEXT) {
    if (!p->storage_cache)
      p->storage_cache = nc_xcalloc(STORAGE_CACHE_SLOTS, sizeof *p->storage_cache);
    e = &p->storage_cache[nc_hash_bytes(body, len, (uint64_t)(uintptr_t)def) % STORAGE_CACHE_SLOTS];
    if (e->def == def && e->len == len && !memcmp(e->text, body, len))
      return e->result;
  }
  void *r = parse_defined(p, dd, def, is_type, at, body, len, mlen);
  if (r && e) {
    e->def = def;
    e->result = r;
    e->len = (unsigned char)len;
    memcpy(e->text, body, len);
  }
  return r;
}

/* --- docs ------------------------------------------------------------------------------------------ */

static const char *param_kind_name(nc_dialect_param_kind k)
{
  switch (k) {
  case NC_PARAM_I64: return "64-bit integer";
  case NC_PARAM_I32: return "32-bit integer";
  case NC_PARAM_BOOL: return "`true` or `false`";
  case NC_PARAM_F64: return "float";
  case NC_PARAM_STRING: return "string";
  case NC_PARAM_ATTR: return "attribute";
  case NC_PARAM_TYPE: return "type";
  }
  return "?";
}

void nc_dialect_storage_defs_write_docs(const char *dialect, const char *sigil, const nc_dialect_storage_def *defs,
                                        size_t n, FILE *out)
{
  if (!n)
    return;
  fprintf(out, "## %s\n\n", sigil[0] == '!' ? "Types" : "Attributes");
  for (size_t i = 0; i < n; i++) {
    const nc_dialect_storage_def *d = &defs[i];
    fprintf(out, "### `%s%s.%s`\n\n", sigil, dialect, d->mnemonic);
    if (d->summary)
      fprintf(out, "_%s_\n\n", d->summary);
    if (d->description)
      fprintf(out, "%s\n\n", d->description);
    if (d->n_params) {
      fprintf(out, "#### Parameters\n\n| Parameter | Kind | Description |\n| :-------: | ---- | ----------- |\n");
      for (size_t j = 0; j < d->n_params; j++)
        fprintf(out, "| `%s` | %s%s | %s |\n", d->params[j].name, param_kind_name(d->params[j].kind),
                d->params[j].optional ? " (optional)" : "", d->params[j].summary ? d->params[j].summary : "");
      fprintf(out, "\n");
    }
  }
}
