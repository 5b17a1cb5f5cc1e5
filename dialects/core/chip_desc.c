/* chip_desc.c: reads chip descriptions (JSON, with jansson) and checks them
 * against the schema of docs/design/spine.md, section 4.
 *
 * jansson reports syntax errors with a line and column. It keeps no
 * positions for values, so for a value that breaks the schema a tiny scanner
 * walks the (already valid) JSON text along the value's key path to find
 * where it is written: every error points into the file.
 */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nc/dialects/core/chip_desc.h"
#include "nc/ir/diag.h"

void nc_chip_desc_default(nc_chip_desc *d)
{
  memset(d, 0, sizeof *d);
  snprintf(d->name, sizeof d->name, "northpole");
  d->rows = d->cols = 16;
  d->sram_bytes = 768 * 1024;
  d->ops_per_cycle[8] = 2048;
  d->ops_per_cycle[4] = 4096;
  d->ops_per_cycle[2] = 8192;
  d->hop_latency_cycles = 1;
  d->link_bytes_per_cycle = 32;
  d->clock_hz = 400e6;
}

int64_t nc_chip_desc_macs_per_cycle(const nc_chip_desc *d, unsigned bits)
{
  for (unsigned b = bits ? bits : 1; b <= NC_CHIP_MAX_BITS; b++)
    if (d->ops_per_cycle[b] > 0)
      return d->ops_per_cycle[b] / 2;
  return 0;
}

/* --- positions of values in JSON text ------------------------------------------------------------------ */

typedef struct jtext {
  const char *s;
  size_t n;
} jtext;

static size_t skip_ws(jtext t, size_t i)
{
  while (i < t.n && (t.s[i] == ' ' || t.s[i] == '\t' || t.s[i] == '\n' || t.s[i] == '\r'))
    i++;
  return i;
}

/* i at '"': the index after the closing quote. */
static size_t skip_string(jtext t, size_t i)
{
  for (i++; i < t.n && t.s[i] != '"'; i++)
    if (t.s[i] == '\\')
      i++;
  return i < t.n ? i + 1 : t.n;
}

/* i at the start of any value: the index after it. */
static size_t skip_value(jtext t, size_t i)
{
  if (i >= t.n)
    return t.n;
  if (t.s[i] == '"')
    return skip_string(t, i);
  if (t.s[i] == '{' || t.s[i] == '[') {
    int depth = 0;
    while (i < t.n) {
      char c = t.s[i];
      if (c == '"') {
        i = skip_string(t, i);
        continue;
      }
      if (c == '{' || c == '[')
        depth++;
      else if ((c == '}' || c == ']') && --depth == 0)
        return i + 1;
      i++;
    }
    return t.n;
  }
  while (i < t.n && !strchr(",}] \t\r\n", t.s[i]))
    i++;
  return i;
}

/* i at '{': the offset of member `key`'s value, or (size_t)-1. */
static size_t find_member(jtext t, size_t i, const char *key)
{
  size_t klen = strlen(key);
  i = skip_ws(t, i + 1);
  while (i < t.n && t.s[i] == '"') {
    size_t end = skip_string(t, i);
    bool match = end - i == klen + 2 && !memcmp(t.s + i + 1, key, klen);
    i = skip_ws(t, end);
    if (i >= t.n || t.s[i] != ':')
      break;
    i = skip_ws(t, i + 1);
    if (match)
      return i;
    i = skip_ws(t, skip_value(t, i));
    if (i < t.n && t.s[i] == ',')
      i = skip_ws(t, i + 1);
  }
  return (size_t)-1;
}

/* The offset of the value at `path` (keys separated by '.'), or of the
 * deepest object on the path that exists. */
static size_t path_offset(jtext t, const char *path)
{
  size_t at = skip_ws(t, 0);
  char key[64];
  while (*path) {
    size_t n = strcspn(path, ".");
    if (n >= sizeof key || at >= t.n || t.s[at] != '{')
      break;
    memcpy(key, path, n);
    key[n] = 0;
    size_t v = find_member(t, at, key);
    if (v == (size_t)-1)
      break;
    at = v;
    path += n + (path[n] == '.');
  }
  return at;
}

static void set_position(jtext t, size_t offset, nc_chip_desc_error *err)
{
  err->offset = offset < t.n ? offset : t.n;
  err->line = 1;
  err->column = 1;
  for (size_t i = 0; i < err->offset; i++) {
    if (t.s[i] == '\n') {
      err->line++;
      err->column = 1;
    } else {
      err->column++;
    }
  }
}

/* --- schema ------------------------------------------------------------------------------------------- */

typedef struct reader {
  jtext text;
  nc_chip_desc_error *err;
} reader;

static bool fail(reader *r, const char *path, const char *fmt, ...) NC_PRINTF(3, 4);
static bool fail(reader *r, const char *path, const char *fmt, ...)
{
  if (!r->err)
    return false;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
  va_end(ap);
  set_position(r->text, path_offset(r->text, path), r->err);
  return false;
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

/* The member `key` of object `obj` (whose path is `path`), which must exist. */
static json_t *member(reader *r, json_t *obj, const char *path, const char *key, char *full, size_t fl)
{
  snprintf(full, fl, "%s%s%s", path, *path ? "." : "", key);
  json_t *v = json_object_get(obj, key);
  if (!v)
    fail(r, path, "missing \"%s\"%s%s", key, *path ? " in " : "", path);
  return v;
}

static json_t *object(reader *r, json_t *obj, const char *path, const char *key)
{
  char full[128];
  json_t *v = member(r, obj, path, key, full, sizeof full);
  if (v && !json_is_object(v)) {
    fail(r, full, "\"%s\" must be an object, not %s", full, type_name(v));
    return NULL;
  }
  return v;
}

static bool integer(reader *r, json_t *obj, const char *path, const char *key, int64_t min, int64_t max, int64_t *out)
{
  char full[128];
  json_t *v = member(r, obj, path, key, full, sizeof full);
  if (!v)
    return false;
  if (!json_is_integer(v))
    return fail(r, full, "\"%s\" must be an integer, not %s", full, type_name(v));
  json_int_t x = json_integer_value(v);
  if (x < min || x > max)
    return fail(r, full, "\"%s\" must be %s %lld, not %lld", full, x < min ? "at least" : "at most",
                (long long)(x < min ? min : max), (long long)x);
  *out = x;
  return true;
}

#define MAX_GRID (1 << 12)
#define MAX_SRAM ((int64_t)1 << 40)

static bool read_ops(reader *r, json_t *core, nc_chip_desc *d)
{
  json_t *ops = object(r, core, "core", "ops_per_cycle");
  if (!ops)
    return false;
  const char *key;
  json_t *v;
  json_object_foreach(ops, key, v) {
    char *end;
    errno = 0;
    long bits = strtol(key, &end, 10);
    if (!*key || *end || errno || bits < 1 || bits > NC_CHIP_MAX_BITS)
      return fail(r, "core.ops_per_cycle", "\"core.ops_per_cycle\" keys are precisions in bits (1 to %d), not \"%s\"",
                  NC_CHIP_MAX_BITS, key);
    int64_t n;
    if (!integer(r, ops, "core.ops_per_cycle", key, 1, INT64_MAX / 2, &n))
      return false;
    d->ops_per_cycle[bits] = n;
  }
  if (!json_object_size(ops))
    return fail(r, "core.ops_per_cycle", "\"core.ops_per_cycle\" must name at least one precision");
  return true;
}

static bool read_desc(reader *r, json_t *root, nc_chip_desc *d)
{
  memset(d, 0, sizeof *d);
  if (!json_is_object(root))
    return fail(r, "", "a chip description must be a JSON object, not %s", type_name(root));
  json_t *name = json_object_get(root, "name");
  snprintf(d->name, sizeof d->name, "chip");
  if (name) {
    if (!json_is_string(name))
      return fail(r, "name", "\"name\" must be a string, not %s", type_name(name));
    size_t len = json_string_length(name);
    if (len == 0 || len >= sizeof d->name || strlen(json_string_value(name)) != len)
      return fail(r, "name", "\"name\" must be a non-empty string of at most %zu bytes", sizeof d->name - 1);
    memcpy(d->name, json_string_value(name), len + 1);
  }
  json_t *grid = object(r, root, "", "grid");
  if (!grid || !integer(r, grid, "grid", "rows", 1, MAX_GRID, &d->rows) ||
      !integer(r, grid, "grid", "cols", 1, MAX_GRID, &d->cols))
    return false;
  json_t *core = object(r, root, "", "core");
  if (!core || !integer(r, core, "core", "sram_bytes", 1, MAX_SRAM, &d->sram_bytes) || !read_ops(r, core, d))
    return false;
  json_t *noc = object(r, root, "", "noc");
  if (!noc || !integer(r, noc, "noc", "hop_latency_cycles", 0, INT32_MAX, &d->hop_latency_cycles) ||
      !integer(r, noc, "noc", "link_bytes_per_cycle", 1, INT32_MAX, &d->link_bytes_per_cycle))
    return false;
  char full[128];
  json_t *clock = member(r, root, "", "clock_hz", full, sizeof full);
  if (!clock)
    return false;
  if (!json_is_number(clock))
    return fail(r, "clock_hz", "\"clock_hz\" must be a number, not %s", type_name(clock));
  d->clock_hz = json_number_value(clock);
  if (!(d->clock_hz > 0) || d->clock_hz > 1e15)
    return fail(r, "clock_hz", "\"clock_hz\" must be positive (and at most 1e15), not %g", d->clock_hz);
  return true;
}

bool nc_chip_desc_parse(const char *text, size_t len, nc_chip_desc *d, nc_chip_desc_error *err)
{
  reader r = {{text, len}, err};
  if (err)
    memset(err, 0, sizeof *err);
  json_error_t je;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  if (!root) {
    if (err) {
      snprintf(err->message, sizeof err->message, "invalid JSON: %s", je.text);
      if (je.line > 0) { /* jansson's column counts from 1 at the last character read */
        size_t off = 0;
        for (int l = 1; l < je.line && off < len; off++)
          if (text[off] == '\n')
            l++;
        off += je.column > 0 ? (size_t)je.column - 1 : 0;
        set_position(r.text, off, err);
      }
    }
    return false;
  }
  bool ok = read_desc(&r, root, d);
  json_decref(root);
  return ok;
}

bool nc_chip_desc_read_file(const char *path, nc_chip_desc *d, nc_chip_desc_error *err)
{
  if (err)
    memset(err, 0, sizeof *err);
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (err)
      snprintf(err->message, sizeof err->message, "cannot open chip description '%s': %s", path, strerror(errno));
    return false;
  }
  size_t cap = 4096, len = 0;
  char *buf = nc_xmalloc(cap);
  for (size_t n; (n = fread(buf + len, 1, cap - len, f)) > 0;)
    if ((len += n) == cap)
      buf = nc_xrealloc(buf, cap *= 2);
  bool read_failed = ferror(f);
  fclose(f);
  bool ok = !read_failed && nc_chip_desc_parse(buf, len, d, err);
  if (read_failed && err)
    snprintf(err->message, sizeof err->message, "cannot read chip description '%s'", path);
  free(buf);
  return ok;
}

bool nc_chip_desc_load(nc_context *ctx, const char *path, nc_location loc, nc_chip_desc *d)
{
  unsigned id;
  char msg[512];
  if (!strcmp(path, "-")) { /* nc_context_load_file would read stdin, the IR's usual source */
    nc_emit_error(ctx, loc, "chip description: '-' is not a file name");
    return false;
  }
  if (!nc_context_load_file(ctx, path, &id, msg, sizeof msg)) {
    nc_emit_error(ctx, loc, "chip description: %s", msg);
    return false;
  }
  size_t len;
  const char *text = nc_context_get_source(ctx, id, &len);
  nc_chip_desc_error err;
  if (nc_chip_desc_parse(text, len, d, &err))
    return true;
  nc_location at = err.line ? nc_location_from_source(id, err.offset) : loc;
  nc_emit_error(ctx, at, "chip description: %s", err.message);
  return false;
}
