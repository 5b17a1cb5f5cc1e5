/* dataflow_attrs.c: the dialect's attributes #dataflow.set<"..."> and
 * #dataflow.map<"...">, whose string is isl text, and reading them into isl.
 *
 * Both are dialect attribute definitions (nc/ir/dialect_attrs.h) whose
 * storage is the isl text as a uniqued string attribute: equal text is the
 * same attribute, reading the text back costs no parsing of the attribute,
 * and the storage owns nothing. The parse hook reads `<"...">`; the verify
 * hook parses the string with isl in a private context, so bad isl text is
 * a diagnostic at the attribute, never an isl abort or isl's own printing.
 * The text is kept as written (not canonicalised by isl), so IR prints back
 * as it was read.
 */
#include <ctype.h>
#include <isl/obj.h>
#include <isl/options.h>
#include <isl/stream.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataflow_internal.h"

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

/* --- the definitions --------------------------------------------------------------------------------- */

/* The storage of both attributes: the isl text. */
typedef struct df_isl_text {
  nc_attr *text; /* a string attribute */
} df_isl_text;

static const char *const malformed_hint = "expected a string in angle brackets, e.g. #dataflow.set<\"{ S[i] : 0 <= i < 4 }\">";

static bool parse_isl_text(nc_asm_parser *p, void *storage, void *user_data)
{
  const char *what = user_data;
  nc_location at = nc_asm_parser_get_loc(p);
  df_isl_text *st = storage;
  if (!nc_asm_parse_optional_punct(p, "<"))
    return nc_asm_parser_error(p, at, "malformed #dataflow.%s: %s", what, malformed_hint);
  at = nc_asm_parser_get_loc(p);
  if (!nc_asm_parse_optional_string(p, &st->text))
    return nc_asm_parser_error(p, at, "malformed #dataflow.%s: %s", what, malformed_hint); /* no-op after a bad escape */
  at = nc_asm_parser_get_loc(p);
  if (!nc_asm_parse_optional_punct(p, ">"))
    return nc_asm_parser_error(p, at, "malformed #dataflow.%s: expected '>' after the isl string", what);
  return true;
}

static void print_isl_text(nc_asm_printer *p, const void *storage, void *user_data)
{
  (void)user_data;
  size_t len;
  const char *text = nc_attr_get_string(((const df_isl_text *)storage)->text, &len);
  nc_asm_print(p, "<");
  nc_asm_print_string(p, text, len);
  nc_asm_print(p, ">");
}

static bool verify_isl_text(nc_context *ctx, nc_location loc, const void *storage, void *user_data)
{
  bool is_set = !strcmp(user_data, "set");
  const char *text = nc_attr_get_string(((const df_isl_text *)storage)->text, NULL);
  isl_ctx *ictx = isl_ctx_alloc();
  char err[1024];
  void *obj = is_set ? (void *)nc_dataflow_parse_isl_set(ictx, text, err, sizeof err)
                     : (void *)nc_dataflow_parse_isl_map(ictx, text, err, sizeof err);
  if (!obj)
    nc_emit_error(ctx, loc, "%s", err);
  else if (is_set)
    isl_set_free(obj);
  else
    isl_map_free(obj);
  isl_ctx_free(ictx);
  return obj != NULL;
}

const nc_dialect_attr_def df_attr_defs[DF_NUM_ATTRS] = {
  {.mnemonic = "set", .summary = "An isl set, written in isl's syntax",
   .description = "`#dataflow.set<\"{ S[c, y, x] : 0 <= c < 16 and 0 <= y < 8 and 0 <= x < 8 }\">`: a node's "
                  "iteration domain. The string must hold exactly one isl set (one space); isl checks it when "
                  "the attribute is parsed. Equal text is the same attribute.",
   .storage_size = sizeof(df_isl_text), .parse = parse_isl_text, .print = print_isl_text,
   .verify = verify_isl_text, .user_data = (void *)"set"},
  {.mnemonic = "map", .summary = "An isl map, written in isl's syntax",
   .description = "`#dataflow.map<\"{ S[oy] -> In0[c, iy, ix] : ... }\">`: an access relation or a dependence. "
                  "The string must hold exactly one isl map (one space); isl checks it when the attribute is "
                  "parsed.",
   .storage_size = sizeof(df_isl_text), .parse = parse_isl_text, .print = print_isl_text,
   .verify = verify_isl_text, .user_data = (void *)"map"},
};

#define DF_SET (&df_attr_defs[0])
#define DF_MAP (&df_attr_defs[1])

/* --- building ---------------------------------------------------------------------------------------- */

static nc_attr *make(nc_context *ctx, const nc_dialect_attr_def *def, const char *text)
{
  df_isl_text st = {nc_attr_string_cstr(ctx, text)};
  nc_attr *a = nc_attr_dialect(ctx, def, &st);
  if (!a && nc_context_register_dialect(ctx, &nc_dataflow_dialect)) /* a context without the dialect yet */
    a = nc_attr_dialect(ctx, def, &st);
  return a;
}

nc_attr *nc_dataflow_set_attr_get(nc_context *ctx, const char *isl_text) { return make(ctx, DF_SET, isl_text); }
nc_attr *nc_dataflow_map_attr_get(nc_context *ctx, const char *isl_text) { return make(ctx, DF_MAP, isl_text); }

nc_attr *nc_dataflow_set_attr_from_isl(nc_context *ctx, isl_set *set)
{
  char *s = df_set_text(set);
  nc_attr *a = s ? make(ctx, DF_SET, s) : NULL;
  free(s);
  return a;
}

nc_attr *nc_dataflow_map_attr_from_isl(nc_context *ctx, isl_map *map)
{
  char *s = df_map_text(map);
  nc_attr *a = s ? make(ctx, DF_MAP, s) : NULL;
  free(s);
  return a;
}

/* --- reading ------------------------------------------------------------------------------------------ */

bool nc_dataflow_attr_is_set(const nc_attr *a) { return nc_attr_isa(a, DF_SET); }
bool nc_dataflow_attr_is_map(const nc_attr *a) { return nc_attr_isa(a, DF_MAP); }

/* The text of a set or map attribute (NUL-terminated, owned by the context), or NULL. */
static const char *text_of(const nc_attr *a)
{
  if (!nc_attr_isa(a, DF_SET) && !nc_attr_isa(a, DF_MAP))
    return NULL;
  return nc_attr_get_string(((const df_isl_text *)nc_attr_dialect_get_storage(a))->text, NULL);
}

char *nc_dataflow_attr_get_text(const nc_attr *a)
{
  const char *t = text_of(a);
  return t ? strdup(t) : NULL;
}

/* Reads exactly one object of type `want` (isl_obj_set or isl_obj_map). */
static void *parse_one(isl_ctx *ctx, const char *text, struct isl_obj_vtable *want, char *err, size_t errlen)
{
  const char *what = want == isl_obj_set ? "set" : "map";
  df_isl_memo *memo = df_isl_memo_of(ctx);
  void *hit = memo ? df_isl_memo_get(memo, text, want == isl_obj_set) : NULL;
  if (hit)
    return hit;
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
  if (memo && result)
    df_isl_memo_put(memo, text, want == isl_obj_set, result);
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
  return nc_attr_isa(a, DF_SET) ? nc_dataflow_parse_isl_set(ctx, text_of(a), NULL, 0) : NULL;
}

isl_map *nc_dataflow_attr_get_isl_map(const nc_attr *a, isl_ctx *ctx)
{
  return nc_attr_isa(a, DF_MAP) ? nc_dataflow_parse_isl_map(ctx, text_of(a), NULL, 0) : NULL;
}

/* --- the verify_attr hook ------------------------------------------------------------------------------ */

/* Only bodies whose mnemonic is neither `set` nor `map` get here (those two
 * have definitions). */
bool df_verify_attr(nc_context *ctx, nc_location loc, nc_attr *a)
{
  size_t len, kwlen = 0;
  const char *body = nc_attr_opaque_get_body(a, &len);
  while (kwlen < len && (body[kwlen] == '_' || isalnum((unsigned char)body[kwlen])))
    kwlen++;
  nc_emit_error(ctx, loc, "unknown attribute '#dataflow.%.*s'; the dataflow dialect has #dataflow.set<\"...\"> and "
                "#dataflow.map<\"...\">", (int)kwlen, body);
  return false;
}
