/* desc_json.c: the chip-description reader targets share (desc_json.h).
 *
 * jansson reports syntax errors with a line and column but keeps no
 * positions for values, so for a value that breaks a schema a tiny scanner
 * walks the (already valid) JSON text along the value's key path to find
 * where it is written: every error points into the file.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/ir/diag.h"
#include "nc/targets/desc_json.h"

struct nc_desc_reader {
  nc_context *ctx;
  const char *text;
  size_t len;
  unsigned source;
  json_t *root;
};

/* --- positions of values in JSON text ------------------------------------------------------------------ */

static size_t skip_ws(const nc_desc_reader *r, size_t i)
{
  while (i < r->len && strchr(" \t\n\r", r->text[i]) && r->text[i])
    i++;
  return i;
}

/* i at '"': the index after the closing quote. */
static size_t skip_string(const nc_desc_reader *r, size_t i)
{
  for (i++; i < r->len && r->text[i] != '"'; i++)
    if (r->text[i] == '\\')
      i++;
  return i < r->len ? i + 1 : r->len;
}

/* i at the start of any value: the index after it. */
static size_t skip_value(const nc_desc_reader *r, size_t i)
{
  if (i >= r->len)
    return r->len;
  if (r->text[i] == '"')
    return skip_string(r, i);
  if (r->text[i] == '{' || r->text[i] == '[') {
    int depth = 0;
    while (i < r->len) {
      char c = r->text[i];
      if (c == '"') {
        i = skip_string(r, i);
        continue;
      }
      if (c == '{' || c == '[')
        depth++;
      else if ((c == '}' || c == ']') && --depth == 0)
        return i + 1;
      i++;
    }
    return r->len;
  }
  while (i < r->len && !strchr(",}] \t\r\n", r->text[i]))
    i++;
  return i;
}

/* i at '{': the offset of member `key`'s value, or (size_t)-1. */
static size_t find_member(const nc_desc_reader *r, size_t i, const char *key, size_t klen)
{
  i = skip_ws(r, i + 1);
  while (i < r->len && r->text[i] == '"') {
    size_t end = skip_string(r, i);
    bool match = end - i == klen + 2 && !memcmp(r->text + i + 1, key, klen);
    i = skip_ws(r, end);
    if (i >= r->len || r->text[i] != ':')
      break;
    i = skip_ws(r, i + 1);
    if (match)
      return i;
    i = skip_ws(r, skip_value(r, i));
    if (i < r->len && r->text[i] == ',')
      i = skip_ws(r, i + 1);
  }
  return (size_t)-1;
}

/* The offset of the value at `path` (keys separated by '.'), or of the
 * deepest object on the path that exists. */
static size_t path_offset(const nc_desc_reader *r, const char *path)
{
  size_t at = skip_ws(r, 0);
  while (path && *path) {
    size_t n = strcspn(path, ".");
    if (at >= r->len || r->text[at] != '{')
      break;
    size_t v = find_member(r, at, path, n);
    if (v == (size_t)-1)
      break;
    at = v;
    path += n + (path[n] == '.');
  }
  return at;
}

bool nc_desc_error(nc_desc_reader *r, const char *path, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  nc_emit_error(r->ctx, nc_location_from_source(r->source, path_offset(r, path)), "chip description: %s", msg);
  return false;
}

/* --- reading ------------------------------------------------------------------------------------------- */

nc_desc_reader *nc_desc_reader_create(nc_context *ctx, const char *text, size_t len, const char *file)
{
  nc_desc_reader *r = nc_xcalloc(1, sizeof *r);
  r->ctx = ctx;
  if (!nc_context_find_source(ctx, file, strlen(file), &r->source) ||
      nc_context_get_source(ctx, r->source, &(size_t){0}) != text)
    r->source = nc_context_add_source(ctx, file, text, len);
  r->text = text;
  r->len = len;
  json_error_t je;
  r->root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  if (!r->root) {
    size_t off = 0; /* jansson's column counts from 1 at the last character read */
    for (int l = 1; l < je.line && off < len; off++)
      if (text[off] == '\n')
        l++;
    off += je.column > 0 ? (size_t)je.column - 1 : 0;
    nc_emit_error(ctx, nc_location_from_source(r->source, off < len ? off : len), "chip description: invalid JSON: %s",
                  je.text);
    nc_desc_reader_destroy(r);
    return NULL;
  }
  if (!json_is_object(r->root)) {
    nc_desc_error(r, "", "a chip description must be a JSON object, not %s", json_is_array(r->root) ? "an array" : "a scalar");
    nc_desc_reader_destroy(r);
    return NULL;
  }
  return r;
}

void nc_desc_reader_destroy(nc_desc_reader *r)
{
  if (!r)
    return;
  json_decref(r->root);
  free(r);
}

/* The value at path, or NULL. */
static json_t *lookup(nc_desc_reader *r, const char *path)
{
  json_t *v = r->root;
  char key[128];
  while (v && path && *path) {
    size_t n = strcspn(path, ".");
    if (n >= sizeof key || !json_is_object(v))
      return NULL;
    memcpy(key, path, n);
    key[n] = 0;
    v = json_object_get(v, key);
    path += n + (path[n] == '.');
  }
  return v;
}

static const char *type_name(const json_t *v)
{
  switch (json_typeof(v)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER: return "an integer";
  case JSON_REAL: return "a number";
  case JSON_TRUE:
  case JSON_FALSE: return "a boolean";
  default: return "null";
  }
}

bool nc_desc_has(nc_desc_reader *r, const char *path) { return lookup(r, path) != NULL; }

/* The value at path, or NULL (after an error unless optional). */
static json_t *need(nc_desc_reader *r, const char *path, bool optional, bool *ok)
{
  json_t *v = lookup(r, path);
  *ok = v || optional;
  if (!v && !optional) { /* name the first key on the path that is missing: "noc", not "noc.hop_latency_cycles" */
    char prefix[160];
    size_t n = 0;
    do {
      n += strcspn(path + n + (n > 0), ".") + (n > 0);
      snprintf(prefix, sizeof prefix, "%.*s", (int)n, path);
    } while (path[n] && lookup(r, prefix));
    nc_desc_error(r, prefix, "missing \"%s\"", prefix);
  }
  return v;
}

bool nc_desc_get_int(nc_desc_reader *r, const char *path, int64_t min, int64_t max, bool optional, int64_t *out)
{
  bool ok;
  json_t *v = need(r, path, optional, &ok);
  if (!v)
    return ok;
  if (!json_is_integer(v))
    return nc_desc_error(r, path, "\"%s\" must be an integer, not %s", path, type_name(v));
  json_int_t x = json_integer_value(v);
  if (x < min || x > max)
    return nc_desc_error(r, path, "\"%s\" must be %s %lld, not %lld", path, x < min ? "at least" : "at most",
                         (long long)(x < min ? min : max), (long long)x);
  *out = x;
  return true;
}

bool nc_desc_get_real(nc_desc_reader *r, const char *path, double min, double max, bool optional, double *out)
{
  bool ok;
  json_t *v = need(r, path, optional, &ok);
  if (!v)
    return ok;
  if (!json_is_number(v))
    return nc_desc_error(r, path, "\"%s\" must be a number, not %s", path, type_name(v));
  double x = json_number_value(v);
  if (!(x >= min) || !(x <= max))
    return nc_desc_error(r, path, "\"%s\" must be %s %g, not %g", path, !(x >= min) ? "at least" : "at most",
                         !(x >= min) ? min : max, x);
  *out = x;
  return true;
}

bool nc_desc_get_string(nc_desc_reader *r, const char *path, bool optional, char *out, size_t n)
{
  bool ok;
  json_t *v = need(r, path, optional, &ok);
  if (!v)
    return ok;
  if (!json_is_string(v))
    return nc_desc_error(r, path, "\"%s\" must be a string, not %s", path, type_name(v));
  size_t len = json_string_length(v);
  if (len == 0 || len >= n || strlen(json_string_value(v)) != len)
    return nc_desc_error(r, path, "\"%s\" must be a non-empty string of at most %zu bytes", path, n - 1);
  memcpy(out, json_string_value(v), len + 1);
  return true;
}

const char *nc_desc_get_key(nc_desc_reader *r, const char *path, size_t i)
{
  json_t *v = lookup(r, path);
  if (!v)
    return NULL;
  if (!json_is_object(v)) {
    nc_desc_error(r, path, "\"%s\" must be an object, not %s", path, type_name(v));
    return NULL;
  }
  /* jansson iterates objects in insertion (= file) order */
  size_t k = 0;
  for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it), k++)
    if (k == i)
      return json_object_iter_key(it);
  return NULL;
}

bool nc_desc_check_keys(nc_desc_reader *r, const char *path, const char *const *known)
{
  const char *key;
  for (size_t i = 0; (key = nc_desc_get_key(r, path, i)); i++) {
    bool found = false;
    for (const char *const *k = known; *k && !found; k++)
      found = !strcmp(*k, key);
    if (!found) {
      char full[160], list[320] = "";
      snprintf(full, sizeof full, "%s%s%s", path ? path : "", path && *path ? "." : "", key);
      size_t n = 0;
      for (const char *const *k = known; *k && n < sizeof list; k++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s\"%s\"", n ? ", " : "", *k);
      return nc_desc_error(r, full, "unknown key \"%s\" (expected one of %s)", full, list);
    }
  }
  return true;
}
