/* dataflow_attrs.c: the dialect's attributes #dataflow.set<"..."> and
 * #dataflow.map<"...">, whose string is isl text, and reading them into isl.
 *
 * The attributes are kept as opaque dialect attributes (the body is the text
 * after `#dataflow.`), so they print, unique and cross mlir-opt like any
 * dialect attribute. The parser calls the dialect's verify_attr hook, which
 * parses the string with isl in a private context: bad isl text is a
 * diagnostic at the attribute, never an isl abort or isl's own printing.
 */
#include <isl/obj.h>
#include <isl/options.h>
#include <isl/stream.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataflow_internal.h"
#include "nc/support/hex.h"

df_isl_scope df_isl_scope_enter(isl_ctx *ctx)
{
  df_isl_scope s = {ctx, isl_options_get_on_error(ctx)};
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  isl_ctx_reset_error(ctx);
  return s;
}

void df_isl_scope_exit(df_isl_scope s) { isl_options_set_on_error(s.ctx, s.saved); }

char *df_set_text(isl_set *s) { return s ? isl_set_to_str(s) : NULL; }
char *df_map_text(isl_map *m) { return m ? isl_map_to_str(m) : NULL; }

/* --- building ---------------------------------------------------------------------------------------- */

/* `kw<"text">` with the string escaped as MLIR string literals are. */
static nc_attr *make(nc_context *ctx, const char *kw, const char *text)
{
  char *buf;
  size_t len;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    abort();
  fprintf(f, "%s<\"", kw);
  for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
    if (*s == '"' || *s == '\\')
      fprintf(f, "\\%c", *s);
    else if (*s == '\n')
      fputs("\\n", f);
    else if (*s < 0x20 || *s >= 0x7f)
      fprintf(f, "\\%02X", *s);
    else
      fputc(*s, f);
  }
  fputs("\">", f);
  fclose(f);
  nc_attr *a = nc_attr_opaque(ctx, nc_ident_get_cstr(ctx, "dataflow"), buf, len);
  free(buf);
  return a;
}

nc_attr *nc_dataflow_set_attr_get(nc_context *ctx, const char *isl_text) { return make(ctx, "set", isl_text); }
nc_attr *nc_dataflow_map_attr_get(nc_context *ctx, const char *isl_text) { return make(ctx, "map", isl_text); }

nc_attr *nc_dataflow_set_attr_from_isl(nc_context *ctx, isl_set *set)
{
  char *s = df_set_text(set);
  nc_attr *a = s ? make(ctx, "set", s) : NULL;
  free(s);
  return a;
}

nc_attr *nc_dataflow_map_attr_from_isl(nc_context *ctx, isl_map *map)
{
  char *s = df_map_text(map);
  nc_attr *a = s ? make(ctx, "map", s) : NULL;
  free(s);
  return a;
}

/* --- reading ------------------------------------------------------------------------------------------ */

static const char *skip_ws(const char *s, const char *end)
{
  while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
    s++;
  return s;
}

/* Splits an opaque body `kw<"text">` into its keyword and unescaped text
 * (malloc'ed). Returns NULL, with *why set, if the body has another shape. */
static char *split_body(const char *body, size_t len, const char **kw, size_t *kwlen, const char **why)
{
  const char *end = body + len, *s = body;
  while (s < end && (*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
    s++;
  *kw = body;
  *kwlen = (size_t)(s - body);
  *why = "expected a string in angle brackets, e.g. #dataflow.set<\"{ S[i] : 0 <= i < 4 }\">";
  s = skip_ws(s, end);
  if (s == end || *s++ != '<')
    return NULL;
  s = skip_ws(s, end);
  if (s == end || *s++ != '"')
    return NULL;
  char *out = nc_xmalloc((size_t)(end - s) + 1);
  size_t n = 0;
  for (;;) {
    if (s == end) {
      free(out);
      return NULL;
    }
    char c = *s++;
    if (c == '"')
      break;
    if (c != '\\') {
      out[n++] = c;
      continue;
    }
    if (s == end) {
      free(out);
      return NULL;
    }
    c = *s++;
    if (c == 'n')
      out[n++] = '\n';
    else if (c == 't')
      out[n++] = '\t';
    else if (c == '"' || c == '\\')
      out[n++] = c;
    else if (s < end && nc_hex_digit_value(c) >= 0 && nc_hex_digit_value(*s) >= 0)
      out[n++] = (char)(nc_hex_digit_value(c) * 16 + nc_hex_digit_value(*s)), s++;
    else {
      free(out);
      *why = "invalid escape sequence in the isl string";
      return NULL;
    }
  }
  s = skip_ws(s, end);
  if (s == end || *s++ != '>' || skip_ws(s, end) != end) {
    free(out);
    return NULL;
  }
  out[n] = 0;
  return out;
}

static bool kw_is(const nc_attr *a, const char *want)
{
  if (!a || nc_attr_get_kind(a) != NC_ATTR_OPAQUE || strcmp(nc_ident_str(nc_attr_opaque_get_dialect(a)), "dataflow"))
    return false;
  size_t len, kwlen, n = strlen(want);
  const char *body = nc_attr_opaque_get_body(a, &len);
  const char *kw, *why;
  char *text = split_body(body, len, &kw, &kwlen, &why);
  bool ok = text && kwlen == n && !memcmp(kw, want, n);
  free(text);
  return ok;
}

bool nc_dataflow_attr_is_set(const nc_attr *a) { return kw_is(a, "set"); }
bool nc_dataflow_attr_is_map(const nc_attr *a) { return kw_is(a, "map"); }

char *nc_dataflow_attr_get_text(const nc_attr *a)
{
  if (!nc_dataflow_attr_is_set(a) && !nc_dataflow_attr_is_map(a))
    return NULL;
  size_t len, kwlen;
  const char *kw, *why, *body = nc_attr_opaque_get_body(a, &len);
  return split_body(body, len, &kw, &kwlen, &why);
}

/* Reads exactly one object of type `want` (isl_obj_set or isl_obj_map). */
static void *parse_one(isl_ctx *ctx, const char *text, struct isl_obj_vtable *want, char *err, size_t errlen)
{
  const char *what = want == isl_obj_set ? "set" : "map";
  df_isl_scope scope = df_isl_scope_enter(ctx);
  isl_stream *s = isl_stream_new_str(ctx, text);
  struct isl_obj obj = s ? isl_stream_read_obj(s) : (struct isl_obj){isl_obj_none, NULL};
  void *result = NULL;
  if (!obj.v) {
    const char *msg = isl_ctx_last_error_msg(ctx);
    if (err)
      snprintf(err, errlen, "invalid isl %s \"%s\": %s", what, text,
               msg && !strncmp(msg, "syntax", 6) ? msg : "isl could not read it");
  } else if (obj.type != want) {
    bool uni = obj.type == isl_obj_union_set || obj.type == isl_obj_union_map;
    if (err)
      snprintf(err, errlen, "invalid isl %s \"%s\": %s", what, text,
               uni ? "it spans several spaces (a union); one space is expected"
                   : want == isl_obj_set ? "it is not a set" : "it is not a map (a set was given)");
  } else if (!isl_stream_is_empty(s)) {
    if (err)
      snprintf(err, errlen, "invalid isl %s \"%s\": unexpected text after the %s", what, text, what);
  } else {
    result = obj.v;
    obj.v = NULL;
  }
  if (obj.v)
    obj.type->free(obj.v);
  isl_stream_free(s);
  df_isl_scope_exit(scope);
  return result;
}

isl_set *nc_dataflow_parse_isl_set(isl_ctx *ctx, const char *text, char *err, size_t errlen)
{
  return parse_one(ctx, text, isl_obj_set, err, errlen);
}

isl_map *nc_dataflow_parse_isl_map(isl_ctx *ctx, const char *text, char *err, size_t errlen)
{
  return parse_one(ctx, text, isl_obj_map, err, errlen);
}

isl_set *nc_dataflow_attr_get_isl_set(const nc_attr *a, isl_ctx *ctx)
{
  char *text = nc_dataflow_attr_is_set(a) ? nc_dataflow_attr_get_text(a) : NULL;
  isl_set *s = text ? nc_dataflow_parse_isl_set(ctx, text, NULL, 0) : NULL;
  free(text);
  return s;
}

isl_map *nc_dataflow_attr_get_isl_map(const nc_attr *a, isl_ctx *ctx)
{
  char *text = nc_dataflow_attr_is_map(a) ? nc_dataflow_attr_get_text(a) : NULL;
  isl_map *m = text ? nc_dataflow_parse_isl_map(ctx, text, NULL, 0) : NULL;
  free(text);
  return m;
}

/* --- the verify_attr hook ------------------------------------------------------------------------------ */

bool df_verify_attr(nc_context *ctx, nc_location loc, nc_attr *a)
{
  size_t len, kwlen;
  const char *kw, *why, *body = nc_attr_opaque_get_body(a, &len);
  char *text = split_body(body, len, &kw, &kwlen, &why);
  bool is_set = kwlen == 3 && !memcmp(kw, "set", 3), is_map = kwlen == 3 && !memcmp(kw, "map", 3);
  if (!is_set && !is_map) {
    free(text);
    nc_emit_error(ctx, loc, "unknown attribute '#dataflow.%.*s'; the dataflow dialect has #dataflow.set<\"...\"> and "
                  "#dataflow.map<\"...\">", (int)kwlen, kw);
    return false;
  }
  if (!text) {
    nc_emit_error(ctx, loc, "malformed #dataflow.%s: %s", is_set ? "set" : "map", why);
    return false;
  }
  isl_ctx *ictx = isl_ctx_alloc();
  char err[1024];
  void *obj = is_set ? (void *)nc_dataflow_parse_isl_set(ictx, text, err, sizeof err)
                     : (void *)nc_dataflow_parse_isl_map(ictx, text, err, sizeof err);
  if (obj) {
    if (is_set)
      isl_set_free(obj);
    else
      isl_map_free(obj);
  } else {
    nc_emit_error(ctx, loc, "%s", err);
  }
  isl_ctx_free(ictx);
  free(text);
  return obj != NULL;
}
